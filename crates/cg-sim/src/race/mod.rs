//! The race detector's side in the simulator: the unit's sync points and
//! accesses handed to its sink (`sink`: the detector, `detector`, or the
//! worker log, `event`), and the report of a race the detector finds.

pub(crate) mod detector;
pub(crate) mod event;
pub(crate) mod sink;
pub(crate) mod state;

use self::detector::Race;
use self::sink::{Access, Found, Kind, Place, SyncSink};
use self::state::UnitSink;
use crate::report::{BlockedGroup, Report, SourceLocation};
use crate::shared::state::Which;
use crate::types::{AtomicKind, Loc};
use crate::types::{Step, Wait};
use crate::unit::Core;
use crate::{Dim3, SimError};
use cg_isa::{MemOrder, MemScope};

fn order_name(o: MemOrder) -> &'static str {
    match o {
        MemOrder::Relaxed => "relaxed",
        MemOrder::Acquire => "acquire",
        MemOrder::Release => "release",
        MemOrder::AcqRel => "acq_rel",
        MemOrder::SeqCst => "sc",
    }
}

fn scope_name(s: MemScope) -> &'static str {
    match s {
        MemScope::Cta => "cta",
        MemScope::Cluster => "cluster",
        MemScope::Gpu => "gpu",
        MemScope::Sys => "sys",
    }
}

/// `st (weak)`, `ld.acquire.cta`, `atom.relaxed.gpu`, … for reports.
fn access_name(a: &Access) -> String {
    match (a.kind, a.scope) {
        (Kind::Read, _) => "ld (weak)".into(),
        (Kind::Write, _) => "st (weak)".into(),
        (Kind::Copy(false), _) => "cp.async read of its source (weak)".into(),
        (Kind::Copy(true), _) => "cp.async write of its destination (weak)".into(),
        (Kind::Tile(false), _) => "tensor tile copy's read of its source (weak)".into(),
        (Kind::Tile(true), _) => "tensor tile copy's write of its destination (weak)".into(),
        (Kind::Atomic(k, o), s) => {
            let op = match k {
                AtomicKind::Load => "ld",
                AtomicKind::Store => "st",
                AtomicKind::Rmw => "atom",
            };
            let s = s.map_or("", scope_name);
            format!("{op}.{}.{s}", order_name(o))
        }
    }
}

impl Core {
    /// The detector's state for the unit just set up (if it is on): the
    /// launch's, started at its first unit and carried over to the next.
    pub(crate) fn setup_race(&mut self) {
        if !self.race_enabled {
            return;
        }
        let places = self
            .lanes
            .all
            .iter()
            .map(|l| Place {
                block: l.block,
                cluster: self.blocks[l.block as usize].cluster,
            })
            .collect();
        let (unit, nclusters) = (self.unit, self.clusters.len());
        if !self.race.is_on() {
            self.race = UnitSink::Detector(Box::new(Race::new()));
        }
        self.sync(|s| s.begin_unit(unit, places, nclusters));
    }

    /// Whether the detector sees this unit's accesses (live, or recording
    /// them for the launch's detector).
    pub(crate) fn race_on(&self) -> bool {
        self.race.is_on()
    }

    /// Tells the unit's sink of a sync point or an access ([`UnitSink::sync`]).
    #[inline]
    pub(crate) fn sync<R>(&mut self, f: impl FnOnce(&mut dyn SyncSink) -> R) -> Option<R> {
        self.race.sync(f)
    }

    /// Whether `addr` lies in the shared memory of lane `me`'s cluster (its
    /// block's, or a peer's reached through DSMEM).
    pub(crate) fn addr_is_shared(&self, me: u32, addr: usize) -> bool {
        self.cluster_block_of(me, addr).is_some()
    }

    /// Where `addr` is, in words: a shared variable and element, a kernel
    /// parameter and element, or a global address.
    fn describe_addr(&self, addr: usize, size: u32) -> String {
        let located = match &self.smem_maps {
            Some(maps) => maps
                .iter()
                .find_map(|m| m.locate(addr).map(|(w, off)| (m.idx, w, off))),
            None => self.blocks.iter().find_map(|b| {
                b.smem
                    .locate(addr as *mut u8)
                    .map(|(w, off)| (b.idx, w, off))
            }),
        };
        if let Some((idx, which, off)) = located {
            {
                let elem = if size > 0 && off % size as usize == 0 {
                    format!(", element {} of {size}-byte elements", off / size as usize)
                } else {
                    String::new()
                };
                let var = match which {
                    Which::Dynamic => "dynamic shared memory".to_string(),
                    Which::Static { key, .. } => format!("shared `{key}`"),
                };
                return format!(
                    "{var} of block {} at byte offset {off}{elem}",
                    Dim3::from(idx)
                );
            }
        }
        if let Some(r) = self.region_of(addr) {
            let off = addr - r.addr;
            return match r.elem {
                e if e > 0 && off.is_multiple_of(e) => format!("`{}`[{}]", r.name, off / e),
                _ => format!("`{}` at byte offset {off}", r.name),
            };
        }
        format!("global address {addr:#x}")
    }

    /// A lane of unit `unit` (this one, or one the simulator ran earlier):
    /// its block's index, its thread index, its linear index in the block.
    fn unit_lane(&self, unit: u32, lane: u32) -> ([u32; 3], [u32; 3], u32) {
        // A state with no lanes set up (the report of a race in a
        // cooperative launch run in segments, `coop::launch_coop`) places
        // every lane by the grid's layout.
        if unit == self.unit && !self.lanes.all.is_empty() {
            let l = &self.lanes[lane as usize];
            return (self.blocks[l.block as usize].idx, l.tid, l.linear);
        }
        // The order `setup_unit` lays lanes out in: the unit's clusters,
        // each cluster's blocks by rank, each block's threads.
        let g = &self.geom;
        let (cdim, tpb) = (g.cluster, g.threads_per_block);
        let csize = cdim.volume() as u32;
        let first_cluster = if g.cooperative { 0 } else { unit as u64 };
        let block = lane / tpb;
        let cluster = first_cluster + (block / csize) as u64;
        let gic = Dim3::new(g.grid.x / cdim.x, g.grid.y / cdim.y, g.grid.z / cdim.z);
        let (cidx, cta) = (
            gic.delinearize(cluster),
            cdim.delinearize((block % csize) as u64),
        );
        let idx = [
            cidx.x * cdim.x + cta.x,
            cidx.y * cdim.y + cta.y,
            cidx.z * cdim.z + cta.z,
        ];
        let linear = lane % tpb;
        (idx, g.block.delinearize(linear as u64).to_array(), linear)
    }

    fn race_group(&self, a: &Access) -> BlockedGroup {
        let (block, _, linear) = self.unit_lane(a.unit, a.lane);
        BlockedGroup {
            block: block.into(),
            threads: vec![linear..=linear],
            operation: format!(
                "{} of {} bytes at {} (warp {} lane {})",
                access_name(a),
                a.size,
                self.describe_addr(a.addr, a.size),
                linear / 32,
                linear % 32
            ),
            location: SourceLocation::from(a.loc),
        }
    }

    /// The error for race `f`, found by the launch's detector after the
    /// unit ran (this state is laid out as the unit was).
    pub(crate) fn race_found_report(&mut self, f: Found) -> SimError {
        self.error = None;
        self.race_found(f.second.lane, f);
        self.error.take().expect("race_found records the race")
    }

    /// Records the race `f` (the first report wins) and stops lane `me`.
    fn race_found(&mut self, me: u32, f: Found) -> Step {
        self.lanes.block(me, Wait::Race, f.second.loc);
        if self.error.is_none() {
            self.error = Some(self.race_error(&f));
        }
        Step::Wait
    }

    /// The error for race `f`: its accesses, placed in their blocks (the
    /// unit's lanes, or by the grid's layout: [`Core::unit_lane`]).
    pub(crate) fn race_error(&self, f: &Found) -> SimError {
        let (a, b) = (&f.first, &f.second);
        let (ba, ta, la) = self.unit_lane(a.unit, a.lane);
        let (bb, tb, lb) = self.unit_lane(b.unit, b.lane);
        let mut notes = vec![
            "no happens-before edge orders them: a data race in the PTX memory model \
             (PTX ISA §8.7.1: conflicting, not morally strong, not in causality order)"
                .to_string(),
        ];
        if a.unit == b.unit && ba == bb && la / 32 == lb / 32 {
            notes.push(format!(
                "both lanes are in warp {} of the block: shuffles and votes order no memory \
                 (PTX ISA §8.9.4 lists no such edge); bar.warp.sync does (§9.7.15.2)",
                la / 32
            ));
        }
        if ba != bb {
            // Blocks of different units ran one after the other here; a
            // GPU may run them at once, which is why the race is real.
            let when = if a.unit == b.unit {
                "the simulator ran them together"
            } else {
                "the simulator ran the blocks one after the other, a GPU may run them at once"
            };
            notes.push(format!(
                "the accesses are in different blocks: only a grid barrier (a cooperative \
                 launch), a release/acquire chain at .gpu scope, or atomics of a scope that \
                 contains both blocks order them — {when}"
            ));
        }
        if a.scope.is_some() && b.scope.is_some() {
            notes.push(
                "both accesses are strong, but they are not morally strong: they differ in \
                 address or size, or a scope does not contain the other thread (§8.7)"
                    .to_string(),
            );
        }
        let summary = format!(
            "data race on {}: {} by block {} thread {} and {} by block {} thread {}",
            self.describe_addr(b.addr, b.size),
            access_name(a),
            Dim3::from(ba),
            Dim3::from(ta),
            access_name(b),
            Dim3::from(bb),
            Dim3::from(tb),
        );
        let report = Report {
            summary,
            location: Some(SourceLocation::from(b.loc)),
            blocked: Vec::new(),
            accesses: Some(Box::new([self.race_group(a), self.race_group(b)])),
            notes,
        };
        SimError::DataRace(report)
    }

    /// A plain (weak) load or store of `size` bytes at `addr` by lane `me`.
    pub fn mem_access(&mut self, me: u32, addr: usize, size: usize, write: bool, loc: Loc) -> Step {
        let kind = if write { Kind::Write } else { Kind::Read };
        self.weak_access(me, addr, size, kind, loc)
    }

    /// The accesses of a `cp.async` of `len` bytes from `src` to `dst` by
    /// lane `me` (issued at `loc`): a weak read of the source and a weak
    /// write of the destination, both by the issuing thread (PTX ISA
    /// §9.7.9.25: the copy's accesses are weak memory operations of the
    /// executing thread, complete and visible to it at its
    /// `cp.async.wait_group`, to other threads only through a later
    /// synchronisation). Called at issue (the copy may access the bytes
    /// from then on: accesses not ordered before the issue conflict) and at
    /// the wait that delivers it (accesses not ordered after the wait
    /// conflict). `false` when a race was found (`me` is stopped).
    pub(crate) fn copy_access(
        &mut self,
        me: u32,
        dst: usize,
        src: usize,
        len: usize,
        loc: Loc,
    ) -> bool {
        matches!(
            self.weak_access(me, src, len, Kind::Copy(false), loc),
            Step::Done(_)
        ) && matches!(
            self.weak_access(me, dst, len, Kind::Copy(true), loc),
            Step::Done(_)
        )
    }

    /// One side of a tensor tile copy for the detector: its weak read
    /// (`write` false) or write of `len` bytes at `addr` by `me`. `false`
    /// when a race stopped `me`.
    pub(crate) fn tile_access(
        &mut self,
        me: u32,
        addr: usize,
        len: usize,
        write: bool,
        loc: Loc,
    ) -> bool {
        matches!(
            self.weak_access(me, addr, len, Kind::Tile(write), loc),
            Step::Done(_)
        )
    }

    fn weak_access(&mut self, me: u32, addr: usize, size: usize, kind: Kind, loc: Loc) -> Step {
        if !self.race_on() {
            return Step::Done(0);
        }
        let shared = self.addr_is_shared(me, addr);
        let a = Access {
            unit: self.unit,
            lane: me,
            epoch: 0,
            addr,
            size: size as u32,
            kind,
            scope: None,
            loc,
        };
        // Matched whole, not flattened: the no-race case then moves no
        // `Found` (an atomic's hot path, measured by the `speed` example).
        match self.sync(|s| s.access(a, shared)) {
            Some(Some(f)) => self.race_found(me, f),
            _ => Step::Done(0),
        }
    }

    /// A strong access (atomic, `.relaxed`/`.acquire`/`.release`,
    /// `.volatile`) by lane `me`.
    #[allow(clippy::too_many_arguments)]
    pub fn mem_atomic(
        &mut self,
        me: u32,
        addr: usize,
        size: usize,
        kind: AtomicKind,
        order: MemOrder,
        scope: MemScope,
        loc: Loc,
    ) -> Step {
        if !self.race_on() {
            return Step::Done(0);
        }
        let shared = self.addr_is_shared(me, addr);
        // `SeqCst` is `fence.sc` and then the operation (acquire for a load
        // or an RMW, relaxed for a store), as libcu++ and the library lower it.
        let order = if order == MemOrder::SeqCst {
            self.sync(|s| s.fence(me, true, scope));
            match kind {
                AtomicKind::Store => MemOrder::Relaxed,
                _ => MemOrder::Acquire,
            }
        } else {
            order
        };
        let a = Access {
            unit: self.unit,
            lane: me,
            epoch: 0,
            addr,
            size: size as u32,
            kind: Kind::Atomic(kind, order),
            scope: Some(scope),
            loc,
        };
        if let Some(Some(f)) = self.sync(|s| s.access(a, shared)) {
            return self.race_found(me, f);
        }
        self.sync(|s| s.atomic_sync(me, addr, kind, order, scope));
        Step::Done(0)
    }

    /// `fence.acq_rel` (`sc == false`) or `fence.sc` by lane `me`.
    pub fn mem_fence(&mut self, me: u32, sc: bool, scope: MemScope) {
        self.sync(|s| s.fence(me, sc, scope));
    }
}
