//! SVG plots: the cliff curve (time ÷ tile 32 against tile size, log2 axis,
//! with the 1.0 line, as the seed's figure) and the modes bar chart.
//!
//! Plots are drawn into a string and written by the caller through
//! [`write_atomic`](crate::output::write_atomic), as every other output.

use anyhow::Result;
use plotters::prelude::*;

use super::chart::{TileChart, err, legend, svg};
use crate::results::{CompareRow, Report};

/// Draws `C-02_cliff.svg`; `None` when the run has no timings.
pub fn cliff(rep: &Report) -> Result<Option<String>> {
    let pts: Vec<(u32, f64)> = rep
        .sweep
        .iter()
        .filter_map(|r| Some((r.tile, r.norm?)))
        .collect();
    if pts.len() < 2 {
        return Ok(None);
    }
    let (lo, hi) = (pts[0].0, pts[pts.len() - 1].0);
    let ymax = pts.iter().map(|p| p.1).fold(1.0f64, f64::max) * 1.15;
    let frame = TileChart {
        caption: format!("cg reduce: time ÷ tile 32 — {}", rep.platform.device),
        caption_size: 20,
        y_label_area: 56,
        y_desc: "median time ÷ tile 32",
    };
    svg((720, 440), |root| {
        let mut chart = frame.build(root, (lo, hi), 0.0..ymax, &|v: &f64| format!("{v:.2}"))?;
        chart
            .draw_series(LineSeries::new(vec![(lo, 1.0), (hi, 1.0)], BLACK.mix(0.5)))
            .map_err(err)?
            .label("1.0 = tile 32")
            .legend(|(x, y)| PathElement::new(vec![(x, y), (x + 20, y)], BLACK.mix(0.5)));
        chart
            .draw_series(LineSeries::new(pts.clone(), BLUE.stroke_width(2)))
            .map_err(err)?
            .label("cooperative-groups (Rust)")
            .legend(|(x, y)| PathElement::new(vec![(x, y), (x + 20, y)], BLUE.stroke_width(2)));
        chart
            .draw_series(
                pts.iter()
                    .map(|&(t, v)| Circle::new((t, v), 4, BLUE.filled())),
            )
            .map_err(err)?;
        legend(&mut chart, WHITE.mix(0.8).into(), BLACK.into())
    })
    .map(Some)
}

/// A bar chart of labelled values; `reference` draws a horizontal line
/// (e.g. 1.0 for ratios) and colours bars above `reference × 1.02` red.
struct Bars<'a> {
    title: String,
    y_desc: &'a str,
    bars: Vec<(String, f64)>,
    reference: Option<f64>,
    size: (u32, u32),
}

impl Bars<'_> {
    fn draw(&self) -> Result<String> {
        let bars = &self.bars;
        let top = bars
            .iter()
            .map(|b| b.1)
            .fold(self.reference.unwrap_or(0.0), f64::max)
            * 1.2;
        svg(self.size, |root| {
            let mut chart = ChartBuilder::on(root)
                .caption(&self.title, ("sans-serif", 20))
                .margin(16)
                .x_label_area_size(60)
                .y_label_area_size(64)
                .build_cartesian_2d((0..bars.len()).into_segmented(), 0.0..top)
                .map_err(err)?;
            let labels: Vec<String> = bars.iter().map(|b| b.0.clone()).collect();
            chart
                .configure_mesh()
                .disable_x_mesh()
                .y_desc(self.y_desc)
                .x_labels(bars.len())
                .x_label_style(("sans-serif", 11))
                .x_label_formatter(&|v| match v {
                    SegmentValue::CenterOf(i) => labels.get(*i).cloned().unwrap_or_default(),
                    _ => String::new(),
                })
                .y_label_formatter(&|v| format!("{v:.3}"))
                .draw()
                .map_err(err)?;
            chart
                .draw_series(bars.iter().enumerate().map(|(i, b)| {
                    let color = match self.reference {
                        Some(r) if b.1 > r * 1.02 => RED.mix(0.6),
                        Some(_) => GREEN.mix(0.6),
                        None => BLUE.mix(0.6),
                    };
                    Rectangle::new(
                        [
                            (SegmentValue::Exact(i), 0.0),
                            (SegmentValue::Exact(i + 1), b.1),
                        ],
                        color.filled(),
                    )
                }))
                .map_err(err)?;
            if let Some(r) = self.reference {
                chart
                    .draw_series(LineSeries::new(
                        vec![
                            (SegmentValue::Exact(0), r),
                            (SegmentValue::Exact(bars.len()), r),
                        ],
                        BLACK.stroke_width(1),
                    ))
                    .map_err(err)?;
            }
            Ok(())
        })
    }
}

/// Draws `C-02_modes.svg`: median ms per mode; `None` when there are no timings.
pub fn modes(rep: &Report) -> Result<Option<String>> {
    let bars: Vec<(String, f64)> = rep
        .modes
        .iter()
        .filter_map(|r| Some((format!("{} ({})", r.tag, r.tile), r.time_ms?.median)))
        .collect();
    if bars.is_empty() {
        return Ok(None);
    }
    Bars {
        title: format!("C-02 modes, median ms — {}", rep.platform.device),
        y_desc: "median ms",
        bars,
        reference: None,
        size: (720, 440),
    }
    .draw()
    .map(Some)
}

/// Draws `compare.svg`: Rust ÷ C++ median per experiment, with the 1.0 line.
pub fn compare(rows: &[CompareRow], device: &str) -> Result<String> {
    let bars = rows
        .iter()
        .map(|r| {
            let label = if r.experiment == "cg_reduce" {
                format!("cg_reduce {}", r.tile)
            } else {
                r.experiment.clone()
            };
            (label, r.rust_over_cpp)
        })
        .collect();
    Bars {
        title: format!("Rust ÷ CUDA C++ (median, same run) — {device}"),
        y_desc: "Rust time ÷ C++ time",
        bars,
        reference: Some(1.0),
        size: (960, 460),
    }
    .draw()
}
