#!/usr/bin/env bash
# The test command of the README: every test of the workspace — simulator,
# library (property, compile-fail, misuse), ptxas and zero-cost PTX/SASS
# checks (cg-lab's feature `collectives` builds the test kernels' PTX), and
# the lab end to end on the simulator (cg-lab's CLI tests).
set -euo pipefail
cd "$(dirname "$0")/.."
[[ -x .tools/cuda/nvidia/cuda_nvcc/bin/ptxas ]] || scripts/install-cuda-tools.sh
cargo test --workspace --features cg-lab/collectives
# The math library's accuracy on 10^7 inputs per function (release: the
# debug build of the same test samples 2^17), against an f64 reference.
cargo test --release -p cooperative-groups --test math_accuracy
# The same for double precision: 10^6 inputs per function against glibc's
# 128-bit functions (nightly `f128`).
cargo test --release -p cooperative-groups --test math_accuracy_f64
