//! Every public function that can appear in a simulator report names the
//! caller's line: each call below must leave, in the simulator's record of
//! call sites, only this file's line of the call (`#[track_caller]` all the
//! way down to the primitive). A library function that is not
//! `#[track_caller]`, or that calls a helper that is not, shows up here as
//! a line of the library's own sources.

use std::cell::UnsafeCell;

use cooperative_groups::atomic::{
    self, AcqRel, Acquire, AtomicRef, Block, Device, Relaxed, Release, SeqCst,
};
use cooperative_groups::intrinsics;
use cooperative_groups::prelude::*;
use cooperative_groups::{
    dynamic_shared, exclusive_scan_update, inclusive_scan_update, memcpy_async, memcpy_async_bytes,
    reduce_store_async, reduce_update_async, shared_array, wait, wait_prior,
};

/// Evaluates `$e` and checks that the calling lane's primitives recorded
/// only this line (and at least one site).
macro_rules! at {
    ($e:expr) => {{
        let _ = cg_sim::lane::take_call_sites();
        let v = $e;
        check(line!(), stringify!($e));
        v
    }};
}

/// `at!` for a call that may run no primitive in some threads (a copy whose
/// share for this thread is empty).
macro_rules! maybe {
    ($e:expr) => {{
        let _ = cg_sim::lane::take_call_sites();
        let v = $e;
        check_sites(line!(), stringify!($e), cg_sim::lane::take_call_sites());
        v
    }};
}

fn check(line: u32, what: &str) {
    let sites = cg_sim::lane::take_call_sites();
    assert!(!sites.is_empty(), "`{what}` recorded no call site");
    check_sites(line, what, sites);
}

fn check_sites(line: u32, what: &str, sites: Vec<&'static std::panic::Location<'static>>) {
    for s in sites {
        assert!(
            s.file().ends_with("call_sites.rs") && s.line() == line,
            "`{what}` (line {line}) names {}:{} in a report",
            s.file(),
            s.line()
        );
    }
}

struct Words(UnsafeCell<[u64; 8]>);
// SAFETY: the kernel uses the words only through atomics.
unsafe impl Sync for Words {}

fn run(cfg: &cg_sim::LaunchConfig, kernel: &dyn Fn()) {
    let device = cg_sim::SimDevice {
        stack_size: 4 << 20,
        ..cg_sim::SimDevice::default()
    };
    cg_sim::lane::record_call_sites(true);
    let r = cg_sim::launch_on(&device, cfg, kernel);
    cg_sim::lane::record_call_sites(false);
    r.unwrap_or_else(|e| panic!("{e}"));
}

#[test]
fn groups_and_collectives_name_the_callers_line() {
    run(
        &cg_sim::LaunchConfig::new(1, 64).with_cooperative(true),
        &|| {
            let block = at!(this_thread_block());
            let _ = block.thread_rank();
            at!(block.sync());
            at!(cooperative_groups::sync(&block));
            let tok = at!(block.barrier_arrive());
            at!(block.barrier_wait(tok));
            let tile = at!(tiled_partition::<32>(&block));
            let pair = at!(tiled_partition::<64>(&block));
            let small = at!(tiled_partition::<8>(&tile));
            let dyn_tile = at!(tiled_partition_dyn(&block, 16));
            at!(tile.sync());
            at!(pair.sync());
            at!(small.sync());
            at!(dyn_tile.sync());
            let x = tile.thread_rank();
            at!(tile.shfl(x, 3));
            at!(tile.shfl_up(x, 1));
            at!(tile.shfl_down(x, 1));
            at!(tile.shfl_xor(x, 1));
            at!(tile.any(x == 0));
            at!(tile.all(x < 32));
            at!(tile.ballot(x & 1 == 0));
            at!(tile.match_any(x & 3));
            at!(tile.match_all(7u32));
            at!(pair.shfl(x, 0));
            at!(pair.any(x == 0));
            at!(pair.all(x < 32));
            at!(dyn_tile.shfl(x, 0));
            at!(dyn_tile.shfl_xor(x, 1));
            let co = at!(coalesced_threads());
            at!(co.sync());
            at!(co.shfl(x, 0));
            at!(co.ballot(true));
            let lp = at!(labeled_partition(&tile, x & 1));
            at!(lp.sync());
            let bp = at!(binary_partition(&tile, x < 4));
            at!(bp.sync());
            at!(reduce(&tile, x, Plus));
            at!(reduce(&pair, x, Plus));
            at!(reduce(&block, x, Plus));
            at!(reduce(&block, x as f32, Plus));
            at!(reduce(&tile, x, |a: u32, b: u32| a.max(b)));
            at!(inclusive_scan(&tile, x, Plus));
            at!(exclusive_scan(&small, x, Plus));
            at!(inclusive_scan(&pair, x, Plus));
            at!(exclusive_scan(&block, x, Plus));
            at!(invoke_one(&tile, || {}));
            at!(invoke_one_broadcast(&block, || 5u32));
            let grid = this_grid();
            at!(grid.sync());
            let gt = at!(grid.barrier_arrive());
            at!(grid.barrier_wait(gt));
            at!(grid.reduce(x, Plus));
            at!(grid.inclusive_scan(x, Plus));
            at!(grid.exclusive_scan(x, Plus));
            // Intrinsics.
            at!(intrinsics::shfl_sync(u32::MAX, x, 0, 32));
            at!(intrinsics::shfl_up_sync(u32::MAX, x, 1, 32));
            at!(intrinsics::shfl_down_sync(u32::MAX, x, 1, 32));
            at!(intrinsics::shfl_xor_sync(u32::MAX, x, 1, 32));
            at!(intrinsics::ballot_sync(u32::MAX, true));
            at!(intrinsics::any_sync(u32::MAX, true));
            at!(intrinsics::all_sync(u32::MAX, true));
            at!(intrinsics::activemask());
            at!(intrinsics::syncwarp(u32::MAX));
            at!(intrinsics::syncthreads());
            at!(intrinsics::match_any_sync(u32::MAX, x));
            at!(intrinsics::match_all_sync(u32::MAX, 1));
            at!(intrinsics::named_barrier_sync(1, 64));
        },
    );
}

#[test]
fn memory_accesses_name_the_callers_line() {
    let words = Words(UnsafeCell::new([0; 8]));
    let input: Vec<u32> = (0..256).collect();
    let cfg = cg_sim::LaunchConfig::new(1, 64).with_dynamic_smem(1024);
    run(&cfg, &|| {
        let block = this_thread_block();
        let tile = tiled_partition::<32>(&block);
        let r = block.thread_rank();
        let a = at!(shared_array!(u32; 64));
        at!(a.store(r as usize, r));
        block.sync();
        at!(a.load(r as usize));
        let per_warp = shared_array!(u32; 32);
        if tile.meta_group_rank() == 0 {
            at!(per_warp.store_rank(&tile, r));
            at!(per_warp.load_rank(&tile));
        }
        let one = shared_array!(u32; 4);
        if r == 0 {
            at!(one.store_at::<3>(1));
            at!(one.load_at::<3>());
        }
        let s = a.slice(0, 64);
        block.sync();
        at!(s.store(r as usize, r));
        at!(s.load(r as usize));
        let d = dynamic_shared::<u32>();
        at!(d.store(r as usize, r));
        at!(d.load(r as usize));
        block.sync();
        let buf = shared_array!(u32; 256);
        maybe!(memcpy_async(&block, buf.slice(0, 128), &input[..128]));
        maybe!(memcpy_async_bytes(
            &block,
            buf.slice(128, 128),
            &input[128..],
            512
        ));
        at!(wait_prior::<1>(&block));
        at!(wait(&block));
        // Atomics (only thread 0 of the block: one word each).
        if r == 0 {
            let p = words.0.get().cast::<u64>();
            // SAFETY: the words are used only through atomics.
            let w32 = unsafe { AtomicRef::<u32, Block>::from_ptr(p.cast()) };
            // SAFETY: as above.
            let w64 = unsafe { AtomicRef::<u64, Device>::from_ptr(p.add(1)) };
            // SAFETY: as above.
            let wf = unsafe { AtomicRef::<f32, Device>::from_ptr(p.add(2).cast()) };
            at!(w32.store(1, Relaxed));
            at!(w32.store(2, Release));
            at!(w32.store(3, SeqCst));
            at!(w32.load(Relaxed));
            at!(w32.load(Acquire));
            at!(w32.load(SeqCst));
            at!(w32.exchange(4, AcqRel));
            let _ = at!(w32.compare_exchange(4, 5, Relaxed));
            at!(w32.fetch_add(1, Relaxed));
            at!(w32.fetch_sub(1, Relaxed));
            at!(w32.fetch_and(7, Relaxed));
            at!(w32.fetch_or(8, Relaxed));
            at!(w32.fetch_xor(1, Relaxed));
            at!(w32.fetch_min(1, Relaxed));
            at!(w32.fetch_max(9, Relaxed));
            at!(w32.fetch_inc(100, Relaxed));
            at!(w32.fetch_dec(100, Relaxed));
            at!(w64.fetch_add(1, SeqCst));
            at!(w64.store(3, Relaxed));
            at!(wf.fetch_add(1.5, Relaxed));
            at!(w32.red_add(1, Release));
            at!(w32.red_sub(1, Relaxed));
            at!(w32.red_and(7, Relaxed));
            at!(w32.red_or(8, Release));
            at!(w32.red_xor(1, Relaxed));
            at!(w32.red_min(1, Relaxed));
            at!(w32.red_max(9, Relaxed));
            at!(w32.red_inc(100, Relaxed));
            at!(w32.red_dec(100, Relaxed));
            at!(w64.red_add(1, Relaxed));
            at!(wf.red_add(0.5, Release));
            let raw = w32.as_ptr();
            // SAFETY: `raw` is valid for atomics (above).
            unsafe {
                at!(atomic::atomic_add(raw, 1));
                at!(atomic::atomic_sub(raw, 1));
                at!(atomic::atomic_exch(raw, 1));
                at!(atomic::atomic_cas(raw, 1, 2));
                at!(atomic::atomic_min(raw, 1));
                at!(atomic::atomic_max(raw, 1));
                at!(atomic::atomic_and(raw, 1));
                at!(atomic::atomic_or(raw, 1));
                at!(atomic::atomic_xor(raw, 1));
                at!(atomic::atomic_inc(raw, 9));
                at!(atomic::atomic_dec(raw, 9));
                at!(atomic::red_add(raw, 1));
            }
        }
        block.sync();
        // SAFETY: the words are used only through atomics.
        let dst = unsafe { AtomicRef::<u32, Device>::from_ptr(words.0.get().cast::<u32>().add(8)) };
        at!(reduce_update_async(&tile, &dst, r, Plus));
        at!(reduce_store_async(&tile, &dst, r, Plus));
        at!(inclusive_scan_update(&tile, &dst, r, Plus));
        at!(exclusive_scan_update(&tile, &dst, r, Plus));
        at!(atomic::nanosleep(10));
    });
}

#[test]
fn cluster_functions_name_the_callers_line() {
    run(&cg_sim::LaunchConfig::new(2, 32).with_cluster(2), &|| {
        let cluster = this_cluster();
        at!(cluster.sync());
        let tok = at!(cluster.barrier_arrive());
        at!(cluster.barrier_wait(tok));
        let a = shared_array!(u32; 32);
        let r = this_thread_block().thread_rank() as usize;
        a.store(r, r as u32);
        cluster.sync();
        let peer = at!(cluster.map_shared_array(a, 1 - cluster.block_rank()));
        at!(peer.load(r));
        at!(cluster.query_shared_rank(peer.as_ptr()));
        cluster.sync();
    });
}
