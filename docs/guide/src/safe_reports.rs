//! The broken typed kernels of the safe-kernels chapter
//! (`safe-kernels.md`). Each function defines a kernel with typed
//! parameters, launches it on the simulator with host slices (as
//! `cg_runtime::Backend::sim()` would with its buffers) and returns the
//! error the launch ends with; the chapter shows each function and its
//! report, and `tests/chapters.rs` checks that both are still what the
//! chapter shows.

use cg_sim::{LaunchConfig, SimError};
use cooperative_groups::host::run;
use cooperative_groups::prelude::*;
use cooperative_groups::{GlobalSlice, OwnedSlice, PerBlock, kernel};

/// Every block's thread 0 writes the same word: the `unsafe` store that
/// ownership would have refused, reported as a race between two blocks.
pub fn two_blocks_one_word() -> SimError {
    #[kernel]
    fn first_wins(out: OwnedSlice<u32>) {
        if this_thread_block().thread_rank() == 0 {
            // SAFETY: index 0 is in bounds (the race is the example's point).
            unsafe { out.store_unchecked(0, this_grid().block_rank()) };
        }
    }
    let mut out = [0u32; 4];
    run(&FIRST_WINS, &LaunchConfig::new(2, 32), (&mut out[..],)).unwrap_err()
}

/// Each block's leader publishes a partial sum and then reads its
/// neighbour's, with no grid barrier between.
pub fn missing_grid_sync() -> SimError {
    #[kernel]
    fn neighbour(partial: OwnedSlice<u32, PerBlock>, out: OwnedSlice<u32, PerBlock>) {
        let (block, grid) = (this_thread_block(), this_grid());
        if let Some(e) = partial.leader(&block) {
            e.store(grid.block_rank() * 10);
        }
        // grid.sync() belongs here
        let next = (grid.block_rank() + 1) % grid.num_blocks();
        let v = partial.load(next as usize);
        if let Some(e) = out.leader(&block) {
            e.store(v);
        }
    }
    let (mut partial, mut out) = ([0u32; 2], [0u32; 2]);
    let cfg = LaunchConfig::new(2, 32).with_cooperative(true);
    run(&NEIGHBOUR, &cfg, (&mut partial[..], &mut out[..])).unwrap_err()
}

/// A stencil that reads one element past the end of its input.
pub fn read_past_the_end() -> SimError {
    #[kernel]
    fn right_difference(x: GlobalSlice<f32>, d: OwnedSlice<f32>) {
        if let Some(e) = d.at(&this_grid()) {
            let i = e.index();
            e.store(x.load(i + 1) - x.load(i));
        }
    }
    let x = [1.0f32; 64];
    let mut d = [0.0f32; 64];
    run(
        &RIGHT_DIFFERENCE,
        &LaunchConfig::new(2, 32),
        (&x[..], &mut d[..]),
    )
    .unwrap_err()
}
