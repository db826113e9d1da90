//! `cg-lab [--mode …]`: one lab run, from flags to files.

use std::path::PathBuf;

use anyhow::{Result, bail};

use crate::cli::{Format, LabArgs};
use crate::lab::{Lab, Variant};
use crate::partial::Recorder;
use crate::progress::Progress;
use crate::report::{self, csv_out};
use crate::results::{Platform, Report, Row};
use crate::timing;

/// The stem of the lab's partial file (`C-02.partial.json`).
const PARTIAL: &str = "C-02";

/// Runs the lab as `args` (already validated) says. Each row is printed as
/// it is measured; an error when any verification fails (after the files
/// are written, so no result is lost), and when a step fails the rows
/// measured before it are saved to `C-02.partial.json`.
pub fn run(args: &LabArgs) -> Result<()> {
    let backend = args.backend.open()?;
    let platform = crate::results::platform(&backend);
    crate::preflight::check_n(&backend, args.n)?;
    let out = crate::results::out_dir(args.out.as_deref(), &platform.slug);
    crate::preflight::check_out_dir(&out)?;
    let mut lab = Lab::new(&backend, args)?;
    let (sweep_v, modes_v, skipped) = lab.plan(args.mode);
    if modes_v.iter().any(|v| matches!(v, Variant::Cluster { .. }))
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
    let progress = Progress::new(total, stdout_format(args) != Format::Table);
    // Made before anything prints: it refuses a malformed CG_LAB_FAIL_AFTER.
    let mut rec = Recorder::new(|_: &Row| {})?;
    if stdout_format(args) == Format::Table {
        print_heading(&platform, args);
    }
    let mut measure = |variants: &[Variant], group: csv_out::Extra| {
        start_group(&mut rec, args, variants, group);
        lab.measure(variants, group, &progress, &mut rec)
    };
    let measured = measure(&sweep_v, csv_out::Extra::Norm)
        .and_then(|sweep| Ok((sweep, measure(&modes_v, csv_out::Extra::RatioVsIntrinsic)?)));
    progress.finish();
    let (sweep, modes) = measured.map_err(|e| rec.fail(&out, PARTIAL, e))?;

    let interleaving = if backend.is_sim() {
        "not timed: the simulator checks correctness only (every configuration verified at reps = 1)".to_string()
    } else {
        timing::describe(
            timing::MEMSET_AND_KERNEL,
            args.warmup,
            args.runs,
            args.min_sample_ms,
        )
    };
    let report = Report {
        platform,
        mode: format!("{:?}", args.mode).to_lowercase(),
        interleaving,
        sweep,
        modes,
        skipped,
    };
    let written = report::write_all(&report, &out).map_err(|e| rec.fail(&out, PARTIAL, e))?;
    crate::partial::clear(&out, PARTIAL);
    print_summary(&report, args, &written);
    if !report.all_verified() {
        let failed: Vec<String> = report
            .rows()
            .filter(|r| !r.verified)
            .map(|r| format!("{} tile {} ({})", r.tag, r.tile, r.check))
            .collect();
        bail!(
            "verification FAILED: {} (recorded in {})",
            failed.join("; "),
            written_list(&written)
        );
    }
    Ok(())
}

/// What stdout holds: `--csv-only` is the seed's spelling of `--format csv`.
fn stdout_format(args: &LabArgs) -> Format {
    if args.csv_only {
        Format::Csv
    } else {
        args.format
    }
}

/// Before a group is measured: in CSV its header (each group has its own
/// ratio column), and how its rows are printed as they arrive — the seed's
/// result line, a CSV line, or nothing where stdout is one JSON document.
fn start_group(
    rec: &mut Recorder<'_, Row>,
    args: &LabArgs,
    group: &[Variant],
    extra: csv_out::Extra,
) {
    match stdout_format(args) {
        Format::Table => rec.set_print(|r: &Row| println!("{}", r.line())),
        Format::Csv => {
            if !group.is_empty() {
                println!("{}", csv_out::header(extra));
            }
            rec.set_print(move |r: &Row| println!("{}", csv_out::line(r, extra)));
        }
        Format::Json => rec.set_print(|_: &Row| {}),
    }
}

/// The table's first lines, printed before the rows stream in.
fn print_heading(platform: &Platform, args: &LabArgs) {
    println!("# {}", platform.line());
    if platform.slug == "sim" {
        println!("# simulator backend: correctness only, no timings");
    } else {
        println!(
            "# {}",
            timing::describe(
                timing::MEMSET_AND_KERNEL,
                args.warmup,
                args.runs,
                args.min_sample_ms
            )
        );
    }
}

/// What follows the rows: the JSON report, or the table's ratios and the
/// files written (CSV prints nothing more: its rows are the output).
fn print_summary(report: &Report, args: &LabArgs, written: &[PathBuf]) {
    match stdout_format(args) {
        Format::Csv => {}
        Format::Json => println!(
            "{}",
            serde_json::to_string_pretty(report).unwrap_or_default()
        ),
        Format::Table => {
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
            println!("wrote {}", written_list(written));
        }
    }
}

fn written_list(written: &[PathBuf]) -> String {
    let files: Vec<String> = written.iter().map(|p| p.display().to_string()).collect();
    files.join(", ")
}
