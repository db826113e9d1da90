//! CUDA's free functions over any group (`cg::thread_rank(g)`,
//! `cg::num_threads(g)`, `cg::group_size(g)`) and `grid_group::is_valid()`.

use std::sync::atomic::{AtomicU64, Ordering::Relaxed};

use cooperative_groups::prelude::*;
use cooperative_groups::{group_size, num_threads, thread_rank};

#[test]
fn free_functions_answer_as_the_methods() {
    let bad = AtomicU64::new(0);
    let cfg = cg_sim::LaunchConfig::new(3, 64);
    cg_sim::launch(&cfg, &|| {
        let block = this_thread_block();
        let tile = tiled_partition::<16>(&block);
        let grid = this_grid();
        let ok = thread_rank(&block) == block.thread_rank()
            && num_threads(&block) == 64
            && group_size(&tile) == 16
            && thread_rank(&tile) == block.thread_rank() % 16
            && thread_rank(&grid) == grid.thread_rank()
            && num_threads(&grid) == 192u64
            && group_size(&grid) == 192u64;
        if !ok {
            bad.fetch_add(1, Relaxed);
        }
    })
    .unwrap();
    assert_eq!(bad.load(Relaxed), 0);
}

#[test]
fn a_grid_is_valid_only_under_a_cooperative_launch() {
    for cooperative in [false, true] {
        let valid = AtomicU64::new(0);
        let cfg = cg_sim::LaunchConfig::new(2, 32).with_cooperative(cooperative);
        cg_sim::launch(&cfg, &|| {
            if this_grid().is_valid() {
                valid.fetch_add(1, Relaxed);
            }
        })
        .unwrap();
        assert_eq!(valid.load(Relaxed), if cooperative { 64 } else { 0 });
    }
}
