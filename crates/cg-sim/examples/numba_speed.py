"""The `shfl` and `bar` workloads of `speed.rs` on numba's CUDA simulator.

    NUMBA_ENABLE_CUDASIM=1 python3 crates/cg-sim/examples/numba_speed.py [blocks] [reps]

numba 0.68's simulator has no warp shuffles (`shfl` reports that). numba
runs one OS thread per simulated GPU thread, one block at a time, so
the grid is smaller than speed.rs's (default 4 blocks of 256 threads); the
rates are lane-operations per second over wall time, median of `reps`.
"""

import os
import statistics
import sys
import time

os.environ.setdefault("NUMBA_ENABLE_CUDASIM", "1")

import numpy as np  # noqa: E402
from numba import cuda  # noqa: E402

THREADS = 256
SHUFFLES = 30
BARRIERS = 10


@cuda.jit
def shfl(out):
    v = cuda.threadIdx.x
    for i in range(SHUFFLES):
        v += cuda.shfl_xor_sync(0xFFFFFFFF, v, 1 << (i % 5))
    out[cuda.blockIdx.x * cuda.blockDim.x + cuda.threadIdx.x] = v


@cuda.jit
def bar(out):
    for _ in range(BARRIERS):
        cuda.syncthreads()
    out[cuda.blockIdx.x * cuda.blockDim.x + cuda.threadIdx.x] = 1


def main():
    blocks = int(sys.argv[1]) if len(sys.argv) > 1 else 4
    reps = int(sys.argv[2]) if len(sys.argv) > 2 else 3
    lanes = blocks * THREADS
    out = np.zeros(lanes, dtype=np.uint32)
    for name, kernel, ops in (("shfl", shfl, SHUFFLES), ("bar", bar, BARRIERS)):
        rates = []
        try:
            for _ in range(reps):
                t0 = time.perf_counter()
                kernel[blocks, THREADS](out)
                rates.append(lanes * ops / (time.perf_counter() - t0) / 1e6)
        except AttributeError as e:
            # The simulator lacks the intrinsic (numba 0.68: no warp shuffles).
            print(f"{name:<8} not supported: {str(e).split(': ', 1)[-1]}")
            continue
        print(f"{name:<8} {statistics.median(rates):10.3f} M lane-operations/s "
              f"({lanes} lanes x {ops})")


if __name__ == "__main__":
    main()
