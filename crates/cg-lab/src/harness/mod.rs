//! The harness every `cg-lab compare` experiment runs on: one life cycle
//! ([`run::run`]) over one trait ([`experiment::Experiment`]).
//!
//! An experiment holds only what is its own: its data and host model, its
//! kernels and their launches, the C++ twin's entry points, its rows and
//! its report's text. The harness does the rest the same way for every
//! one: the simulator-or-GPU choice (without a GPU the Rust side is
//! verified at the experiment's small sizes and nothing is timed), nvcc,
//! the output folder, building and loading the twin, verifying every
//! variant before timing, the interleaved timing (`timing::time_interleaved`:
//! warm-ups, alternating rounds, medians and percentiles), the CSV
//! (serialized from the rows through their [`csv::CsvRow`] columns), the
//! JSON, the markdown's head and tables, the printed lines and the
//! failure summary.
//!
//! # Adding an experiment
//!
//! 1. Write `experiments/<name>.rs`: a unit type implementing
//!    [`experiment::Experiment`] (its `NAME` is the `--only` name), its
//!    bench (buffers and launches; `Experiment::launch` is one timed launch), its row
//!    type (`Serialize`, [`csv::CsvRow`], [`experiment::Outcome`]) and its
//!    report ([`markdown::head`], [`markdown::table_head`]). Put the C++
//!    twin in `reference/cuda/<name>.cu` and its [`crate::reference::Source`]
//!    in `reference.rs`.
//! 2. Register it: one line in `experiments::EXPERIMENTS` (named, not linked:
//!    the harness does not depend on its experiments).
//! 3. Add a golden test (`golden::check_experiment::<YourType>()`), run
//!    it once with `CG_BLESS=1` and commit the files it writes under
//!    `tests/fixtures/compare/`; from then on a change to the CSV columns
//!    or the report's text shows in review.
//!
//! `experiments/device_histogram.rs` is the smallest example.

pub mod csv;
pub mod experiment;
pub mod markdown;
pub mod run;
pub mod twin;

#[cfg(test)]
pub mod golden;
