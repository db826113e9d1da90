//! `sync.svg`: cycles per `sync()` against the tile size (log-log), Rust
//! and NVIDIA's C++, with each side's block barrier as a flat line, in the
//! largest block size of the run.

use anyhow::Result;
use plotters::prelude::*;

use super::chart::{TileChart, err, legend, svg};
use crate::results::SyncRow;

/// `None` when the run has no timings (the simulator).
pub fn draw(rows: &[SyncRow], device: &str) -> Result<Option<String>> {
    let Some(block) = rows
        .iter()
        .filter(|r| r.group == "tile" && r.rust_cycles.is_some())
        .map(|r| r.block)
        .max()
    else {
        return Ok(None);
    };
    // Warp tiles are measured in blocks of 128 (their cost does not depend
    // on the block); the multi-warp tiles in `block`.
    let tiles: Vec<&SyncRow> = rows
        .iter()
        .filter(|r| r.group == "tile" && (r.size <= 32 || r.block == block))
        .collect();
    let line = |f: fn(&SyncRow) -> Option<f64>| -> Vec<(u32, f64)> {
        tiles.iter().filter_map(|r| Some((r.size, f(r)?))).collect()
    };
    let rust = line(|r| r.rust_cycles.map(|s| s.median));
    let cpp = line(|r| r.cpp_cycles.map(|s| s.median));
    let barrier = rows.iter().find(|r| r.group == "block" && r.block == block);
    let flat = |f: fn(&SyncRow) -> Option<f64>| barrier.and_then(f);
    let rust_bar = flat(|r| r.rust_cycles.map(|s| s.median));
    let cpp_bar = flat(|r| r.cpp_cycles.map(|s| s.median));
    let all = rust
        .iter()
        .chain(&cpp)
        .map(|p| p.1)
        .chain(rust_bar)
        .chain(cpp_bar);
    let (lo, hi) = all.fold((f64::MAX, 0.0f64), |(lo, hi), v| (lo.min(v), hi.max(v)));
    let (lo, hi) = (lo.max(0.5) / 1.5, hi * 1.5);
    let frame = TileChart {
        caption: format!("cycles per sync(), tiles in blocks of {block} — {device}"),
        caption_size: 19,
        y_label_area: 60,
        y_desc: "cycles per iteration (log)",
    };
    svg((760, 460), |root| {
        let mut chart = frame.build(root, (1, 1024), (lo..hi).log_scale(), &|v: &f64| {
            format!("{v:.0}")
        })?;
        let series = [
            (rust, rust_bar, BLUE, "cooperative-groups (Rust)"),
            (cpp, cpp_bar, RED, "NVIDIA cooperative_groups (C++)"),
        ];
        for (pts, bar, color, label) in series {
            chart
                .draw_series(LineSeries::new(pts.clone(), color.stroke_width(2)))
                .map_err(err)?
                .label(label)
                .legend(move |(x, y)| {
                    PathElement::new(vec![(x, y), (x + 20, y)], color.stroke_width(2))
                });
            chart
                .draw_series(
                    pts.iter()
                        .map(|&(t, v)| Circle::new((t, v), 4, color.filled())),
                )
                .map_err(err)?;
            if let Some(b) = bar {
                chart
                    .draw_series(LineSeries::new(vec![(1, b), (1024, b)], color.mix(0.4)))
                    .map_err(err)?
                    .label(format!("{label}: block sync"))
                    .legend(move |(x, y)| {
                        PathElement::new(vec![(x, y), (x + 20, y)], color.mix(0.4))
                    });
            }
        }
        legend(&mut chart, WHITE.mix(0.85).into(), BLACK.mix(0.3).into())
    })
    .map(Some)
}
