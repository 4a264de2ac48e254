/* tests/test_multi_nccl.c - gridsync_nccl links and refuses what it must before it
 * touches a communicator (no GPU needed): null arguments, zero groups, a device that is
 * not a CUDA one. The collective path needs GPUs and an NCCL communicator: tests/
 * cuda_multi.cu covers the launches and the protocol, which are the same. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>

#include <cmocka.h>

#include "gridsync.h"
#include "gridsync/host_multi_nccl.h"

static void refuses_before_any_nccl_call(void **unused)
{
    (void)unused;
    gs_device *cpu = NULL;
    gs_multi *m = (gs_multi *)&m;
    int not_a_comm = 0;
    assert_int_equal(gs_device_open(GS_BACKEND_CPU, 0, &cpu), GS_OK);
    assert_int_equal(gs_multi_create_nccl(cpu, &not_a_comm, 1, NULL), GS_ERR_INVALID_ARGUMENT);
    assert_int_equal(gs_multi_create_nccl(NULL, &not_a_comm, 1, &m), GS_ERR_INVALID_ARGUMENT);
    assert_null(m);
    assert_int_equal(gs_multi_create_nccl(cpu, NULL, 1, &m), GS_ERR_INVALID_ARGUMENT);
    assert_int_equal(gs_multi_create_nccl(cpu, &not_a_comm, 0, &m), GS_ERR_INVALID_ARGUMENT);
    assert_int_equal(gs_multi_create_nccl(cpu, &not_a_comm, 1, &m), GS_ERR_UNSUPPORTED);
    assert_null(m);
    gs_device_close(cpu);
}

int main(void)
{
    const struct CMUnitTest tests[] = {cmocka_unit_test(refuses_before_any_nccl_call)};
    return cmocka_run_group_tests(tests, NULL, NULL);
}
