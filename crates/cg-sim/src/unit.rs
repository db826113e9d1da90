//! The simulator's mutable state for one residency unit (a cluster of blocks,
//! or the whole grid of a cooperative launch): its lanes, warps and run
//! queue (`lanes`, with the operations that block, wake and release lanes),
//! blocks, clusters and grid, the race sink, plus the state each subsystem
//! keeps per block (declared in the subsystem's own `state` module, below
//! this one). The subsystems' operations are written above, on this state;
//! what composes them (`lifecycle`) lies above those.

use crate::async_copy::state::AsyncCopies;
use crate::barrier::state::Barrier;
use crate::cluster::state::Cluster;
use crate::device::SimDevice;
use crate::lanes::Lanes;
use crate::mbarrier::state::Mbarriers;
use crate::shared::state::SharedMem;
use crate::{Dim3, LaunchConfig, LaunchStats, SimError};

pub(crate) struct Block {
    pub idx: [u32; 3],
    pub cluster: u32,
    pub rank: u32,
    pub cta_idx: [u32; 3],
    pub first_warp: u32,
    pub nthreads: u32,
    pub nwarps: u32,
    /// Non-exited threads.
    pub live: u32,
    /// Warps with at least one non-exited thread.
    pub live_warps: u32,
    pub bars: Vec<Barrier>,
    /// Block-wide uniformity checks some live thread has not reached yet.
    pub checks: crate::barrier::state::BlockChecks,
    /// Threads waiting at the grid barrier, and whether the block arrived.
    pub grid_waiting: u32,
    pub grid_arrived: bool,
    pub smem: SharedMem,
    /// `memcpy_async` copies in flight.
    pub copies: AsyncCopies,
    /// The block's mbarrier objects.
    pub mbars: Mbarriers,
}

#[derive(Default)]
pub(crate) struct Grid {
    pub blocks_arrived: u32,
    pub waiters: Vec<u32>,
    /// Grid barriers completed in this unit (its low bit is the phase
    /// [`crate::lane::grid_phase`] reports).
    pub completed: u32,
    /// The grid collectives' global scratch of this unit
    /// ([`crate::lane::grid_scratch`]), allocated on first use.
    pub scratch: Vec<u128>,
}

/// What the clusters of a cooperative launch run in segments
/// (`coop::launch_coop`: one unit per cluster, each on the thread that
/// runs it for the whole launch) share: the grid collectives' global
/// scratch, which the one unit of the whole grid keeps in its [`Grid`].
#[derive(Default)]
pub(crate) struct CoopShared {
    /// Allocated on first use; its heap buffer never moves after that.
    pub scratch: std::sync::Mutex<Vec<u128>>,
    /// The launch's number ([`Core::launch`]), the same in every cluster's unit.
    pub launch: u64,
}

/// Launch-wide constants.
pub(crate) struct Geom {
    pub grid: Dim3,
    pub block: Dim3,
    pub cluster: Dim3,
    pub threads_per_block: u32,
    pub warps_per_block: u32,
    pub cooperative: bool,
    pub dynamic_smem: usize,
    pub max_smem_per_block: usize,
}

pub(crate) struct Core {
    pub geom: Geom,
    /// The unit's lanes, warps and run queue: what every primitive acts on.
    pub lanes: Lanes,
    pub blocks: Vec<Block>,
    pub clusters: Vec<Cluster>,
    pub grid: Grid,
    pub error: Option<SimError>,
    pub stats: LaunchStats,
    /// Set while suspended lanes are unwound after a failure: primitives
    /// return at once.
    pub tearing_down: bool,
    /// Consecutive resumes that ended in `yield_now`.
    pub spin_streak: u64,
    /// Whether the race detector runs ([`SimDevice::race_check`] and the
    /// `CG_SIM_RACE` environment variable).
    pub race_enabled: bool,
    /// What hears the unit's sync points and accesses (`Core::sync`): the
    /// launch's detector, a worker's log of them, or nothing.
    pub race: crate::race::state::UnitSink,
    /// Other worker threads run blocks of the same launch
    /// (`launch_parallel`): copies touch global memory through
    /// [`global_mem`](crate::global_mem) (relaxed byte atomics).
    pub concurrent: bool,
    /// For a report made after the unit ended (a race the launch's
    /// detector found in its log): its blocks' shared memory as it was.
    pub smem_maps: Option<Vec<crate::shared::state::SmemMap>>,
    /// The current unit's index in the launch, and the units set up so far.
    pub unit: u32,
    pub units: u32,
    /// The global memory of the launch's typed parameters.
    pub regions: Vec<crate::region::state::Region>,
    /// The launch's number, unique in the process (every unit of a launch
    /// has the same): with a block's index it names the block in the
    /// shared-memory handles its lanes make ([`crate::SharedOwner`]).
    pub launch: u64,
    /// Memory an unwinding lane gets instead of a shared address a report
    /// would have refused it (`lane::static_shared`,
    /// `lane::cluster_map_owned`): it cannot be stopped by a report, and
    /// must be given nothing freed. Freed with the launch's state, after
    /// every lane.
    pub scratch: Vec<crate::shared::state::Buf>,
    /// Set when this unit is one cluster of a cooperative launch run in
    /// segments (`coop::launch_coop`): its grid barrier never completes
    /// here (the launching thread completes it once every block of the
    /// grid arrived, [`Core::grid_release`]), and the grid scratch is the
    /// launch's.
    pub coop: Option<std::sync::Arc<CoopShared>>,
    /// The lanes' contexts ([`crate::fiber`]): each suspended or
    /// not-yet-started lane's stack pointer, whether it has started, the
    /// scheduler's stack pointer while a lane runs, and how the last lane
    /// to hand the thread back to the scheduler left it.
    #[cfg(all(target_arch = "x86_64", unix, not(feature = "coroutine-lanes")))]
    pub fiber_sp: Vec<usize>,
    #[cfg(all(target_arch = "x86_64", unix, not(feature = "coroutine-lanes")))]
    pub fiber_started: Vec<bool>,
    #[cfg(all(target_arch = "x86_64", unix, not(feature = "coroutine-lanes")))]
    pub sched_sp: usize,
    #[cfg(all(target_arch = "x86_64", unix, not(feature = "coroutine-lanes")))]
    pub fiber_out: Option<(u32, crate::types::Outcome)>,
}

impl Core {
    pub fn new(device: &SimDevice, cfg: &LaunchConfig) -> Core {
        let threads = cfg.block.volume() as u32;
        Core {
            geom: Geom {
                grid: cfg.grid,
                block: cfg.block,
                cluster: cfg.cluster_dim(),
                threads_per_block: threads,
                warps_per_block: threads.div_ceil(32),
                cooperative: cfg.cooperative,
                dynamic_smem: cfg.dynamic_smem_bytes as usize,
                max_smem_per_block: device.max_smem_per_block,
            },
            lanes: Lanes::new(device.spin_last),
            blocks: Vec::new(),
            clusters: Vec::new(),
            grid: Grid::default(),
            error: None,
            stats: LaunchStats::default(),
            tearing_down: false,
            spin_streak: 0,
            race_enabled: device.race_check && crate::race::detector::env_enabled(),
            race: Default::default(),
            concurrent: false,
            smem_maps: None,
            unit: 0,
            units: 0,
            regions: Vec::new(),
            launch: crate::shared::state::next_launch(),
            scratch: Vec::new(),
            coop: None,
            #[cfg(all(target_arch = "x86_64", unix, not(feature = "coroutine-lanes")))]
            fiber_sp: Vec::new(),
            #[cfg(all(target_arch = "x86_64", unix, not(feature = "coroutine-lanes")))]
            fiber_started: Vec::new(),
            #[cfg(all(target_arch = "x86_64", unix, not(feature = "coroutine-lanes")))]
            sched_sp: 0,
            #[cfg(all(target_arch = "x86_64", unix, not(feature = "coroutine-lanes")))]
            fiber_out: None,
        }
    }

    /// Clusters in the grid, x-fastest.
    pub fn cluster_count(&self) -> u64 {
        self.geom.grid.volume() / self.geom.cluster.volume()
    }
}
