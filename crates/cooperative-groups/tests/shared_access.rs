//! Shared memory with compile-time-checked indices (`load_at`, `store_rank`)
//! and the block-wide reduce and scans (beyond CUDA), on the simulator.

use cooperative_groups::ops::{Greater, Plus};
use cooperative_groups::{
    exclusive_scan, inclusive_scan, kernel, reduce, shared_array, this_thread_block,
    tiled_partition,
};

/// Each 32-thread tile stores its ranks through `store_rank`, syncs, and
/// reads a mirrored entry; thread 0 of the block also uses `load_at`.
#[kernel]
fn mirror(out: *mut u32) {
    let block = this_thread_block();
    let tile = tiled_partition::<32>(&block);
    let smem = shared_array!(u32; 32);
    // The first tile writes. (Every tile writing the same values was a
    // data race in the PTX memory model — unordered conflicting weak
    // stores — which the simulator's race detector reported.)
    if tile.meta_group_rank() == 0 {
        smem.store_rank(&tile, tile.thread_rank() * 10);
    }
    block.sync();
    let mirrored = smem.load((31 - tile.thread_rank()) as usize);
    let first = smem.load_at::<0>() + smem.load_at::<31>();
    let i = block.thread_rank() as usize;
    // SAFETY: one output per thread.
    unsafe { *out.add(i) = mirrored + first };
}

#[test]
fn compile_time_indices() {
    let mut out = vec![0u32; 64];
    let p = out.as_mut_ptr();
    cg_sim::launch(&cg_sim::LaunchConfig::new(1, 64), &|| {
        // SAFETY: one word per thread of `out`.
        (unsafe { MIRROR.host_fn_unchecked() })((p,))
    })
    .unwrap();
    for (i, &v) in out.iter().enumerate() {
        assert_eq!(v, (31 - i as u32 % 32) * 10 + 310, "thread {i}");
    }
}

/// `reduce` and both scans over whole blocks of awkward sizes.
#[kernel]
fn block_collectives(out: *mut u64) {
    let block = this_thread_block();
    let r = block.thread_rank() as u64;
    let v = r * r % 17;
    let i = 4 * r as usize;
    // SAFETY: four outputs per thread.
    unsafe {
        *out.add(i) = reduce(&block, v, Plus);
        *out.add(i + 1) = inclusive_scan(&block, v, Plus);
        *out.add(i + 2) = exclusive_scan(&block, v, Plus);
        *out.add(i + 3) = reduce(&block, v, Greater);
    }
}

#[test]
fn block_reduce_and_scans() {
    for n in [1u32, 31, 33, 100, 512, 1000, 1024] {
        let mut out = vec![0u64; 4 * n as usize];
        let p = out.as_mut_ptr();
        cg_sim::launch(&cg_sim::LaunchConfig::new(1, n), &|| {
            // SAFETY: four words per thread of `out`.
            (unsafe { BLOCK_COLLECTIVES.host_fn_unchecked() })((p,))
        })
        .unwrap();
        let v: Vec<u64> = (0..n as u64).map(|r| r * r % 17).collect();
        let total: u64 = v.iter().sum();
        let mut prefix = 0;
        for r in 0..n as usize {
            let row = &out[4 * r..4 * r + 4];
            assert_eq!(
                row,
                [total, prefix + v[r], prefix, *v.iter().max().unwrap()],
                "block {n}, thread {r}"
            );
            prefix += v[r];
        }
    }
}
