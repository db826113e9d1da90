//! What the charts share: an SVG canvas drawn into a string, and the frame
//! of the two tile-size line charts (`C-02_cliff.svg`, `sync.svg`) —
//! caption, margins, a log2 tile-size axis, the mesh and the legend box.

use anyhow::{Result, anyhow};
use plotters::coord::Shift;
use plotters::coord::ranged1d::{AsRangedCoord, ValueFormatter};
use plotters::prelude::*;

/// A plotting error as the lab reports it.
pub fn err<E: std::fmt::Display>(e: E) -> anyhow::Error {
    anyhow!("plotting: {e}")
}

/// Draws on a white `size` canvas with `draw` and returns the SVG text.
pub fn svg(
    size: (u32, u32),
    draw: impl FnOnce(&DrawingArea<SVGBackend<'_>, Shift>) -> Result<()>,
) -> Result<String> {
    let mut svg = String::new();
    {
        let root = SVGBackend::with_string(&mut svg, size).into_drawing_area();
        root.fill(&WHITE).map_err(err)?;
        draw(&root)?;
        root.present().map_err(err)?;
    }
    Ok(svg)
}

/// The frame of a chart over tile sizes: x from tile `lo` to `hi` on a
/// log2 axis, y as the caller's axis.
pub struct TileChart<'s> {
    /// The title.
    pub caption: String,
    /// Its font size.
    pub caption_size: u32,
    /// Width of the y labels' area.
    pub y_label_area: u32,
    /// The y axis's description.
    pub y_desc: &'s str,
}

/// A chart whose x axis is the log2 tile size.
pub type TileContext<'a, 'b, Y> = ChartContext<
    'a,
    SVGBackend<'b>,
    Cartesian2d<LogCoord<u32>, <Y as AsRangedCoord>::CoordDescType>,
>;

impl TileChart<'_> {
    /// Builds the chart on `root` and draws its mesh (`y_fmt` labels the y axis).
    pub fn build<'a, 'b, Y, V>(
        &self,
        root: &'a DrawingArea<SVGBackend<'b>, Shift>,
        (lo, hi): (u32, u32),
        y: Y,
        y_fmt: &dyn Fn(&V) -> String,
    ) -> Result<TileContext<'a, 'b, Y>>
    where
        Y: AsRangedCoord<Value = V>,
        Y::CoordDescType: Ranged<ValueType = V> + ValueFormatter<V>,
    {
        let mut chart = ChartBuilder::on(root)
            .caption(&self.caption, ("sans-serif", self.caption_size))
            .margin(16)
            .x_label_area_size(40)
            .y_label_area_size(self.y_label_area)
            .build_cartesian_2d((lo..hi).log_scale().base(2.0), y)
            .map_err(err)?;
        chart
            .configure_mesh()
            .x_desc("tile size (threads, log2)")
            .y_desc(self.y_desc)
            .x_label_formatter(&|t| t.to_string())
            .y_label_formatter(y_fmt)
            .draw()
            .map_err(err)?;
        Ok(chart)
    }
}

/// Draws the series labels in the upper left corner, in a box of
/// `background` with a `border`.
pub fn legend<'a, 'b: 'a, X: Ranged, Y: Ranged>(
    chart: &mut ChartContext<'a, SVGBackend<'b>, Cartesian2d<X, Y>>,
    background: ShapeStyle,
    border: ShapeStyle,
) -> Result<()> {
    chart
        .configure_series_labels()
        .background_style(background)
        .border_style(border)
        .position(SeriesLabelPosition::UpperLeft)
        .draw()
        .map_err(err)
}
