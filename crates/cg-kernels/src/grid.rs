//! A grid-wide barrier check for cooperative launches: blocks exchange
//! values through global memory across `grid.sync()`, several rounds in a
//! row, so a barrier that lets any block through early corrupts the result.

use cooperative_groups::intrinsics::thread_idx;
use cooperative_groups::{kernel, this_grid};

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
