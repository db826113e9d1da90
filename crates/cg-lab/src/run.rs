//! `cg-lab [--mode …]`: one lab run, from flags to files.

use std::path::PathBuf;

use anyhow::{Result, bail};
use cg_runtime::Backend;

use crate::cli::{Format, LabArgs};
use crate::lab::{Lab, normalise};
use crate::progress::Progress;
use crate::report::{self, csv_out};
use crate::results::{Platform, Report};
use crate::timing;

/// Runs the lab as `args` says; an error when any verification fails (after
/// the files are written, so no result is lost).
pub fn run(args: &LabArgs) -> Result<()> {
    args.validate().map_err(anyhow::Error::msg)?;
    let backend = args.backend.open()?;
    let platform = platform(&backend);
    crate::preflight::check_n(&backend, args.n)?;
    let out = crate::results::out_dir(args.out.as_deref(), &platform.slug);
    crate::preflight::check_out_dir(&out)?;
    let mut lab = Lab::new(&backend, args)?;
    let (sweep_v, modes_v, skipped) = lab.plan(args.mode);
    if modes_v
        .iter()
        .any(|v| matches!(v, crate::lab::Variant::Cluster { .. }))
        && lab.cluster_grid(args.clusize) != lab.grid
    {
        eprintln!(
            "note: the cluster mode runs {} blocks, not {}: a whole number of clusters of --clusize {}",
            lab.cluster_grid(args.clusize),
            lab.grid,
            args.clusize
        );
    }
    let per_variant = if backend.is_sim() {
        1
    } else {
        1 + args.runs as u64
    };
    let total = (sweep_v.len() + modes_v.len()) as u64 * per_variant;
    let quiet = args.csv_only || args.format != Format::Table;
    let progress = Progress::new(total, quiet);
    let mut sweep = lab.measure(&sweep_v, &progress)?;
    let mut modes = lab.measure(&modes_v, &progress)?;
    progress.finish();
    normalise(&mut sweep, &mut modes);

    let interleaving = if backend.is_sim() {
        "not timed: the simulator checks correctness only (every configuration verified at reps = 1)".to_string()
    } else {
        timing::describe(args.warmup, args.runs, args.min_sample_ms)
    };
    let report = Report {
        platform,
        mode: format!("{:?}", args.mode).to_lowercase(),
        interleaving,
        sweep,
        modes,
        skipped,
    };
    let written = report::write_all(&report, &out)?;
    print(&report, args, &written);
    if !report.all_verified() {
        let failed: Vec<String> = report
            .rows()
            .filter(|r| !r.verified)
            .map(|r| format!("{} tile {} ({})", r.tag, r.tile, r.check))
            .collect();
        bail!("verification FAILED: {}", failed.join("; "));
    }
    Ok(())
}

fn print(report: &Report, args: &LabArgs, written: &[PathBuf]) {
    if args.csv_only || args.format == Format::Csv {
        if !report.sweep.is_empty() {
            println!("{}", csv_out::header(csv_out::Extra::Norm));
            report
                .sweep
                .iter()
                .for_each(|r| println!("{}", csv_out::line(r, csv_out::Extra::Norm)));
        }
        if !report.modes.is_empty() {
            println!("{}", csv_out::header(csv_out::Extra::RatioVsIntrinsic));
            report
                .modes
                .iter()
                .for_each(|r| println!("{}", csv_out::line(r, csv_out::Extra::RatioVsIntrinsic)));
        }
        return;
    }
    if args.format == Format::Json {
        println!(
            "{}",
            serde_json::to_string_pretty(report).unwrap_or_default()
        );
        return;
    }
    println!("# {}", report.platform.line());
    if report.platform.slug == "sim" {
        println!("# simulator backend: correctness only, no timings");
    } else {
        println!("# {}", report.interleaving);
    }
    for r in report.rows() {
        println!("{}", r.line());
    }
    for r in &report.sweep {
        if let Some(n) = r.norm {
            println!("sweep tile={:<4} norm (÷ tile 32) = {n:.3}", r.tile);
        }
    }
    if let Some((t, c)) = report.tax() {
        println!("ratio tile32/intrinsic = {t:.3}, cg_reduce/intrinsic = {c:.3}");
    }
    for s in &report.skipped {
        println!("skipped: {s}");
    }
    let files: Vec<String> = written.iter().map(|p| p.display().to_string()).collect();
    println!("wrote {}", files.join(", "));
}

/// The platform facts of a report.
pub fn platform(backend: &Backend) -> Platform {
    let command = crate::results::command_line();
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
                driver: i.driver_version.clone(),
                cuda: Some(format!("{}.{}", i.cuda_version.0, i.cuda_version.1)),
                ptx: Some(format!("sm_{}", g.ptx_sm())),
                commit,
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
            driver: None,
            cuda: None,
            ptx: None,
            commit,
            command,
        },
    }
}
