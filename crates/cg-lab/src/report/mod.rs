//! The files a lab run writes: `C-02_sweep.csv`, `C-02_modes.csv`,
//! `C-02_cooperative_groups.md`, `C-02.json` and the SVG plots.

pub mod chart;
pub mod compare;
pub mod csv_out;
pub mod markdown;
pub mod plot;
pub mod sync_plot;

use std::path::{Path, PathBuf};

use anyhow::{Context, Result};

use crate::output::write_atomic;
use crate::results::Report;

/// Writes every output of `report` into `dir` (created if needed), each
/// atomically; returns the paths written.
pub fn write_all(report: &Report, dir: &Path) -> Result<Vec<PathBuf>> {
    std::fs::create_dir_all(dir).with_context(|| format!("creating {}", dir.display()))?;
    let mut written = Vec::new();
    if !report.sweep.is_empty() {
        let p = dir.join("C-02_sweep.csv");
        csv_out::write(&p, &report.sweep, csv_out::Extra::Norm)?;
        written.push(p);
        if let Some(svg) = plot::cliff(report)? {
            let p = dir.join("C-02_cliff.svg");
            write_atomic(&p, svg.as_bytes())?;
            written.push(p);
        }
    }
    if !report.modes.is_empty() {
        let p = dir.join("C-02_modes.csv");
        csv_out::write(&p, &report.modes, csv_out::Extra::RatioVsIntrinsic)?;
        written.push(p);
        if let Some(svg) = plot::modes(report)? {
            let p = dir.join("C-02_modes.svg");
            write_atomic(&p, svg.as_bytes())?;
            written.push(p);
        }
    }
    let p = dir.join("C-02_cooperative_groups.md");
    write_atomic(&p, markdown::render(report).as_bytes())?;
    written.push(p);
    let p = dir.join("C-02.json");
    write_atomic(
        &p,
        (serde_json::to_string_pretty(report)? + "\n").as_bytes(),
    )?;
    written.push(p);
    Ok(written)
}
