//! The life cycle every experiment shares: on the simulator, verify the
//! Rust side and say nothing was timed; on a GPU, find nvcc, prepare the
//! output folder, build and load the C++ twin, verify both sides, time
//! them interleaved, write `NAME.{csv,md,json}`, print the rows and fail
//! on any row that did not verify.

use anyhow::{Context, Result, bail};
use cg_runtime::{Backend, Gpu, tools};

use crate::cli::LabArgs;
use crate::output::write_atomic;
use crate::progress::Progress;
use crate::stats::Summary;
use crate::timing;

use super::csv::to_csv;
use super::experiment::{Experiment, Options, Outcome, Report};
use super::markdown::ok;
use super::twin::Twin;

/// Runs `E` with the lab's flags `a` (backend, output folder, timing).
pub fn run<E: Experiment>(a: &LabArgs, opts: &Options<'_>) -> Result<()> {
    let progress = Progress::new(0, a.csv_only);
    let r = run_with::<E>(a, opts, &progress);
    progress.finish();
    r
}

fn run_with<E: Experiment>(a: &LabArgs, opts: &Options<'_>, progress: &Progress) -> Result<()> {
    let backend = a.backend.open()?;
    let Backend::Gpu(gpu) = &backend else {
        return simulate::<E>(&backend, opts);
    };
    let name = E::NAME;
    if let Some(why) = E::unsupported(gpu) {
        bail!("the {name} experiment cannot run on this GPU: {why}");
    }
    let file = format!("reference/cuda/{}.cu", E::TWIN.stem);
    let Some(nvcc) = tools::find_tool("nvcc") else {
        bail!("the {name} experiment builds {file} with nvcc, which was not found");
    };
    let sm = gpu.info().sm();
    let out = crate::results::out_dir(a.out.as_deref(), &gpu.info().slug());
    crate::preflight::check_out_dir(&out)?;
    let dir = std::env::temp_dir().join(format!(
        "cg-lab-{}-{}",
        name.replace('_', "-"),
        std::process::id()
    ));
    let cub = if E::CUB { " (CUB)" } else { "" };
    let libs: String = E::LIBS.iter().map(|l| format!(" -l{l}")).collect();
    let also: String = E::FLAVOURS
        .iter()
        .map(|f| format!(", again with {}", f.flags.join(" ")))
        .collect();
    eprintln!(
        "building {file}{cub}{libs} with {} for sm_{sm}{also} …",
        nvcc.display()
    );
    let twin = Twin::build(gpu, &nvcc, &dir, E::BUILD, E::TWIN, E::LIBS, E::FLAVOURS)?;
    let sizes = E::OWN_SIZES.unwrap_or(opts.sizes);
    let mut b = E::bench(&backend, Some(&twin), sizes, opts)?;
    let variants = E::variants(&b, sizes, opts, true);
    let checks = E::verify_all(&mut b, &variants, &mut |v, c| match c {
        None => progress.set_message(format!("verify {name} {} n={}", E::kernel(v), E::n(v))),
        Some(c) => println!(
            "verified {name} {} {} ({})",
            E::label(v, false),
            ok(c.ok),
            c.what
        ),
    })?;
    let samples = timing::time_interleaved(
        &mut Timing::<E>(&mut b, gpu),
        &variants,
        a.warmup,
        a.runs,
        1,
        a.min_sample_ms,
        progress,
    )
    .with_context(|| format!("timing {name}"))?;
    let platform = crate::results::platform(&backend);
    let ms = samples.iter().map(|s| Summary::of(s)).collect();
    let rows = E::rows(&b, &variants, ms, checks, &platform);
    let timing = timing::describe(E::TIMED, a.warmup, a.runs, a.min_sample_ms);
    let report = Report {
        sizes,
        platform: &platform,
        timing: &timing,
        bench: &b,
    };
    let mut files = vec![
        ("csv", to_csv(&rows)),
        ("md", E::markdown(&rows, &report)),
        ("json", serde_json::to_string_pretty(&rows)?),
    ];
    files.extend(E::more_files(&rows, &report));
    for (ext, text) in files {
        let path = out.join(format!("{name}.{ext}"));
        write_atomic(&path, text.as_bytes())?;
        println!("wrote {}", path.display());
    }
    for r in &rows {
        println!("{}", E::line(r));
    }
    if let Err(e) = E::sass(&b, &variants, &twin, &dir, &out) {
        eprintln!("note: {name} SASS not written: {e}");
    }
    std::fs::remove_dir_all(&dir).ok();
    let bad: Vec<String> = rows.iter().filter_map(Outcome::failure).collect();
    if !bad.is_empty() {
        bail!("{name} verification FAILED: {}", bad.join("; "));
    }
    Ok(())
}

/// `E`'s launches on `gpu`, for the interleaved timing.
struct Timing<'b, 'a, E: Experiment>(&'b mut E::Bench<'a>, &'b Gpu);

impl<E: Experiment> timing::Timed for Timing<'_, '_, E> {
    type Variant = E::Variant;
    fn gpu(&self) -> &Gpu {
        self.1
    }
    fn launch_async(&mut self, v: E::Variant, _reps: u32) -> Result<()> {
        E::launch(self.0, v)
    }
}

/// Without a GPU: the Rust side at the simulator's sizes, nothing timed.
fn simulate<E: Experiment>(backend: &Backend, opts: &Options<'_>) -> Result<()> {
    let name = E::NAME;
    let mut b = E::bench(backend, None, E::SIM_SIZES, opts)?;
    let variants = E::variants(&b, E::SIM_SIZES, opts, false);
    let mut bad = Vec::new();
    E::verify_all(&mut b, &variants, &mut |v, c| {
        let Some(c) = c else { return };
        println!(
            "verified {name} {} {} ({})",
            E::label(v, true),
            ok(c.ok),
            c.what
        );
        if !c.ok {
            bad.push(E::sim_label(v));
        }
    })?;
    let twin = if E::CUB {
        "CUB was"
    } else {
        "its C++ twin was"
    };
    println!(
        "{name}: no GPU, so {twin} not built and nothing was timed (simulator verification only)"
    );
    if !bad.is_empty() {
        bail!(
            "{name} verification FAILED on the simulator: {}",
            bad.join("; ")
        );
    }
    Ok(())
}
