//! The parts every experiment's report shares: its head and its tables'
//! header rows.

use crate::results::Platform;

/// `# {title} — {device}`, then the platform line and the command.
pub fn head(title: &str, p: &Platform) -> String {
    format!(
        "# {title} — {}\n\nPlatform: {}\n\nCommand: `{}`\n\n",
        p.device,
        p.line(),
        p.command
    )
}

/// A table's header and rule lines: `cells` are `(header, right-aligned)`.
pub fn table_head(cells: &[(&str, bool)]) -> String {
    let row = |f: &dyn Fn(&(&str, bool)) -> String| {
        let c: Vec<String> = cells.iter().map(f).collect();
        format!("| {} |\n", c.join(" | "))
    };
    row(&|c| c.0.to_string()) + &row(&|c| if c.1 { "---:" } else { "---" }.to_string())
}

/// `OK` or `FAILED`.
pub fn ok(b: bool) -> &'static str {
    if b { "OK" } else { "FAILED" }
}

/// `both` when both sides verified, else `FAILED`.
pub fn both(rust: bool, cpp: bool) -> &'static str {
    if rust && cpp { "both" } else { "FAILED" }
}
