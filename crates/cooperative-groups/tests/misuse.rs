//! Misuse on the simulator: contract violations panic with a message naming
//! the sizes, and partitions or collectives that part of a group skips are
//! reported at the user's source line — where a GPU would hang or return
//! garbage.

use cg_sim::{LaunchConfig, SimError, launch};
use cooperative_groups::ops::Plus;
use cooperative_groups::{
    exclusive_scan, inclusive_scan, reduce, this_thread_block, tiled_partition, tiled_partition_dyn,
};

fn run(block: u32, kernel: &dyn Fn()) -> SimError {
    launch(&LaunchConfig::new(1, block), kernel).expect_err("the launch must fail")
}

/// The report points at a line of this file (the kernel's call), not into
/// the library: the `#[track_caller]` chain is unbroken.
fn assert_points_here(e: &SimError) {
    let r = e
        .report()
        .unwrap_or_else(|| panic!("expected a report: {e}"));
    let loc = r
        .location
        .as_ref()
        .unwrap_or_else(|| panic!("no location: {e}"));
    assert_eq!(loc.file, file!(), "{e}");
}

/// A contract violation (a panic on the simulator): its message says
/// `what` and names this file, where the kernel made the call.
fn assert_violation_here(e: &SimError, what: &str) {
    let msg = e.to_string();
    assert!(msg.contains(what), "{msg}");
    assert!(
        msg.contains("misuse.rs"),
        "the report names the user's file: {msg}"
    );
}

#[test]
fn block_larger_than_its_declared_bound_is_reported() {
    let e = run(160, &|| {
        let _ = this_thread_block().with_max_threads::<128>();
    });
    assert_violation_here(&e, "with_max_threads::<128>: the block has 160 threads");
}

#[test]
fn exact_block_size_is_checked() {
    for block in [96u32, 160] {
        let e = run(block, &|| {
            let _ = this_thread_block().with_threads::<128>();
        });
        assert_violation_here(
            &e,
            &format!("with_threads::<128>: the block has {block} threads"),
        );
    }
}

#[test]
fn tile_larger_than_block_is_reported() {
    let e = run(32, &|| {
        let _ = tiled_partition::<64>(&this_thread_block());
    });
    assert_violation_here(
        &e,
        "tile of 64 threads is larger than the block (32 threads)",
    );
}

#[test]
fn dynamic_size_must_be_a_power_of_two() {
    let e = run(32, &|| {
        let _ = tiled_partition_dyn(&this_thread_block(), 12);
    });
    assert!(
        e.to_string()
            .contains("tile size 12 must be a power of two"),
        "{e}"
    );
}

#[test]
fn dynamic_size_must_be_uniform() {
    let e = run(64, &|| {
        let n = if this_thread_block().thread_rank() < 16 {
            4
        } else {
            8
        };
        let _ = tiled_partition_dyn(&this_thread_block(), n);
    });
    let r = e
        .report()
        .unwrap_or_else(|| panic!("expected a report: {e}"));
    assert!(r.summary.contains("non-uniform argument"), "{e}");
    assert_points_here(&e);
}

/// Half the block partitions, the other half goes on to a barrier: a hang
/// on the GPU, a report naming the partition on the simulator. (Threads that
/// skip the partition and *exit* are harmless: creating a tile needs no
/// barrier, and an exited thread never blocks one.)
#[test]
fn partition_by_half_the_block_is_reported() {
    let e = run(64, &|| {
        let block = this_thread_block();
        if block.thread_rank() < 32 {
            let _ = tiled_partition::<16>(&block);
        }
        block.sync();
    });
    assert!(
        matches!(e, SimError::Deadlock(_) | SimError::Misuse(_)),
        "{e}"
    );
    assert_points_here(&e);
}

#[test]
fn reduce_in_a_divergent_branch_is_reported() {
    let e = run(32, &|| {
        let block = this_thread_block();
        let tile = tiled_partition::<32>(&block);
        if block.thread_rank().is_multiple_of(2) {
            let _ = reduce(&tile, 1.0f32, Plus);
        }
    });
    // The odd lanes exit without taking part: a misuse (lanes of the mask
    // exited) or, had they waited elsewhere, a deadlock.
    assert!(
        matches!(e, SimError::Deadlock(_) | SimError::Misuse(_)),
        "{e}"
    );
    assert_points_here(&e);
}

/// The odd lanes of every 8-lane tile skip the collective. On the GPU a
/// sub-warp tile's shuffles take the lanes `activemask` reports as their
/// member mask, so the even lanes would read the odd lanes' stale
/// registers and go on with a wrong result; the simulator names the lanes
/// that left, at the call.
#[test]
fn sub_warp_collectives_skipped_by_members_are_reported() {
    type Collective = fn(f32) -> f32;
    let collectives: [(&str, Collective); 3] = [
        ("reduce", |v| {
            reduce(&tiled_partition::<8>(&this_thread_block()), v, Plus)
        }),
        ("inclusive_scan", |v| {
            inclusive_scan(&tiled_partition::<8>(&this_thread_block()), v, Plus)
        }),
        ("exclusive_scan", |v| {
            exclusive_scan(&tiled_partition::<8>(&this_thread_block()), v, Plus)
        }),
    ];
    for (what, collective) in collectives {
        let e = run(32, &|| {
            if this_thread_block().thread_rank().is_multiple_of(2) {
                collective(1.0);
            }
        });
        let msg = e.to_string();
        assert!(matches!(e, SimError::Misuse(_)), "{what}: {msg}");
        assert!(msg.contains("have already exited"), "{what}: {msg}");
        assert_points_here(&e);
    }
}

/// A 128-thread tile (named barrier, 4 warps) of a 256-thread block whose
/// first warp skips the reduce: the other warps wait at the tile's barrier.
#[test]
fn multi_warp_reduce_skipped_by_one_warp_is_reported() {
    let e = run(256, &|| {
        let block = this_thread_block();
        let tile = tiled_partition::<128>(&block);
        if block.thread_rank() >= 32 {
            let _ = reduce(&tile, 1u64, Plus);
        }
    });
    assert!(matches!(e, SimError::Deadlock(_)), "{e}");
    assert_points_here(&e);
}
