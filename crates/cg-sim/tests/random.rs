//! Randomized shapes: random block sizes (partial warps), random labels
//! splitting each warp into subset masks, every value-returning collective
//! checked against a host model.

mod common;

use cg_sim::LaunchConfig;
use cg_sim::lane::{self, ReduxOp, ShflMode};
use common::{Out, run, tid};

/// SplitMix64: a small deterministic generator.
fn mix(mut z: u64) -> u64 {
    z = z.wrapping_add(0x9e37_79b9_7f4a_7c15);
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

struct Case {
    seed: u64,
    threads: u32,
    labels: u64,
}

impl Case {
    fn label(&self, t: u32) -> u64 {
        mix(self.seed ^ (t as u64) << 20) % self.labels
    }
    fn value(&self, t: u32) -> u32 {
        mix(self.seed.wrapping_mul(31) ^ t as u64) as u32
    }
    /// The lanes of `t`'s warp with `t`'s label.
    fn mask(&self, t: u32) -> u32 {
        let base = t / 32 * 32;
        (base..(base + 32).min(self.threads))
            .filter(|&u| self.label(u) == self.label(t))
            .fold(0, |m, u| m | 1 << (u - base))
    }
}

const OUTS: usize = 7;

#[test]
fn random_subset_masks_against_the_model() {
    for seed in 0..60u64 {
        let r = mix(seed);
        let case = Case {
            seed,
            threads: 1 + (r % 256) as u32,
            labels: 1 + (r >> 8) % 4,
        };
        let n = case.threads as usize;
        let out = Out::new(n * OUTS);
        run(&LaunchConfig::new(1, case.threads), &|| {
            let t = tid();
            let (mask, v) = (case.mask(t), case.value(t));
            let k = (mix(v as u64) % mask.count_ones() as u64) as u32;
            let src = (0..32)
                .filter(|b| mask >> b & 1 == 1)
                .nth(k as usize)
                .unwrap();
            let o = t as usize * OUTS;
            out.set(o, lane::shfl(ShflMode::Idx, mask, v, src, 0x1f) as u64);
            out.set(o + 1, lane::ballot(mask, v % 3 == 0) as u64);
            out.set(o + 2, lane::redux(ReduxOp::Add, mask, v) as u64);
            out.set(o + 3, lane::redux(ReduxOp::MinS, mask, v) as u64);
            out.set(o + 4, lane::match_any(mask, (v % 4) as u64) as u64);
            out.set(o + 5, lane::elect(mask) as u64);
            out.set(o + 6, lane::match_all(mask, (v % 2) as u64) as u64);
        });
        for t in 0..case.threads {
            let base = t / 32 * 32;
            let mask = case.mask(t);
            let lanes: Vec<u32> = (0..32).filter(|b| mask >> b & 1 == 1).collect();
            let val = |l: u32| case.value(base + l);
            let v = val(t % 32);
            let k = (mix(v as u64) % lanes.len() as u64) as usize;
            let bits = |f: &dyn Fn(u32) -> bool| {
                lanes
                    .iter()
                    .filter(|&&l| f(l))
                    .fold(0u32, |m, l| m | 1 << l)
            };
            let want = [
                val(lanes[k]) as u64,
                bits(&|l| val(l) % 3 == 0) as u64,
                lanes.iter().fold(0u32, |a, &l| a.wrapping_add(val(l))) as u64,
                lanes.iter().map(|&l| val(l) as i32).min().unwrap() as u32 as u64,
                bits(&|l| val(l) % 4 == v % 4) as u64,
                lanes[0] as u64,
                if lanes.iter().all(|&l| val(l) % 2 == v % 2) {
                    mask as u64
                } else {
                    0
                },
            ];
            let o = t as usize * OUTS;
            let got: Vec<u64> = (0..OUTS).map(|i| out.get(o + i)).collect();
            assert_eq!(got, want, "seed {seed} threads {} thread {t}", case.threads);
        }
    }
}

#[test]
fn random_width_shuffle_reductions() {
    // Tile reductions of every width by shfl.down with the segmented `c`.
    for width in [2u32, 4, 8, 16, 32] {
        let out = Out::new(256);
        run(&LaunchConfig::new(1, 256), &|| {
            let t = tid();
            let mut v = mix(t as u64) as u32 % 1000;
            let mut d = width / 2;
            while d > 0 {
                v += lane::shfl(
                    ShflMode::Down,
                    u32::MAX,
                    v,
                    d,
                    common::shfl_c(ShflMode::Down, width),
                );
                d /= 2;
            }
            out.set(t as usize, v as u64);
        });
        for t in (0..256u32).step_by(width as usize) {
            let want: u64 = (t..t + width)
                .map(|u| (mix(u as u64) as u32 % 1000) as u64)
                .sum();
            assert_eq!(out.get(t as usize), want, "width {width} tile at {t}");
        }
    }
}
