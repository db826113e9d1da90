//! CSV rows: the seed's columns `tag,tile,block,grid,reps,n,median_ms,p10_ms,p90_ms`
//! plus one ratio column and the verification verdict.

use std::path::Path;

use anyhow::Result;

use crate::results::Row;

/// The ratio column of a table, which also names its group: the sweep
/// (`norm`) or the modes (`ratio_vs_intrinsic`).
#[derive(Clone, Copy, Debug)]
pub enum Extra {
    /// `norm`: ÷ tile 32 (sweep).
    Norm,
    /// `ratio_vs_intrinsic` (modes).
    RatioVsIntrinsic,
}

impl Extra {
    fn header(self) -> &'static str {
        match self {
            Extra::Norm => "norm",
            Extra::RatioVsIntrinsic => "ratio_vs_intrinsic",
        }
    }
    fn value(self, r: &Row) -> Option<f64> {
        match self {
            Extra::Norm => r.norm,
            Extra::RatioVsIntrinsic => r.ratio_vs_intrinsic,
        }
    }
}

/// The header line.
pub fn header(extra: Extra) -> String {
    format!(
        "tag,tile,block,grid,reps,n,median_ms,p10_ms,p90_ms,{},verified",
        extra.header()
    )
}

fn opt(v: Option<f64>, digits: usize) -> String {
    v.map(|x| format!("{x:.digits$}")).unwrap_or_default()
}

/// One CSV line (no newline).
pub fn line(r: &Row, extra: Extra) -> String {
    let t = r.time_ms.as_ref();
    format!(
        "{},{},{},{},{},{},{},{},{},{},{}",
        r.tag,
        r.tile,
        r.block,
        r.grid,
        r.reps,
        r.n,
        opt(t.map(|s| s.median), 6),
        opt(t.map(|s| s.p10), 6),
        opt(t.map(|s| s.p90), 6),
        opt(extra.value(r), 4),
        r.verified
    )
}

/// Writes `rows` to `path` (atomically).
pub fn write(path: &Path, rows: &[Row], extra: Extra) -> Result<()> {
    let mut text = header(extra) + "\n";
    for r in rows {
        text.push_str(&line(r, extra));
        text.push('\n');
    }
    crate::output::write_atomic(path, text.as_bytes())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::stats::Summary;

    #[test]
    fn columns_match_the_seed_plus_ratio() {
        let r = Row {
            tag: "cg_reduce".into(),
            tile: 64,
            block: 128,
            grid: 1056,
            reps: 50,
            n: 1 << 24,
            time_ms: Some(Summary {
                median: 0.0444,
                p10: 0.044,
                p90: 0.045,
                n: 7,
            }),
            norm: Some(1.603),
            ratio_vs_intrinsic: None,
            verified: true,
            check: String::new(),
        };
        assert_eq!(
            header(Extra::Norm),
            "tag,tile,block,grid,reps,n,median_ms,p10_ms,p90_ms,norm,verified"
        );
        assert_eq!(
            line(&r, Extra::Norm),
            "cg_reduce,64,128,1056,50,16777216,0.044400,0.044000,0.045000,1.6030,true"
        );
        assert_eq!(
            line(&r, Extra::RatioVsIntrinsic).split(',').nth(9),
            Some("")
        );
    }
}
