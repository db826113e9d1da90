//! `cg-lab compare`'s files: `compare.csv`, `compare.md` and `sass.md`
//! (`compare.svg` is drawn in [`plot`](super::plot)).

use std::fmt::Write as _;

use cg_runtime::sass;

use crate::listings::Listings;
use crate::results::{CompareRow, Platform};

/// The launch shape both sides ran with, for the markdown's preamble.
pub struct Setup {
    /// Input elements.
    pub n: u32,
    /// Threads per block.
    pub block: u32,
    /// Blocks (`None`: SMs × 8).
    pub grid: Option<u32>,
    /// Rounds per timed launch.
    pub reps: u32,
}

/// A verdict as the tables print it.
pub fn ok(b: bool) -> &'static str {
    if b { "OK" } else { "FAILED" }
}

/// `compare.csv`.
pub fn csv(rows: &[CompareRow]) -> String {
    let mut s = String::from(
        "experiment,cpp_side,tile,rust_ms,rust_p10_ms,rust_p90_ms,cpp_ms,cpp_p10_ms,cpp_p90_ms,rust_over_cpp,rust_verified,cpp_verified\n",
    );
    for r in rows {
        let _ = writeln!(
            s,
            "{},{},{},{:.6},{:.6},{:.6},{:.6},{:.6},{:.6},{:.4},{},{}",
            r.experiment,
            r.cpp_side.replace(',', ";"),
            r.tile,
            r.rust_ms.median,
            r.rust_ms.p10,
            r.rust_ms.p90,
            r.cpp_ms.median,
            r.cpp_ms.p10,
            r.cpp_ms.p90,
            r.rust_over_cpp,
            r.rust_verified,
            r.cpp_verified
        );
    }
    s
}

/// `compare.md`.
pub fn markdown(rows: &[CompareRow], p: &Platform, timing: &str, a: &Setup) -> String {
    let mut s = format!(
        "# Rust vs CUDA C++ — {}\n\nPlatform: {}\n\nCommand: `{}`\n\n",
        p.device,
        p.line(),
        p.command
    );
    let _ = writeln!(
        s,
        "Same process, same runtime, same data (n = {}, block {}, grid {}, reps {}); the C++ side is \
         `reference/cuda/c02_reference.cu` built with `nvcc -O3` (and its default `--fmad=true`) for the device. Timing: {timing}; each \
         experiment's Rust kernel and its C++ twin are adjacent in every round.\n",
        a.n,
        a.block,
        a.grid
            .map(|g| g.to_string())
            .unwrap_or_else(|| "SMs × 8".into()),
        a.reps
    );
    let _ = writeln!(
        s,
        "| experiment | tile | Rust ms (p10–p90) | C++ ms (p10–p90) | Rust / C++ | C++ side | verify |"
    );
    let _ = writeln!(s, "| --- | ---: | ---: | ---: | ---: | --- | --- |");
    for r in rows {
        let tile = if r.tile == 0 || r.experiment.starts_with("block_") {
            "block".to_string()
        } else {
            r.tile.to_string()
        };
        let _ = writeln!(
            s,
            "| {} | {tile} | {:.4} ({:.4}–{:.4}) | {:.4} ({:.4}–{:.4}) | **{:.3}** | {} | Rust {}, C++ {} |",
            r.experiment,
            r.rust_ms.median,
            r.rust_ms.p10,
            r.rust_ms.p90,
            r.cpp_ms.median,
            r.cpp_ms.p10,
            r.cpp_ms.p90,
            r.rust_over_cpp,
            r.cpp_side,
            ok(r.rust_verified),
            ok(r.cpp_verified)
        );
    }
    s
}

/// `sass.md`: per experiment (`(name, Rust kernel, C++ function)`, each
/// pair of kernels once), the SASS opcode counts of both sides.
pub fn sass(l: &Listings, exps: &[(&str, &str, &str)]) -> String {
    let Listings {
        ptxas,
        dis,
        ptx_sm,
        sm,
        rust,
        cpp,
    } = l;
    let mut s = format!(
        "# SASS of each experiment, Rust vs C++ (sm_{sm})\n\nRust: the embedded PTX (sm_{}) assembled with `{}`; \
         C++: `nvcc -O3 -arch=sm_{sm}`. Disassembled with `{}`. Counts per opcode (modifiers dropped, NOPs ignored).\n\n",
        ptx_sm,
        ptxas.display(),
        dis.display()
    );
    let mut seen = std::collections::BTreeSet::new();
    for &(name, rust_fn, cpp_fn) in exps {
        if !seen.insert((rust_fn, cpp_fn)) {
            continue;
        }
        let (Some(r), Some(c)) = (rust.get(rust_fn), cpp.get(cpp_fn)) else {
            continue;
        };
        let (hr, hc) = (sass::histogram(r), sass::histogram(c));
        let _ = writeln!(s, "## {name} ({rust_fn} vs {cpp_fn})\n");
        let _ = writeln!(
            s,
            "Total instructions: Rust {}, C++ {}.\n",
            sass::opcodes(r).len(),
            sass::opcodes(c).len()
        );
        let _ = writeln!(s, "| opcode | Rust | C++ |\n| --- | ---: | ---: |");
        let keys: std::collections::BTreeSet<&String> = hr.keys().chain(hc.keys()).collect();
        for k in keys {
            let (a, b) = (
                hr.get(k).copied().unwrap_or(0),
                hc.get(k).copied().unwrap_or(0),
            );
            let mark = if a != b { " ◀" } else { "" };
            let _ = writeln!(s, "| {k}{mark} | {a} | {b} |");
        }
        s.push('\n');
    }
    s
}
