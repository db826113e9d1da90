//! A grid-wide barrier check for cooperative launches: blocks exchange
//! values through global memory across `grid.sync()`, several rounds in a
//! row, so a barrier that lets any block through early corrupts the result;
//! and the grid-scope collectives (`grid.reduce`, `inclusive_scan`,
//! `exclusive_scan`) against a host model.

use cooperative_groups::intrinsics::thread_idx;
use cooperative_groups::ops::{Greater, Plus};
use cooperative_groups::{Chunked, GlobalSlice, OwnedSlice, kernel, this_grid};

/// `out` holds `2 · blocks` words. Each round, thread 0 of every block
/// publishes its value, the grid syncs, every block reads the value of the
/// block `1 + round` ahead of it, arrives at the grid barrier, adds that
/// value to its own while the others arrive, and waits before the next
/// publish (`barrier_arrive`/`barrier_wait`). Finally thread 0 writes its value to `out[blocks + block]`.
#[kernel]
pub fn grid_exchange(out: *mut u32, rounds: u32) {
    let grid = this_grid();
    let b = grid.block_rank();
    let nb = grid.num_blocks();
    let mut v = b + 1;
    for r in 0..rounds {
        if thread_idx().x == 0 {
            // SAFETY: `out` has 2 · blocks words.
            unsafe { out.add(b as usize).write_volatile(v) };
        }
        grid.sync();
        // SAFETY: as above; the index is below `blocks`.
        let next = unsafe { out.add(((b + 1 + r) % nb) as usize).read_volatile() };
        // The split barrier, with this block's own work between the halves.
        let token = grid.barrier_arrive();
        v = v.wrapping_mul(3).wrapping_add(next);
        grid.barrier_wait(token);
    }
    if thread_idx().x == 0 {
        // SAFETY: as above.
        unsafe { out.add((nb + b) as usize).write_volatile(v) };
    }
}

/// The grid-scope collectives under a cooperative launch, checked against
/// a host model by `cg-lab verify`: thread `r` of the grid reads `inp[r]`
/// and writes six words at `out[6r..]`: the `u32` sum over the grid, its
/// inclusive and exclusive prefix sums, the `f32` inclusive prefix sum of
/// `inp[r] & 15` (exact: small integers), and the `u64` maximum of
/// `inp[r] · 2^32 + r` (low word, then high word).
#[kernel]
pub fn grid_collectives(inp: GlobalSlice<u32>, out: OwnedSlice<u32, Chunked<6>>) {
    let grid = this_grid();
    let r = grid.thread_rank() as usize;
    let v = inp.load(r);
    let sum = grid.reduce(v, Plus);
    let inclusive = grid.inclusive_scan(v, Plus);
    let exclusive = grid.exclusive_scan(v, Plus);
    let float = grid.inclusive_scan((v & 15) as f32, Plus);
    let max = grid.reduce(((v as u64) << 32) | r as u64, Greater);
    let words = [
        sum,
        inclusive,
        exclusive,
        float.to_bits(),
        max as u32,
        (max >> 32) as u32,
    ];
    out.chunk(&grid).store_all(words);
}
