//! Closures as operators (CUDA's lambdas) and the scans' default operator,
//! on the simulator: a closure gives the same results as the library's
//! operator it imitates, on tiles, coalesced groups, multi-warp tiles and
//! the block; a capturing closure works; a closure's `exclusive_scan`
//! gives rank 0 `T::default()` (CUDA's `T{}`).

use cooperative_groups::intrinsics::{block_dim, block_idx, lane_id};
use cooperative_groups::kernel;
use cooperative_groups::prelude::*;

const W: usize = 16;

fn put(out: *mut i32, t: usize, j: usize, v: i32) {
    // SAFETY: the host allocates W words per thread.
    unsafe { *out.add(t * W + j) = v };
}

/// Each thread writes `W` words: pairs of a closure's and the library
/// operator's results, the capped reduce, the default-operator scans.
#[kernel]
pub fn closure_ops(input: *const i32, out: *mut i32, cap: i32) {
    let block = this_thread_block();
    let t = (block_idx().x * block_dim().x + block.thread_rank()) as usize;
    // SAFETY: one input per thread.
    let v = unsafe { *input.add(t) };
    let max = |a: i32, b: i32| a.max(b);
    let add = |a: i32, b: i32| a.wrapping_add(b);
    let capped = move |a: i32, b: i32| a.max(b).min(cap);
    let tile = tiled_partition::<8>(&block);
    put(out, t, 0, reduce(&tile, v, max));
    put(out, t, 1, reduce(&tile, v, Greater));
    put(out, t, 2, inclusive_scan(&tile, v, add));
    put(out, t, 3, cooperative_groups::inclusive_scan!(&tile, v));
    put(out, t, 4, exclusive_scan(&tile, v, max));
    put(out, t, 5, exclusive_scan(&tile, v, Greater));
    put(out, t, 6, reduce(&tile, v, capped));
    put(out, t, 7, cooperative_groups::exclusive_scan!(&tile, v));
    put(out, t, 8, reduce(&block, v, max));
    put(out, t, 9, reduce(&block, v, Greater));
    put(out, t, 10, inclusive_scan(&block, v, add));
    put(out, t, 11, inclusive_scan(&block, v, Plus));
    let pair = tiled_partition::<64>(&block);
    put(out, t, 12, reduce(&pair, v, max));
    put(out, t, 13, reduce(&pair, v, Greater));
    if !lane_id().is_multiple_of(3) {
        let g = coalesced_threads();
        put(out, t, 14, reduce(&g, v, max));
        put(out, t, 15, reduce(&g, v, Greater));
    }
}

#[test]
fn closures_match_the_library_operators() {
    for (blocks, block) in [(2u32, 128u32), (1, 100)] {
        let n = (blocks * block) as usize;
        let input: Vec<i32> = (0..n as i32).map(|i| (i * 7919) % 211 - 100).collect();
        let mut out = vec![i32::MIN + 7; n * W];
        let cap = 50;
        let (i, o) = (input.as_ptr() as usize, out.as_mut_ptr() as usize);
        // An unoptimised test build needs more lane stack than the default.
        let device = cg_sim::SimDevice {
            stack_size: 4 << 20,
            ..cg_sim::SimDevice::default()
        };
        cg_sim::launch_on(&device, &cg_sim::LaunchConfig::new(blocks, block), &|| {
            // SAFETY: `input` and `out` hold what the kernel reads and writes for this launch.
            (unsafe { CLOSURE_OPS.host_fn_unchecked() })((i as *const i32, o as *mut i32, cap))
        })
        .unwrap_or_else(|e| panic!("{e}"));
        for t in 0..n {
            let r = &out[t * W..(t + 1) * W];
            let rank8 = (t as u32 % block) % 8;
            assert_eq!(r[0], r[1], "thread {t}: tile reduce, closure vs Greater");
            assert_eq!(
                r[2], r[3],
                "thread {t}: tile scan, closure vs inclusive_scan!"
            );
            let base = t - rank8 as usize;
            let expect: i32 = input[base..=t].iter().sum();
            assert_eq!(r[2], expect, "thread {t}: tile inclusive sum");
            assert_eq!(r[7], expect - input[t], "thread {t}: exclusive_scan! sum");
            if rank8 == 0 {
                assert_eq!(
                    r[4], 0,
                    "thread {t}: a closure's exclusive_scan gives rank 0 T::default()"
                );
                assert_eq!(r[5], i32::MIN, "thread {t}: Greater's gives its identity");
            } else {
                assert_eq!(r[4], r[5], "thread {t}: tile exclusive max");
            }
            assert_eq!(r[6], r[1].min(cap), "thread {t}: capturing closure");
            assert_eq!(r[8], r[9], "thread {t}: block reduce");
            assert_eq!(r[10], r[11], "thread {t}: block inclusive scan");
            assert_eq!(r[12], r[13], "thread {t}: 64-thread tile reduce");
            if !((t as u32 % block) % 32).is_multiple_of(3) {
                assert_eq!(r[14], r[15], "thread {t}: coalesced reduce");
            }
        }
    }
}
