//! The broken kernels of the simulator chapter (`simulator.md`). Each
//! function launches one on the simulator and returns the error the launch
//! ends with; the chapter shows each function and its report, and
//! `tests/chapters.rs` checks that both are still what the chapter shows.

use cg_sim::{LaunchConfig, SimError, launch};
use cooperative_groups::prelude::*;
use cooperative_groups::{memcpy_async, shared_array, wait};

/// A shuffle that half of each warp skips, then a block barrier: a hang on
/// a GPU.
pub fn deadlock() -> SimError {
    launch(&LaunchConfig::new(1, 64), &|| {
        let block = this_thread_block();
        let warp = tiled_partition::<32>(&block);
        if warp.thread_rank() < 16 {
            warp.shfl_down(1u32, 1);
        }
        block.sync();
    })
    .unwrap_err()
}

/// A partition that only half of its parent creates, before a barrier of
/// the whole parent.
pub fn partial_partition() -> SimError {
    launch(&LaunchConfig::new(1, 64), &|| {
        let block = this_thread_block();
        if block.thread_rank() < 32 {
            let tile = tiled_partition::<16>(&block);
            tile.sync();
        }
        block.sync();
    })
    .unwrap_err()
}

/// A broadcast on a 64-thread tile whose source rank differs between
/// threads (CUDA: undefined).
pub fn non_uniform() -> SimError {
    launch(&LaunchConfig::new(1, 64), &|| {
        let block = this_thread_block().with_max_threads::<64>();
        let pair = tiled_partition::<64>(&block);
        let src = pair.thread_rank() % 2;
        pair.shfl(pair.thread_rank(), src);
    })
    .unwrap_err()
}

/// Warp 1 reads what warp 0 writes to shared memory, with no barrier
/// between them.
pub fn race() -> SimError {
    launch(&LaunchConfig::new(1, 64), &|| {
        let block = this_thread_block();
        let words = shared_array!(u32; 32);
        let lane = (block.thread_rank() % 32) as usize;
        if block.thread_rank() < 32 {
            words.store(lane, block.thread_rank());
        } else {
            words.load(lane);
        }
    })
    .unwrap_err()
}

/// A store one past the end of a shared array.
pub fn out_of_bounds() -> SimError {
    launch(&LaunchConfig::new(1, 32), &|| {
        let block = this_thread_block();
        let words = shared_array!(u32; 32);
        words.store(block.thread_rank() as usize + 1, 7);
    })
    .unwrap_err()
}

/// Shared memory read before the `wait` that delivers its `memcpy_async`.
pub fn read_before_wait() -> SimError {
    let input: Vec<u32> = (0..64).collect();
    launch(&LaunchConfig::new(1, 64), &|| {
        let block = this_thread_block();
        let buf = shared_array!(u32; 64);
        memcpy_async(&block, buf.as_slice(), &input);
        let early = buf.load(block.thread_rank() as usize);
        wait(&block);
        std::hint::black_box(early);
    })
    .unwrap_err()
}

/// `this_grid().sync()` in a launch that is not cooperative.
pub fn grid_sync_not_cooperative() -> SimError {
    launch(&LaunchConfig::new(4, 32), &|| {
        this_grid().sync();
    })
    .unwrap_err()
}
