//! What an experiment of `cg-lab compare` is to the harness: the trait
//! [`Experiment`] and the values it passes through it.

use anyhow::{Context, Result};
use cg_runtime::Backend;
use serde::Serialize;

use crate::reference::{Flavour, Source};
use crate::results::Platform;
use crate::stats::Summary;

use super::csv::CsvRow;
use super::twin::{Build, Twin};

/// The flags of `cg-lab compare` an experiment may read (each reads what
/// applies to it; `compare` refuses a flag no named experiment reads).
#[derive(Clone, Copy, Debug)]
pub struct Options<'o> {
    /// Input sizes (`--sizes`, ascending, or the defaults); the simulator
    /// uses the experiment's [`Experiment::SIM_SIZES`] instead.
    pub sizes: &'o [u32],
    /// The lab's `--n` (device_wide checks that it fits the GPU's memory,
    /// as every GPU command of the lab does).
    pub n: u32,
    /// `--keys`: the key types device_radix_sort sorts (empty: all).
    pub keys: &'o [String],
    /// `--prims`: the kernels primitives runs (empty: all).
    pub prims: &'o [String],
    /// `--grid`: the grid of the experiments that take one (memcpy_async).
    pub grid: Option<u32>,
}

/// One verification: its verdict, what it compared, and what else it
/// measured (e.g. the number of selected items, used by the rows).
#[derive(Clone, Debug, Default)]
pub struct Verified<X = ()> {
    /// The output matched the host's model.
    pub ok: bool,
    /// What was compared, or the first difference.
    pub what: String,
    /// The experiment's own measurement.
    pub extra: X,
}

impl Verified {
    /// A verdict with nothing else measured.
    pub fn new(ok: bool, what: String) -> Verified {
        Verified {
            ok,
            what,
            extra: (),
        }
    }
}

/// Told of each variant before (`None`) and after (its verdict) its
/// verification: the harness's progress message and printed line.
pub type Watch<'w, V, X> = dyn FnMut(V, Option<&Verified<X>>) + 'w;

/// The GPU of a bench's backend (its GPU-only paths: C++ launches, SASS).
pub fn gpu_of(backend: &Backend) -> &cg_runtime::Gpu {
    match backend {
        Backend::Gpu(g) => g,
        Backend::Sim(_) => unreachable!("timing runs on a GPU only"),
    }
}

/// What a row tells the failure summary.
pub trait Outcome {
    /// `None` when every side of the row verified; else the row's label
    /// and what failed, e.g. `device_scan_i32 n=1024 (element 7 …)`.
    fn failure(&self) -> Option<String>;
}

/// What an experiment's report sees besides its rows.
pub struct Report<'r, B> {
    /// The sizes that were run, ascending.
    pub sizes: &'r [u32],
    /// The machine.
    pub platform: &'r Platform,
    /// How the timing was done ([`crate::timing::describe`]).
    pub timing: &'r str,
    /// The bench the rows were measured on (its launch shapes).
    pub bench: &'r B,
}

/// One Rust-against-C++ experiment of `cg-lab compare`: what is its own
/// (data, kernels, checks, report); the harness's `run::run`
/// does the rest (named, not linked: the trait does not depend on it).
///
/// See the [module documentation](super) for how to add one.
pub trait Experiment {
    /// `--only` name, stem of the output files (`NAME.csv`, `.md`,
    /// `.json`) and first word of the printed lines.
    const NAME: &'static str;
    /// The C++ twin, built with nvcc as a shared library whose host
    /// entry points the bench looks up.
    const TWIN: Source;
    /// How the twin is built: a shared library unless said otherwise.
    const BUILD: Build = Build::Library;
    /// More builds of a [`Build::Cubin`] twin, each with more nvcc flags
    /// (e.g. `--use_fast_math`): [`Twin::flavoured`] finds them. None
    /// unless said otherwise.
    const FLAVOURS: &'static [Flavour] = &[];
    /// Whether the twin is CUB (said when it is built).
    const CUB: bool = true;
    /// Libraries a [`Build::Library`] twin links (`-l` names, e.g.
    /// `cublas`); none unless said otherwise.
    const LIBS: &'static [&'static str] = &[];
    /// Sizes of its own on a GPU, not `--sizes`' (None: `--sizes`').
    const OWN_SIZES: Option<&'static [u32]> = None;
    /// What one timed sample covers, for the report's timing paragraph.
    const TIMED: &'static str;
    /// The sizes the simulator verifies at (small, with partial tiles).
    const SIM_SIZES: &'static [u32];
    /// Width of the kernel column of the printed lines: on the simulator,
    /// on a GPU.
    const WIDTH: (usize, usize);

    /// One configuration both verified and timed (size, algorithm, side).
    type Variant: Copy;
    /// What a verification measures besides its verdict.
    type Extra: Default;
    /// One row of the CSV, JSON and report.
    type Row: Serialize + CsvRow + Outcome;
    /// The buffers, the twin's entry points and the launches.
    type Bench<'a>;

    /// Why the experiment cannot run on `gpu` (e.g. it needs a PTX target
    /// the GPU did not load), checked before anything is built: `None`
    /// unless said otherwise.
    fn unsupported(_gpu: &cg_runtime::Gpu) -> Option<String> {
        None
    }

    /// Uploads the inputs for `sizes` onto `backend`; `twin` is the C++
    /// twin, loaded (`None` on the simulator, where only Rust runs).
    fn bench<'a>(
        backend: &'a Backend,
        twin: Option<&'a Twin>,
        sizes: &[u32],
        opts: &Options<'_>,
    ) -> Result<Self::Bench<'a>>;

    /// Every variant at `sizes` that `b` runs, in timing order; C++ sides
    /// only with `cpp`.
    fn variants(
        b: &Self::Bench<'_>,
        sizes: &[u32],
        opts: &Options<'_>,
        cpp: bool,
    ) -> Vec<Self::Variant>;

    /// The kernel a variant runs (printed lines, failure summary).
    fn kernel(v: Self::Variant) -> String;

    /// The input size of a variant.
    fn n(v: Self::Variant) -> u32;

    /// One timed launch of `v` on a GPU, not waited for.
    fn launch(b: &mut Self::Bench<'_>, v: Self::Variant) -> Result<()>;

    /// One launch of `v` against the host's model.
    fn verify(b: &mut Self::Bench<'_>, v: Self::Variant) -> Result<Verified<Self::Extra>>;

    /// Verifies every variant, telling `each` of each one before
    /// (`None`) and after (its verdict); returns the verdicts in
    /// `variants`' order. The default verifies in that order; an
    /// experiment whose host models are costly may group them.
    fn verify_all(
        b: &mut Self::Bench<'_>,
        variants: &[Self::Variant],
        each: &mut Watch<'_, Self::Variant, Self::Extra>,
    ) -> Result<Vec<Verified<Self::Extra>>> {
        let mut checks = Vec::with_capacity(variants.len());
        for &v in variants {
            each(v, None);
            let c = Self::verify(b, v)
                .with_context(|| format!("verifying {} at n = {}", Self::kernel(v), Self::n(v)))?;
            each(v, Some(&c));
            checks.push(c);
        }
        Ok(checks)
    }

    /// What the line of a verified variant says before its verdict: on
    /// the simulator (`sim`) its kernel and size and that it ran there; on
    /// a GPU its kernel and size as a power of two.
    fn label(v: Self::Variant, sim: bool) -> String {
        let (k, n) = (Self::kernel(v), Self::n(v));
        if sim {
            format!("{k:<w$} n={n:<6} on the simulator:", w = Self::WIDTH.0)
        } else {
            format!("{k:<w$} n=2^{:<2}", n.trailing_zeros(), w = Self::WIDTH.1)
        }
    }

    /// What the simulator's failure summary calls a failed variant.
    fn sim_label(v: Self::Variant) -> String {
        format!("{} n={}", Self::kernel(v), Self::n(v))
    }

    /// The rows of the timed variants: `ms[i]` and `checks[i]` belong to
    /// `variants[i]`.
    fn rows(
        b: &Self::Bench<'_>,
        variants: &[Self::Variant],
        ms: Vec<Summary>,
        checks: Vec<Verified<Self::Extra>>,
        platform: &Platform,
    ) -> Vec<Self::Row>;

    /// `NAME.md`.
    fn markdown(rows: &[Self::Row], r: &Report<'_, Self::Bench<'_>>) -> String;

    /// The printed line of a row.
    fn line(row: &Self::Row) -> String;

    /// Files beside `NAME.{csv,md,json}`, written after them as
    /// `NAME.{extension}`: (extension, text), e.g. a plot. None unless
    /// said otherwise.
    fn more_files(
        _rows: &[Self::Row],
        _r: &Report<'_, Self::Bench<'_>>,
    ) -> Vec<(&'static str, String)> {
        Vec::new()
    }

    /// The SASS report of the timed variants, written into `out` after the
    /// rows are printed (`dir`: the twin's build folder); a failure is only
    /// a note, the measurements stand. None unless said otherwise.
    fn sass(
        _b: &Self::Bench<'_>,
        _variants: &[Self::Variant],
        _twin: &Twin,
        _dir: &std::path::Path,
        _out: &std::path::Path,
    ) -> Result<()> {
        Ok(())
    }
}
