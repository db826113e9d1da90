#!/usr/bin/env bash
# Every GPU measurement of the project in one go, for a machine with an
# NVIDIA GPU (and nvcc for the C++ comparison): the C-02 lab (block 128, and
# the sweep at block 1024), the differential, grid, cluster and collectives
# checks, the Rust-vs-C++ comparison (blocks of 128, 256, 512 and 1024), and
# compute-sanitizer's racecheck, synccheck and memcheck.
# Usage: scripts/gpu-run.sh [OUT_DIR] [STEP...]   (default: results/run, every
# step; steps: lab verify compare compare-large sanitize). Packs what it ran
# into OUT_DIR/results.tgz. Expects a built target/release/cg-lab
# (`cargo build --release -p cg-lab --features collectives`: verify launches
# the collective test kernels).
set -uo pipefail
out=${1:-results/run}
shift || true
steps=${*:-lab verify compare compare-large sanitize}
bin=${CG_LAB:-./target/release/cg-lab}
work=$(mktemp -d)
mkdir -p "$out"
run() { echo "\$ ${CG_PTX_SM:+CG_PTX_SM=$CG_PTX_SM }$*" | tee -a "$work/commands.log"; "$@"; }
has() { [[ " $steps " == *" $1 "* ]]; }
run "$bin" info 2>&1 | tee "$work/info.log"
if has lab; then
    run "$bin" --mode all --out "$work/lab" 2>&1 | tee "$work/lab.log"
    run "$bin" --mode sweep --block 1024 --out "$work/lab1024" 2>&1 | tee "$work/lab1024.log"
fi
if has verify; then
    run "$bin" verify --out "$work/verify" 2>&1 | tee "$work/verify.log"
    # The older GPUs' code paths (no redux.sync/elect.sync before sm_80/90),
    # JIT-compiled from their embedded PTX on this GPU (skipped if it is older).
    for sm in 70 80; do
        CG_PTX_SM=$sm run "$bin" verify --out "$work/verify-sm$sm" 2>&1 | tee "$work/verify-sm$sm.log"
    done
fi
if has compare; then
    run "$bin" compare --runs 31 --warmup 3 --out "$work/compare" 2>&1 | tee "$work/compare.log"
fi
if has compare-large; then
    for b in 256 512 1024; do
        run "$bin" compare --block "$b" --runs 31 --warmup 3 --out "$work/compare-block$b" 2>&1 | tee "$work/compare-block$b.log"
    done
fi
if has sanitize; then
    for tool in racecheck synccheck memcheck; do
        run timeout 300 compute-sanitizer --tool "$tool" "$bin" --mode all --n 65536 --runs 1 --warmup 0 --out "$work/sanitizer" 2>&1 \
            | tail -2 | tee -a "$work/sanitizer.log"
    done
    # The block-wide reduce and scan run only in `compare`: check them (and
    # the C++ side) too, at a small and the largest block.
    for b in 128 1024; do
        for tool in racecheck synccheck; do
            run timeout 300 compute-sanitizer --tool "$tool" "$bin" compare --block "$b" --n 65536 --runs 1 --warmup 0 --out "$work/sanitizer-compare" 2>&1 \
                | tail -2 | tee -a "$work/sanitizer.log"
        done
    done
fi
tar czf "$out/results.tgz" -C "$work" .
echo "packed $out/results.tgz"
