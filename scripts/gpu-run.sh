#!/usr/bin/env bash
# Every GPU measurement of the project in one run of one tree, for a machine
# with an NVIDIA GPU (and nvcc for the C++ comparisons). Its output folder
# has the layout of docs/results/<gpu>/current/ (docs/results/h200/INDEX.md):
#   info.txt gpu.txt         `cg-lab info` (device, clocks, smoke kernel), nvidia-smi
#   commands.txt rc.txt      every command it ran, and each one's exit status
#   lab/ lab-block1024/      the C-02 lab (--mode all) and its tile sweep in 1024-thread blocks
#   verify/                  differential, semantics against NVIDIA's C++, collectives, grid, clusters
#   verify-sm70/ -sm80/      the same with the sm_70 and sm_80 PTX, JIT-compiled on this GPU
#   sync/                    what a sync() costs on every group, against NVIDIA's C++
#   compare/                 Rust vs C++ in blocks of 128 (memcpy_async and last_block included)
#   compare-block256/ -512/ -1024/   the same in larger blocks
#   primitives/              CUB's block and warp primitives (30 kernels at 128, 256 and 512 threads)
#                            against their CUB twins
#   tma/                     tensor-map copies and transposes against cuda::ptx (sm_90 and newer)
#   device_wide/             device-wide reduce, scan and segmented sum against CUB
#   device_histogram/        the device-wide even and range histograms against CUB's
#   device_select/           the device-wide selections and run-length encoding against CUB's
#   device_radix_sort/       the device-wide radix sort of u32, i32, f32 and u64 keys and pairs against CUB's
#   samples/                 the seven ported NVIDIA samples (each checks itself; the timed ones
#                            against their C++ twins), cudarc-interop (kernels on a cudarc
#                            program's stream with its CudaSlices, checked) and
#                            histogram-equalization (the block primitives, against CUB's)
#   sanitizer.txt            compute-sanitizer racecheck, synccheck and memcheck summaries
#   <step>.log               each command's console output
# and packs it into OUT_DIR/results.tgz. Steps (default: all): lab verify
# sync compare compare-large primitives tma device_wide device_histogram device_select device_radix_sort
# samples sanitize.
#
# Usage (on the GPU machine):
#   scripts/gpu-run.sh [OUT_DIR] [STEP...]        (default OUT_DIR: results/run)
# It expects target/release/cg-lab built on the build machine with
# `cargo build --release -p cg-lab --features collectives` (CG_LAB=path
# overrides; verify launches the collective test kernels) and, for the
# samples, `scripts/samples.sh --release`'s binaries in target/samples/release
# (CG_SAMPLES=dir overrides).
#
# Then, on the build machine, make the run the current set:
#   scripts/gpu-run.sh --adopt results.tgz [GPU]   (default GPU: h200)
# tags the commit that holds docs/results/GPU/current/ as
# results/GPU/<date>-run-<its commit> (history stays in git, not in the
# tree), replaces current/ with the new run and lists the tag in the index;
# the README and the guide cite current/.
set -uo pipefail

if [[ ${1:-} == --adopt ]]; then
    set -e
    tgz=$(realpath "$2")
    gpu=${3:-h200}
    repo=$(cd "$(dirname "$0")/.." && pwd)
    base=$repo/docs/results/$gpu
    commit_of() { grep -rhoE -m1 'commit [0-9a-f]{7}' "$1" --include='*.md' | head -1 | cut -c8-; }
    if [[ -d $base/current ]]; then
        if [[ -n $(git -C "$repo" status --porcelain -- "docs/results/$gpu/current") ]]; then
            echo "docs/results/$gpu/current/ has uncommitted changes: commit them first (the tag must hold it)" >&2
            exit 1
        fi
        old=$(commit_of "$base/current")
        day=$(git -C "$repo" log -1 --format=%ad --date=short -- "docs/results/$gpu/current")
        tag=results/$gpu/$day-run-${old:-unknown}
        git -C "$repo" tag "$tag" HEAD
        git -C "$repo" rm -r -q "docs/results/$gpu/current"
        rm -rf "$base/current"
        printf -- '- the run of commit %s, current until %s: `git show %s:docs/results/%s/current/`\n' \
            "${old:-?}" "$(date +%F)" "$tag" "$gpu" >> "$base/INDEX.md"
        echo "tagged the old current/ as $tag (push the tag with the branch); line added at the end of INDEX.md"
    fi
    mkdir -p "$base/current"
    tar xzf "$tgz" -C "$base/current"
    rm -f "$base/current/results.tgz"
    git -C "$repo" add "docs/results/$gpu"
    echo "current/: the run of commit $(commit_of "$base/current"); update the README's and the guide's numbers from it"
    exit 0
fi

out=${1:-results/run}
shift || true
steps=${*:-lab verify sync compare compare-large primitives tma device_wide device_histogram device_select device_radix_sort samples sanitize}
bin=$(realpath "${CG_LAB:-./target/release/cg-lab}")
samples_dir=${CG_SAMPLES:-./target/samples/release}
mkdir -p "$out"
out=$(realpath "$out")
cd "$out"
: > commands.txt
: > rc.txt
# Runs a command, echoes and records it, tees its output to LOG; its exit
# status goes to rc.txt (a failed step does not stop the others).
run() {
    local log=$1
    shift
    echo "\$ ${CG_PTX_SM:+CG_PTX_SM=$CG_PTX_SM }$*" | tee -a commands.txt
    "$@" 2>&1 | tee "$log"
    local rc=${PIPESTATUS[0]}
    echo "${log%.*} rc=$rc" >> rc.txt
}
has() { [[ " $steps " == *" $1 "* ]]; }

run info.txt "$bin" info
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv > gpu.txt 2>&1 || true
if has lab; then
    run lab.log "$bin" --mode all --out lab
    run lab-block1024.log "$bin" --mode sweep --block 1024 --out lab-block1024
fi
if has verify; then
    run verify.log "$bin" verify --out verify
    # The older GPUs' code paths (no redux.sync/elect.sync before sm_80/90).
    for sm in 70 80; do
        CG_PTX_SM=$sm run "verify-sm$sm.log" "$bin" verify --out "verify-sm$sm"
    done
fi
if has sync; then
    run sync.log "$bin" sync --out sync
fi
if has compare; then
    run compare.log "$bin" compare --runs 31 --warmup 3 --out compare
fi
if has compare-large; then
    for b in 256 512 1024; do
        run "compare-block$b.log" "$bin" compare --block "$b" --runs 31 --warmup 3 --out "compare-block$b"
    done
fi
if has primitives; then
    run primitives.log "$bin" compare --only primitives --runs 15 --warmup 2 --out primitives
fi
if has tma; then
    run tma.log "$bin" compare --only tma --runs 15 --warmup 2 --out tma
fi
if has device_wide; then
    run device_wide.log "$bin" compare --only device_wide --runs 15 --warmup 2 --out device_wide
fi
if has device_histogram; then
    run device_histogram.log "$bin" compare --only device_histogram --runs 15 --warmup 2 --out device_histogram
fi
if has device_select; then
    run device_select.log "$bin" compare --only device_select --runs 15 --warmup 2 --out device_select
fi
if has device_radix_sort; then
    run device_radix_sort.log "$bin" compare --only device_radix_sort --runs 15 --warmup 2 --out device_radix_sort
fi
if has samples; then
    mkdir -p samples
    for s in simple-cooperative-groups binary-partition-cg warp-aggregated-atomics-cg reduction \
        reduction-multi-block-cg shfl-scan conjugate-gradient-multi-block-cg cudarc-interop histogram-equalization; do
        run "samples/$s.txt" timeout 300 "$samples_dir/$s"
    done
fi
if has sanitize; then
    : > sanitizer.txt
    for tool in racecheck synccheck memcheck; do
        run "sanitizer-$tool.log" timeout 300 compute-sanitizer --tool "$tool" "$bin" --mode all --n 65536 --runs 1 --warmup 0 --out sanitizer
        { echo "\$ compute-sanitizer --tool $tool cg-lab --mode all --n 65536 --runs 1 --warmup 0"; tail -2 "sanitizer-$tool.log"; } >> sanitizer.txt
    done
    # The block-wide reduce and scan run only in `compare`: check them (and
    # the C++ side) too, at a small and the largest block.
    for b in 128 1024; do
        for tool in racecheck synccheck; do
            run "sanitizer-compare$b-$tool.log" timeout 300 compute-sanitizer --tool "$tool" "$bin" compare --block "$b" --n 65536 --runs 1 --warmup 0 --out sanitizer-compare
            { echo "\$ compute-sanitizer --tool $tool cg-lab compare --block $b --n 65536 --runs 1 --warmup 0"; tail -2 "sanitizer-compare$b-$tool.log"; } >> sanitizer.txt
        done
    done
    rm -rf sanitizer sanitizer-compare
fi
# Packed beside the folder and moved in (tar reading the folder it writes
# into warns that the folder changed).
tar czf "$out.tgz.part" --exclude=results.tgz -C "$out" . && mv "$out.tgz.part" "$out/results.tgz"
echo "packed $out/results.tgz ($(grep -vc ' rc=0$' rc.txt) failed commands, see rc.txt)"
