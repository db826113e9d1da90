//! The detector's calls as values: what a unit run on a worker thread
//! records, for the launch's detector to apply in unit order.

use super::detector::{Access, Found, Place, Race};
use crate::types::AtomicKind;
use cg_isa::{MemOrder, MemScope};

/// One call into the detector, as a unit run on a worker thread records it
/// (`SimDevice::workers`): the launch's detector applies the units' logs
/// in unit order ([`Race::apply`]), so its verdicts are those of the run
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

impl Race {
    /// Applies one recorded call; the race it finds, if any.
    pub(crate) fn apply(&mut self, ev: Event) -> Option<Found> {
        match ev {
            Event::BeginUnit {
                unit,
                places,
                nclusters,
            } => self.begin_unit(unit, places, nclusters),
            Event::SplitArrive(t) => self.split_arrive(t),
            Event::GridSplitArrive(t) => self.grid_split_arrive(t),
            Event::BarArrive { b, id, t } => self.bar_arrive(b, id, t),
            Event::BarComplete {
                b,
                id,
                waiters,
                carried,
            } => self.bar_complete(b, id, &waiters, &carried),
            Event::AllToAll(lanes) => self.all_to_all(&lanes),
            Event::GridArrive(t) => self.grid_arrive(t),
            Event::GridComplete(waiters) => self.grid_complete(&waiters),
            Event::ClusterArrive { c, t } => self.cluster_arrive(c, t),
            Event::ClusterComplete(c) => self.cluster_complete(c),
            Event::ClusterWait { c, t } => self.cluster_wait(c, t),
            Event::Access { a, shared } => return self.access(a, shared),
            Event::AtomicSync {
                t,
                addr,
                kind,
                order,
                scope,
            } => self.atomic_sync(t, addr, kind, order, scope),
            Event::Fence { t, sc, scope } => self.fence(t, sc, scope),
        }
        None
    }
}
