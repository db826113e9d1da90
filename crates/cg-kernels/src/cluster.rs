//! A cluster check for the split barrier and raw DSMEM pointers: every
//! block fills a shared array, arrives on the cluster barrier (a move-only
//! token), reads its own array while the others arrive, waits, then reads
//! the next block's array through `map_shared_rank` on a raw pointer, and
//! asks `query_shared_rank` whose arrays both pointers point into. A
//! barrier that let a block through early, a wrong mapping or a wrong rank
//! changes the output.

use cooperative_groups::intrinsics::{block_dim, thread_idx};
use cooperative_groups::{OwnedSlice, kernel, shared_array, this_cluster, this_grid};

/// Threads per block the kernel supports (its shared array's length).
pub const CLUSTER_TOKENS_MAX_BLOCK: u32 = 256;

/// `out` holds one word per thread of the grid: thread `t` of the block of
/// cluster rank `r` writes `((r + 1) mod size) · 1000 + (t + 1) mod blockDim`
/// (read from the next block) XOR `(r · 1000 + t) << 16` (its own).
#[kernel]
pub fn cluster_tokens(out: OwnedSlice<u32>) {
    let cluster = this_cluster();
    let buf = shared_array!(u32; CLUSTER_TOKENS_MAX_BLOCK as usize);
    let t = thread_idx().x;
    let n = block_dim().x;
    let rank = cluster.block_rank();
    buf.store(t as usize, rank * 1000 + t);
    let token = cluster.barrier_arrive();
    // Local work between arrive and wait: this block's own value.
    let own = buf.load(t as usize);
    cluster.barrier_wait(token);
    let next = (rank + 1) % cluster.num_blocks();
    let peer = cluster.map_shared_rank(buf.as_ptr(), next);
    // SAFETY: `peer` maps the same array in block `next`, which stays
    // resident until the `sync` below; the index is below `blockDim ≤ 256`.
    let v = unsafe { peer.add(((t + 1) % n) as usize).read_volatile() };
    // `getctarank` of the peer's and of the own array; bit 31 (free: the
    // values stay below 2^31) flags a wrong rank.
    let wrong =
        cluster.query_shared_rank(peer) != next || cluster.query_shared_rank(buf.as_ptr()) != rank;
    // No block may exit while another still reads its shared memory.
    cluster.sync();
    // One word per thread of the (1-D) grid: its rank.
    if let Some(e) = out.at(&this_grid()) {
        e.store(v ^ (own << 16) | (wrong as u32) << 31);
    }
}
