#!/usr/bin/env bash
# NVIDIA's Cooperative Groups samples, ported (examples/), and
# cudarc-interop (a cudarc program that launches this library's kernels on
# its own stream with its own CudaSlices): builds every
# sample as a user's project is built (the kernels through cg-build) and
# runs each; every sample checks its own results and fails if they are
# wrong. On a machine with a GPU they run there (and the timed ones also
# build their C++ twin with nvcc and time both), else on the simulator with
# reduced sizes. CG_SIM=1 forces the simulator.
#
# Usage: scripts/samples.sh [--release] [SAMPLE...]   (default: all samples)
# CG_SMS (default 90) picks the SMs whose PTX is built; CARGO_TARGET_DIR
# (default target/samples) is shared by all samples so that `core` and the
# library are compiled once.
set -euo pipefail
repo=$(cd "$(dirname "$0")/.." && pwd)
profile=()
if [[ ${1:-} == --release ]]; then
    profile=(--release)
    shift
fi
all=(simple-cooperative-groups binary-partition-cg warp-aggregated-atomics-cg reduction reduction-multi-block-cg
    shfl-scan conjugate-gradient-multi-block-cg cudarc-interop histogram-equalization)
samples=("${@:-${all[@]}}")
export CG_SMS=${CG_SMS:-90}
# The samples' kernels build without a warning, as users' crates should.
export CG_DENY_WARNINGS=${CG_DENY_WARNINGS:-1}
export CARGO_TARGET_DIR=${CARGO_TARGET_DIR:-$repo/target/samples}
cd "$repo/examples"
start=$SECONDS
printf '\n--> cargo fmt --check (examples/)\n'
cargo fmt --all --check
printf '\n--> build (%s)\n' "${samples[*]}"
cargo build --locked "${profile[@]}" $(printf -- '-p %s ' "${samples[@]}")
dir=$CARGO_TARGET_DIR/$([[ ${#profile[@]} -gt 0 ]] && echo release || echo debug)
failed=()
for s in "${samples[@]}"; do
    printf '\n--> %s\n' "$s"
    t=$SECONDS
    if "$dir/$s"; then
        printf -- '--> %s: passed (%ss)\n' "$s" $((SECONDS - t))
    else
        failed+=("$s")
        printf -- '--> %s: FAILED\n' "$s"
    fi
done
printf '\n--> samples: %d run, %d failed%s (%ss)\n' "${#samples[@]}" "${#failed[@]}" \
    "${failed[*]:+ (${failed[*]})}" $((SECONDS - start))
[[ ${#failed[@]} -eq 0 ]]
