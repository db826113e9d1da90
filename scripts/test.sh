#!/usr/bin/env bash
# The test command of the README: every test of the workspace (simulator,
# library, PTX checks with ptxas), then the lab end to end on the simulator.
set -euo pipefail
cd "$(dirname "$0")/.."
[[ -x .tools/cuda/nvidia/cuda_nvcc/bin/ptxas ]] || scripts/install-cuda-tools.sh
cargo test --workspace
