//! What a lab run produces: one row per measured configuration, the platform
//! it ran on, and the headline ratios.

use std::path::{Path, PathBuf};

use cg_runtime::Backend;
use serde::Serialize;

use crate::stats::Summary;

/// One measured (or, on the simulator, only verified) configuration.
#[derive(Clone, Debug, Serialize)]
pub struct Row {
    /// `intrinsic`, `tile32`, `cg_reduce`, `coalesced` or `cluster`.
    pub tag: String,
    /// Tile size (cluster: the cluster size, as the seed prints it).
    pub tile: u32,
    /// Threads per block.
    pub block: u32,
    /// Blocks in the grid.
    pub grid: u32,
    /// Reduction rounds per timed launch.
    pub reps: u32,
    /// Input elements.
    pub n: u32,
    /// Timing summary in milliseconds (`None` on the simulator).
    pub time_ms: Option<Summary>,
    /// Sweep: median ÷ the tile-32 median of the same run.
    pub norm: Option<f64>,
    /// Modes: median ÷ the intrinsic median of the same run.
    pub ratio_vs_intrinsic: Option<f64>,
    /// The verification launch matched the host's expectation.
    pub verified: bool,
    /// What was compared, e.g. `sum 142606336 vs 142606336`.
    pub check: String,
}

impl Row {
    /// The seed's result line: `tag tile= block= grid= reps= | median= ms (p10= p90=)`.
    pub fn line(&self) -> String {
        let head = format!(
            "{:<10} tile={:<4} block={:<4} grid={:<5} reps={:<3}",
            self.tag, self.tile, self.block, self.grid, self.reps
        );
        let timing = match &self.time_ms {
            Some(s) => format!(
                "median={:.4} ms (p10={:.4} p90={:.4})",
                s.median, s.p10, s.p90
            ),
            None => "not timed".to_string(),
        };
        let verdict = if self.verified {
            "verify OK"
        } else {
            "verify FAILED"
        };
        format!("{head} | {timing} | {verdict}: {}", self.check)
    }
}

/// Where the run happened.
#[derive(Clone, Debug, Serialize)]
pub struct Platform {
    /// GPU name, or `cg-sim (CPU simulator)`.
    pub device: String,
    /// File-name slug of the device (`h200`, `sim`).
    pub slug: String,
    /// `sm_90`, …
    pub sm: Option<String>,
    /// SM count.
    pub sm_count: Option<u32>,
    /// Max SM clock, MHz.
    pub sm_clock_mhz: Option<u32>,
    /// Memory clock, MHz.
    pub mem_clock_mhz: Option<u32>,
    /// Memory bus width, bits.
    pub mem_bus_bits: Option<u32>,
    /// Theoretical DRAM bandwidth from the driver's memory clock and bus
    /// width (bytes per second): the denominator of "% of peak" in the
    /// bandwidth experiments (`memcpy_async`, `device_wide`).
    pub dram_peak_bytes_per_s: Option<f64>,
    /// Kernel driver version.
    pub driver: Option<String>,
    /// CUDA version the driver supports.
    pub cuda: Option<String>,
    /// PTX target loaded.
    pub ptx: Option<String>,
    /// `git describe` of the build.
    pub commit: String,
    /// The floating-point contraction policy of the Rust kernels that ran:
    /// the embedded PTX's ([`FP_CONTRACT`], `fast` or `off`), or `off` on
    /// the simulator (it runs the host build, which never contracts).
    pub fp_contract: String,
    /// The fast-math policy of the Rust kernels' build: the embedded
    /// PTX's ([`FAST_MATH`], `on` or `off`), or `off` on the simulator
    /// (the host build computes `/` and `sqrt` correctly rounded and keeps
    /// subnormals whatever the policy).
    pub fast_math: String,
    /// The exact command line.
    pub command: String,
}

/// The floating-point contraction policy the embedded PTX was built with
/// (cg-build's `FpContract`, recorded by `build.rs`): `fast` (`a * b + c`
/// may become one FMA, as under nvcc's default `--fmad=true`) or `off`.
pub const FP_CONTRACT: &str = env!("CG_LAB_FP_CONTRACT");

/// The fast-math policy the embedded PTX was built with (cg-build's
/// `FastMath`, recorded by `build.rs`): `on` (nvcc's `--use_fast_math` for
/// `f32` division, square root and subnormals) or `off`.
pub const FAST_MATH: &str = env!("CG_LAB_FAST_MATH");

/// A fast-math policy as the reports state it: a phrase when it is on
/// (it changes results), nothing when it is off or not recorded.
pub fn fast_math_text(policy: &str) -> Option<String> {
    (policy == "on").then(|| {
        "fast math on (f32 / is div.full, sqrt is sqrt.approx, subnormals flushed: \
         nvcc's -prec-div=false -prec-sqrt=false -ftz=true)"
            .into()
    })
}

/// The contraction policy and, when on, the fast-math policy, as one
/// phrase for reports.
pub fn float_policy_text(fp_contract: &str, fast_math: &str) -> String {
    let mut s = fp_contract_text(fp_contract);
    if let Some(f) = fast_math_text(fast_math) {
        s += " · ";
        s += &f;
    }
    s
}

/// A contraction policy as the reports state it.
pub fn fp_contract_text(policy: &str) -> String {
    match policy {
        "fast" => {
            "Rust FP contraction fast (a·b + c may be one FMA, as nvcc's default --fmad=true)"
                .into()
        }
        "off" => "Rust FP contraction off (every · and + rounded, as nvcc's --fmad=false)".into(),
        "" => "Rust FP contraction not recorded".into(),
        other => format!("Rust FP contraction {other}"),
    }
}

impl Platform {
    /// One line for reports.
    pub fn line(&self) -> String {
        let mut parts = vec![self.device.clone()];
        if let (Some(sm), Some(n)) = (&self.sm, self.sm_count) {
            parts.push(format!("{sm}, {n} SMs"));
        }
        if let (Some(c), Some(m)) = (self.sm_clock_mhz, self.mem_clock_mhz) {
            parts.push(format!("SM clock {c} MHz, memory {m} MHz"));
        }
        if let Some(d) = &self.driver {
            parts.push(format!("driver {d}"));
        }
        if let Some(c) = &self.cuda {
            parts.push(format!("CUDA {c}"));
        }
        if let Some(p) = &self.ptx {
            parts.push(format!("PTX {p}"));
        }
        parts.push(format!("commit {}", self.commit));
        parts.push(float_policy_text(&self.fp_contract, &self.fast_math));
        parts.join(" · ")
    }

    /// `bytes_per_s` as a percentage of the DRAM peak, when the driver
    /// reported one.
    pub fn pct_of_peak(&self, bytes_per_s: f64) -> Option<f64> {
        self.dram_peak_bytes_per_s.map(|p| 100.0 * bytes_per_s / p)
    }

    /// How the peak was obtained, for the reports' method paragraph.
    pub fn peak_text(&self) -> String {
        match (
            self.dram_peak_bytes_per_s,
            self.mem_clock_mhz,
            self.mem_bus_bits,
        ) {
            (Some(p), Some(c), Some(b)) => format!(
                "peak {:.2} TB/s (2 × {c} MHz memory clock × {b}-bit bus, as the driver reports them)",
                p / 1e12
            ),
            _ => "no DRAM peak: the driver reported no memory clock or bus width".into(),
        }
    }
}

/// A percentage of peak for a table cell: `48.1 %`, or `n/a` without a peak.
pub fn pct_cell(pct: Option<f64>) -> String {
    pct.map_or_else(|| "n/a".into(), |p| format!("{p:.1} %"))
}

/// The platform facts of a report.
pub fn platform(backend: &Backend) -> Platform {
    let command = command_line();
    let commit = env!("CG_LAB_COMMIT").to_string();
    match backend {
        Backend::Gpu(g) => {
            let i = g.info();
            Platform {
                device: i.name.clone(),
                slug: i.slug(),
                sm: Some(format!("sm_{}", i.sm())),
                sm_count: Some(i.sm_count),
                sm_clock_mhz: Some(i.sm_clock_mhz),
                mem_clock_mhz: Some(i.mem_clock_mhz),
                mem_bus_bits: Some(i.mem_bus_bits),
                dram_peak_bytes_per_s: i.dram_peak_bytes_per_s(),
                driver: i.driver_version.clone(),
                cuda: Some(format!("{}.{}", i.cuda_version.0, i.cuda_version.1)),
                ptx: Some(format!("sm_{}", g.ptx_sm())),
                commit,
                fp_contract: FP_CONTRACT.into(),
                fast_math: FAST_MATH.into(),
                command,
            }
        }
        Backend::Sim(dev) => Platform {
            device: format!("cg-sim (CPU simulator, {} virtual SMs)", dev.sm_count),
            slug: "sim".into(),
            sm: None,
            sm_count: Some(dev.sm_count),
            sm_clock_mhz: None,
            mem_clock_mhz: None,
            mem_bus_bits: None,
            dram_peak_bytes_per_s: None,
            driver: None,
            cuda: None,
            ptx: None,
            commit,
            fp_contract: "off".into(),
            fast_math: "off".into(),
            command,
        },
    }
}

/// A whole run: rows of the sweep and of the modes, plus notes.
#[derive(Clone, Debug, Serialize)]
pub struct Report {
    /// Where and how.
    pub platform: Platform,
    /// The lab's mode flag.
    pub mode: String,
    /// How timed launches were ordered.
    pub interleaving: String,
    /// `cg_reduce` at each tile.
    pub sweep: Vec<Row>,
    /// intrinsic, tile32, cg_reduce(tile), coalesced, cluster.
    pub modes: Vec<Row>,
    /// Experiments skipped, with the reason (e.g. cluster below sm_90).
    pub skipped: Vec<String>,
}

impl Report {
    /// Every row, sweep first.
    pub fn rows(&self) -> impl Iterator<Item = &Row> {
        self.sweep.iter().chain(self.modes.iter())
    }

    /// All rows verified.
    pub fn all_verified(&self) -> bool {
        self.rows().all(|r| r.verified)
    }

    /// `tile32 / intrinsic` and `cg_reduce / intrinsic` from the modes rows.
    pub fn tax(&self) -> Option<(f64, f64)> {
        let ratio = |tag: &str| self.modes.iter().find(|r| r.tag == tag)?.ratio_vs_intrinsic;
        Some((ratio("tile32")?, ratio("cg_reduce")?))
    }
}

/// The command line as the reports quote it, with `CG_PTX_SM=…` in front
/// when that variable chose the PTX (the outputs then come from an older
/// SM's code).
pub fn command_line() -> String {
    let args = std::env::args().collect::<Vec<_>>().join(" ");
    match std::env::var(cg_runtime::ptx::PTX_CAP_VAR) {
        Ok(v) => format!("{}={v} {args}", cg_runtime::ptx::PTX_CAP_VAR),
        Err(_) => args,
    }
}

/// `--out DIR` if given, else `results/<device-slug>/`.
pub fn out_dir(flag: Option<&Path>, slug: &str) -> PathBuf {
    flag.map(Path::to_path_buf)
        .unwrap_or_else(|| PathBuf::from("results").join(slug))
}

/// The first word where two outputs of `words` words per thread differ,
/// described as `thread T word W: NAME_A 0x…, NAME_B 0x…` (or their lengths).
pub fn first_difference(
    words: usize,
    (a_name, a): (&str, &[u32]),
    (b_name, b): (&str, &[u32]),
) -> Option<String> {
    if a.len() != b.len() {
        return Some(format!(
            "lengths {} ({a_name}) vs {} ({b_name})",
            a.len(),
            b.len()
        ));
    }
    let i = a.iter().zip(b).position(|(x, y)| x != y)?;
    Some(format!(
        "thread {} word {}: {a_name} {:#x}, {b_name} {:#x}",
        i / words,
        i % words,
        a[i],
        b[i]
    ))
}

/// One row of `compare.csv`.
#[derive(Clone, Debug, Serialize)]
pub struct CompareRow {
    /// Experiment.
    pub experiment: String,
    /// The C++ side (`cooperative_groups`, CUB, hand-written).
    pub cpp_side: String,
    /// Tile size (0: whole block).
    pub tile: u32,
    /// Rust timing, ms.
    pub rust_ms: Summary,
    /// C++ timing, ms.
    pub cpp_ms: Summary,
    /// Median ratio.
    pub rust_over_cpp: f64,
    /// Both sides verified at reps = 1.
    pub rust_verified: bool,
    /// C++ side verified.
    pub cpp_verified: bool,
    /// What was compared.
    pub check: String,
}

/// One row of `sync.csv`.
#[derive(Clone, Debug, Serialize)]
pub struct SyncRow {
    /// tile, block, split, cluster or grid.
    pub group: String,
    /// Threads of the group (cluster, grid: blocks).
    pub size: u32,
    /// Threads per block.
    pub block: u32,
    /// Blocks of the latency launch.
    pub grid: u32,
    /// What the library's `sync` lowers to.
    pub rust_lowering: String,
    /// Cycles per iteration (`clock64`), median over blocks, per round.
    pub rust_cycles: Option<Summary>,
    /// The same, NVIDIA's C++.
    pub cpp_cycles: Option<Summary>,
    /// Rust ÷ C++, medians of cycles.
    pub rust_over_cpp: Option<f64>,
    /// ns per iteration (CUDA events ÷ iterations).
    pub rust_ns: Option<Summary>,
    /// The same, NVIDIA's C++.
    pub cpp_ns: Option<Summary>,
    /// Group syncs per µs over the GPU, 16 blocks per SM.
    pub rust_syncs_per_us: Option<Summary>,
    /// The same, NVIDIA's C++.
    pub cpp_syncs_per_us: Option<Summary>,
    /// Rust sums equal to the host's.
    pub rust_verified: bool,
    /// C++ sums equal to the host's (`None`: not run).
    pub cpp_verified: Option<bool>,
    /// What was compared.
    pub check: String,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reports_state_the_contraction_policy() {
        assert!(matches!(FP_CONTRACT, "fast" | "off"), "{FP_CONTRACT}");
        assert!(fp_contract_text("fast").contains("--fmad=true"));
        assert!(fp_contract_text("off").contains("--fmad=false"));
        assert!(fp_contract_text("").contains("not recorded"));
        assert!(matches!(FAST_MATH, "on" | "off"), "{FAST_MATH}");
        assert!(fast_math_text("on").unwrap().contains("-ftz=true"));
        assert_eq!(fast_math_text("off"), None);
        assert_eq!(fast_math_text(""), None);
        assert!(float_policy_text("fast", "on").contains("--fmad=true) · fast math on"));
        assert_eq!(float_policy_text("off", "off"), fp_contract_text("off"));
        let sim = platform(&Backend::sim());
        assert_eq!(sim.fp_contract, "off");
        assert!(
            sim.line().contains("Rust FP contraction off"),
            "{}",
            sim.line()
        );
    }
}
