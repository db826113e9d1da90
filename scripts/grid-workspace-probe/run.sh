#!/usr/bin/env bash
# Which launches see a grid workspace in %envreg1/%envreg2 (what
# grid_group::is_valid() tests; issue "is_valid() is true in a plain launch"):
# NVIDIA's C++ as an nvcc cubin, as PTX JIT-compiled by the driver and as
# PTX compiled by the driver's linker; hand-written PTX of two ISA
# versions; and this library's `sem_grid` kernel from the lab's PTX, as
# built and with its `.version` raised — each launched plainly and
# cooperatively, all in one process and each alone. Prints, per launch, in
# how many of the 128 threads the workspace was present and thread 0's
# envreg0..3.
#
# Usage (on the GPU machine, nvcc and the driver present):
#   scripts/grid-workspace-probe/run.sh PTX
# PTX: the lab's sm_90 PTX (target/cg-build/sm_90/ptx/cg_kernels_sm_90.ptx
# after `CG_SMS=90 cargo build -p cg-lab`), copied to a folder the device
# run carries.
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
rust_ptx=$(realpath "${1:?usage: run.sh PTX}")
work=$(mktemp -d)
cd "$work" || exit 1
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
nvcc -O3 -arch=sm_90 -cubin "$here/env.cu" -o env.cubin &&
    nvcc -O3 -arch=sm_90 -ptx "$here/env.cu" -o env.ptx || exit 1
g++ -O2 "$here/probe.cpp" -I/usr/local/cuda/include -L/usr/local/cuda/lib64 \
    -L/usr/local/cuda/lib64/stubs -lcuda -o probe || exit 1
for v in 7.8 9.0; do sed "s/VERSION/$v/" "$here/hand.ptx.in" > "hand_$v.ptx"; done
cp "$rust_ptx" rust.ptx
sed 's/^\.version .*/.version 9.0/' rust.ptx > rust_90.ptx
# kind:file:function:words per thread:the word that holds is_valid
M="cubin:env.cubin:cpp_env:8:4 ptx-jit:env.ptx:cpp_env:8:4 link-cpp:env.ptx:cpp_env:8:4"
M="$M hand7.8:hand_7.8.ptx:hand_env:8:4 hand9.0:hand_9.0.ptx:hand_env:8:4"
M="$M rust:rust.ptx:sem_grid:64:0 rust90:rust_90.ptx:sem_grid:64:0 link-rust:rust.ptx:sem_grid:64:0"
echo "== all modules in one process: plain, cooperative, plain"
./probe pcp $M
echo "== each module alone (a fresh process): plain, cooperative"
for m in $M; do ./probe pc "$m"; done
