//! The launch modes, above the scheduler: one unit at a time on the calling
//! thread ([`launch_with`]), units on worker threads whose detector logs
//! are merged in unit order ([`launch_parallel`]), and the cooperative
//! launch that keeps the whole grid resident (handed to `coop`).

use std::cell::RefCell;
use std::collections::BTreeMap;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Condvar, Mutex};

use crate::race::detector::Race;
use crate::race::event::Event;
use crate::race::state::UnitSink;
use crate::sched::{LaunchGuard, UnitLanes, drive, install_panic_hook, launch_running};
use crate::shared::state::SmemMap;
use crate::stack::StackPool;
use crate::unit::Core;
use crate::{LaunchConfig, LaunchStats, SimDevice, SimError};

/// Runs `kernel` once per lane of the grid described by `cfg`, on the
/// default [`SimDevice`].
pub fn launch(cfg: &LaunchConfig, kernel: &dyn Fn()) -> Result<LaunchStats, SimError> {
    launch_on(&SimDevice::default(), cfg, kernel)
}

/// Runs `kernel` once per lane of the grid described by `cfg`, on `device`.
///
/// Blocks run one cluster at a time (one block at a time without clusters),
/// or all at once for a cooperative launch. Returns when every lane has
/// returned, or with the first deadlock, misuse or panic.
pub fn launch_on(
    device: &SimDevice,
    cfg: &LaunchConfig,
    kernel: &dyn Fn(),
) -> Result<LaunchStats, SimError> {
    // SAFETY: no regions: the simulator trusts no memory for the launch
    // (every typed access is stopped as outside its launch).
    unsafe { launch_with(device, cfg, &[], kernel) }
}

/// [`launch_on`] with the global memory of the kernel's typed parameters:
/// every typed access must fall inside one of `regions` (the launcher's
/// buffers, each named after its parameter), which reports name; a typed
/// write, inside a writable one.
///
/// # Safety
/// The simulator lets the kernel's typed accesses (and its copies) touch
/// any byte of `regions`, reading it and, for a writable region, writing
/// it: every region must meet [`Region::new`](crate::Region::new)'s
/// contract for this launch — valid, initialised memory, readable (and
/// writable where `writable`) for the whole launch, which no one else
/// writes while the launch runs (nor reads, for a writable one). A region
/// made for an earlier launch whose memory has since been freed or
/// re-borrowed breaks it.
pub unsafe fn launch_with(
    device: &SimDevice,
    cfg: &LaunchConfig,
    regions: &[crate::Region],
    kernel: &dyn Fn(),
) -> Result<LaunchStats, SimError> {
    device.validate(cfg)?;
    if launch_running() {
        return Err(SimError::InvalidLaunch(
            "nested launch: a simulated kernel cannot launch another kernel".into(),
        ));
    }
    install_panic_hook();
    let mut state = Core::new(device, cfg);
    state.regions = regions.to_vec();
    let core = RefCell::new(state);
    let guard = LaunchGuard::install(&core);
    let mut stacks = StackPool::new(device.stack_size);
    if cfg.cooperative {
        stacks = stacks.for_cooperative();
    }
    let clusters = core.borrow().cluster_count();
    let result = if cfg.cooperative {
        run_unit(&core, kernel, 0..clusters, &mut stacks)
    } else {
        (0..clusters).try_for_each(|c| run_unit(&core, kernel, c..c + 1, &mut stacks))
    };
    drop(guard);
    result.map(|()| core.into_inner().stats)
}

fn run_unit(
    core: &RefCell<Core>,
    kernel: &dyn Fn(),
    clusters: std::ops::Range<u64>,
    stacks: &mut StackPool,
) -> Result<(), SimError> {
    let n = core.borrow_mut().setup_unit(clusters);
    let (mut lanes, mut result) = UnitLanes::new(core, n, &kernel, stacks);
    if result.is_ok() {
        result = drive(core, &mut lanes, stacks);
    }
    if lanes.any_alive() {
        lanes.teardown(core);
    }
    // Free the unit's shared memory (keeping its layout for a report of
    // the launch's detector, when the unit recorded for it).
    let mut c = core.borrow_mut();
    if c.race.is_log() {
        let maps = c.blocks.iter().map(|b| b.smem.map(b.idx)).collect();
        c.smem_maps = Some(maps);
    }
    c.blocks.clear();
    drop(c);
    result
}

/// A unit that a worker ran: its result, statistics and detector log.
struct UnitOut {
    result: Result<(), SimError>,
    stats: LaunchStats,
    log: Vec<Event>,
    maps: Vec<SmemMap>,
}

/// What the workers and the launching thread share.
struct Board {
    /// Finished units not yet taken by the launching thread.
    done: BTreeMap<u64, UnitOut>,
    /// Units taken by the launching thread so far.
    merged: u64,
    /// No unit at or after this one starts (the launch failed before it).
    stop_at: u64,
    /// A worker panicked (a simulator bug): the launch gives up.
    aborted: bool,
}

/// Sets [`Board::aborted`] if a worker unwinds.
struct AbortOnPanic<'a>(&'a (Mutex<Board>, Condvar));

impl Drop for AbortOnPanic<'_> {
    fn drop(&mut self) {
        if std::thread::panicking() {
            let mut b = self.0.0.lock().unwrap_or_else(|e| e.into_inner());
            b.aborted = true;
            self.0.1.notify_all();
        }
    }
}

/// Runs `kernel` once per lane of the grid, like [`launch_with`], with the
/// blocks (clusters) spread over [`SimDevice::worker_count`] threads.
///
/// Each block runs exactly as in the one-thread run (one cluster at a
/// time per worker, the same lane order); the race detector sees every
/// unit's accesses in unit order, as the one-thread run does, so its
/// verdicts and every report are the same whatever the worker count
/// (the first failing block, in block order, gives the error). This holds
/// for kernels whose blocks do not communicate during the launch (no block
/// waits for, or reads, what another block writes in the same launch: a
/// spin on another block's flag, a decoupled look-back, a "last block"
/// counter): such blocks see each other's writes in whichever order the
/// workers happen to run them, so use [`launch_with`] (one thread) for
/// them. After a failed launch, blocks after the failing one may have run.
///
/// A cooperative launch of several clusters runs in phases, from one grid
/// barrier to the next: within a phase its clusters run one after another
/// (with one worker, on the calling thread) or on the workers, each
/// cluster on the same worker for the whole launch, and the launching
/// thread completes the grid barrier once every block reached it. The
/// schedule is the same whatever the worker count (it is not
/// [`launch_with`]'s, which interleaves the whole grid), and so are the
/// outputs and reports, for kernels whose blocks communicate only across
/// grid barriers (a block may read after a grid barrier what another
/// wrote before it; nothing between two barriers). Cooperative kernels
/// whose blocks wait for each other otherwise (a flag, a hand-made grid
/// barrier) need [`launch_with`]: run in segments, a block spinning on
/// another block's flag of the same phase would spin alone. See
/// `coop.rs` and the crate's README ("Several cores").
///
/// A grid of one cluster runs on the calling thread as with
/// [`launch_with`].
///
/// # Safety
/// As [`launch_with`]: every region meets [`Region::new`](crate::Region::new)'s
/// contract for this launch. Its blocks run on several threads, and the
/// regions' memory is shared by them: the kernel's accesses to it must be
/// the typed views' (whose loads, stores and copies of padding-free
/// elements are byte-wise relaxed atomics, [`global_mem`](crate::global_mem))
/// or atomics of one size per location, never a mix of the two on one
/// location from different blocks.
pub unsafe fn launch_parallel(
    device: &SimDevice,
    cfg: &LaunchConfig,
    regions: &[crate::Region],
    kernel: &(dyn Fn() + Sync),
) -> Result<LaunchStats, SimError> {
    let workers = device.worker_count();
    let clusters = cfg.grid.volume() / cfg.cluster_dim().volume().max(1);
    // A cooperative launch runs in segments with one worker too: its
    // schedule must not depend on the worker count.
    if clusters <= 1 || (workers <= 1 && !cfg.cooperative) {
        // SAFETY: forwarded contract (one thread is within it).
        return unsafe { launch_with(device, cfg, regions, kernel) };
    }
    device.validate(cfg)?;
    if launch_running() {
        return Err(SimError::InvalidLaunch(
            "nested launch: a simulated kernel cannot launch another kernel".into(),
        ));
    }
    install_panic_hook();
    if cfg.cooperative {
        let workers = workers.min(clusters as usize);
        return crate::coop::launch_coop(device, cfg, regions, kernel, workers);
    }
    let workers = workers.min(clusters as usize);
    // Units finished ahead of the launching thread's merge, at most.
    let window = 2 * workers as u64 + 2;
    let board = (
        Mutex::new(Board {
            done: BTreeMap::new(),
            merged: 0,
            stop_at: clusters,
            aborted: false,
        }),
        Condvar::new(),
    );
    let next = AtomicU64::new(0);
    let race_on = device.race_check && crate::race::detector::env_enabled();
    // One launch number for every worker's units.
    let launch = crate::shared::state::next_launch();
    std::thread::scope(|s| {
        for _ in 0..workers {
            s.spawn(|| {
                let _abort = AbortOnPanic(&board);
                let mut state = Core::new(device, cfg);
                state.launch = launch;
                state.regions = regions.to_vec();
                state.concurrent = true;
                if race_on {
                    state.race = UnitSink::Log(Vec::new());
                }
                let core = RefCell::new(state);
                let guard = LaunchGuard::install(&core);
                let mut stacks = StackPool::new(device.stack_size);
                loop {
                    let c = next.fetch_add(1, Ordering::Relaxed);
                    {
                        let mut b = board.0.lock().unwrap_or_else(|e| e.into_inner());
                        while c >= b.merged + window && c < b.stop_at && !b.aborted {
                            b = board.1.wait(b).unwrap_or_else(|e| e.into_inner());
                        }
                        if c >= b.stop_at || b.aborted {
                            break;
                        }
                    }
                    core.borrow_mut().units = c as u32;
                    let result = run_unit(&core, kernel, c..c + 1, &mut stacks);
                    let out = {
                        let mut k = core.borrow_mut();
                        UnitOut {
                            result,
                            stats: std::mem::take(&mut k.stats),
                            log: k.race.take_log(),
                            maps: k.smem_maps.take().unwrap_or_default(),
                        }
                    };
                    let mut b = board.0.lock().unwrap_or_else(|e| e.into_inner());
                    if out.result.is_err() {
                        b.stop_at = b.stop_at.min(c + 1);
                    }
                    b.done.insert(c, out);
                    board.1.notify_all();
                }
                drop(guard);
            });
        }
        merge(device, cfg, regions, &board, clusters, race_on)
    })
}

/// The launching thread's part of [`launch_parallel`]: takes the units in
/// order, applies their detector logs to the launch's detector, and stops
/// at the first unit that failed or raced.
fn merge(
    device: &SimDevice,
    cfg: &LaunchConfig,
    regions: &[crate::Region],
    board: &(Mutex<Board>, Condvar),
    clusters: u64,
    race_on: bool,
) -> Result<LaunchStats, SimError> {
    let mut race = race_on.then(|| Box::new(Race::new()));
    let mut stats = LaunchStats::default();
    let stop = |e: SimError| {
        let mut b = board.0.lock().unwrap_or_else(|e| e.into_inner());
        b.stop_at = 0;
        board.1.notify_all();
        Err(e)
    };
    for k in 0..clusters {
        let out = {
            let mut b = board.0.lock().unwrap_or_else(|e| e.into_inner());
            loop {
                if let Some(out) = b.done.remove(&k) {
                    b.merged = k + 1;
                    board.1.notify_all();
                    break out;
                }
                if b.aborted {
                    drop(b);
                    return stop(SimError::InvalidLaunch(
                        "a simulator worker thread panicked".into(),
                    ));
                }
                b = board.1.wait(b).unwrap_or_else(|e| e.into_inner());
            }
        };
        if let Some(r) = race.as_mut() {
            for ev in out.log {
                if let Some(f) = ev.replay(&mut **r) {
                    return stop(race_report(device, cfg, regions, k, out.maps, f));
                }
            }
        }
        if let Err(e) = out.result {
            return stop(e);
        }
        stats.blocks += out.stats.blocks;
        stats.lanes += out.stats.lanes;
        stats.collectives += out.stats.collectives;
        stats.lane_collectives += out.stats.lane_collectives;
        stats.context_switches += out.stats.context_switches;
    }
    Ok(stats)
}

/// The report of race `f`, found by the launch's detector in the log of
/// unit `unit`: made by a state laid out as that unit was, with its
/// blocks' shared memory as it was.
fn race_report(
    device: &SimDevice,
    cfg: &LaunchConfig,
    regions: &[crate::Region],
    unit: u64,
    maps: Vec<SmemMap>,
    f: crate::race::sink::Found,
) -> SimError {
    let mut c = Core::new(device, cfg);
    c.race_enabled = false;
    c.regions = regions.to_vec();
    c.units = unit as u32;
    c.setup_unit(unit..unit + 1);
    c.smem_maps = Some(maps);
    c.race_found_report(f)
}
