# CUDA tests (label cuda): built wherever nvcc is, run where a GPU is, skipped (exit 77)
# elsewhere. Included from tests/CMakeLists.txt:
#     include(${PROJECT_SOURCE_DIR}/src/cuda/tests.cmake)
if(NOT GRIDSYNC_CUDA)
  return()
endif()

foreach(t cuda_barrier cuda_weak cuda_user_api cuda_local cuda_multi)
  add_executable(${t} ${PROJECT_SOURCE_DIR}/tests/${t}.cu)
  target_include_directories(${t} PRIVATE ${PROJECT_SOURCE_DIR}/include ${PROJECT_SOURCE_DIR}/src
                                          ${PROJECT_SOURCE_DIR}/tests)
  target_link_libraries(${t} PRIVATE gridsync CUDA::cudart)
  # One CUDA runtime in the process: the library's (shared). A second, static copy
  # would not know the user kernels that gs_cuda_launch is handed.
  set_target_properties(${t} PROPERTIES CUDA_RUNTIME_LIBRARY Shared)
endforeach()
target_include_directories(cuda_weak PRIVATE ${PROJECT_SOURCE_DIR}/tests/weaken)

add_test(NAME cuda_barrier COMMAND cuda_barrier)
set_tests_properties(cuda_barrier PROPERTIES LABELS "cuda" TIMEOUT 600 SKIP_RETURN_CODE 77)
add_test(NAME cuda_faults COMMAND cuda_barrier fault)
set_tests_properties(cuda_faults PROPERTIES LABELS "cuda;fault" TIMEOUT 180 SKIP_RETURN_CODE 77)
add_test(NAME cuda_user_api COMMAND cuda_user_api)
set_tests_properties(cuda_user_api PROPERTIES LABELS "cuda;fault" TIMEOUT 300 SKIP_RETURN_CODE 77)
add_test(NAME cuda_local COMMAND cuda_local)
set_tests_properties(cuda_local PROPERTIES LABELS "cuda;fault" TIMEOUT 300 SKIP_RETURN_CODE 77)
# The barrier across devices; GS_TEST_MULTI_DEVICES names the GPUs (default 0,0: two
# ranks on one GPU).
add_test(NAME cuda_multi COMMAND cuda_multi)
set_tests_properties(cuda_multi PROPERTIES LABELS "cuda;fault" TIMEOUT 300 SKIP_RETURN_CODE 77)
# Over an NCCL communicator: one rank, then (where the machine has two GPUs or more) one
# rank per GPU, a thread each (GS_TEST_NCCL_RANKS: how many).
if(TARGET gridsync_nccl)
  add_executable(cuda_multi_nccl ${PROJECT_SOURCE_DIR}/tests/cuda_multi_nccl.cu)
  target_include_directories(cuda_multi_nccl PRIVATE ${PROJECT_SOURCE_DIR}/include
                                                     ${PROJECT_SOURCE_DIR}/tests ${GRIDSYNC_NCCL_INCLUDE})
  target_link_libraries(cuda_multi_nccl PRIVATE gridsync_nccl gridsync CUDA::cudart Threads::Threads)
  set_target_properties(cuda_multi_nccl PROPERTIES CUDA_RUNTIME_LIBRARY Shared)
  add_test(NAME cuda_multi_nccl COMMAND cuda_multi_nccl)
  set_tests_properties(cuda_multi_nccl PROPERTIES LABELS "cuda;fault" TIMEOUT 300 SKIP_RETURN_CODE 77
                       ENVIRONMENT "NCCL_NVLS_ENABLE=0")
endif()
add_test(NAME cuda_weak_count COMMAND cuda_weak)
set_tests_properties(cuda_weak_count PROPERTIES LABELS "cuda;weak" TIMEOUT 300 SKIP_RETURN_CODE 77)

# The back-end-generic tests, on the CUDA device.
foreach(t api protocols faults)
  if(TARGET test_${t})
    add_test(NAME ${t}_cuda COMMAND test_${t})
    set(env "GS_TEST_BACKEND=cuda")
    if(t STREQUAL "faults")
      list(APPEND env ${FAULT_ENV}) # tests/CMakeLists.txt: the default the faults outlast
    endif()
    set_tests_properties(${t}_cuda PROPERTIES LABELS "cuda" TIMEOUT 600 SKIP_RETURN_CODE 77
                         ENVIRONMENT "${env}")
  endif()
endforeach()
if(TARGET gridsync_cli)
  # `gridsync check` exits 2 without a device: CTest's skip code is 77.
  add_test(NAME check_cuda COMMAND sh -c "\"$0\" check --backend cuda --quick; rc=$?; \
if [ $rc -eq 2 ]; then exit 77; fi; exit $rc" $<TARGET_FILE:gridsync_cli>)
  set_tests_properties(check_cuda PROPERTIES LABELS "cuda" TIMEOUT 600 SKIP_RETURN_CODE 77)
  # The release lines that flip, cluster (of one block) and the tree take at larger
  # sizes, at the sizes check runs.
  add_test(NAME check_cuda_lines COMMAND sh -c "\"$0\" check --backend cuda --quick --algo flip,tree,cluster; rc=$?; \
if [ $rc -eq 2 ]; then exit 77; fi; exit $rc" $<TARGET_FILE:gridsync_cli>)
  set_tests_properties(check_cuda_lines PROPERTIES LABELS "cuda" TIMEOUT 300 SKIP_RETURN_CODE 77
                       ENVIRONMENT "GRIDSYNC_RELEASE=lines;GRIDSYNC_RELEASE_LINES=3;GRIDSYNC_CLUSTER_SIZE=1")
endif()
