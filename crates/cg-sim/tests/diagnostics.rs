//! Deliberately broken kernels: each must fail fast with the right report,
//! naming the right source line.

mod common;

use std::cell::Cell;
use std::time::{Duration, Instant};

use cg_sim::lane::{self, Scope, ShflMode};
use cg_sim::{Dim3, LaunchConfig, SimError};
use common::{fail, tid};

const FULL: u32 = u32::MAX;

/// Runs a broken kernel, checks it fails within a bounded time, and returns
/// the error.
fn broken(cfg: &LaunchConfig, kernel: &dyn Fn()) -> SimError {
    let t0 = Instant::now();
    let e = fail(cfg, kernel);
    assert!(
        t0.elapsed() < Duration::from_secs(5),
        "diagnosis took {:?}",
        t0.elapsed()
    );
    // The report must be printable and multi-line where it has details.
    let text = e.to_string();
    assert!(!text.is_empty());
    e
}

fn deadlock(e: &SimError) -> &cg_sim::Report {
    match e {
        SimError::Deadlock(r) => r,
        other => panic!("expected a deadlock, got:\n{other}"),
    }
}

fn misuse(e: &SimError) -> &cg_sim::Report {
    match e {
        SimError::Misuse(r) => r,
        other => panic!("expected a misuse, got:\n{other}"),
    }
}

fn assert_points_at(r: &cg_sim::Report, line: u32) {
    let loc = r.location.as_ref().expect("report has a location");
    assert_eq!(
        (loc.file.as_str(), loc.line),
        (file!(), line),
        "report:\n{r}"
    );
}

#[test]
fn collective_in_a_divergent_branch_deadlocks() {
    let shfl_line = Cell::new(0);
    let bar_line = Cell::new(0);
    let e = broken(&LaunchConfig::new(1, 32), &|| {
        if lane::lane_id() < 16 {
            shfl_line.set(line!() + 1);
            lane::shfl(ShflMode::Down, FULL, 1, 1, 0x1f);
        }
        bar_line.set(line!() + 1);
        lane::sync_threads();
    });
    let r = deadlock(&e);
    assert_points_at(r, shfl_line.get());
    assert!(r.mentions_line(file!(), bar_line.get()));
    let text = e.to_string();
    let want = format!(
        "block (0,0,0) threads 0-15: shfl.sync.down mask 0xffffffff at {}:{}",
        file!(),
        shfl_line.get()
    );
    assert!(text.contains(&want), "{text}");
    let want = format!(
        "block (0,0,0) threads 16-31: bar.sync 0 at {}:{}",
        file!(),
        bar_line.get()
    );
    assert!(text.contains(&want), "{text}");
    assert!(text.contains("waits for lanes 16-31"), "{text}");
}

#[test]
fn collective_whose_partners_exited_is_a_misuse() {
    let line = Cell::new(0);
    let e = broken(&LaunchConfig::new(1, 32), &|| {
        if lane::lane_id() < 16 {
            line.set(line!() + 1);
            lane::ballot(FULL, true);
        }
    });
    let r = misuse(&e);
    assert_points_at(r, line.get());
    assert!(r.summary.contains("lanes 16-31 that have exited"), "{r}");
}

#[test]
fn barrier_reached_by_a_subset_of_the_block() {
    let (a, b) = (Cell::new(0), Cell::new(0));
    let e = broken(&LaunchConfig::new(1, 64), &|| {
        if tid() < 32 {
            a.set(line!() + 1);
            lane::sync_threads();
        } else {
            b.set(line!() + 1);
            lane::barrier_sync(1, 64);
        }
    });
    let r = deadlock(&e);
    assert_points_at(r, a.get());
    assert_eq!(r.blocked.len(), 2, "{r}");
    assert_eq!(r.blocked[0].threads, vec![0..=31]);
    assert_eq!(r.blocked[0].operation, "bar.sync 0");
    assert_eq!(r.blocked[1].threads, vec![32..=63]);
    assert_eq!(r.blocked[1].operation, "bar.sync 1, 64");
    assert_eq!(r.blocked[1].location.line, b.get());
    assert!(e.to_string().contains("1 of the 2 warp arrivals"), "{e}");
}

#[test]
fn lane_not_in_its_own_mask() {
    let line = Cell::new(0);
    let e = broken(&LaunchConfig::new(1, 32), &|| {
        line.set(line!() + 1);
        lane::shfl(ShflMode::Idx, 0x1, 5, 0, 0x1f);
    });
    let r = misuse(&e);
    assert_points_at(r, line.get());
    assert!(
        r.summary.contains("does not contain the calling lane 1"),
        "{r}"
    );
    assert!(r.summary.contains("thread (1,0,0)"), "{r}");
}

#[test]
fn lanes_with_different_masks() {
    let line = Cell::new(0);
    let e = broken(&LaunchConfig::new(1, 32), &|| {
        let l = lane::lane_id();
        // Lane 0 names lanes {0,1}, lanes 1 and 2 name {0,1,2}: overlapping
        // masks that can never complete. Other lanes sync alone.
        let mask = match l {
            0 => 0b11,
            1 | 2 => 0b111,
            _ => 1 << l,
        };
        line.set(line!() + 1);
        lane::warp_sync(mask);
    });
    let r = misuse(&e);
    assert_points_at(r, line.get());
    assert!(r.summary.contains("mismatched warp collectives"), "{r}");
}

#[test]
fn different_collectives_on_one_mask() {
    let e = broken(&LaunchConfig::new(1, 32), &|| {
        if lane::lane_id().is_multiple_of(2) {
            lane::ballot(FULL, true);
        } else {
            lane::redux(lane::ReduxOp::Add, FULL, 1);
        }
    });
    let r = misuse(&e);
    assert!(
        r.summary.contains("vote.sync.ballot") && r.summary.contains("redux.sync.add"),
        "{r}"
    );
}

#[test]
fn non_uniform_argument_in_a_warp() {
    let line = Cell::new(0);
    let e = broken(&LaunchConfig::new(1, 32), &|| {
        let width = if lane::lane_id() < 8 { 16 } else { 32 };
        line.set(line!() + 1);
        lane::check_uniform(Scope::Warp(FULL), "width", width);
    });
    let r = misuse(&e);
    assert_points_at(r, line.get());
    assert!(r.summary.contains("non-uniform argument `width`"), "{r}");
    assert!(
        r.summary
            .contains("lanes 0-7 passed 16; lanes 8-31 passed 32"),
        "{r}"
    );
}

#[test]
fn non_uniform_argument_in_a_block() {
    let line = Cell::new(0);
    let e = broken(&LaunchConfig::new(1, 128), &|| {
        line.set(line!() + 1);
        lane::check_uniform(Scope::Block, "tile size", if tid() < 64 { 32 } else { 64 });
    });
    let r = misuse(&e);
    assert_points_at(r, line.get());
    assert!(
        r.summary.contains("non-uniform argument `tile size`"),
        "{r}"
    );
    assert!(
        r.summary
            .contains("threads 0-63 passed 32; threads 64-127 passed 64"),
        "{r}"
    );
}

/// Half the block passes the block-wide check and goes on to a barrier the
/// other half reaches without it: reported at the barrier, naming the
/// check's line and the barrier. The check itself holds no lane (it is no
/// rendezvous), so the first half got there first.
#[test]
fn block_check_reached_by_half_a_block_names_the_operation() {
    let (line, bar) = (Cell::new(0), Cell::new(0));
    let e = broken(&LaunchConfig::new(1, 64), &|| {
        if tid() < 32 {
            line.set(line!() + 1);
            lane::check_uniform(Scope::Block, "tiled_partition", 64);
        }
        bar.set(line!() + 1);
        lane::sync_threads();
    });
    let r = misuse(&e);
    assert_points_at(r, line.get());
    assert!(
        r.summary
            .contains("threads 0-31 passed the block-wide `tiled_partition` at")
            && r.summary.contains("met threads 32-63 at `bar.sync 0`"),
        "{r}"
    );
    assert!(r.mentions_line(file!(), bar.get()), "{r}");
}

/// The same with a warp collective as the meeting point: lanes 0-15 make
/// the check before the shuffle, lanes 16-31 after it.
#[test]
fn block_check_out_of_order_with_a_warp_collective() {
    let line = Cell::new(0);
    let e = broken(&LaunchConfig::new(1, 32), &|| {
        let early = tid() < 16;
        if early {
            line.set(line!() + 1);
            lane::check_uniform(Scope::Block, "tiled_partition", 16);
        }
        lane::shfl(ShflMode::Idx, FULL, 1, 0, 0x1f);
        if !early {
            lane::check_uniform(Scope::Block, "tiled_partition", 16);
        }
    });
    let r = misuse(&e);
    assert_points_at(r, line.get());
    assert!(r.summary.contains("`shfl.sync.idx`"), "{r}");
}

/// Threads that skip the check and exit owe it nothing (as before: an
/// exited thread blocks no barrier on the GPU either).
#[test]
fn block_check_skipped_by_exiting_threads_is_fine() {
    common::run(&LaunchConfig::new(1, 64), &|| {
        if tid() >= 32 {
            return;
        }
        lane::check_uniform(Scope::Block, "tiled_partition", 64);
        lane::sync_threads();
    });
}

/// The check is no rendezvous: a thread that passed it runs on while
/// another has not reached it yet (here the second warp waits for the
/// first warp's flag, set after the check; a rendezvous would hang).
#[test]
fn block_check_does_not_hold_threads() {
    let flag = std::sync::atomic::AtomicU32::new(0);
    common::run(&LaunchConfig::new(1, 64), &|| {
        use std::sync::atomic::Ordering::{Acquire, Release};
        if tid() >= 32 {
            while flag.load(Acquire) == 0 {
                lane::yield_now();
            }
        }
        lane::check_uniform(Scope::Block, "tiled_partition", 32);
        if tid() == 0 {
            flag.store(1, Release);
        }
        lane::sync_threads();
    });
}

#[test]
fn grid_sync_without_a_cooperative_launch() {
    let line = Cell::new(0);
    let e = broken(&LaunchConfig::new(2, 32), &|| {
        line.set(line!() + 1);
        lane::grid_sync();
    });
    let r = misuse(&e);
    assert_points_at(r, line.get());
    assert!(r.summary.contains("cooperative launch"), "{r}");
}

#[test]
fn grid_sync_with_an_exited_block_deadlocks() {
    let e = broken(&LaunchConfig::new(3, 32).with_cooperative(true), &|| {
        if lane::block_idx()[0] == 1 {
            return;
        }
        lane::grid_sync();
    });
    let r = deadlock(&e);
    assert!(
        r.notes
            .iter()
            .any(|n| n.contains("block (1,0,0) has exited entirely")),
        "{r}"
    );
}

#[test]
fn cooperative_grid_too_large() {
    let dev = cg_sim::SimDevice::default();
    let cfg = LaunchConfig::new(1000, 1024).with_cooperative(true);
    let e = cg_sim::launch_on(&dev, &cfg, &|| unreachable!()).unwrap_err();
    let SimError::InvalidLaunch(msg) = &e else {
        panic!("{e}")
    };
    assert!(
        msg.starts_with(
            "cooperative launch of 1000 blocks exceeds the 8 blocks that can be co-resident"
        ),
        "{msg}"
    );
    // The message says how to simulate a device that holds the grid.
    assert!(
        msg.contains("SimDevice { sm_count: 500, ..SimDevice::default() }"),
        "{msg}"
    );
    let big = cg_sim::SimDevice {
        sm_count: 500,
        ..cg_sim::SimDevice::default()
    };
    assert!(big.validate(&cfg).is_ok());
}

#[test]
fn kernel_panic_names_block_thread_and_line() {
    let line = Cell::new(0);
    let data = [0u32; 4];
    let e = broken(&LaunchConfig::new(2, 64), &|| {
        let i = if lane::block_idx()[0] == 1 && tid() == 37 {
            4
        } else {
            0
        };
        lane::sync_threads();
        line.set(line!() + 1);
        let v = data[i];
        std::hint::black_box(v);
    });
    let SimError::KernelPanic {
        block,
        thread,
        message,
        location,
    } = &e
    else {
        panic!("{e}")
    };
    assert_eq!((*block, *thread), (Dim3::new(1, 0, 0), Dim3::new(37, 0, 0)));
    assert!(message.contains("index out of bounds"), "{message}");
    let loc = location.as_ref().expect("panic location");
    assert_eq!((loc.file.as_str(), loc.line), (file!(), line.get()));
    assert!(
        e.to_string().contains("block (1,0,0) thread (37,0,0)"),
        "{e}"
    );
}

#[test]
fn invalid_barriers() {
    let cases: [(u32, u32, &str); 4] = [
        (16, 64, "barrier id 16 out of range"),
        (1, 48, "multiple of the warp size"),
        (1, 0, "must be non-zero"),
        (1, 128, "the block has only 64 threads"),
    ];
    for (id, count, want) in cases {
        let line = Cell::new(0);
        let e = broken(&LaunchConfig::new(1, 64), &|| {
            line.set(line!() + 1);
            lane::barrier_sync(id, count);
        });
        let r = misuse(&e);
        assert_points_at(r, line.get());
        assert!(r.summary.contains(want), "{r}");
    }
}

#[test]
fn barrier_count_disagreement() {
    let e = broken(&LaunchConfig::new(1, 128), &|| {
        lane::barrier_sync(2, if tid() < 64 { 128 } else { 64 });
    });
    assert!(
        misuse(&e).summary.contains("disagree on its thread count"),
        "{e}"
    );
}

#[test]
fn cluster_ops_mismatched() {
    let line = Cell::new(0);
    let e = broken(&LaunchConfig::new(2, 32).with_cluster(2), &|| {
        line.set(line!() + 1);
        lane::cluster_wait();
    });
    assert_points_at(misuse(&e), line.get());
    let e = broken(&LaunchConfig::new(2, 32).with_cluster(2), &|| {
        lane::cluster_arrive();
        lane::cluster_arrive();
    });
    assert!(misuse(&e).summary.contains("arrive twice"), "{e}");
}

#[test]
fn cluster_barrier_missing_a_block_deadlocks() {
    let e = broken(&LaunchConfig::new(2, 64).with_cluster(2), &|| {
        if lane::cluster_cta_rank() == 0 {
            lane::cluster_arrive();
            lane::cluster_wait();
        } else if tid() < 32 {
            lane::sync_threads();
        } else {
            lane::barrier_sync(1, 64);
        }
    });
    let r = deadlock(&e);
    assert_eq!(r.blocked[0].operation, "barrier.cluster.wait");
    assert!(
        r.notes
            .iter()
            .any(|n| n.contains("64 of its 128 live threads")),
        "{r}"
    );
}

#[test]
fn map_shared_of_a_non_shared_pointer() {
    let line = Cell::new(0);
    let mut x = 0u8;
    let p = &mut x as *mut u8;
    let e = broken(&LaunchConfig::new(2, 32).with_cluster(2), &|| {
        line.set(line!() + 1);
        lane::cluster_map_shared(p, 1);
    });
    let r = misuse(&e);
    assert_points_at(r, line.get());
    assert!(
        r.summary.contains("not an address in the shared memory"),
        "{r}"
    );
}

#[test]
fn spinning_forever_is_a_livelock() {
    let flag = Cell::new(false);
    let e = broken(&LaunchConfig::new(1, 64), &|| {
        if tid() == 0 {
            lane::sync_threads(); // waits for the spinners, which never arrive
            flag.set(true);
        } else {
            while !flag.get() {
                lane::yield_now();
            }
        }
    });
    assert!(deadlock(&e).summary.contains("livelock"), "{e}");
}

#[test]
fn spin_wait_with_yield_completes() {
    let flag = Cell::new(0u32);
    let out = common::Out::new(64);
    common::run(&LaunchConfig::new(1, 64), &|| {
        let t = tid();
        if t < 32 {
            while flag.get() == 0 {
                lane::yield_now();
            }
        } else {
            flag.set(7);
        }
        out.set(t as usize, flag.get() as u64);
    });
    assert!(out.to_vec().iter().all(|&v| v == 7));
}

/// Calls `sync_threads` when dropped: exercises primitives during unwinding.
struct SyncOnDrop;

impl Drop for SyncOnDrop {
    fn drop(&mut self) {
        lane::sync_threads();
    }
}

#[test]
fn failed_launch_unwinds_lanes_with_blocking_destructors() {
    let dropped = Cell::new(0);
    let e = broken(&LaunchConfig::new(1, 64), &|| {
        let _g = SyncOnDrop;
        dropped.set(dropped.get() + 1);
        if tid() < 32 {
            lane::barrier_sync(1, 64);
        } else {
            lane::barrier_sync(2, 64);
        }
    });
    deadlock(&e);
    assert_eq!(dropped.get(), 64);
    // The simulator is usable again on this thread.
    common::run(&LaunchConfig::new(1, 32), &|| lane::sync_threads());
}

#[test]
fn panicking_lane_with_blocking_destructor() {
    let e = broken(&LaunchConfig::new(1, 64), &|| {
        let _g = SyncOnDrop;
        if tid() == 5 {
            panic!("lane five fails");
        }
        lane::sync_threads();
    });
    let SimError::KernelPanic {
        thread, message, ..
    } = &e
    else {
        panic!("{e}")
    };
    assert_eq!(
        (*thread, message.as_str()),
        (Dim3::new(5, 0, 0), "lane five fails")
    );
}

#[test]
fn spinner_waiting_for_a_lane_parked_at_activemask() {
    let flag = Cell::new(0u32);
    common::run(&LaunchConfig::new(1, 64), &|| {
        if tid() < 32 {
            while flag.get() == 0 {
                lane::yield_now();
            }
        } else {
            let m = lane::activemask();
            if tid() == 32 {
                flag.set(m);
            }
        }
    });
    assert_eq!(flag.get(), u32::MAX);
}

#[test]
fn errors_are_send_and_sync() {
    fn check<T: Send + Sync + std::error::Error + 'static>() {}
    check::<SimError>();
}
