//! The smoke kernel of `cg-lab info`: one launch that exercises the lane id,
//! `shfl.sync`, static and dynamic shared memory and the block barrier, with
//! an output the host can predict exactly ([`smoke_expected`]).

use cooperative_groups::intrinsics::{
    FULL_MASK, block_dim, block_idx, lane_id, shfl_down_sync, syncthreads, thread_idx,
};
use cooperative_groups::{OwnedSlice, dynamic_shared, kernel, shared_array, this_grid};

/// Largest block the smoke kernel supports (its static array's length).
pub const SMOKE_MAX_BLOCK: u32 = 1024;

/// Dynamic shared memory the smoke kernel needs for a block of `block` threads.
pub const fn smoke_dynamic_smem(block: u32) -> usize {
    block as usize * 4
}

/// Each thread writes into static and dynamic shared memory, the block syncs,
/// each thread reads two other threads' entries, and a `shfl.sync.down`
/// passes the sum one lane down. 1-D launches, blocks of whole warps.
#[kernel]
pub fn smoke(out: OwnedSlice<u32>) {
    let tid = thread_idx().x;
    let bid = block_idx().x;
    let n = block_dim().x;
    let lane = lane_id();
    let statics = shared_array!(u32; SMOKE_MAX_BLOCK as usize);
    let dynamic = dynamic_shared::<u32>();
    statics.store(tid as usize, tid * 3 + bid);
    dynamic.store(tid as usize, lane ^ 5);
    syncthreads();
    let a = statics.load((n - 1 - tid) as usize);
    let b = dynamic.load(((tid + 32) % n) as usize);
    let s = shfl_down_sync(FULL_MASK, a.wrapping_add(b), 1, 32);
    // One output per thread: the thread's rank in the (1-D) grid.
    if let Some(e) = out.at(&this_grid()) {
        e.store(s);
    }
}

/// What [`smoke`] writes for thread `tid` of block `bid` (blocks of `n` threads).
pub fn smoke_expected(bid: u32, tid: u32, n: u32) -> u32 {
    let value_at = |t: u32| {
        let a = (n - 1 - t) * 3 + bid;
        let b = (((t + 32) % n) % 32) ^ 5;
        a.wrapping_add(b)
    };
    let lane = tid % 32;
    // shfl.down by 1: lane 31 keeps its own value.
    if lane == 31 {
        value_at(tid)
    } else {
        value_at(tid + 1)
    }
}
