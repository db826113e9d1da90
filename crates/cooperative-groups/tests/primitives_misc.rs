//! `BlockHistogram` (atomic and sort-based), `BlockDiscontinuity`,
//! `BlockAdjacentDifference`, `BlockShuffle` and `BlockRunLengthDecode`
//! against their models on the simulator.

mod prim_common;

use cooperative_groups::dynamic_shared;
use cooperative_groups::prelude::*;
use cooperative_groups::primitives::*;
use prim_common::{Out, align16, dyn_temp, run_smem};
use proptest::prelude::*;

/// Both histograms of the block's samples (`bins` bins; samples at or
/// above it are not counted), `reps` composites after one init.
fn histogram<
    T: HistogramSample + Copy + TryFrom<u64>,
    const B: u32,
    const I: usize,
    const BINS: usize,
>(
    samples: &[u64],
    reps: usize,
) where
    <T as TryFrom<u64>>::Error: core::fmt::Debug,
{
    let tile = B as usize * I;
    let s: Vec<T> = samples[..tile]
        .iter()
        .map(|&x| T::try_from(x).unwrap())
        .collect();
    for sort in [false, true] {
        let mut out = Out::new(BINS, 0u32);
        let p = out.ptr();
        let bytes = align16(BlockHistogram::<T, B, I, BINS, HistogramSort>::TEMP_BYTES);
        run_smem(1, B, bytes + 4 * BINS, &|| {
            let block = this_thread_block().with_threads::<B>();
            let view = dynamic_shared::<u32>().array_at::<BINS>(bytes / 4);
            let r = block.thread_rank() as usize;
            let x: [T; I] = core::array::from_fn(|i| s[r * I + i]);
            if sort {
                let temp = dyn_temp::<BlockHistogram<T, B, I, BINS, HistogramSort>>(0);
                let h = BlockHistogram::<T, B, I, BINS, HistogramSort>::new(&block, &temp);
                h.histogram(&x, &view);
                for _ in 1..reps {
                    block.sync();
                    h.composite(&x, &view);
                }
            } else {
                let h = BlockHistogram::<T, B, I, BINS>::without_storage(&block);
                h.histogram(&x, &view);
                for _ in 1..reps {
                    h.composite(&x, &view);
                }
            }
            block.sync();
            let mut b = r;
            while b < BINS {
                p.set(b, view.load(b));
                b += B as usize;
            }
        });
        let mut want = vec![0u32; BINS];
        for &x in &samples[..tile] {
            if (x as usize) < BINS {
                want[x as usize] += reps as u32;
            }
        }
        assert_eq!(out.into_vec(), want, "sort {sort}");
    }
}

fn neighbours<const B: u32, const N: usize>(data: &[i32], valid: usize) {
    let tile = B as usize * N;
    let per = 7 * N + 2;
    let mut out = Out::new(B as usize * per, 0i64);
    let p = out.ptr();
    let d_bytes = align16(BlockDiscontinuity::<i32, B>::TEMP_BYTES);
    let a_bytes = align16(BlockAdjacentDifference::<i32, B>::TEMP_BYTES);
    let s_bytes = BlockShuffle::<i32, B>::TEMP_BYTES;
    run_smem(1, B, d_bytes + a_bytes + s_bytes, &|| {
        let block = this_thread_block().with_threads::<B>();
        let dt = dyn_temp::<BlockDiscontinuity<i32, B>>(0);
        let at = dyn_temp::<BlockAdjacentDifference<i32, B>>(d_bytes);
        let st = dyn_temp::<BlockShuffle<i32, B>>(d_bytes + a_bytes);
        let r = block.thread_rank() as usize;
        let x: [i32; N] = core::array::from_fn(|i| data[r * N + i]);
        let disc = BlockDiscontinuity::<i32, B>::new(&block, &dt);
        let adj = BlockAdjacentDifference::<i32, B>::new(&block, &at);
        let sh = BlockShuffle::<i32, B>::new(&block, &st);
        let ne = |a: i32, b: i32| a != b;
        let heads = disc.flag_heads_with_predecessor(&x, ne, -7);
        block.sync();
        let (h2, tails) = disc.flag_heads_and_tails(&x, ne);
        let left = adj.subtract_left_partial(&x, |a, b| a.wrapping_sub(b), valid);
        block.sync();
        let right = adj.subtract_right_with_successor(&x, |a, b| a.wrapping_sub(b), 5);
        let (up, suffix) = sh.up_with_suffix(&x, -1);
        block.sync();
        let (down, prefix) = sh.down_with_prefix(&x, -2);
        let t = r * per;
        for i in 0..N {
            p.set(t + i, heads[i] as i64);
            p.set(t + N + i, h2[i] as i64);
            p.set(t + 2 * N + i, tails[i] as i64);
            p.set(t + 3 * N + i, left[i] as i64);
            p.set(t + 4 * N + i, right[i] as i64);
            p.set(t + 5 * N + i, up[i] as i64);
            p.set(t + 6 * N + i, down[i] as i64);
        }
        p.set(t + 7 * N, suffix as i64);
        p.set(t + 7 * N + 1, prefix as i64);
    });
    let got = out.into_vec();
    let d = &data[..tile];
    for r in 0..B as usize {
        let g = &got[r * per..(r + 1) * per];
        for i in 0..N {
            let k = r * N + i;
            let prev = if k == 0 { None } else { Some(d[k - 1]) };
            let next = d.get(k + 1).copied();
            assert_eq!(
                g[i] != 0,
                d[k] != prev.unwrap_or(-7),
                "heads with predecessor at {k}"
            );
            assert_eq!(
                g[N + i] != 0,
                prev.is_none_or(|p| p != d[k]),
                "heads at {k}"
            );
            assert_eq!(
                g[2 * N + i] != 0,
                next.is_none_or(|n| n != d[k]),
                "tails at {k}"
            );
            let left = match prev {
                Some(p) if k < valid => d[k].wrapping_sub(p),
                _ => d[k],
            };
            assert_eq!(
                g[3 * N + i],
                left as i64,
                "subtract_left_partial({valid}) at {k}"
            );
            assert_eq!(
                g[4 * N + i],
                d[k].wrapping_sub(next.unwrap_or(5)) as i64,
                "subtract_right at {k}"
            );
            assert_eq!(g[5 * N + i], prev.unwrap_or(-1) as i64, "up at {k}");
            assert_eq!(g[6 * N + i], next.unwrap_or(-2) as i64, "down at {k}");
        }
        assert_eq!(g[7 * N], d[tile - 1] as i64, "suffix");
        assert_eq!(g[7 * N + 1], d[0] as i64, "prefix");
    }
}

fn offsets<const B: u32>(distance: i32, rot: u32) {
    let mut out = Out::new(2 * B as usize, -5i64);
    let p = out.ptr();
    run_smem(1, B, BlockShuffle::<u32, B>::TEMP_BYTES, &|| {
        let block = this_thread_block().with_threads::<B>();
        let t = dyn_temp::<BlockShuffle<u32, B>>(0);
        let sh = BlockShuffle::<u32, B>::new(&block, &t);
        let r = block.thread_rank();
        let o = sh.offset(r * 10, distance);
        block.sync();
        let rotated = sh.rotate(r * 10, rot);
        p.set(2 * r as usize, o.map_or(-1, |v| v as i64));
        p.set(2 * r as usize + 1, rotated as i64);
    });
    let got = out.into_vec();
    for r in 0..B as i64 {
        let src = r + distance as i64;
        let want = if (0..B as i64).contains(&src) {
            src * 10
        } else {
            -1
        };
        assert_eq!(got[2 * r as usize], want, "offset {distance} at {r}");
        assert_eq!(
            got[2 * r as usize + 1],
            (r + rot as i64) % B as i64 * 10,
            "rotate {rot} at {r}"
        );
    }
}

fn run_length<const B: u32, const RUNS: usize, const D: usize>(lengths: &[u32], from: u32) {
    let mut out = Out::new(B as usize * D, (0u32, 0u32));
    let p = out.ptr();
    type R<const B: u32, const RUNS: usize, const D: usize> = BlockRunLengthDecode<u32, B, RUNS, D>;
    let mut total_seen = Out::new(1, 0u32);
    let tp = total_seen.ptr();
    run_smem(1, B, R::<B, RUNS, D>::TEMP_BYTES, &|| {
        let block = this_thread_block().with_threads::<B>();
        let t = dyn_temp::<R<B, RUNS, D>>(0);
        let r = block.thread_rank() as usize;
        let vals: [u32; RUNS] = core::array::from_fn(|i| (r * RUNS + i) as u32 * 3);
        let lens: [u32; RUNS] = core::array::from_fn(|i| lengths[r * RUNS + i]);
        let (rld, total) = R::<B, RUNS, D>::new(&block, &t, &vals, &lens);
        if r == 0 {
            tp.set(0, total);
        }
        let (items, offs) = rld.decode(from, u32::MAX);
        for i in 0..D {
            p.set(r * D + i, (items[i], offs[i]));
        }
    });
    let mut decoded = Vec::new();
    for (run, &len) in lengths[..B as usize * RUNS].iter().enumerate() {
        for k in 0..len {
            decoded.push((run as u32 * 3, k));
        }
    }
    assert_eq!(total_seen.into_vec()[0] as usize, decoded.len());
    for (i, g) in out.into_vec().into_iter().enumerate() {
        let want = decoded
            .get(from as usize + i)
            .copied()
            .unwrap_or((u32::MAX, 0));
        assert_eq!(g, want, "decoded item {} (from {from})", from as usize + i);
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 10, ..ProptestConfig::default() })]

    #[test]
    fn histograms(s in prop::collection::vec(0u64..300, 512), few in prop::collection::vec(0u64..3, 512), reps in 1usize..3) {
        histogram::<u8, 64, 4, 256>(&s.iter().map(|x| x % 256).collect::<Vec<_>>(), reps);
        histogram::<u8, 512, 1, 256>(&s.iter().map(|x| x % 256).collect::<Vec<_>>(), reps);
        histogram::<u16, 32, 5, 200>(&s, reps);
        histogram::<u32, 96, 3, 7>(&few, reps);
        histogram::<u8, 128, 2, 16>(&few, reps);
    }

    #[test]
    fn neighbour_primitives(d in prop_oneof![prop::collection::vec(-3i32..3, 512), prop::collection::vec(any::<i32>(), 512)],
                            valid in 0usize..=520) {
        neighbours::<128, 4>(&d, valid);
        neighbours::<96, 1>(&d, valid);
        neighbours::<33, 3>(&d, valid);
    }

    #[test]
    fn shuffles(distance in -70i32..70, rot in 0u32..200) {
        offsets::<64>(distance, rot);
        offsets::<37>(distance, rot);
    }

    #[test]
    fn run_length_decodes(l in prop::collection::vec(prop_oneof![Just(0u32), 0u32..5, 0u32..40], 256), from in 0u32..600) {
        run_length::<64, 2, 3>(&l, from);
        run_length::<32, 1, 8>(&l, from);
        run_length::<96, 2, 1>(&l, from % 200);
    }
}
