#!/usr/bin/env bash
# Installs NVIDIA's command-line tools from PyPI wheels into .tools/cuda:
# ptxas 12.9 (assembles PTX for sm_70 through sm_90) and nvdisasm (SASS).
# No CUDA toolkit and no GPU are needed. Idempotent.
set -euo pipefail
cd "$(dirname "$0")/.."
dest=.tools/cuda
ptxas=$dest/nvidia/cuda_nvcc/bin/ptxas
nvdisasm=$dest/nvidia/cu13/bin/nvdisasm
if [[ -x $ptxas && -x $nvdisasm ]]; then
    echo "already installed: $ptxas, $nvdisasm"
    exit 0
fi
python3 -m pip install --quiet --disable-pip-version-check --no-deps --target "$dest" \
    nvidia-cuda-nvcc-cu12==12.9.86 nvidia-cuda-nvdisasm==13.5.37
"$ptxas" --version | tail -1
"$nvdisasm" --version | tail -1
