#!/usr/bin/env bash
# A local registry of this project's crates, as a registry would serve them.
# `cargo package` packs every publishable crate and verifies each one by
# building it from its package against the others' packages; the packages
# are then laid out as a directory source (the `cargo vendor` layout: one
# folder per crate and version, with its checksums), together with every
# crates.io crate that a `cargo cg new` project needs (at the versions of
# this workspace's Cargo.lock) and the nightly's own library dependencies
# (rust-src's library/vendor, which `-Zbuild-std=core` resolves), so that a
# project whose .cargo/config.toml replaces crates.io with it builds with no
# network and no path to this checkout:
#     cargo cg new --registry DIR my-kernels
# Rerun it after updating the nightly (its library dependencies change).
# Not packaged: cg-kernels and cg-lab (publish = false; the lab embeds
# reference/cuda and docs/results of this repository).
#
# Usage: scripts/registry.sh [--allow-dirty] [DIR]   (default: target/registry)
set -euo pipefail
repo=$(cd "$(dirname "$0")/.." && pwd)
cd "$repo"
dirty=()
if [[ ${1:-} == --allow-dirty ]]; then
    dirty=(--allow-dirty)
    shift
fi
dest=$(realpath -m "${1:-target/registry}")
crates=(cg-isa cg-macros cooperative-groups cg-sim cg-runtime cg-build cargo-cg)
target=${CARGO_TARGET_DIR:-$repo/target}
version=$(cargo pkgid -p cooperative-groups | sed 's/.*[@#]//')
step() { printf -- '--> %s\n' "$*"; }

step "cargo package ${crates[*]} (each verified by a build from its package)"
rm -f "$target"/package/*.crate
# The verification builds each crate against the others' packages through a
# temporary registry in $target/package, which cargo extracts under
# $CARGO_HOME/registry/src/<that registry's id>/ once per version: a later
# run from the same folder would build against the first run's sources.
cargo_home=${CARGO_HOME:-$HOME/.cargo}
for k in "${crates[@]}"; do
    rm -rf "$cargo_home"/registry/src/-*/"$k-$version"
done
cargo package --locked "${dirty[@]}" $(printf -- '-p %s ' "${crates[@]}")

mkdir -p "$(dirname "$dest")"
stage=$(mktemp -d "$(dirname "$dest")/.registry.XXXXXX")
work=$(mktemp -d)
trap 'rm -rf "$work" "$stage"' EXIT

step "crates.io dependencies of a cargo cg new project (at this workspace's locked versions)"
cargo run --quiet --locked -p cargo-cg -- new "$work/p" --checkout "$repo" >/dev/null
cp Cargo.lock "$work/p/Cargo.lock"
(cd "$work/p" && cargo vendor --quiet --versioned-dirs "$stage" >/dev/null)

step "the nightly's library dependencies (rust-src: library/vendor)"
vendor=$(rustc --print sysroot)/lib/rustlib/src/rust/library/vendor
if [[ ! -d $vendor ]]; then
    echo "error: $vendor is missing: run \`rustup component add rust-src --toolchain nightly\` (a nightly whose rust-src ships library/vendor)" >&2
    exit 1
fi
for d in "$vendor"/*/; do
    n=$(basename "$d")
    [[ -e $stage/$n ]] || cp -r "$d" "$stage/$n"
done

step "this project's packages (version $version)"
for k in "${crates[@]}"; do
    crate=$target/package/$k-$version.crate
    rm -rf "${stage:?}/$k-$version"
    tar xzf "$crate" -C "$stage"
    python3 - "$crate" "$stage/$k-$version" <<'EOF'
import hashlib, json, os, sys
crate, root = sys.argv[1], sys.argv[2]
sha = lambda p: hashlib.sha256(open(p, "rb").read()).hexdigest()
files = {os.path.relpath(os.path.join(d, f), root): sha(os.path.join(d, f))
         for d, _, names in os.walk(root) for f in names}
with open(os.path.join(root, ".cargo-checksum.json"), "w") as out:
    json.dump({"files": files, "package": sha(crate)}, out)
EOF
done

rm -rf "$dest"
mv "$stage" "$dest"
trap 'rm -rf "$work"' EXIT
step "registry: $dest ($(ls "$dest" | wc -l) crates; ${crates[*]} at $version)"
