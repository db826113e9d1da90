#!/usr/bin/env bash
# The path a user takes with a project of their own, outside this repository:
# install cargo-cg, `cargo cg new` into a temporary directory, `cargo run`
# there (the sample kernel, verified; on the simulator where there is no
# GPU), and the project's PTX through ptxas for every SM.
#
# Two forms:
# * default: cargo-cg installed from this checkout (`cargo install --path`),
#   and the project depends on the checkout's crates by path;
# * --registry REG: the local directory registry REG (made by
#   scripts/registry.sh REG if it does not hold this version yet; keep it
#   outside the checkout), cargo-cg installed from there, and the project it
#   writes (by default, as it was installed from a registry) depends on
#   versions served by that registry; it is built with no network
#   (CARGO_NET_OFFLINE) and an empty CARGO_HOME, and must name no path of
#   this checkout.
#
# Usage: scripts/outside-crate.sh [--registry REG] [DIR]   (DIR: where the
# project goes; default: a new temporary directory)
set -euo pipefail
repo=$(cd "$(dirname "$0")/.." && pwd)
registry=
if [[ ${1:-} == --registry ]]; then
    registry=$(realpath -m "${2:?--registry needs a directory}")
    shift 2
fi
if [[ -n ${1:-} ]]; then
    root=$1
else
    # A directory of our own: removed when the script ends.
    root=$(mktemp -d)
    trap 'rm -rf "$root"' EXIT
fi
proj=$root/my-kernels
step() { printf '\n--> %s\n' "$*"; }

# The project's own target directory would do; one shared by the install
# and the project compiles their common dependencies once.
export CARGO_TARGET_DIR=$repo/target/outside
if [[ -n $registry ]]; then
    version=$(cd "$repo" && cargo pkgid -p cargo-cg | sed 's/.*[@#]//')
    if [[ ! -f $registry/cooperative-groups-$version/Cargo.toml ]]; then
        step "scripts/registry.sh $registry"
        "$repo/scripts/registry.sh" "$registry"
    fi
    # A machine that never saw crates.io: nothing cached, nothing fetched.
    export CARGO_HOME=$root/cargo-home CARGO_NET_OFFLINE=true
    bin=$root/cargo-cg
    step "cargo install cargo-cg@$version from the registry (debug: shares the project's build)"
    (cd "$root" && cargo install --quiet --debug cargo-cg --version "$version" --root "$bin" --force \
        --config "source.crates-io.replace-with='cg-local'" \
        --config "source.cg-local.directory='$registry'")
else
    bin=$repo/target/cargo-cg
    step "cargo install --path crates/cargo-cg"
    cargo install --quiet --locked --path "$repo/crates/cargo-cg" --root "$bin" --force
fi
export PATH=$bin/bin:$PATH

step "cargo cg doctor"
cargo cg doctor

step "cargo cg new $proj"
cargo cg new "$proj" | tee "$root/new.log"
cd "$proj"
if [[ -n $registry ]]; then
    grep -q "dependencies: version $version .* from the local registry $registry" "$root/new.log"
    if grep -rn --exclude-dir=target "$repo" .; then
        echo "error: the registry project names a path of the checkout (above)" >&2
        exit 1
    fi
else
    grep -q "dependencies: path" "$root/new.log"
fi

step "cargo run (in $proj), the kernel build with warnings denied (CG_DENY_WARNINGS=1)"
CG_DENY_WARNINGS=1 cargo run 2>&1 | tee "$root/run.log"
grep -q "verified" "$root/run.log"
if grep -n "warning" "$root/run.log"; then
    echo "error: building the new project warned (above)" >&2
    exit 1
fi

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
