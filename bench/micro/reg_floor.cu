/* bench/micro/reg_floor.cu: how few registers ptxas will build a loop with an atomic in,
 * whatever __maxnreg__ asks (docs/performance.md, twenty-fifth round). Compiled only:
 *   nvcc -arch=sm_90 -O3 -cubin -Xptxas -v bench/micro/reg_floor.cu -o /tmp/reg_floor.cubin
 * nvcc 13.0: every lane's add 22 registers, with or without its result; one lane's 14. */
extern "C" __global__ void __maxnreg__(16) every_lane_adds(unsigned *p, unsigned n)
{
    for (unsigned i = 0; i < n; ++i)
        p[threadIdx.x] += atomicAdd(p, i);
}

extern "C" __global__ void __maxnreg__(16) every_lane_adds_no_result(unsigned *p, unsigned n)
{
    for (unsigned i = 0; i < n; ++i) {
        atomicAdd(p, i);
        p[threadIdx.x + 1] += i;
    }
}

extern "C" __global__ void __maxnreg__(16) one_lane_adds(unsigned *p, unsigned n)
{
    for (unsigned i = 0; i < n; ++i) {
        unsigned v = 0;
        if (threadIdx.x == 0)
            v = atomicAdd(p, 1u);
        p[threadIdx.x + 1] += v;
    }
}
