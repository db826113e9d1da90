//! Warp collectives against plain sequential models.

// Identical branches are the point: two call sites in divergent code.
#![allow(clippy::if_same_then_else)]

mod common;

use cg_sim::LaunchConfig;
use cg_sim::lane::{self, ReduxOp, ShflMode};
use common::{Out, gtid, run, shfl_c, tid};

const FULL: u32 = u32::MAX;

/// The CUDA-documented meaning of `__shfl*_sync(mask, v, b, width)`.
fn model_src(mode: ShflMode, lane: u32, b: u32, width: u32) -> u32 {
    let seg_start = lane / width * width;
    match mode {
        ShflMode::Idx => seg_start + b % width,
        ShflMode::Up => {
            if lane % width < b {
                lane
            } else {
                lane - b
            }
        }
        ShflMode::Down => {
            if lane % width + b >= width {
                lane
            } else {
                lane + b
            }
        }
        ShflMode::Bfly => {
            let j = lane ^ b;
            if j >= seg_start + width { lane } else { j }
        }
    }
}

fn value(lane: u32) -> u32 {
    lane.wrapping_mul(2654435761) ^ 0x1234
}

#[test]
fn shuffles_every_mode_and_width() {
    for mode in [ShflMode::Idx, ShflMode::Up, ShflMode::Down, ShflMode::Bfly] {
        for width in [1u32, 2, 4, 8, 16, 32] {
            for b in [0u32, 1, 3, 5, 8, 16, 31] {
                let out = Out::new(64);
                run(&LaunchConfig::new(1, 64), &|| {
                    let l = lane::lane_id();
                    let r = lane::shfl(mode, FULL, value(l), b, shfl_c(mode, width));
                    out.set(gtid(), r as u64);
                });
                for t in 0..64u32 {
                    let want = value(model_src(mode, t % 32, b, width));
                    assert_eq!(
                        out.get(t as usize),
                        want as u64,
                        "{mode:?} width {width} b {b} lane {t}"
                    );
                }
            }
        }
    }
}

#[test]
fn shuffle_source_matches_ptx_formula_for_raw_c() {
    // A raw `c` with a clamp below the segment end: sources above the clamp
    // read their own value.
    let out = Out::new(32);
    run(&LaunchConfig::new(1, 32), &|| {
        let l = lane::lane_id();
        out.set(
            l as usize,
            lane::shfl(ShflMode::Down, FULL, l, 4, 10) as u64,
        );
    });
    for l in 0..32u32 {
        let want = if l + 4 <= 10 { l + 4 } else { l };
        assert_eq!(out.get(l as usize), want as u64, "lane {l}");
    }
}

#[test]
fn shuffle_butterfly_reduction_and_subset_mask() {
    let out = Out::new(32);
    run(&LaunchConfig::new(1, 32), &|| {
        let l = lane::lane_id();
        // Lanes 0..16 reduce among themselves with a 16-lane mask.
        if l < 16 {
            let mut v = l;
            for d in [8, 4, 2, 1] {
                v += lane::shfl(ShflMode::Bfly, 0xffff, v, d, shfl_c(ShflMode::Bfly, 16));
            }
            out.set(l as usize, v as u64);
        } else {
            out.set(
                l as usize,
                lane::shfl(ShflMode::Idx, 0xffff_0000, l, 16, 0x1f) as u64,
            );
        }
    });
    for l in 0..16 {
        assert_eq!(out.get(l), (0..16).sum::<u64>());
    }
    for l in 16..32 {
        assert_eq!(out.get(l), 16);
    }
}

#[test]
fn ballot_any_all() {
    let out = Out::new(3 * 64);
    run(&LaunchConfig::new(1, 64), &|| {
        let t = tid();
        let b = lane::ballot(FULL, t.is_multiple_of(3));
        let any = lane::ballot(FULL, t == 40) != 0;
        let all = lane::ballot(FULL, t < 100) == FULL & lane::existing_lanes();
        out.set(t as usize * 3, b as u64);
        out.set(t as usize * 3 + 1, any as u64);
        out.set(t as usize * 3 + 2, all as u64);
    });
    for t in 0..64u32 {
        let warp = t / 32;
        let want: u32 = (0..32)
            .filter(|l| (warp * 32 + l) % 3 == 0)
            .fold(0, |m, l| m | 1 << l);
        assert_eq!(out.get(t as usize * 3), want as u64);
        assert_eq!(out.get(t as usize * 3 + 1), (warp == 1) as u64);
        assert_eq!(out.get(t as usize * 3 + 2), 1);
    }
}

#[test]
fn match_any_and_all() {
    let out = Out::new(64);
    run(&LaunchConfig::new(1, 32), &|| {
        let l = lane::lane_id();
        let key = (l % 5) as u64 | 1 << 40; // wide keys
        out.set(l as usize, lane::match_any(FULL, key) as u64);
        let all_same = lane::match_all(FULL, 7);
        let not_same = lane::match_all(FULL, l as u64 / 16);
        out.set(32 + l as usize, (all_same as u64) << 32 | not_same as u64);
    });
    for l in 0..32u32 {
        let want: u32 = (0..32)
            .filter(|k| k % 5 == l % 5)
            .fold(0, |m, k| m | 1 << k);
        assert_eq!(out.get(l as usize), want as u64);
        assert_eq!(out.get(32 + l as usize), (FULL as u64) << 32);
    }
}

#[test]
fn redux_every_op() {
    let ops = [
        ReduxOp::Add,
        ReduxOp::MinU,
        ReduxOp::MaxU,
        ReduxOp::MinS,
        ReduxOp::MaxS,
        ReduxOp::And,
        ReduxOp::Or,
        ReduxOp::Xor,
    ];
    let v = |l: u32| (l as i32 - 10).wrapping_mul(0x0101_0101) as u32 ^ l << 3;
    let out = Out::new(32 * ops.len());
    run(&LaunchConfig::new(1, 32), &|| {
        let l = lane::lane_id();
        for (k, op) in ops.iter().enumerate() {
            out.set(k * 32 + l as usize, lane::redux(*op, FULL, v(l)) as u64);
        }
    });
    let vals: Vec<u32> = (0..32).map(v).collect();
    let want = [
        vals.iter().fold(0u32, |a, &x| a.wrapping_add(x)),
        *vals.iter().min().unwrap(),
        *vals.iter().max().unwrap(),
        vals.iter().map(|&x| x as i32).min().unwrap() as u32,
        vals.iter().map(|&x| x as i32).max().unwrap() as u32,
        vals.iter().fold(FULL, |a, &x| a & x),
        vals.iter().fold(0, |a, &x| a | x),
        vals.iter().fold(0, |a, &x| a ^ x),
    ];
    for (k, w) in want.iter().enumerate() {
        for l in 0..32 {
            assert_eq!(out.get(k * 32 + l), *w as u64, "{:?}", ops[k]);
        }
    }
}

#[test]
fn elect_and_warp_sync() {
    let out = Out::new(32);
    let shared: Vec<std::cell::Cell<u32>> = (0..32).map(|_| std::cell::Cell::new(0)).collect();
    run(&LaunchConfig::new(1, 32), &|| {
        let l = lane::lane_id();
        let leader = lane::elect(if l % 2 == 1 { 0xaaaa_aaaa } else { 0x5555_5555 });
        shared[l as usize].set(l * 10);
        lane::warp_sync(FULL);
        // After the warp barrier every lane sees its neighbour's write.
        let n = shared[((l + 1) % 32) as usize].get();
        out.set(l as usize, (leader as u64) << 32 | n as u64);
    });
    for l in 0..32u32 {
        assert_eq!(out.get(l as usize) >> 32, (l % 2) as u64);
        assert_eq!(
            out.get(l as usize) & 0xffff_ffff,
            ((l + 1) % 32 * 10) as u64
        );
    }
}

#[test]
fn activemask_follows_divergence() {
    let out = Out::new(4 * 32);
    run(&LaunchConfig::new(1, 32), &|| {
        let l = lane::lane_id() as usize;
        out.set(l, lane::activemask() as u64);
        let m = if l.is_multiple_of(2) {
            lane::activemask()
        } else {
            lane::activemask()
        };
        out.set(32 + l, m as u64);
        // Loop with lane-dependent trip counts: the last iteration's set.
        let mut last = 0;
        for _ in 0..l % 4 {
            last = lane::activemask();
        }
        out.set(64 + l, last as u64);
        if l >= 20 {
            return;
        }
        out.set(96 + l, lane::activemask() as u64);
    });
    for l in 0..32usize {
        assert_eq!(out.get(l), FULL as u64);
        assert_eq!(
            out.get(32 + l),
            if l % 2 == 0 { 0x5555_5555 } else { 0xaaaa_aaaa }
        );
        let last = match l % 4 {
            0 => 0,
            1 => 0xeeee_eeee, // trips >= 1
            2 => 0xcccc_cccc, // trips >= 2
            _ => 0x8888_8888, // trips >= 3
        };
        assert_eq!(out.get(64 + l), last, "lane {l}");
        if l < 20 {
            assert_eq!(out.get(96 + l), 0x000f_ffff);
        }
    }
}

#[test]
fn partial_warp_of_a_120_thread_block() {
    let out = Out::new(120 * 4);
    run(&LaunchConfig::new(1, 120), &|| {
        let t = tid() as usize;
        out.set(t * 4, lane::existing_lanes() as u64);
        out.set(t * 4 + 1, lane::ballot(FULL, true) as u64);
        out.set(t * 4 + 2, lane::redux(ReduxOp::Add, FULL, 1) as u64);
        let src = lane::shfl(ShflMode::Down, FULL, t as u32, 16, 0x1f);
        lane::sync_threads();
        lane::barrier_sync(1, 128);
        out.set(t * 4 + 3, src as u64);
    });
    for t in 0..120usize {
        let (want_mask, n) = if t < 96 {
            (FULL, 32)
        } else {
            (0x00ff_ffff, 24)
        };
        assert_eq!(out.get(t * 4), want_mask as u64);
        assert_eq!(out.get(t * 4 + 1), want_mask as u64);
        assert_eq!(out.get(t * 4 + 2), n);
        // Sources beyond the 24 existing lanes of the last warp read their own value.
        let want = if t % 32 + 16 < n as usize { t + 16 } else { t };
        assert_eq!(out.get(t * 4 + 3), want as u64, "thread {t}");
    }
}

#[test]
fn three_dimensional_blocks_number_lanes_linearly() {
    let out = Out::new(2 * 4 * 8 * 2);
    run(&LaunchConfig::new((1, 2, 1), (4, 8, 2)), &|| {
        let g = gtid();
        out.set(
            g,
            (lane::lane_id() as u64) << 32 | lane::ballot(FULL, true) as u64,
        );
    });
    for g in 0..128 {
        assert_eq!(out.get(g), ((g % 32) as u64) << 32 | FULL as u64);
    }
}
