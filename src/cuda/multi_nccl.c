/* src/cuda/multi_nccl.c - a barrier across GPUs over an NCCL communicator, one process
 * per GPU (gridsync/host_multi_nccl.h): each rank's state in NCCL symmetric memory, the
 * peers' addresses from the window, collective creation, reset and destruction. The
 * launches and the collect are those of every barrier across devices (multi_cuda.c,
 * src/common/multi.c). */
#include <stdio.h>
#include <stdlib.h>

#include <nccl.h>

#include "common/multi_internal.h"
#include "cuda_internal.h"

/* multi_nccl.cu */
int gs_nccl_lsa_ranks(void *comm);
int gs_nccl_peer_table_enqueue(void *window, int ranks, void *out, void *stream);

typedef struct nccl_part {
    ncclComm_t comm;
    ncclWindow_t window;
    void *symmetric;   /* ncclMemAlloc: this rank's state (freed at this address) */
    int *word;         /* one word the collective steps all-reduce */
    struct gs_mem mem; /* the state as the back end's buffer */
} nccl_part;

static gs_status nccl_fail(gs_device *dev, ncclResult_t r, const char *what)
{
    gs_status s = gs_native_fail(dev, (int)r, what);
    snprintf(dev->native_text, sizeof dev->native_text, "%s: %s (%d)", what, ncclGetErrorString(r),
             (int)r);
    return s;
}

/* Every rank has come this far (a one-word all-reduce, waited for). */
static gs_status all_here(gs_device *dev, nccl_part *p)
{
    gs_cuda_device *d = gs_cuda(dev);
    ncclResult_t r = ncclAllReduce(p->word, p->word, 1, ncclInt32, ncclSum, p->comm, d->stream);
    if (r != ncclSuccess)
        return nccl_fail(dev, r, "ncclAllReduce");
    cudaError_t e = cudaStreamSynchronize(d->stream);
    return e == cudaSuccess ? GS_OK : gs_cuda_fail(dev, e, "cudaStreamSynchronize");
}

static gs_device *local_device(const gs_multi *m)
{
    for (unsigned k = 0; k < m->ranks; ++k)
        if (m->rank[k].dev)
            return m->rank[k].dev;
    return NULL;
}

static gs_status meet(gs_multi *m) { return all_here(local_device(m), m->ext); }

static void release(gs_multi *m)
{
    nccl_part *p = m->ext;
    gs_device *dev = local_device(m);
    cudaSetDevice(gs_cuda(dev)->ordinal);
    if (p->window)
        (void)ncclCommWindowDeregister(p->comm, p->window);
    if (p->symmetric)
        (void)ncclMemFree(p->symmetric);
    if (p->word)
        cudaFree(p->word);
    free(p);
}

/* Whether kernels can read the window's handle (NCCL's device API dereferences it). */
static int window_on_device(ncclWindow_t w)
{
    struct cudaPointerAttributes a;
    if (!w || cudaPointerGetAttributes(&a, w) != cudaSuccess) {
        (void)cudaGetLastError();
        return 0;
    }
    return a.type == cudaMemoryTypeDevice || a.type == cudaMemoryTypeManaged;
}

/* The address of every rank's state, as this GPU reaches it. */
static gs_status peer_addresses(gs_device *dev, nccl_part *p, int ranks, void **peers)
{
    gs_cuda_device *d = gs_cuda(dev);
    unsigned long long *table = NULL, host[GS_MULTI_MAX_DEVICES];
    cudaError_t e = cudaMalloc((void **)&table, sizeof host);
    if (e == cudaSuccess)
        e = (cudaError_t)gs_nccl_peer_table_enqueue(p->window, ranks, table, d->stream);
    if (e == cudaSuccess)
        e = cudaMemcpyAsync(host, table, (size_t)ranks * sizeof *host, cudaMemcpyDeviceToHost,
                            d->stream);
    if (e == cudaSuccess)
        e = cudaStreamSynchronize(d->stream);
    if (table)
        cudaFree(table);
    if (e != cudaSuccess)
        return gs_cuda_fail(dev, e, "peer table kernel");
    for (int k = 0; k < ranks; ++k)
        peers[k] = (void *)(uintptr_t)host[k];
    return GS_OK;
}

/* The window and the sync word (collective: every rank registers). */
static gs_status make_window(gs_device *dev, nccl_part *p, size_t bytes)
{
    size_t rounded = (bytes + NCCL_WIN_REQUIRED_ALIGNMENT - 1) / NCCL_WIN_REQUIRED_ALIGNMENT *
                     NCCL_WIN_REQUIRED_ALIGNMENT;
    ncclResult_t r = ncclMemAlloc(&p->symmetric, rounded);
    if (r != ncclSuccess)
        return nccl_fail(dev, r, "ncclMemAlloc");
    r = ncclCommWindowRegister(p->comm, p->symmetric, rounded, &p->window, NCCL_WIN_COLL_SYMMETRIC);
    if (r != ncclSuccess)
        return nccl_fail(dev, r, "ncclCommWindowRegister");
    cudaError_t e = cudaMalloc((void **)&p->word, sizeof *p->word);
    if (e == cudaSuccess)
        e = cudaMemset(p->word, 0, sizeof *p->word);
    if (e != cudaSuccess)
        return gs_cuda_fail(dev, e, "cudaMalloc");
    p->mem.ptr = p->symmetric;
    p->mem.bytes = bytes;
    return GS_OK;
}

gs_status gs_multi_create_nccl(gs_device *dev, void *nccl_comm, unsigned groups_per_device,
                               gs_multi **out)
{
    int ranks = 0, rank = 0, cudev = -1;
    if (!out)
        return GS_ERR_INVALID_ARGUMENT;
    *out = NULL;
    if (!dev || !nccl_comm || groups_per_device == 0 || groups_per_device > GS_MAX_GROUPS)
        return GS_ERR_INVALID_ARGUMENT;
    if (!gs_cuda_is_ours(dev))
        return GS_ERR_UNSUPPORTED;
    ncclComm_t comm = nccl_comm;
    ncclResult_t r = ncclCommCount(comm, &ranks);
    if (r == ncclSuccess)
        r = ncclCommUserRank(comm, &rank);
    if (r == ncclSuccess)
        r = ncclCommCuDevice(comm, &cudev);
    if (r != ncclSuccess)
        return nccl_fail(dev, r, "ncclCommCount");
    if (cudev != gs_cuda(dev)->ordinal)
        return GS_ERR_INVALID_ARGUMENT;
    /* Refused alike on every rank, before any collective call. */
    if (ranks <= 0 || ranks > (int)GS_MULTI_MAX_DEVICES || gs_nccl_lsa_ranks(comm) != ranks)
        return GS_ERR_UNSUPPORTED;
    cudaError_t e = cudaSetDevice(cudev);
    if (e != cudaSuccess)
        return gs_cuda_fail(dev, e, "cudaSetDevice");
    gs_multi *m = gs_multi_alloc((unsigned)ranks, groups_per_device);
    nccl_part *p = calloc(1, sizeof *p);
    if (!m || !p) {
        free(m);
        free(p);
        return GS_ERR_OUT_OF_MEMORY;
    }
    p->comm = comm;
    m->ext = p;
    m->release = release;
    m->meet = meet;
    m->rank[rank].dev = dev;
    m->rank[rank].state = &p->mem;
    void *peers[GS_MULTI_MAX_DEVICES];
    gs_status s = make_window(dev, p, m->bytes);
    /* The device API reads the window through its handle, which must then be device
     * memory. NCCL 2.28.3 (the H100 machine's, under 2.28.9's headers) handed one rank on
     * one GPU a host heap address: the table's kernel faulted on it. One rank needs no
     * peer (its own allocation is the table); more ranks cannot go on. */
    if (s == GS_OK && !window_on_device(p->window)) {
        if (ranks == 1)
            peers[0] = p->symmetric;
        else
            s = GS_ERR_UNSUPPORTED;
    } else if (s == GS_OK) {
        s = peer_addresses(dev, p, ranks, peers);
    }
    /* The kernels reach this rank's state through the window's mapping too, as the other
     * ranks do: one virtual address for it on this GPU (another, ncclMemAlloc's, would
     * be an alias, which PTX orders only with proxy fences). */
    if (s == GS_OK)
        p->mem.ptr = peers[rank];
    if (s == GS_OK)
        s = gs_multi_init_states(m, peers);
    if (s == GS_OK) /* no rank's kernel writes into a state not yet cleared */
        s = all_here(dev, p);
    if (s != GS_OK) {
        release(m);
        free(m);
        return s;
    }
    gs_multi_hold(m);
    *out = m;
    return GS_OK;
}
