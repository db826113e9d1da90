//! Block barriers and shared memory against plain models.

mod common;

use std::cell::Cell;

use cg_sim::lane;
use cg_sim::{LaunchConfig, POISON};
use common::{Out, gtid, run, tid};

/// A `u32` view of `n` words at `p`.
fn words<'a>(p: *mut u8, n: usize) -> &'a [Cell<u32>] {
    assert_eq!(p as usize % 4, 0);
    // SAFETY: the simulator's shared buffers are valid for their size and
    // aligned to 16; all lanes run on one OS thread, so `Cell` access is fine.
    unsafe { std::slice::from_raw_parts(p as *const Cell<u32>, n) }
}

#[test]
fn sync_threads_orders_shared_memory() {
    let out = Out::new(4 * 256);
    run(&LaunchConfig::new(4, 256), &|| {
        let t = tid() as usize;
        let s = words(lane::static_shared("bar0", 256 * 4, 4), 256);
        s[t].set(t as u32 * 3 + lane::block_idx()[0]);
        lane::sync_threads();
        // Read a slot written by another warp (and, without the barrier, by
        // a lane that would not have run yet).
        let v = s[(t + 100) % 256].get();
        lane::sync_threads();
        s[t].set(0);
        out.set(gtid(), v as u64);
    });
    for b in 0..4u64 {
        for t in 0..256u64 {
            assert_eq!(out.get((b * 256 + t) as usize), (t + 100) % 256 * 3 + b);
        }
    }
}

#[test]
fn exited_threads_do_not_block_sync_threads() {
    let out = Out::new(128);
    run(&LaunchConfig::new(1, 128), &|| {
        let t = tid();
        if t.is_multiple_of(3) || t >= 96 {
            return; // partial warps and one whole warp exit early
        }
        lane::sync_threads();
        lane::sync_threads();
        out.set(t as usize, 1);
    });
    for t in 0..128usize {
        let want = if t % 3 == 0 || t >= 96 { u64::MAX } else { 1 };
        assert_eq!(out.get(t), want);
    }
}

#[test]
fn named_barriers_sync_independent_warp_pairs() {
    let log = std::cell::RefCell::new(Vec::new());
    run(&LaunchConfig::new(1, 128), &|| {
        let t = tid();
        let pair = t / 64;
        let s = words(lane::static_shared("pairs", 128 * 4, 4), 128);
        s[t as usize].set(t);
        lane::barrier_sync(1 + pair, 64);
        let partner = (t + 32) % 64 + pair * 64;
        log.borrow_mut().push((t, s[partner as usize].get()));
    });
    let log = log.into_inner();
    assert_eq!(log.len(), 128);
    for (t, v) in log {
        assert_eq!(v, (t + 32) % 64 + t / 64 * 64);
    }
}

#[test]
fn barrier_arrive_producer_consumer() {
    let out = Out::new(128);
    run(&LaunchConfig::new(1, 128), &|| {
        let t = tid() as usize;
        let s = words(lane::static_shared("pc", 64 * 4, 4), 64);
        if t < 64 {
            // Consumers (they run first): wait for the producers' data.
            lane::barrier_sync(3, 128);
            out.set(t, s[t].get() as u64);
        } else {
            s[t - 64].set(1000 + t as u32);
            lane::barrier_arrive(3, 128);
        }
    });
    for t in 0..64usize {
        assert_eq!(out.get(t), 1064 + t as u64);
    }
}

#[test]
fn partly_arrived_warp_waits_for_the_next_phase() {
    // 96 threads, barrier 1 counts 64 threads (2 warps). Half of warp 2
    // arrives first; warps 0 and 1 then complete phase 1 without warp 2,
    // whose early half must stay blocked until warp 2 is complete and warp 0
    // arrives a second time (phase 2).
    let second = Cell::new(false);
    let passed_early = Cell::new(0);
    run(&LaunchConfig::new(1, 96), &|| {
        let t = tid();
        let delay = match (t / 32, t % 32) {
            (2, l) if l < 16 => 0,
            (2, _) => 10,
            _ => 3,
        };
        for _ in 0..delay {
            lane::yield_now();
        }
        lane::barrier_sync(1, 64);
        if t >= 64 && !second.get() {
            passed_early.set(passed_early.get() + 1);
        }
        if t < 32 {
            for _ in 0..20 {
                lane::yield_now();
            }
            second.set(true);
            lane::barrier_sync(1, 64);
        }
    });
    assert_eq!(passed_early.get(), 0);
}

#[test]
fn barriers_are_reusable_phase_after_phase() {
    let counter = Cell::new(0u32);
    let out = Out::new(96);
    run(&LaunchConfig::new(1, 96), &|| {
        let t = tid() as usize;
        let mut seen = 0u64;
        for round in 0..5 {
            if t == 0 {
                counter.set(round * 10);
            }
            lane::sync_threads();
            seen = seen * 100 + counter.get() as u64;
            lane::barrier_sync(2, 96);
        }
        out.set(t, seen);
    });
    for t in 0..96 {
        assert_eq!(out.get(t), 10203040);
    }
}

#[test]
fn static_shared_is_per_block_and_poisoned() {
    let out = Out::new(3 * 64);
    run(&LaunchConfig::new(3, 64), &|| {
        let t = tid() as usize;
        let a = words(lane::static_shared("a", 64 * 4, 16), 64);
        let b = lane::static_shared("b", 8, 8);
        // Stable pointer, distinct buffers.
        assert_eq!(a.as_ptr() as *mut u8, lane::static_shared("a", 64 * 4, 16));
        assert_ne!(a.as_ptr() as *mut u8, b);
        let before = a[t].get();
        lane::sync_threads();
        a[t].set(lane::block_idx()[0] * 100 + t as u32);
        lane::sync_threads();
        let sum: u32 = a.iter().map(Cell::get).sum();
        out.set(gtid(), (before as u64) << 32 | sum as u64);
    });
    let poison = u32::from_ne_bytes([POISON; 4]) as u64;
    for b in 0..3u64 {
        let want: u64 = (0..64).map(|t| b * 100 + t).sum();
        for t in 0..64u64 {
            assert_eq!(out.get((b * 64 + t) as usize), poison << 32 | want);
        }
    }
}

#[test]
fn dynamic_shared_memory_is_sized_by_the_launch() {
    let out = Out::new(2 * 32);
    let cfg = LaunchConfig::new(2, 32).with_dynamic_smem(1024);
    run(&cfg, &|| {
        let (p, n) = lane::dynamic_shared();
        assert_eq!(n, 1024);
        assert_eq!(p as usize % 16, 0);
        let w = words(p, 256);
        let t = tid() as usize;
        for k in 0..8 {
            w[t * 8 + k].set(lane::block_idx()[0] + (t * 8 + k) as u32);
        }
        lane::sync_threads();
        out.set(gtid(), w.iter().map(|c| c.get() as u64).sum());
    });
    for b in 0..2u64 {
        for t in 0..32 {
            assert_eq!(
                out.get((b * 32 + t) as usize),
                (0..256).sum::<u64>() + 256 * b
            );
        }
    }
}

#[test]
fn block_uniform_check_passes_for_uniform_values() {
    let stats = run(&LaunchConfig::new(2, 96), &|| {
        lane::check_uniform(lane::Scope::Block, "tile size", 64);
        lane::check_uniform(lane::Scope::Warp(u32::MAX), "width", 16);
    });
    assert_eq!(stats.lanes, 192);
}
