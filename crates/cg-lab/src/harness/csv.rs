//! CSV from rows: each row type lists its columns once (header and cell
//! together), and [`to_csv`] serializes the rows through that list, so a
//! header cannot drift from its cells.

/// One column: its header and how a row's cell is written.
pub type Column<R> = (&'static str, fn(&R) -> String);

/// A row type's columns, in order.
pub trait CsvRow: Sized + 'static {
    /// The columns.
    const COLUMNS: &'static [Column<Self>];
}

/// The header line and one line per row.
pub fn to_csv<R: CsvRow>(rows: &[R]) -> String {
    let line = |cells: Vec<String>| cells.join(",") + "\n";
    let mut s = line(R::COLUMNS.iter().map(|c| c.0.to_string()).collect());
    for r in rows {
        s += &line(R::COLUMNS.iter().map(|c| (c.1)(r)).collect());
    }
    s
}

/// A time in milliseconds, as every timing column writes it.
pub fn ms(x: f64) -> String {
    format!("{x:.6}")
}

/// A percentage of the DRAM peak, empty without a peak.
pub fn pct(x: Option<f64>) -> String {
    x.map_or_else(String::new, |x| format!("{x:.2}"))
}

/// A kernel name in quotes (CUB's names hold commas).
pub fn quoted(s: &str) -> String {
    format!("\"{s}\"")
}
