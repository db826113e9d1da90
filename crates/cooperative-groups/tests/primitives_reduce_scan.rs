//! Reductions and scans over several items per thread — `WarpReduce`,
//! `WarpScan`, `BlockReduce`, `BlockScan` — against sequential models on
//! the simulator: every operator, integer and float items (floats on a
//! coarse grid, so every order gives the same bits), partial tiles,
//! tiles of 1 to 32 threads and blocks with partial warps.

mod prim_common;

use cooperative_groups::ops::ReduceOp;
use cooperative_groups::prelude::*;
use cooperative_groups::primitives::*;
use prim_common::{Out, run};
use proptest::prelude::*;

/// The items of thread `r` of a tile starting at `base`.
fn items<const N: usize>(data: &[i64], base: usize, r: usize) -> [i64; N] {
    core::array::from_fn(|i| data[base + r * N + i])
}

fn fold(xs: &[i64], op: u32) -> i64 {
    xs.iter().copied().reduce(|a, b| combine(a, b, op)).unwrap()
}

fn combine(a: i64, b: i64, op: u32) -> i64 {
    match op {
        0 => a.wrapping_add(b),
        1 => a.min(b),
        2 => a.max(b),
        _ => a ^ b,
    }
}

/// Runs `f` with the operator numbered `op`.
macro_rules! with_op {
    ($op:expr, |$o:ident| $body:expr) => {
        match $op {
            0 => {
                let $o = Plus;
                $body
            }
            1 => {
                let $o = Less;
                $body
            }
            2 => {
                let $o = Greater;
                $body
            }
            _ => {
                let $o = BitXor;
                $body
            }
        }
    };
}

/// Warp reduce and scans on tiles of `W`, `N` items each, in a block of
/// `block` threads; `valid` items of each tile for the partial reduce.
fn warp_case<const W: u32, const N: usize>(data: &[i64], block: u32, op: u32, valid: usize)
where
    Size<W>: WarpTileSize,
{
    let per = 4 + 2 * N;
    let mut out = Out::new(block as usize * per, 0i64);
    let p = out.ptr();
    run(1, block, &|| {
        let b = this_thread_block();
        let tile = tiled_partition::<W>(&b);
        let base = tile.meta_group_rank() as usize * W as usize * N;
        let x = items::<N>(data, base, tile.thread_rank() as usize);
        let t = b.thread_rank() as usize * per;
        with_op!(op, |o| {
            p.set(t, WarpReduce::new(&tile).reduce(&x, o));
            p.set(t + 1, WarpReduce::new(&tile).reduce_partial(&x, valid, o));
            let (inc, total) = WarpScan::new(&tile).inclusive_scan_aggregate(&x, o);
            let exc = WarpScan::new(&tile).exclusive_scan(&x, 1000, o);
            p.set(t + 2, total);
            p.set(t + 3, WarpReduce::new(&tile).sum(&x));
            for i in 0..N {
                p.set(t + 4 + i, inc[i]);
                p.set(t + 4 + N + i, exc[i]);
            }
        });
    });
    let got = out.into_vec();
    for t in 0..block as usize {
        let (w, r) = (t / W as usize, t % W as usize);
        let members = (block as usize - w * W as usize).min(W as usize);
        let base = w * W as usize * N;
        let tile = &data[base..base + members * N];
        let g = &got[t * per..(t + 1) * per];
        assert_eq!(g[0], fold(tile, op), "reduce, thread {t}");
        let v = valid.min(members * N);
        let want_partial = if v == 0 {
            identity(op)
        } else {
            fold(&tile[..v], op)
        };
        assert_eq!(g[1], want_partial, "reduce_partial({valid}), thread {t}");
        assert_eq!(g[2], fold(tile, op), "scan aggregate, thread {t}");
        assert_eq!(g[3], fold(tile, 0), "sum, thread {t}");
        for i in 0..N {
            let k = r * N + i;
            assert_eq!(
                g[4 + i],
                fold(&tile[..=k], op),
                "inclusive, thread {t} item {i}"
            );
            let exc = tile[..k].iter().fold(1000, |a, &b| combine(a, b, op));
            assert_eq!(g[4 + N + i], exc, "exclusive, thread {t} item {i}");
        }
    }
}

fn identity(op: u32) -> i64 {
    with_op!(op, |o| ReduceOp::<i64>::identity(&o))
}

/// Block reduce and scans, `N` items each.
fn block_case<const B: u32, const N: usize>(data: &[i64], op: u32, valid: usize) {
    let per = 3 + 2 * N;
    let mut out = Out::new(B as usize * per, 0i64);
    let p = out.ptr();
    run(1, B, &|| {
        let b = this_thread_block().with_threads::<B>();
        let r = b.thread_rank() as usize;
        let x = items::<N>(data, 0, r);
        let t = r * per;
        with_op!(op, |o| {
            p.set(t, BlockReduce::new(&b).reduce(&x, o));
            p.set(t + 1, BlockReduce::new(&b).reduce_partial(&x, valid, o));
            let (inc, total) = BlockScan::new(&b).inclusive_scan_aggregate(&x, o);
            let exc = BlockScan::new(&b).exclusive_scan(&x, 1000, o);
            p.set(t + 2, total);
            for i in 0..N {
                p.set(t + 3 + i, inc[i]);
                p.set(t + 3 + N + i, exc[i]);
            }
        });
    });
    let got = out.into_vec();
    let tile = &data[..B as usize * N];
    for t in 0..B as usize {
        let g = &got[t * per..(t + 1) * per];
        assert_eq!(g[0], fold(tile, op), "reduce, thread {t}");
        let v = valid.min(tile.len());
        let want_partial = if v == 0 {
            identity(op)
        } else {
            fold(&tile[..v], op)
        };
        assert_eq!(g[1], want_partial, "reduce_partial({valid}), thread {t}");
        assert_eq!(g[2], fold(tile, op), "aggregate, thread {t}");
        for i in 0..N {
            let k = t * N + i;
            assert_eq!(
                g[3 + i],
                fold(&tile[..=k], op),
                "inclusive, thread {t} item {i}"
            );
            let exc = tile[..k].iter().fold(1000, |a, &b| combine(a, b, op));
            assert_eq!(g[3 + N + i], exc, "exclusive, thread {t} item {i}");
        }
    }
}

/// Floats on a grid of 1/4 (exact sums), every thread's result.
fn block_float<const B: u32, const N: usize>(data: &[i64]) {
    let mut out = Out::new(B as usize * (N + 1), 0f32);
    let p = out.ptr();
    run(1, B, &|| {
        let b = this_thread_block().with_threads::<B>();
        let r = b.thread_rank() as usize;
        let x: [f32; N] = core::array::from_fn(|i| data[r * N + i] as f32 / 4.0);
        p.set(r * (N + 1), BlockReduce::new(&b).sum(&x));
        let s = BlockScan::new(&b).exclusive_sum(&x);
        for (i, v) in s.into_iter().enumerate() {
            p.set(r * (N + 1) + 1 + i, v);
        }
    });
    let got = out.into_vec();
    let xs: Vec<f32> = data[..B as usize * N]
        .iter()
        .map(|&v| v as f32 / 4.0)
        .collect();
    let total: f32 = xs.iter().sum();
    for t in 0..B as usize {
        assert_eq!(got[t * (N + 1)], total);
        for i in 0..N {
            let k = t * N + i;
            assert_eq!(
                got[t * (N + 1) + 1 + i],
                xs[..k].iter().sum::<f32>(),
                "thread {t} item {i}"
            );
        }
    }
}

fn data(n: usize) -> impl Strategy<Value = Vec<i64>> {
    prop_oneof![
        prop::collection::vec(-1000i64..1000, n),
        prop::collection::vec(any::<i64>(), n),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 12, ..ProptestConfig::default() })]

    #[test]
    fn warp_reductions_and_scans(d in data(64 * 5), block in prop_oneof![Just(64u32), 32u32..=64], op in 0u32..4, valid in 0usize..=160) {
        warp_case::<32, 3>(&d, block, op, valid);
        warp_case::<8, 5>(&d, block, op, valid);
        warp_case::<1, 2>(&d, block, op, valid);
    }

    #[test]
    fn block_reductions_and_scans(d in data(256 * 4), op in 0u32..4, valid in 0usize..=1024) {
        block_case::<256, 4>(&d, op, valid);
        block_case::<100, 3>(&d, op, valid);
        block_case::<32, 1>(&d, op, valid);
    }

    #[test]
    fn block_float_sums(d in prop::collection::vec(-400i64..400, 128 * 3)) {
        block_float::<128, 3>(&d);
        block_float::<64, 2>(&d);
    }
}

/// 32-bit block scans with their totals (the raking scan leaves the total
/// in shared memory for blocks of 64–256 threads, the warp-total lane for
/// the others): `u32` sums and `i32` maxima, every thread's items, total
/// and prefix-callback scan against a sequential model.
fn block_32bit<const B: u32, const N: usize>(data: &[i64]) {
    let per = 4 * N + 3;
    let mut out = Out::new(B as usize * per, 0i64);
    let p = out.ptr();
    run(1, B, &|| {
        let b = this_thread_block().with_threads::<B>();
        let r = b.thread_rank() as usize;
        let t = r * per;
        let x = items::<N>(data, 0, r);
        let xu = x.map(|v| v as u32);
        let xi = x.map(|v| v as i32);
        let scan = BlockScan::new(&b);
        let (inc, total) = scan.inclusive_sum_aggregate(&xu);
        let (exc, total2) = scan.exclusive_scan_aggregate(&xi, i32::MIN, Greater);
        let with = scan.exclusive_scan_with_prefix(&xu, Plus, |all| all.wrapping_add(7));
        let (exc_sum, total3) = scan.exclusive_sum_aggregate(&xu);
        p.set(t, total as i64);
        p.set(t + 1, total2 as i64);
        p.set(t + 2, total3 as i64);
        for i in 0..N {
            p.set(t + 3 + i, inc[i] as i64);
            p.set(t + 3 + N + i, exc[i] as i64);
            p.set(t + 3 + 2 * N + i, with[i] as i64);
            p.set(t + 3 + 3 * N + i, exc_sum[i] as i64);
        }
    });
    let got = out.into_vec();
    let tile = &data[..B as usize * N];
    let sum = |xs: &[i64]| xs.iter().fold(0u32, |a, &v| a.wrapping_add(v as u32));
    let max = |xs: &[i64]| xs.iter().fold(i32::MIN, |a, &v| a.max(v as i32));
    for t in 0..B as usize {
        let g = &got[t * per..(t + 1) * per];
        assert_eq!(g[0], sum(tile) as i64, "B {B}: sum total, thread {t}");
        assert_eq!(g[1], max(tile) as i64, "B {B}: max total, thread {t}");
        assert_eq!(
            g[2],
            sum(tile) as i64,
            "B {B}: exclusive sum total, thread {t}"
        );
        for i in 0..N {
            let k = t * N + i;
            assert_eq!(
                g[3 + i],
                sum(&tile[..=k]) as i64,
                "B {B}: inclusive, thread {t} item {i}"
            );
            assert_eq!(
                g[3 + N + i],
                max(&tile[..k]) as i64,
                "B {B}: exclusive max, thread {t} item {i}"
            );
            let from = sum(tile).wrapping_add(7).wrapping_add(sum(&tile[..k]));
            assert_eq!(
                g[3 + 2 * N + i],
                from as i64,
                "B {B}: with prefix, thread {t} item {i}"
            );
            assert_eq!(
                g[3 + 3 * N + i],
                sum(&tile[..k]) as i64,
                "B {B}: exclusive sum, thread {t} item {i}"
            );
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 4, ..ProptestConfig::default() })]

    #[test]
    fn block_32bit_scans_and_totals(d in data(1024 * 3)) {
        block_32bit::<32, 3>(&d);
        block_32bit::<64, 2>(&d);
        block_32bit::<96, 3>(&d);
        block_32bit::<128, 3>(&d);
        block_32bit::<256, 1>(&d);
        block_32bit::<512, 2>(&d);
        block_32bit::<1024, 3>(&d);
    }
}
