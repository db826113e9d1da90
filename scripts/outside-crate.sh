#!/usr/bin/env bash
# The path a user takes with a project of their own, outside this repository:
# install cargo-cg from this checkout, `cargo cg new` into a temporary
# directory, `cargo run` there (the sample kernel, verified; on the simulator
# where there is no GPU), and the project's PTX through ptxas for every SM.
# Usage: scripts/outside-crate.sh [DIR]   (default: a new temporary directory)
set -euo pipefail
repo=$(cd "$(dirname "$0")/.." && pwd)
root=${1:-$(mktemp -d)}
proj=$root/my-kernels
step() { printf '\n--> %s\n' "$*"; }

step "cargo install --path crates/cargo-cg"
cargo install --quiet --locked --path "$repo/crates/cargo-cg" --root "$repo/target/cargo-cg" --force
export PATH=$repo/target/cargo-cg/bin:$PATH

step "cargo cg doctor"
cargo cg doctor

step "cargo cg new $proj"
cargo cg new "$proj"
cd "$proj"

# The project's own target directory would do; sharing this checkout's
# build cache only saves compiling the same dependencies twice.
export CARGO_TARGET_DIR=$repo/target/outside
step "cargo run (in $proj)"
cargo run 2>&1 | tee "$root/run.log"
grep -q "verified" "$root/run.log"

[[ -x $repo/.tools/cuda/nvidia/cuda_nvcc/bin/ptxas ]] || "$repo/scripts/install-cuda-tools.sh"
export CG_PTXAS=${CG_PTXAS:-$repo/.tools/cuda/nvidia/cuda_nvcc/bin/ptxas}
export CG_NVDISASM=${CG_NVDISASM:-$repo/.tools/cuda/nvidia/cu13/bin/nvdisasm}
for sm in 70 80 90; do
    step "cargo cg ptx tile_sums --sm $sm --check (ptxas -arch=sm_$sm -v on the project's PTX)"
    cargo cg ptx tile_sums --sm "$sm" --check | tee "$root/ptxas_$sm.txt"
    grep -q "Used [0-9]* registers" "$root/ptxas_$sm.txt"
done
# nvdisasm 13 reads sm_75 and newer.
step "cargo cg ptx tile_sums --sm 90 --sass"
cargo cg ptx tile_sums --sm 90 --sass > "$root/sass_90.txt"
grep -E "REDUX|SHFL" "$root/sass_90.txt" | head -3
grep -q "REDUX" "$root/sass_90.txt"
step "outside crate: OK ($proj)"
