//! What the race detector is told: one method per sync point and one for
//! an access ([`SyncSink`]), and the values they carry. The unit calls it
//! once per sync point (`Core::sync`), whatever listens: the detector
//! itself ([`Race`](super::detector::Race)), or, on a worker thread of a
//! parallel launch, the unit's log ([`Event`](super::event::Event)s) that
//! the launch's detector replays in unit order. A new sync point is a
//! method here; the compiler then asks both for it.

use crate::types::{AtomicKind, Loc};
use cg_isa::{MemOrder, MemScope};

/// What an access did, for the check and for reports.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Kind {
    Read,
    Write,
    Atomic(AtomicKind, MemOrder),
    /// A `cp.async`'s weak read of its global source (`false`) or write of
    /// its shared destination (`true`), by the issuing thread.
    Copy(bool),
    /// A tensor tile copy's (TMA's) weak read of its source (`false`) or
    /// write of its destination (`true`), by the issuing thread.
    Tile(bool),
}

impl Kind {
    pub(crate) fn writes(self) -> bool {
        match self {
            Kind::Read => false,
            Kind::Write => true,
            Kind::Atomic(k, _) => k != AtomicKind::Load,
            Kind::Copy(write) | Kind::Tile(write) => write,
        }
    }
}

/// One recorded access.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Access {
    /// The unit (cluster, or cooperative grid) the lane ran in.
    pub unit: u32,
    pub lane: u32,
    pub epoch: u32,
    pub addr: usize,
    pub size: u32,
    pub kind: Kind,
    /// `Some` for a strong access (atomic, `.volatile`, `.relaxed`, …).
    pub scope: Option<MemScope>,
    pub loc: Loc,
}

impl Access {
    pub(crate) fn overlaps(&self, o: &Access) -> bool {
        self.addr < o.addr + o.size as usize && o.addr < self.addr + self.size as usize
    }
}

/// Where a lane sits, for scope tests.
#[derive(Clone, Copy)]
pub(crate) struct Place {
    pub block: u32,
    pub cluster: u32,
}

/// A detected race: the earlier access and the one that conflicts with it.
pub(crate) struct Found {
    pub first: Access,
    pub second: Access,
}

/// The sync points and accesses that order memory for the detector (the
/// edges are the detector's: see its module for the PTX rules). Lanes,
/// blocks (`b`) and clusters (`c`) are numbered within the unit.
pub(crate) trait SyncSink {
    /// Unit `unit` of the launch starts, its lanes at `places`.
    fn begin_unit(&mut self, unit: u32, places: Vec<Place>, nclusters: usize);
    /// `block.barrier_arrive()` of lane `t`.
    fn split_arrive(&mut self, t: u32);
    /// `grid.barrier_arrive()` of lane `t`.
    fn grid_split_arrive(&mut self, t: u32);
    /// Lane `t` arrives at barrier `id` of block `b`.
    fn bar_arrive(&mut self, b: u32, id: u32, t: u32);
    /// A phase of barrier `id` of block `b` completed: `waiters` go,
    /// `carried` (lanes of partly arrived warps) count in the next phase.
    fn bar_complete(&mut self, b: u32, id: u32, waiters: &[u32], carried: &[u32]);
    /// `bar.warp.sync` over `lanes`.
    fn all_to_all(&mut self, lanes: &[u32]);
    /// Lane `t` arrives at the grid barrier.
    fn grid_arrive(&mut self, t: u32);
    /// The grid barrier completed for `waiters`.
    fn grid_complete(&mut self, waiters: &[u32]);
    /// `barrier.cluster.arrive` of lane `t` in cluster `c`.
    fn cluster_arrive(&mut self, c: u32, t: u32);
    /// Cluster `c`'s barrier phase completed.
    fn cluster_complete(&mut self, c: u32);
    /// Lane `t`'s `barrier.cluster.wait` in cluster `c` returned.
    fn cluster_wait(&mut self, c: u32, t: u32);
    /// Access `a` (its epoch the detector's to fill in) of `shared` or
    /// global memory; the race it completes, if the sink checks now.
    fn access(&mut self, a: Access, shared: bool) -> Option<Found>;
    /// The synchronisation of lane `t`'s atomic on `addr`, after its access.
    fn atomic_sync(
        &mut self,
        t: u32,
        addr: usize,
        kind: AtomicKind,
        order: MemOrder,
        scope: MemScope,
    );
    /// `fence.acq_rel` (`sc` false) or `fence.sc` of lane `t` at `scope`.
    fn fence(&mut self, t: u32, sc: bool, scope: MemScope);
}
