//! The worker log: the sink calls as values, which a unit run on a worker
//! thread records (it is a [`SyncSink`]), for the launch's detector to
//! replay in unit order.

use super::sink::{Access, Found, Place, SyncSink};
use crate::types::AtomicKind;
use cg_isa::{MemOrder, MemScope};

/// One call into the detector, as a unit run on a worker thread records it
/// (`SimDevice::workers`): the launch's detector applies the units' logs
/// in unit order ([`Event::replay`]), so its verdicts are those of the run
/// that executes the units one after another on one thread.
pub(crate) enum Event {
    BeginUnit {
        unit: u32,
        places: Vec<Place>,
        nclusters: usize,
    },
    SplitArrive(u32),
    GridSplitArrive(u32),
    BarArrive {
        b: u32,
        id: u32,
        t: u32,
    },
    BarComplete {
        b: u32,
        id: u32,
        waiters: Vec<u32>,
        carried: Vec<u32>,
    },
    AllToAll(Vec<u32>),
    GridArrive(u32),
    GridComplete(Vec<u32>),
    ClusterArrive {
        c: u32,
        t: u32,
    },
    ClusterComplete(u32),
    ClusterWait {
        c: u32,
        t: u32,
    },
    Access {
        a: Access,
        shared: bool,
    },
    AtomicSync {
        t: u32,
        addr: usize,
        kind: AtomicKind,
        order: MemOrder,
        scope: MemScope,
    },
    Fence {
        t: u32,
        sc: bool,
        scope: MemScope,
    },
}

impl Event {
    /// This event of a unit that holds one cluster of a cooperative
    /// launch, renumbered for the launch's detector, whose one unit is the
    /// whole grid (`coop::launch_coop`): the cluster's lanes, blocks and
    /// cluster start at `lanes`, `blocks` and `cluster` there, as
    /// `Core::setup_unit` lays out the grid. `None` for the cluster's
    /// `BeginUnit`: the launch's detector began the grid's unit itself.
    pub(crate) fn shifted(self, lanes: u32, blocks: u32, cluster: u32) -> Option<Event> {
        let l = |t: u32| t + lanes;
        let all = |mut v: Vec<u32>| {
            for t in &mut v {
                *t += lanes;
            }
            v
        };
        Some(match self {
            Event::BeginUnit { .. } => return None,
            Event::SplitArrive(t) => Event::SplitArrive(l(t)),
            Event::GridSplitArrive(t) => Event::GridSplitArrive(l(t)),
            Event::BarArrive { b, id, t } => Event::BarArrive {
                b: b + blocks,
                id,
                t: l(t),
            },
            Event::BarComplete {
                b,
                id,
                waiters,
                carried,
            } => Event::BarComplete {
                b: b + blocks,
                id,
                waiters: all(waiters),
                carried: all(carried),
            },
            Event::AllToAll(v) => Event::AllToAll(all(v)),
            Event::GridArrive(t) => Event::GridArrive(l(t)),
            Event::GridComplete(v) => Event::GridComplete(all(v)),
            Event::ClusterArrive { c, t } => Event::ClusterArrive {
                c: c + cluster,
                t: l(t),
            },
            Event::ClusterComplete(c) => Event::ClusterComplete(c + cluster),
            Event::ClusterWait { c, t } => Event::ClusterWait {
                c: c + cluster,
                t: l(t),
            },
            Event::Access { mut a, shared } => {
                a.lane = l(a.lane);
                Event::Access { a, shared }
            }
            Event::AtomicSync {
                t,
                addr,
                kind,
                order,
                scope,
            } => Event::AtomicSync {
                t: l(t),
                addr,
                kind,
                order,
                scope,
            },
            Event::Fence { t, sc, scope } => Event::Fence { t: l(t), sc, scope },
        })
    }
}

impl Event {
    /// Makes this recorded call on `sink` (the launch's detector); the
    /// race it finds, if any.
    pub(crate) fn replay(self, sink: &mut impl SyncSink) -> Option<Found> {
        let s = sink;
        match self {
            Event::BeginUnit {
                unit,
                places,
                nclusters,
            } => s.begin_unit(unit, places, nclusters),
            Event::SplitArrive(t) => s.split_arrive(t),
            Event::GridSplitArrive(t) => s.grid_split_arrive(t),
            Event::BarArrive { b, id, t } => s.bar_arrive(b, id, t),
            Event::BarComplete {
                b,
                id,
                waiters,
                carried,
            } => s.bar_complete(b, id, &waiters, &carried),
            Event::AllToAll(lanes) => s.all_to_all(&lanes),
            Event::GridArrive(t) => s.grid_arrive(t),
            Event::GridComplete(waiters) => s.grid_complete(&waiters),
            Event::ClusterArrive { c, t } => s.cluster_arrive(c, t),
            Event::ClusterComplete(c) => s.cluster_complete(c),
            Event::ClusterWait { c, t } => s.cluster_wait(c, t),
            Event::Access { a, shared } => return s.access(a, shared),
            Event::AtomicSync {
                t,
                addr,
                kind,
                order,
                scope,
            } => s.atomic_sync(t, addr, kind, order, scope),
            Event::Fence { t, sc, scope } => s.fence(t, sc, scope),
        }
        None
    }
}

/// The worker log as a sink: each call recorded, none checked (the
/// launch's detector finds the races when it replays the log).
impl SyncSink for Vec<Event> {
    fn begin_unit(&mut self, unit: u32, places: Vec<Place>, nclusters: usize) {
        self.push(Event::BeginUnit {
            unit,
            places,
            nclusters,
        });
    }
    fn split_arrive(&mut self, t: u32) {
        self.push(Event::SplitArrive(t));
    }
    fn grid_split_arrive(&mut self, t: u32) {
        self.push(Event::GridSplitArrive(t));
    }
    fn bar_arrive(&mut self, b: u32, id: u32, t: u32) {
        self.push(Event::BarArrive { b, id, t });
    }
    fn bar_complete(&mut self, b: u32, id: u32, waiters: &[u32], carried: &[u32]) {
        self.push(Event::BarComplete {
            b,
            id,
            waiters: waiters.to_vec(),
            carried: carried.to_vec(),
        });
    }
    fn all_to_all(&mut self, lanes: &[u32]) {
        self.push(Event::AllToAll(lanes.to_vec()));
    }
    fn grid_arrive(&mut self, t: u32) {
        self.push(Event::GridArrive(t));
    }
    fn grid_complete(&mut self, waiters: &[u32]) {
        self.push(Event::GridComplete(waiters.to_vec()));
    }
    fn cluster_arrive(&mut self, c: u32, t: u32) {
        self.push(Event::ClusterArrive { c, t });
    }
    fn cluster_complete(&mut self, c: u32) {
        self.push(Event::ClusterComplete(c));
    }
    fn cluster_wait(&mut self, c: u32, t: u32) {
        self.push(Event::ClusterWait { c, t });
    }
    fn access(&mut self, a: Access, shared: bool) -> Option<Found> {
        self.push(Event::Access { a, shared });
        None
    }
    fn atomic_sync(
        &mut self,
        t: u32,
        addr: usize,
        kind: AtomicKind,
        order: MemOrder,
        scope: MemScope,
    ) {
        self.push(Event::AtomicSync {
            t,
            addr,
            kind,
            order,
            scope,
        });
    }
    fn fence(&mut self, t: u32, sc: bool, scope: MemScope) {
        self.push(Event::Fence { t, sc, scope });
    }
}
