//! The simulator's race detector on library code: re-creations of the two
//! races compute-sanitizer's racecheck found on the H200 in this library's
//! multi-warp collectives before the collective scratch was split into
//! partials and results (measured at commit 18e2008:
//! `git show f66ff74:docs/results/h200/runs/2026-11-30-exchange-halves-18e2008/README.md`),
//! each reported with its two source lines, and the fixed layout clean.

use std::cell::Cell;

use cooperative_groups::prelude::*;
use cooperative_groups::shared::SharedArray;
use cooperative_groups::shared_array;

// The two source lines a report must name (per test thread: the lanes run
// on the thread that launched them).
thread_local! {
    static LINES: [Cell<u32>; 2] = const { [Cell::new(0), Cell::new(0)] };
}

fn mark(i: usize, line: u32) {
    LINES.with(|l| l[i].set(line));
}

fn run(block: u32, kernel: &dyn Fn()) -> Result<cg_sim::LaunchStats, cg_sim::SimError> {
    run_with(&cg_sim::LaunchConfig::new(1, block), kernel)
}

/// [`run`] with a launch configuration of its own (dynamic shared memory).
fn run_with(
    cfg: &cg_sim::LaunchConfig,
    kernel: &dyn Fn(),
) -> Result<cg_sim::LaunchStats, cg_sim::SimError> {
    let device = cg_sim::SimDevice {
        stack_size: 4 << 20,
        ..cg_sim::SimDevice::default()
    };
    cg_sim::launch_on(&device, cfg, kernel)
}

/// Asserts a data race between the two marked lines (either order: which
/// access comes first depends on the schedule).
fn race_between_marks(r: Result<cg_sim::LaunchStats, cg_sim::SimError>) {
    let report = match r {
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
    assert_eq!(got, want, "{report}");
    assert!(
        report
            .race_accesses()
            .iter()
            .all(|a| a.location.file.ends_with("race.rs")),
        "{report}"
    );
    assert!(report.summary.contains("shared"), "{report}");
}

/// The multi-warp reduce as it was (blocks of more than 4 warps): lane 0
/// of each warp stores the warp's total in its slot, the block syncs, warp
/// 0 folds the slots and (after `bar.warp.sync`) stores the total back into
/// every warp's slot, the block syncs, and every lane loads its warp's
/// slot. With one array (`halves == false`) the next reduce's lane-0 store
/// of a partial races with lanes 1–31 of the same warp still loading the
/// previous result: only shuffles lie between them.
fn old_reduce(
    halves: bool,
    partials: SharedArray<u32, 32>,
    results: SharedArray<u32, 32>,
    v: u32,
) -> u32 {
    let block = this_thread_block();
    let warp = tiled_partition::<32>(&block);
    let w = block.thread_rank() as usize / 32;
    let nw = block.num_threads() as usize / 32;
    let total = reduce(&warp, v, Plus);
    if warp.thread_rank() == 0 {
        mark(0, line!() + 1);
        partials.store(w, total);
    }
    block.sync();
    let out = if halves { results } else { partials };
    if w == 0 {
        let sum = (0..nw)
            .map(|k| partials.load(k))
            .fold(0u32, u32::wrapping_add);
        warp.sync();
        let lane = warp.thread_rank() as usize;
        if lane < nw {
            out.store(lane, sum);
        }
    }
    block.sync();
    mark(1, line!() + 1);
    out.load(w)
}

#[test]
fn reduce_over_more_than_4_warps_with_one_scratch_half_races() {
    let kernel = |halves: bool| {
        move || {
            let partials = shared_array!(u32; 32);
            let results = shared_array!(u32; 32);
            let t = this_thread_block().thread_rank();
            let a = old_reduce(halves, partials, results, t);
            let b = old_reduce(halves, partials, results, 1);
            assert_eq!((a, b), ((0..256).sum(), 256));
        }
    };
    run(256, &kernel(true)).unwrap_or_else(|e| panic!("{e}"));
    race_between_marks(run(256, &kernel(false)));
}

/// The block scan's warp path as it was: the last lane of each warp stores
/// the warp's total, the block syncs, warp 0 scans the totals (lane `k`
/// loads slot `k`, shuffles) and lane `k` stores warp `k`'s prefix back in
/// slot `k`, the block syncs, and each warp loads its prefix. With one
/// array the next collective's store of a warp total races with the other
/// lanes of that warp loading the prefix.
fn old_scan(
    halves: bool,
    partials: SharedArray<u32, 32>,
    results: SharedArray<u32, 32>,
    v: u32,
) -> u32 {
    let block = this_thread_block();
    let warp = tiled_partition::<32>(&block);
    let w = block.thread_rank() as usize / 32;
    let nw = block.num_threads() as usize / 32;
    let lane = warp.thread_rank() as usize;
    let inc = inclusive_scan(&warp, v, Plus);
    if lane == 31 {
        mark(0, line!() + 1);
        partials.store(w, inc);
    }
    block.sync();
    let out = if halves { results } else { partials };
    if w == 0 {
        let total = if lane < nw { partials.load(lane) } else { 0 };
        let before = exclusive_scan(&warp, total, Plus);
        if lane < nw {
            out.store(lane, before);
        }
    }
    block.sync();
    mark(1, line!() + 1);
    let prefix = out.load(w);
    prefix + inc - v
}

#[test]
fn warp_path_block_scan_with_one_scratch_half_races() {
    let kernel = |halves: bool| {
        move || {
            let partials = shared_array!(u32; 32);
            let results = shared_array!(u32; 32);
            let t = this_thread_block().thread_rank();
            let a = old_scan(halves, partials, results, 1);
            let b = old_scan(halves, partials, results, 2);
            assert_eq!((a, b), (t, 2 * t));
        }
    };
    run(320, &kernel(true)).unwrap_or_else(|e| panic!("{e}"));
    race_between_marks(run(320, &kernel(false)));
}

/// A 64-thread tile of a block of more than 512 threads (576 here) syncs
/// on an mbarrier in shared memory, which its creation initialises.
/// Creating the tile again while members of the old handle's last phase
/// have not yet returned from their wait is what `soft_setup`'s first
/// parent sync prevents: on the GPU they are still polling, and a reset
/// barrier would never show them the phase complete (a hang).
///
/// The schedule: the last member of each tile to arrive completes the
/// phase and runs on; the 63 the completion released run again in order,
/// so the second tile's leader (thread 64) returns first and, without the
/// first parent sync, initialises the barrier while the other 62 have not
/// run again: the simulator reports the re-initialisation at the line
/// that re-creates the tile, with the 62.
fn recreate_soft_tile(first_sync: bool) -> Result<cg_sim::LaunchStats, cg_sim::SimError> {
    let device = cg_sim::SimDevice {
        stack_size: 4 << 20,
        ..cg_sim::SimDevice::default()
    };
    cooperative_groups::__private::set_soft_setup_first_sync(first_sync);
    let r = cg_sim::launch_on(&device, &cg_sim::LaunchConfig::new(1, 576), &|| {
        let block = this_thread_block();
        let tile = tiled_partition::<64>(&block);
        tile.sync();
        mark(1, line!() + 1);
        let tile = tiled_partition::<64>(&block);
        tile.sync();
    });
    cooperative_groups::__private::set_soft_setup_first_sync(true);
    r
}

#[test]
fn soft_tile_recreated_without_the_first_parent_sync_is_reported() {
    recreate_soft_tile(true).unwrap_or_else(|e| panic!("with the first parent sync: {e}"));
    let report = match recreate_soft_tile(false) {
        Err(cg_sim::SimError::Misuse(r)) => r,
        Err(e) => panic!("expected a misuse report, got:\n{e}"),
        Ok(_) => panic!("expected a misuse report, the launch was clean"),
    };
    eprintln!("{report}");
    let recreate = LINES.with(|l| l[1].get());
    assert!(
        report
            .summary
            .contains("re-initialised while its phase 1 is in progress")
            && report.summary.contains("62 threads not yet returned"),
        "{report}"
    );
    assert!(report.mentions_line(file!(), recreate), "{report}");
}

/// One neighbour exchange per way of naming shared memory — a
/// `shared_array!`, the dynamic shared memory, an array of it
/// (`array_at`), a 64-thread tile's ranks (`store_rank`/`load_rank`), a
/// slice of it (`SharedSlice`, whose accessors went unseen by the detector
/// until they reported their accesses as the arrays' do) and a constant
/// index (`load_at`): each thread writes its word, then reads one that a
/// thread of the other warp wrote. Ordered by the block barrier, a race
/// (naming both lines) without it.
#[test]
fn every_shared_accessor_is_checked_for_races() {
    fn exchange(sync: bool, way: usize) -> Result<cg_sim::LaunchStats, cg_sim::SimError> {
        let cfg = cg_sim::LaunchConfig::new(1, 64).with_dynamic_smem(256);
        run_with(&cfg, &|| {
            let block = this_thread_block();
            let t = block.thread_rank() as usize;
            let other = (t + 33) % 64;
            let barrier = || {
                if sync {
                    block.sync();
                }
            };
            let got = match way {
                0 => {
                    let a = shared_array!(u32; 64);
                    mark(0, line!() + 1);
                    a.store(t, t as u32);
                    barrier();
                    mark(1, line!() + 1);
                    a.load(other)
                }
                1 => {
                    let d = cooperative_groups::dynamic_shared::<u32>();
                    mark(0, line!() + 1);
                    d.store(t, t as u32);
                    barrier();
                    mark(1, line!() + 1);
                    d.load(other)
                }
                2 => {
                    let a = cooperative_groups::dynamic_shared::<u32>().array_at::<64>(0);
                    mark(0, line!() + 1);
                    a.store(t, t as u32);
                    barrier();
                    mark(1, line!() + 1);
                    a.load(other)
                }
                3 => {
                    let a = shared_array!(u32; 64);
                    let tile = tiled_partition::<64>(&block);
                    mark(0, line!() + 1);
                    a.store_rank(&tile, t as u32);
                    barrier();
                    mark(1, line!() + 1);
                    a.load(other)
                }
                4 => {
                    let s = cooperative_groups::dynamic_shared::<u32>().slice(0, 64);
                    mark(0, line!() + 1);
                    s.store(t, t as u32);
                    barrier();
                    mark(1, line!() + 1);
                    s.load(other)
                }
                _ => {
                    let a = shared_array!(u32; 64);
                    mark(0, line!() + 1);
                    a.store(t, t as u32);
                    barrier();
                    mark(1, line!() + 1);
                    let v = a.load_at::<33>();
                    if sync {
                        assert_eq!(v, 33);
                    }
                    return;
                }
            };
            if sync {
                assert_eq!(got as usize, other);
            }
        })
    }
    for way in 0..6 {
        exchange(true, way).unwrap_or_else(|e| panic!("way {way}: {e}"));
        race_between_marks(exchange(false, way));
    }
}
