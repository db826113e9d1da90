//! Cooperative launches of several clusters in `launch_parallel`: run in
//! segments, on one thread or on several.
//!
//! # The schedule
//!
//! The one unit of [`launch_with`](crate::launch_with) (the whole grid,
//! every lane interleaved on one thread) cannot be split over threads
//! without making the interleaving depend on them. Here each cluster is a
//! unit of its own, set up once and kept for the whole launch, and the
//! launch runs in *phases*, from one grid barrier to the next: phase `p`
//! runs cluster 0 until none of its lanes can run (they wait at the grid
//! barrier, exited, or are stuck), then cluster 1, and so on — segment
//! `(p, c)`. When every cluster's segment of the phase has ended, the
//! launching thread decides the phase: every lane exited (the launch is
//! over), every block of the grid waits at the grid barrier (the barrier
//! completes and phase `p + 1` starts, each cluster's waiters queued in
//! the order they arrived, [`Core::grid_release`]), or anything else
//! (the grid barrier can never complete: a deadlock, or the misuse that
//! explains it, reported over every cluster's lanes as the one unit of
//! the grid would have reported them, [`crate::diagnose::stall_report`]).
//!
//! That sequence is the same whatever the worker count: with one worker
//! the launching thread runs the segments itself, in that order; with
//! several, worker `w` owns clusters `w, w + W, w + 2W, …` for the whole
//! launch (a suspended lane's stack, its frames' references to its unit
//! and any thread-local state stay on the thread that started it: lanes
//! never move between threads), runs its clusters' segments of the
//! released phase in cluster order, and the phases are separated by the
//! launching thread's decision. A segment runs exactly as on one thread:
//! its unit holds only its cluster's lanes, in the same order, and
//! nothing in it depends on other clusters — for kernels whose blocks do
//! not communicate within a phase ([`launch_parallel`]'s contract, which
//! safe launches meet by construction: `SafeParam::SERIAL`). Between
//! phases they may: what a block wrote before a grid barrier is read
//! after it by blocks that run after the launching thread released it.
//!
//! # Reports
//!
//! Each unit records its calls into the race detector
//! ([`Core::race`]); the launching thread applies the segments' logs
//! in segment order to the launch's one detector, whose one unit is the
//! whole grid (lanes, blocks and clusters renumbered: `Event::shifted`),
//! and completes the grid barrier in it between phases. The first segment
//! in that order whose log races, or that failed (panic, misuse inside
//! its cluster, livelock, bounds), gives the launch's error; a stall is
//! decided at the end of its phase. Every report is therefore the same
//! whatever the worker count. A misuse found inside a segment lists the
//! blocked lanes of its cluster only (other clusters may be running).
//!
//! The grid collectives' scratch is the launch's ([`CoopShared`]): in a
//! phase they write only the half of the current phase and read only the
//! other half, which the phase before wrote, so threads never share a
//! word within a phase.

use std::cell::RefCell;
use std::collections::BTreeMap;
use std::sync::{Arc, Condvar, Mutex};

use crate::diagnose::{StallPart, stall_report};
use crate::race::detector::Race;
use crate::race::sink::{Place, SyncSink};
use crate::race::state::UnitSink;
use crate::sched::{LaunchGuard, UnitLanes, drive};
use crate::shared::state::SmemMap;
use crate::stack::{LaneStack, StackPool};
use crate::unit::{CoopShared, Core};
use crate::{LaunchConfig, LaunchStats, Region, SimDevice, SimError};

/// What a segment left: cluster `c`'s run from one grid barrier to the
/// next (or to its end).
struct SegOut {
    result: Result<(), SimError>,
    stats: LaunchStats,
    /// Its calls into the race detector (detector on).
    log: Vec<crate::race::event::Event>,
    /// Where its blocks' shared memory is (detector on), for a report.
    maps: Vec<SmemMap>,
    /// Every lane of the cluster has exited.
    finished: bool,
    /// Every block of the cluster waits at the grid barrier: `waiters`,
    /// the waiting lanes (unit indices), in the order they arrived.
    arrived: bool,
    waiters: Vec<u32>,
}

/// One cluster of the launch, kept by the thread that runs it.
struct CoopCluster<'k> {
    /// Its linear index in the grid.
    index: u64,
    /// Its unit (boxed: its lanes hold its address while suspended).
    core: Box<RefCell<Core>>,
    /// Its lanes, from its first segment until the launch ends.
    lanes: Option<UnitLanes<'k>>,
}

/// A thread's clusters, in increasing index, and their stacks.
struct CoopWorker<'k> {
    kernel: &'k &'k dyn Fn(),
    clusters: Vec<CoopCluster<'k>>,
    stacks: StackPool,
}

impl<'k> CoopWorker<'k> {
    #[allow(clippy::too_many_arguments)]
    fn new(
        device: &SimDevice,
        cfg: &LaunchConfig,
        regions: &[Region],
        kernel: &'k &'k dyn Fn(),
        clusters: impl Iterator<Item = u64>,
        concurrent: bool,
        race_on: bool,
        shared: &Arc<CoopShared>,
        stacks: StackPool,
    ) -> CoopWorker<'k> {
        let clusters = clusters
            .map(|index| {
                let mut state = Core::new(device, cfg);
                state.regions = regions.to_vec();
                state.concurrent = concurrent;
                state.launch = shared.launch;
                state.coop = Some(shared.clone());
                if race_on {
                    state.race = UnitSink::Log(Vec::new());
                }
                CoopCluster {
                    index,
                    core: Box::new(RefCell::new(state)),
                    lanes: None,
                }
            })
            .collect();
        CoopWorker {
            kernel,
            clusters,
            stacks,
        }
    }

    /// Runs segment `(phase, clusters[k])`: sets the cluster up (phase 0)
    /// or releases its grid barrier's waiters, then runs its lanes until
    /// none can run.
    fn run(&mut self, k: usize, phase: u32) -> SegOut {
        let kernel = self.kernel;
        let cl = &mut self.clusters[k];
        let core: &RefCell<Core> = &cl.core;
        let guard = LaunchGuard::install(core);
        let mut result = if phase == 0 {
            let n = core.borrow_mut().setup_unit(cl.index..cl.index + 1);
            let (lanes, r) = UnitLanes::new(core, n, kernel, &mut self.stacks);
            cl.lanes = Some(lanes);
            r
        } else {
            core.borrow_mut().grid_release()
        };
        if result.is_ok() {
            let lanes = cl.lanes.as_mut().expect("the cluster's lanes were set up");
            result = drive(core, lanes, &mut self.stacks);
        }
        drop(guard);
        let mut c = core.borrow_mut();
        let arrived = result.is_ok() && c.grid_all_arrived();
        let race_on = c.race.is_log();
        SegOut {
            stats: std::mem::take(&mut c.stats),
            log: c.race.take_log(),
            maps: if race_on {
                c.blocks.iter().map(|b| b.smem.map(b.idx)).collect()
            } else {
                Vec::new()
            },
            finished: c.lanes.live == 0,
            waiters: if arrived {
                c.grid.waiters.clone()
            } else {
                Vec::new()
            },
            arrived,
            result,
        }
    }

    /// Cluster `clusters[k]`'s share of the report of a stalled phase, and
    /// the misuse of a block-wide check its threads disagreed on, if any
    /// (which the report of the stall is then). Only after the phase
    /// stalled: the check's misuse stops a lane, and the launch ends.
    fn stall_part(&mut self, k: usize) -> (StallPart, Option<SimError>) {
        let mut c = self.clusters[k].core.borrow_mut();
        let part = c.stall_part();
        (part, c.disagreeing_check())
    }
}

impl CoopWorker<'_> {
    /// Ends the launch on this thread: the lanes unwound, the stacks left.
    fn into_stacks(mut self) -> Vec<LaneStack> {
        self.teardown();
        self.stacks.take_free()
    }

    /// Unwinds the lanes that have not finished, on the thread that ran
    /// them, with their unit installed (their destructors may call into
    /// it), as `run_unit` does for a unit of another launch.
    fn teardown(&mut self) {
        for cl in &mut self.clusters {
            let Some(mut lanes) = cl.lanes.take() else {
                continue;
            };
            if std::thread::panicking() {
                // A simulator bug unwinds this thread: resuming lanes now
                // could abort the process. Their stacks are leaked.
                std::mem::forget(lanes);
                continue;
            }
            if lanes.any_alive() {
                let guard = LaunchGuard::install(&cl.core);
                lanes.teardown(&cl.core);
                drop(guard);
            }
        }
    }
}

impl Drop for CoopWorker<'_> {
    fn drop(&mut self) {
        self.teardown();
    }
}

/// How a phase ended.
enum Verdict {
    /// Every lane of the grid exited.
    Done,
    /// Every block waits at the grid barrier: the next phase runs.
    Release,
    /// Anything else: the grid barrier can never complete.
    Stall,
}

/// The launching thread's part: the launch's race detector and
/// statistics, and the phase being merged.
struct CoopMerge<'a> {
    device: &'a SimDevice,
    cfg: &'a LaunchConfig,
    regions: &'a [Region],
    clusters: u64,
    race: Option<Box<Race>>,
    stats: LaunchStats,
    /// Lanes and blocks per cluster.
    cluster_lanes: u32,
    cluster_blocks: u32,
    /// This phase: clusters whose lanes all exited, clusters whose blocks
    /// all wait at the grid barrier, and those lanes (grid indices).
    finished: u64,
    arrived: u64,
    waiters: Vec<u32>,
}

impl<'a> CoopMerge<'a> {
    fn new(
        device: &'a SimDevice,
        cfg: &'a LaunchConfig,
        regions: &'a [Region],
        race_on: bool,
    ) -> CoopMerge<'a> {
        let cluster_blocks = cfg.cluster_dim().volume() as u32;
        let tpb = cfg.block.volume() as u32;
        let clusters = cfg.grid.volume() / cluster_blocks as u64;
        // The grid's one unit, laid out as `Core::setup_unit` lays out
        // the whole grid: clusters in order, each one's blocks by rank,
        // each block's threads.
        let race = race_on.then(|| {
            let nlanes = cfg.grid.volume() as u32 * tpb;
            let places = (0..nlanes)
                .map(|l| Place {
                    block: l / tpb,
                    cluster: l / tpb / cluster_blocks,
                })
                .collect();
            let mut r = Box::new(Race::new());
            r.begin_unit(0, places, clusters as usize);
            r
        });
        CoopMerge {
            device,
            cfg,
            regions,
            clusters,
            race,
            stats: LaunchStats::default(),
            cluster_lanes: cluster_blocks * tpb,
            cluster_blocks,
            finished: 0,
            arrived: 0,
            waiters: Vec::new(),
        }
    }

    /// Takes segment `(phase, c)`: applies its log to the detector, then
    /// its result (a race in its log is reported before its failure, as
    /// the detector of the one unit would have stopped the lane there).
    fn merge(&mut self, c: u64, out: SegOut) -> Result<(), SimError> {
        let (lanes, blocks) = (
            c as u32 * self.cluster_lanes,
            c as u32 * self.cluster_blocks,
        );
        if let Some(r) = self.race.as_mut() {
            for ev in out.log {
                if let Some(ev) = ev.shifted(lanes, blocks, c as u32)
                    && let Some(f) = ev.replay(&mut **r)
                {
                    let mut rep = Core::new(self.device, self.cfg);
                    rep.race_enabled = false;
                    rep.regions = self.regions.to_vec();
                    // Both accesses of a shared word are in this cluster
                    // (shared memory is reached within a cluster only).
                    rep.smem_maps = Some(out.maps);
                    return Err(rep.race_error(&f));
                }
            }
        }
        out.result?;
        let s = &mut self.stats;
        s.blocks += out.stats.blocks;
        s.lanes += out.stats.lanes;
        s.collectives += out.stats.collectives;
        s.lane_collectives += out.stats.lane_collectives;
        s.context_switches += out.stats.context_switches;
        self.finished += out.finished as u64;
        if out.arrived {
            self.arrived += 1;
            self.waiters.extend(out.waiters.iter().map(|&t| t + lanes));
        }
        Ok(())
    }

    /// Decides the phase whose every segment was merged; completes the grid
    /// barrier in the detector if every block arrived.
    fn verdict(&mut self) -> Verdict {
        let v = if self.finished == self.clusters {
            Verdict::Done
        } else if self.arrived == self.clusters {
            if let Some(r) = self.race.as_mut() {
                r.grid_complete(&self.waiters);
            }
            self.stats.collectives += 1;
            Verdict::Release
        } else {
            Verdict::Stall
        };
        self.finished = 0;
        self.arrived = 0;
        self.waiters.clear();
        v
    }
}

/// The report of a stalled phase from every cluster's share, in cluster
/// order: the first block-wide check whose threads disagreed (its
/// blocked lanes completed with the other clusters'), else the stall.
fn stall_error(mut parts: Vec<(StallPart, Option<SimError>)>) -> SimError {
    if let Some(k) = parts.iter().position(|p| p.1.is_some()) {
        let mut e = parts[k].1.take().expect("a misuse");
        if let SimError::Misuse(r) = &mut e {
            // Its cluster's lanes as the misuse left them, in place among
            // the other clusters'.
            let mine = std::mem::take(&mut r.blocked);
            r.blocked = parts[..k]
                .iter()
                .flat_map(|p| p.0.groups().to_vec())
                .collect();
            r.blocked.extend(mine);
            r.blocked
                .extend(parts[k + 1..].iter().flat_map(|p| p.0.groups().to_vec()));
        }
        return e;
    }
    let parts: Vec<StallPart> = parts.into_iter().map(|p| p.0).collect();
    stall_report(&parts)
}

/// What the workers and the launching thread share.
struct Board {
    /// The phase the workers may run (grid barriers completed so far).
    phase: u32,
    /// Finished segments of `phase` not yet taken by the launching thread.
    done: BTreeMap<u64, SegOut>,
    /// Segments of `phase` taken so far (clusters `0..merged`).
    merged: u64,
    /// The phase stalled: every worker adds its clusters' `parts`.
    want_parts: bool,
    parts: BTreeMap<u64, (StallPart, Option<SimError>)>,
    /// The launch is over: workers unwind their lanes and leave.
    stop: bool,
    /// A worker panicked (a simulator bug): the launch gives up.
    aborted: bool,
}

type Shared = (Mutex<Board>, Condvar);

fn lock(b: &Shared) -> std::sync::MutexGuard<'_, Board> {
    b.0.lock().unwrap_or_else(|e| e.into_inner())
}

fn wait<'a>(
    b: &'a Shared,
    g: std::sync::MutexGuard<'a, Board>,
) -> std::sync::MutexGuard<'a, Board> {
    b.1.wait(g).unwrap_or_else(|e| e.into_inner())
}

/// Runs `f` if the thread unwinds past it.
struct OnUnwind<F: FnMut()>(F);

impl<F: FnMut()> Drop for OnUnwind<F> {
    fn drop(&mut self) {
        if std::thread::panicking() {
            (self.0)();
        }
    }
}

/// A cooperative launch of `cfg` (validated, several clusters) in
/// segments (see the module's docs), on `workers` threads (at most one
/// per cluster), or on the calling thread for one.
pub(crate) fn launch_coop(
    device: &SimDevice,
    cfg: &LaunchConfig,
    regions: &[Region],
    kernel: &(dyn Fn() + Sync),
    workers: usize,
) -> Result<LaunchStats, SimError> {
    let race_on = device.race_check && crate::race::detector::env_enabled();
    let shared = Arc::new(CoopShared {
        launch: crate::shared::state::next_launch(),
        ..CoopShared::default()
    });
    let mut merge = CoopMerge::new(device, cfg, regions, race_on);
    let clusters = merge.clusters;
    if workers <= 1 {
        let k: &dyn Fn() = kernel;
        let mut w = CoopWorker::new(
            device,
            cfg,
            regions,
            &k,
            0..clusters,
            false,
            race_on,
            &shared,
            StackPool::new(device.stack_size).for_cooperative(),
        );
        for phase in 0.. {
            for c in 0..clusters {
                let out = w.run(c as usize, phase);
                merge.merge(c, out)?;
            }
            match merge.verdict() {
                Verdict::Done => break,
                Verdict::Release => {}
                Verdict::Stall => {
                    let parts = (0..clusters as usize).map(|k| w.stall_part(k)).collect();
                    return Err(stall_error(parts));
                }
            }
        }
        return Ok(merge.stats);
    }
    // Segments finished ahead of the launching thread's merge, at most
    // (their logs wait in memory), as for the units of `launch_parallel`.
    let window = 2 * workers as u64 + 2;
    let board: Shared = (
        Mutex::new(Board {
            phase: 0,
            done: BTreeMap::new(),
            merged: 0,
            want_parts: false,
            parts: BTreeMap::new(),
            stop: false,
            aborted: false,
        }),
        Condvar::new(),
    );
    let board = &board;
    let shared = &shared;
    // Every lane of the grid holds a stack until the launch ends. The
    // launching thread makes them and takes them back: mapping and
    // unmapping thousands of stacks on several threads at once contends
    // for the process's memory map, and each unmapping then interrupts
    // the other cores to flush their TLBs (with 2 workers the launch ran
    // no faster than with one, half its time in the kernel).
    let mut pool = StackPool::new(device.stack_size).for_cooperative();
    let cluster_lanes = cfg.cluster_dim().volume() as usize * cfg.block.volume() as usize;
    let lent: Vec<Vec<LaneStack>> = (0..workers as u64)
        .map(|first| {
            let mine = (first..clusters).step_by(workers).count();
            pool.lend(mine * cluster_lanes)
        })
        .collect();
    let (result, back) = std::thread::scope(|s| {
        let handles: Vec<_> = lent
            .into_iter()
            .enumerate()
            .map(|(first, stacks)| {
                s.spawn(move || {
                    let _abort = OnUnwind(|| {
                        lock(board).aborted = true;
                        board.1.notify_all();
                    });
                    let k: &dyn Fn() = kernel;
                    let mine = (first as u64..clusters).step_by(workers);
                    let stacks = StackPool::with_stacks(device.stack_size, stacks);
                    let mut w = CoopWorker::new(
                        device, cfg, regions, &k, mine, true, race_on, shared, stacks,
                    );
                    work(&mut w, board, window);
                    w.into_stacks()
                })
            })
            .collect();
        // The workers wait for the launching thread: they must hear that
        // the launch is over however it ends.
        let _stop = OnUnwind(|| {
            lock(board).stop = true;
            board.1.notify_all();
        });
        let result = coordinate(&mut merge, board, clusters);
        lock(board).stop = true;
        board.1.notify_all();
        let back: Vec<LaneStack> = handles
            .into_iter()
            .flat_map(|h| h.join().unwrap_or_default())
            .collect();
        (result, back)
    });
    for s in back {
        pool.put(s);
    }
    result
}

/// A worker's loop: its clusters' segments of each released phase, in
/// cluster order (at most `window` segments ahead of the merge), its
/// stall parts when asked, until the launch is over.
fn work(w: &mut CoopWorker<'_>, board: &Shared, window: u64) {
    let mut phase = 0;
    'launch: loop {
        for k in 0..w.clusters.len() {
            let c = w.clusters[k].index;
            {
                let mut b = lock(board);
                while !b.stop && !b.aborted && (b.phase != phase || c >= b.merged + window) {
                    b = wait(board, b);
                }
                if b.stop || b.aborted {
                    break 'launch;
                }
            }
            let out = w.run(k, phase);
            lock(board).done.insert(c, out);
            board.1.notify_all();
        }
        let mut gave_parts = false;
        loop {
            {
                let mut b = lock(board);
                loop {
                    if b.stop || b.aborted {
                        break 'launch;
                    }
                    if b.phase != phase {
                        phase = b.phase;
                        continue 'launch;
                    }
                    if b.want_parts && !gave_parts {
                        break;
                    }
                    b = wait(board, b);
                }
            }
            let parts: Vec<_> = (0..w.clusters.len())
                .map(|k| (w.clusters[k].index, w.stall_part(k)))
                .collect();
            gave_parts = true;
            lock(board).parts.extend(parts);
            board.1.notify_all();
        }
    }
}

/// The launching thread's loop: takes each phase's segments in cluster
/// order, decides the phase, releases the next or gathers the stall.
fn coordinate(
    merge: &mut CoopMerge<'_>,
    board: &Shared,
    clusters: u64,
) -> Result<LaunchStats, SimError> {
    let gave_up = || SimError::InvalidLaunch("a simulator worker thread panicked".into());
    loop {
        for c in 0..clusters {
            let out = {
                let mut b = lock(board);
                loop {
                    if let Some(out) = b.done.remove(&c) {
                        b.merged = c + 1;
                        board.1.notify_all();
                        break out;
                    }
                    if b.aborted {
                        return Err(gave_up());
                    }
                    b = wait(board, b);
                }
            };
            merge.merge(c, out)?;
        }
        match merge.verdict() {
            Verdict::Done => return Ok(std::mem::take(&mut merge.stats)),
            Verdict::Release => {
                let mut b = lock(board);
                b.phase += 1;
                b.merged = 0;
                board.1.notify_all();
            }
            Verdict::Stall => {
                let mut b = lock(board);
                b.want_parts = true;
                board.1.notify_all();
                while (b.parts.len() as u64) < clusters {
                    if b.aborted {
                        return Err(gave_up());
                    }
                    b = wait(board, b);
                }
                let parts = std::mem::take(&mut b.parts).into_values().collect();
                return Err(stall_error(parts));
            }
        }
    }
}
