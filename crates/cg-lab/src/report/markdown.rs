//! `C-02_cooperative_groups.md`: the run as a human reads it.

use std::fmt::Write;

use crate::results::{Report, Row};

fn ms(r: &Row) -> (String, String, String) {
    match &r.time_ms {
        Some(s) => (
            format!("{:.4}", s.median),
            format!("{:.4}", s.p10),
            format!("{:.4}", s.p90),
        ),
        None => ("–".into(), "–".into(), "–".into()),
    }
}

fn ratio(v: Option<f64>) -> String {
    v.map(|x| format!("{x:.3}")).unwrap_or_else(|| "–".into())
}

fn verdict(r: &Row) -> &'static str {
    if r.verified { "OK" } else { "**FAILED**" }
}

/// Renders the report.
pub fn render(rep: &Report) -> String {
    let mut s = String::new();
    let p = &rep.platform;
    let _ = writeln!(s, "# C-02 Cooperative Groups — {}\n", p.device);
    let _ = writeln!(s, "Platform: {}\n", p.line());
    let _ = writeln!(s, "Command: `{}`\n", p.command);
    let _ = writeln!(s, "Timing: {}\n", rep.interleaving);
    if !rep.sweep.is_empty() {
        let _ = writeln!(s, "## Sweep: `reduce(&tile, v, Plus)` by tile size\n");
        let _ = writeln!(
            s,
            "| tile | median ms | p10 ms | p90 ms | ÷ tile 32 | verify |"
        );
        let _ = writeln!(s, "| ---: | ---: | ---: | ---: | ---: | --- |");
        for r in &rep.sweep {
            let (m, a, b) = ms(r);
            let _ = writeln!(
                s,
                "| {} | {m} | {a} | {b} | {} | {} |",
                r.tile,
                ratio(r.norm),
                verdict(r)
            );
        }
        let cliff: Vec<String> = rep
            .sweep
            .iter()
            .filter(|r| r.tile > 32)
            .filter_map(|r| r.norm.map(|n| format!("tile {} = {n:.3}×", r.tile)))
            .collect();
        if !cliff.is_empty() {
            let _ = writeln!(s, "\nAbove 32 (÷ tile 32, same run): {}.", cliff.join(", "));
        }
        s.push('\n');
    }
    if !rep.modes.is_empty() {
        let _ = writeln!(s, "## Modes\n");
        let _ = writeln!(
            s,
            "| tag | tile | median ms | p10 ms | p90 ms | ÷ intrinsic | verify | check |"
        );
        let _ = writeln!(s, "| --- | ---: | ---: | ---: | ---: | ---: | --- | --- |");
        for r in &rep.modes {
            let (m, a, b) = ms(r);
            let _ = writeln!(
                s,
                "| {} | {} | {m} | {a} | {b} | {} | {} | {} |",
                r.tag,
                r.tile,
                ratio(r.ratio_vs_intrinsic),
                verdict(r),
                r.check
            );
        }
        if let Some((t, c)) = rep.tax() {
            let _ = writeln!(
                s,
                "\nAbstraction tax (same run): tile32 / intrinsic = {t:.3}×, cg_reduce(32) / intrinsic = {c:.3}×."
            );
        }
        s.push('\n');
    }
    for skip in &rep.skipped {
        let _ = writeln!(s, "Skipped: {skip}\n");
    }
    let _ = writeln!(s, "## Verification\n");
    for r in rep.rows() {
        let _ = writeln!(
            s,
            "- {} tile {}: {} ({})",
            r.tag,
            r.tile,
            verdict(r),
            r.check
        );
    }
    let all = if rep.all_verified() {
        "every configuration verified"
    } else {
        "**VERIFICATION FAILED**"
    };
    let _ = writeln!(s, "\nResult: {all}.");
    s
}
