//! Summary statistics of repeated timings, as the seed computes them:
//! sort, then linear interpolation between order statistics.

use serde::Serialize;

/// Median and 10th/90th percentiles of a sample, in the sample's unit.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct Summary {
    /// 50th percentile.
    pub median: f64,
    /// 10th percentile.
    pub p10: f64,
    /// 90th percentile.
    pub p90: f64,
    /// Sample size.
    pub n: usize,
}

/// The `q`-quantile (0 ≤ q ≤ 1) of sorted data, linearly interpolated
/// between the two nearest ranks (`pos = q · (n − 1)`).
pub fn quantile_sorted(sorted: &[f64], q: f64) -> f64 {
    assert!(!sorted.is_empty(), "quantile of an empty sample");
    let pos = q.clamp(0.0, 1.0) * (sorted.len() - 1) as f64;
    let lo = pos.floor() as usize;
    let hi = pos.ceil() as usize;
    let frac = pos - lo as f64;
    sorted[lo] + (sorted[hi] - sorted[lo]) * frac
}

impl Summary {
    /// Summarises `samples` (any order). Panics on an empty sample.
    pub fn of(samples: &[f64]) -> Summary {
        let mut s = samples.to_vec();
        s.sort_by(|a, b| a.total_cmp(b));
        Summary {
            median: quantile_sorted(&s, 0.5),
            p10: quantile_sorted(&s, 0.1),
            p90: quantile_sorted(&s, 0.9),
            n: s.len(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn odd_and_even_medians() {
        assert_eq!(Summary::of(&[3.0, 1.0, 2.0]).median, 2.0);
        assert_eq!(Summary::of(&[4.0, 1.0, 2.0, 3.0]).median, 2.5);
    }

    #[test]
    fn percentiles_interpolate() {
        // 7 runs, as the seed's default: pos(p10) = 0.6, pos(p90) = 5.4.
        let s = Summary::of(&[10.0, 20.0, 30.0, 40.0, 50.0, 60.0, 70.0]);
        assert!((s.p10 - 16.0).abs() < 1e-12, "{}", s.p10);
        assert!((s.p90 - 64.0).abs() < 1e-12, "{}", s.p90);
        assert_eq!(s.median, 40.0);
        assert_eq!(s.n, 7);
    }

    #[test]
    fn single_sample() {
        let s = Summary::of(&[1.5]);
        assert_eq!((s.median, s.p10, s.p90), (1.5, 1.5, 1.5));
    }
}
