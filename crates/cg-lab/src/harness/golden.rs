//! Golden files of the compare experiments' outputs (tests only): the CSV,
//! markdown and JSON an experiment writes for fixed timings, checks and
//! platform, compared byte for byte with `tests/fixtures/compare/`. A GPU
//! run differs only in the numbers, so a port that keeps these files keeps
//! the real ones' columns and text. `CG_BLESS=1` rewrites the fixtures.

use std::path::PathBuf;

use crate::results::Platform;
use crate::stats::Summary;

/// The sizes golden rows are made at (small: the benches are set up on the
/// simulator).
pub const SIZES: [u32; 2] = [1 << 10, 1 << 12];

/// The timing text's parameters: warm-up launches, runs, minimum sample.
pub const TIMING: (u32, u32, f64) = (3, 31, 5.0);

/// A fixed platform with a DRAM peak (so `% of peak` cells are filled).
pub fn platform() -> Platform {
    Platform {
        device: "NVIDIA H200".into(),
        slug: "h200".into(),
        sm: Some("sm_90".into()),
        sm_count: Some(132),
        sm_clock_mhz: Some(1980),
        mem_clock_mhz: Some(2619),
        mem_bus_bits: Some(6144),
        dram_peak_bytes_per_s: Some(2.0 * 2619e6 * 6144.0 / 8.0),
        driver: Some("570.00".into()),
        cuda: Some("12.8".into()),
        ptx: Some("sm_90".into()),
        commit: "golden".into(),
        fp_contract: "fast".into(),
        fast_math: "off".into(),
        command: "cg-lab compare --golden".into(),
    }
}

/// The timings of the `i`-th variant: uneven numbers, so rounding shows.
pub fn summary(i: usize) -> Summary {
    let m = 0.0137 + i as f64 * 0.01931;
    Summary {
        median: m,
        p10: m * 0.97,
        p90: m * 1.041,
        n: 31,
    }
}

/// The verdict of the `i`-th variant: every fifth one failed.
pub fn verdict(i: usize) -> (bool, String) {
    (i % 5 != 3, format!("golden check {i}"))
}

/// Compares `files` (extension, text) with `<name>.<extension>` in the
/// fixtures (or writes them there under `CG_BLESS=1`).
pub fn check(name: &str, files: &[(&str, String)]) {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/compare");
    for (ext, text) in files {
        let path = dir.join(format!("{name}.{ext}"));
        if std::env::var_os("CG_BLESS").is_some() {
            std::fs::create_dir_all(&dir).expect("fixtures folder");
            std::fs::write(&path, text).expect("fixture written");
            continue;
        }
        let want = std::fs::read_to_string(&path)
            .unwrap_or_else(|e| panic!("{}: {e} (CG_BLESS=1 writes it)", path.display()));
        assert!(
            *text == want,
            "{} differs from the output:\n{text}",
            path.display()
        );
    }
}

/// The golden files of `E`: its rows at [`SIZES`] (bench set up on the
/// simulator, timings [`summary`], verdicts [`verdict`]) through the
/// harness's CSV, `E`'s report and JSON, against `tests/fixtures/compare/`.
pub fn check_experiment<E: super::experiment::Experiment>() {
    check_experiment_at::<E>(&SIZES)
}

/// [`check_experiment`] at `sizes`, for an experiment whose sizes are not
/// input lengths (e.g. keys of its shapes).
pub fn check_experiment_at<E: super::experiment::Experiment>(sizes: &[u32]) {
    use super::experiment::{Options, Report, Verified};
    let backend = cg_runtime::Backend::sim();
    let opts = Options {
        sizes,
        n: 1 << 10,
        keys: &[],
        prims: &[],
        grid: None,
    };
    let b = E::bench(&backend, None, sizes, &opts).expect("bench");
    let vars = E::variants(&b, sizes, &opts, true);
    let ms = (0..vars.len()).map(summary).collect();
    let checks = (0..vars.len())
        .map(|i| {
            let (ok, what) = verdict(i);
            Verified {
                ok,
                what,
                extra: E::Extra::default(),
            }
        })
        .collect();
    let p = platform();
    let rows = E::rows(&b, &vars, ms, checks, &p);
    let (w, r, m) = TIMING;
    let timing = crate::timing::describe(E::TIMED, w, r, m);
    let report = Report {
        sizes,
        platform: &p,
        timing: &timing,
        bench: &b,
    };
    let mut files = vec![
        ("csv", super::csv::to_csv(&rows)),
        ("md", E::markdown(&rows, &report)),
        ("json", serde_json::to_string_pretty(&rows).expect("json")),
    ];
    files.extend(E::more_files(&rows, &report));
    check(E::NAME, &files);
}
