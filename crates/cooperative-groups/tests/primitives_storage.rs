//! `TempStorage`: one region serves primitives in turn, with a barrier
//! between — and without the barrier the simulator's race detector
//! reports the reuse, naming both calls; storage carved from dynamic
//! shared memory is bounds-checked.

mod prim_common;

use cooperative_groups::prelude::*;
use cooperative_groups::primitives::{
    BlockExchange, BlockShuffle, NeedsTempStorage, TempStorage, WarpExchange,
};
use cooperative_groups::{dynamic_shared, temp_storage};
use prim_common::{Out, launch};
use std::cell::Cell;

thread_local! {
    static LINES: [Cell<u32>; 2] = const { [Cell::new(0), Cell::new(0)] };
}

fn mark(i: usize, line: u32) {
    LINES.with(|l| l[i].set(line));
}

/// Two exchanges in one storage, `barrier` between them or not.
fn two_exchanges(barrier: bool, out: prim_common::OutPtr<u32>) {
    let block = this_thread_block().with_threads::<64>();
    let temp = temp_storage!(BlockExchange<u32, 64, 2>, BlockShuffle<u32, 64>);
    let r = block.thread_rank();
    mark(0, line!() + 1);
    let blocked = BlockExchange::new(&block, &temp).striped_to_blocked([r, r + 64]);
    if barrier {
        block.sync();
    }
    mark(1, line!() + 1);
    let next = BlockShuffle::new(&block, &temp).rotate(blocked[0], 1);
    out.set(r as usize, next);
}

#[test]
fn reuse_after_a_barrier_is_clean() {
    let mut out = Out::new(64, 0u32);
    let p = out.ptr();
    prim_common::run(1, 64, &|| two_exchanges(true, p));
    let want: Vec<u32> = (0..64).map(|r| 2 * ((r + 1) % 64)).collect();
    assert_eq!(out.into_vec(), want);
}

#[test]
fn reuse_without_a_barrier_is_a_reported_race() {
    let mut out = Out::new(64, 0u32);
    let p = out.ptr();
    let report = match launch(1, 64, &|| two_exchanges(false, p)) {
        Err(cg_sim::SimError::DataRace(rep)) => rep,
        Err(e) => panic!("expected a data race, got:\n{e}"),
        Ok(_) => panic!("expected a data race, the launch was clean"),
    };
    let mut want: Vec<u32> = LINES.with(|l| l.iter().map(Cell::get).collect());
    let mut got: Vec<u32> = report
        .race_accesses()
        .iter()
        .map(|a| a.location.line)
        .collect();
    want.sort_unstable();
    got.sort_unstable();
    // The exchange's load of another thread's item and the shuffle's
    // store over it (thread `r` stores slot `r`, which thread `r / 2`
    // loaded): both at the callers' lines, in this file.
    assert_eq!(got, want, "{report}");
    assert!(
        report
            .race_accesses()
            .iter()
            .all(|a| a.location.file.ends_with("primitives_storage.rs")),
        "{report}"
    );
    assert!(report.summary.contains("shared"), "{report}");
}

/// A warp primitive's part of an array storage: each warp's part is its
/// own, so a warp may reuse it after `tile.sync()` alone.
#[test]
fn warp_parts_are_separate() {
    let mut out = Out::new(128, 0u32);
    let p = out.ptr();
    prim_common::run(1, 128, &|| {
        let block = this_thread_block();
        let tile = tiled_partition::<32>(&block);
        let temp = temp_storage!([WarpExchange<u32, 1, 32>; 4]);
        let part = temp.part(tile.meta_group_rank());
        let ex = WarpExchange::<u32, 1, 32>::new(&tile, &part);
        let r = tile.thread_rank();
        let a = ex.blocked_to_striped([r]);
        tile.sync();
        let b = ex.scatter_to_striped(a, &[31 - r]);
        p.set(block.thread_rank() as usize, b[0]);
    });
    let want: Vec<u32> = (0..128).map(|t| 31 - t % 32).collect();
    assert_eq!(out.into_vec(), want);
}

#[test]
fn dynamic_storage_is_checked() {
    type Ex = BlockExchange<u32, 32, 4>;
    let bytes = Ex::TEMP_BYTES as u32;
    let run = |smem: u32, offset: usize| {
        let dev = cg_sim::SimDevice {
            stack_size: 4 << 20,
            ..Default::default()
        };
        let cfg = cg_sim::LaunchConfig::new(1, 32).with_dynamic_smem(smem);
        cg_sim::launch_on(&dev, &cfg, &|| {
            let block = this_thread_block().with_threads::<32>();
            let temp = TempStorage::<Ex>::from_dynamic(&dynamic_shared::<u32>(), offset);
            let r = block.thread_rank();
            let x =
                Ex::new(&block, &temp).blocked_to_striped([4 * r, 4 * r + 1, 4 * r + 2, 4 * r + 3]);
            assert_eq!(x, [r, r + 32, r + 64, r + 96]);
        })
    };
    run(bytes, 0).unwrap();
    run(bytes + 16, 16).unwrap();
    let e = run(bytes, 16).unwrap_err().to_string();
    assert!(e.contains("from_dynamic"), "{e}");
    let e = run(bytes + 16, 8).unwrap_err().to_string();
    assert!(e.contains("from_dynamic"), "{e}");
}

#[test]
fn a_part_past_the_array_is_a_violation() {
    let e = launch(1, 32, &|| {
        let temp = temp_storage!([BlockShuffle<u32, 32>; 2]);
        let _ = temp.part(2);
    })
    .unwrap_err()
    .to_string();
    assert!(e.contains("part(2) of an array of 2"), "{e}");
}

#[test]
fn sizes_add_up() {
    type Ex = BlockExchange<u64, 128, 8>;
    // 1024 items, one padding item per 32.
    assert_eq!(Ex::TEMP_BYTES, (1024 + 32) * 8);
    assert_eq!(<(Ex, BlockShuffle<u8, 128>)>::TEMP_BYTES, Ex::TEMP_BYTES);
    assert_eq!(<[BlockShuffle<u8, 100>; 3]>::TEMP_BYTES, 3 * 112);
}
