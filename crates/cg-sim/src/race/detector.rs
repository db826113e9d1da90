//! The data-race detector: happens-before over the PTX memory model, with a
//! vector clock per lane.
//!
//! # The model (PTX ISA 9.x, chapter 8 "Memory Consistency Model")
//!
//! Two memory operations are in a *data race* when they overlap, at least one
//! is a write, they are not *morally strong* and they are not related in
//! *causality order* (§8.7.1 "Conflict and Data-races"). Morally strong
//! (§8.7): both strong (an atomic, or a `.relaxed`/`.acquire`/`.release`/
//! `.volatile` access, §8.4), each with a scope that contains the other's
//! thread (§8.5: `.cta`, `.cluster`, `.gpu`, `.sys`; the warp is not a
//! scope), and overlapping completely. Causality order is built here from
//! these edges, each a join of vector clocks:
//!
//! * `bar.sync`/`bar.arrive` on a barrier id synchronise with the
//!   `bar.sync` of the same phase of that barrier, among its participants
//!   only (§8.9.4 "Memory synchronization"; §9.7.15.1 `bar`): an arriving
//!   lane releases, a waiting lane acquires.
//! * `bar.warp.sync` orders memory among the lanes of its mask (§9.7.15.2:
//!   "bar.warp.sync also guarantee memory ordering among threads
//!   participating in barrier"): all-to-all among the participants.
//! * `shfl.sync`, `vote.sync`, `match.sync`, `redux.sync`, `elect.sync` and
//!   `activemask` give **no** edge: §8.9.4 does not list them and their
//!   instruction descriptions state no memory ordering, so lanes that only
//!   exchanged registers are unordered (the warp is not a unit: §8.5).
//!   The simulator's uniformity checks (which cost nothing on the GPU) give
//!   no edge either.
//! * `barrier.cluster.arrive` (release by default) synchronises with the
//!   `barrier.cluster.wait` (acquire) of the same phase (§8.9.4, §9.7.15.3).
//! * The grid barrier of a cooperative launch: all-to-all over the grid (it
//!   is built from `bar.sync`, `fence` and a `.gpu` atomic on the GPU).
//! * Release and acquire patterns (§8.8) with observation order through
//!   atomics (§8.9.2) synchronise (§8.9.4) when the first operation of the
//!   release pattern and the last of the acquire pattern are morally strong:
//!   a release store/RMW, or `fence.acq_rel`/`fence.sc` followed by a strong
//!   write, publishes the writer's clock on the location; an acquire load/RMW,
//!   or a strong read followed by an acquire fence, joins it. Atomic RMWs
//!   continue the chain (§8.9.2); a plain strong store starts a new one.
//! * `fence.sc` pairs that are morally strong synchronise in the order the
//!   simulator runs them (§8.9.3 "Fence-SC Order").
//!
//! The read-from relation is the simulator's: an acquire synchronises with
//! the release whose value it read in the schedule that ran, so a handshake
//! is certified for that schedule (the lanes run in a fixed order).
//!
//! # What it sees
//!
//! Accesses reported to it through [`crate::lane`]: the `cooperative-groups`
//! shared-memory accessors and arch primitives (every library load/store of
//! shared memory, every atomic and fence, shared or global), and `cp.async`
//! copies: a weak read of the source and a weak write of the destination
//! by the issuing thread (§9.7.9.25: the copy's accesses are weak, complete
//! for the executing thread at its `cp.async.wait_group`), checked at the
//! issue and again at the wait that delivers the copy; and every access of
//! the typed global parameters (`GlobalSlice` needs none: nothing writes it
//! during its launch). Plain loads and stores through raw pointers (`*p = v`
//! on a global buffer) are invisible. Shared memory's shadow lives for one
//! residency unit (a cluster, or the whole grid of a cooperative launch);
//! global memory's for the whole launch: blocks of different clusters of a
//! non-cooperative launch, which the simulator runs one after the other,
//! are compared too, and only a release/acquire chain that crosses units
//! (or moral strength: `.gpu`-scoped atomics) orders them.

use std::collections::HashMap as StdHashMap;
use std::hash::{BuildHasherDefault, Hasher};
use std::rc::Rc;

use super::sink::{Access, Found, Kind, Place, SyncSink};
use crate::types::AtomicKind;
use cg_isa::{MemOrder, MemScope};

/// A hasher for the detector's keys (addresses, lane and scope numbers):
/// one multiply and a rotate per word. The maps are only looked up, never
/// iterated, so their order never reaches a report; the keys are the
/// simulated program's own addresses, not adversarial input.
#[derive(Default, Clone, Copy)]
pub(crate) struct AddrHasher(u64);

impl Hasher for AddrHasher {
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.write_u64(b as u64);
        }
    }
    fn write_u8(&mut self, v: u8) {
        self.write_u64(v as u64);
    }
    fn write_u32(&mut self, v: u32) {
        self.write_u64(v as u64);
    }
    fn write_usize(&mut self, v: usize) {
        self.write_u64(v as u64);
    }
    fn write_u64(&mut self, v: u64) {
        self.0 = (self.0.rotate_left(26) ^ v).wrapping_mul(0x9e37_79b9_7f4a_7c15);
    }
    fn finish(&self) -> u64 {
        // The high bits are the well-mixed ones; hashbrown takes its control
        // bits from the top and its bucket from the bottom.
        self.0 ^ (self.0 >> 29)
    }
}

type HashMap<K, V> = StdHashMap<K, V, BuildHasherDefault<AddrHasher>>;

/// A vector clock over the lanes of one unit; shared between lanes that
/// synchronised together until one of them acquires something new.
type Vc = Rc<Vec<u32>>;

/// What a lane knows of the lanes of earlier units of the launch: per unit
/// (ascending), a clock over that unit's lanes. `None` (the common case:
/// no release/acquire chain crossed units) is nothing.
type Past = Option<Rc<Vec<(u32, Vc)>>>;

/// A release published on a location or by a fence: the clock of the
/// unit it was made in, and what that knew of earlier units.
#[derive(Clone)]
struct Clock {
    unit: u32,
    cur: Vc,
    past: Past,
}

/// The head of a release pattern (for the moral-strength test).
#[derive(Clone, Copy)]
struct Head {
    unit: u32,
    lane: u32,
    scope: MemScope,
}

/// The accesses to one 4-byte word that a later access must be checked
/// against: the last write, and the reads since that are not ordered
/// before a later read.
#[derive(Default)]
struct Word {
    write: Option<Access>,
    reads: Vec<Access>,
    /// The strong reads that read the value of `write` (a strong write) and
    /// are morally strong with it, as (unit, lane, epoch): the write
    /// precedes them in observation order, so it precedes in causality
    /// order every access they precede in base causality order (PTX ISA
    /// §8.9.2, §8.9: program order, or a later release by their lane that
    /// another lane acquired).
    observers: Vec<(u32, u32, u32)>,
}

/// The release clock published on an atomic location, with the head of its
/// release pattern.
struct SyncVar {
    clock: Clock,
    head: Head,
}

/// Releases accumulated by a barrier phase: per arriving lane, its
/// knowledge at the arrival (lanes that synchronised together share one
/// vector) and its own epoch.
#[derive(Default)]
pub(crate) struct Acc {
    entries: Vec<(u32, Vc, u32, Past)>,
}

/// The detector's state for a launch. Clocks index the lanes of the
/// current unit (the simulator runs one cluster, or a cooperative grid, at
/// a time); what a lane knows of earlier units travels in [`Past`]. Shared
/// memory's shadow belongs to the unit (its blocks' memory ends with them);
/// global memory's spans the launch, so accesses of blocks the simulator
/// ran one after another are compared too: on a GPU they may run at once,
/// ordered only by a release/acquire chain (or moral strength).
pub(crate) struct Race {
    /// The current unit's index in the launch.
    unit: u32,
    n: usize,
    /// Each lane's own epoch (advanced after each release).
    own: Vec<u32>,
    /// What each lane knows of the unit's lanes' epochs.
    know: Vec<Vc>,
    /// What each lane knows of earlier units.
    past: Vec<Past>,
    places: Vec<Place>,
    shared: HashMap<usize, Word>,
    global: HashMap<usize, Word>,
    sync: HashMap<usize, SyncVar>,
    /// The clock of each lane's last release fence, and its scope.
    rel_fence: Vec<Option<(Clock, MemScope)>>,
    /// Per (location, lane): the clock and scope of the lane's last release
    /// write to the location. A later strong write of the same lane to the
    /// same location completes a release pattern with it (PTX ISA §8.8: a
    /// release operation on M followed by a strong write on M in program
    /// order), so it publishes that clock.
    loc_release: HashMap<(usize, u32), (Clock, MemScope)>,
    /// Per lane: its `barrier_arrive` on the block barrier not yet waited
    /// for — its knowledge and epoch at the arrival, which the block
    /// barrier's phase releases instead of what the lane knows at the wait.
    split: Vec<Option<(Vc, u32, Past)>>,
    /// Per lane: its `grid.barrier_arrive()` not yet waited for, as `split`.
    grid_split: Vec<Option<(Vc, u32, Past)>>,
    /// Lanes whose current barrier arrival came from a split arrive: at
    /// completion they join the phase's clock into what they learnt since
    /// (which the phase does not contain) instead of taking it.
    split_joins: Vec<bool>,
    /// Releases read by each lane's relaxed atomics, for its next acquire
    /// fence, with their heads.
    acq_pending: Vec<Vec<(Clock, Head)>>,
    /// Per block slot and barrier id (`b * 16 + id`): the current
    /// phase's releases. A vector, kept with its entries' capacity from
    /// phase to phase: every lane's every barrier arrival lands here.
    bars: Vec<Acc>,
    /// Per cluster: the current phase's releases, and the last completed
    /// phase's clock.
    cluster_acc: Vec<Acc>,
    cluster_done: Vec<Option<(Vc, Past)>>,
    grid_acc: Acc,
    /// `fence.sc` clocks by (scope, instance): `.cta` and `.cluster` ones
    /// per unit, `.gpu` and `.sys` ones for the launch.
    sc: HashMap<(MemScope, u32), Clock>,
    /// Accesses checked (for statistics).
    pub accesses: u64,
}

fn join_into(dst: &mut [u32], src: &[u32]) {
    for (d, s) in dst.iter_mut().zip(src) {
        *d = (*d).max(*s);
    }
}

/// The index of barrier `id` of block slot `b` in [`Race::bars`].
fn bar_slot(b: u32, id: u32) -> usize {
    b as usize * crate::types::BARRIERS_PER_BLOCK as usize + id as usize
}

/// `a ⊔ b` of two pasts.
fn join_past(a: &Past, b: &Past) -> Past {
    match (a, b) {
        (None, p) | (p, None) => p.clone(),
        (Some(x), Some(y)) if Rc::ptr_eq(x, y) => a.clone(),
        (Some(x), Some(y)) => {
            let mut out: Vec<(u32, Vc)> = Vec::with_capacity(x.len() + y.len());
            let (mut i, mut j) = (0, 0);
            while i < x.len() || j < y.len() {
                match (x.get(i), y.get(j)) {
                    (Some(p), Some(q)) if p.0 == q.0 => {
                        let mut v = (*p.1).clone();
                        join_into(&mut v, &q.1);
                        out.push((p.0, Rc::new(v)));
                        i += 1;
                        j += 1;
                    }
                    (Some(p), Some(q)) if p.0 < q.0 => {
                        out.push(p.clone());
                        i += 1;
                    }
                    (Some(_), Some(q)) => {
                        out.push(q.clone());
                        j += 1;
                    }
                    (Some(p), None) => {
                        out.push(p.clone());
                        i += 1;
                    }
                    (None, Some(q)) => {
                        out.push(q.clone());
                        j += 1;
                    }
                    (None, None) => unreachable!(),
                }
            }
            Some(Rc::new(out))
        }
    }
}

/// `past` with the clock `cur` of unit `unit` joined in.
fn past_with(past: &Past, unit: u32, cur: &Vc) -> Past {
    join_past(past, &Some(Rc::new(vec![(unit, cur.clone())])))
}

/// Whether `past` knows epoch `epoch` of lane `lane` of unit `unit`.
fn past_knows(past: &Past, unit: u32, lane: u32, epoch: u32) -> bool {
    past.as_ref().is_some_and(|p| {
        p.binary_search_by_key(&unit, |e| e.0)
            .is_ok_and(|i| p[i].1[lane as usize] >= epoch)
    })
}

impl Race {
    pub fn new() -> Race {
        Race {
            unit: 0,
            n: 0,
            own: Vec::new(),
            know: Vec::new(),
            past: Vec::new(),
            places: Vec::new(),
            shared: HashMap::default(),
            global: HashMap::default(),
            sync: HashMap::default(),
            rel_fence: Vec::new(),
            loc_release: HashMap::default(),
            split: Vec::new(),
            grid_split: Vec::new(),
            split_joins: Vec::new(),
            acq_pending: Vec::new(),
            bars: Vec::new(),
            cluster_acc: Vec::new(),
            cluster_done: Vec::new(),
            grid_acc: Acc::default(),
            sc: HashMap::default(),
            accesses: 0,
        }
    }

    /// Does `scope`, taken by lane `a` of the current unit, contain lane `b`
    /// of it?
    fn includes(&self, scope: MemScope, a: u32, b: u32) -> bool {
        let (pa, pb) = (self.places[a as usize], self.places[b as usize]);
        match scope {
            MemScope::Cta => pa.block == pb.block,
            MemScope::Cluster => pa.cluster == pb.cluster,
            MemScope::Gpu | MemScope::Sys => true,
        }
    }

    /// §8.7: the same thread, or each scope contains the other's thread. A
    /// thread of an earlier unit is in another cluster (so another block):
    /// only `.gpu` and `.sys` contain it.
    fn morally_strong(&self, a: Head, b: Head) -> bool {
        if a.unit != b.unit {
            let wide = |s| matches!(s, MemScope::Gpu | MemScope::Sys);
            return wide(a.scope) && wide(b.scope);
        }
        a.lane == b.lane
            || (self.includes(a.scope, a.lane, b.lane) && self.includes(b.scope, b.lane, a.lane))
    }

    fn head(&self, t: u32, scope: MemScope) -> Head {
        Head {
            unit: self.unit,
            lane: t,
            scope,
        }
    }

    /// Lane `t`'s clock with its own epoch in place (a release snapshot).
    fn snapshot(&self, t: u32) -> Vc {
        let k = &self.know[t as usize];
        if k[t as usize] == self.own[t as usize] {
            return k.clone();
        }
        let mut v = (**k).clone();
        v[t as usize] = self.own[t as usize];
        Rc::new(v)
    }

    /// Lane `t`'s whole knowledge as a release clock.
    fn release_clock(&self, t: u32) -> Clock {
        Clock {
            unit: self.unit,
            cur: self.snapshot(t),
            past: self.past[t as usize].clone(),
        }
    }

    /// Lane `t` joins `clock` of the current unit into what it knows.
    fn acquire_cur(&mut self, t: u32, clock: &Vc) {
        let k = &mut self.know[t as usize];
        if Rc::ptr_eq(k, clock) {
            return;
        }
        if clock.iter().zip(k.iter()).all(|(c, k)| c <= k) {
            return;
        }
        join_into(Rc::make_mut(k).as_mut_slice(), clock);
    }

    /// Lane `t` acquires a release clock (of this unit or an earlier one).
    fn acquire(&mut self, t: u32, clock: &Clock) {
        if clock.unit == self.unit {
            self.acquire_cur(t, &clock.cur);
        } else {
            let p = past_with(&self.past[t as usize], clock.unit, &clock.cur);
            self.past[t as usize] = p;
        }
        if clock.past.is_some() {
            let p = join_past(&self.past[t as usize], &clock.past);
            self.past[t as usize] = p;
        }
    }

    /// After a release, lane `t`'s later accesses belong to a new epoch.
    fn tick(&mut self, t: u32) {
        self.own[t as usize] += 1;
    }

    /// Whether lane `t` of the current unit knows lane `lane` of `unit` at
    /// `epoch` (its own earlier accesses included).
    fn knows(&self, t: u32, unit: u32, lane: u32, epoch: u32) -> bool {
        if unit == self.unit {
            lane == t || self.know[t as usize][lane as usize] >= epoch
        } else {
            past_knows(&self.past[t as usize], unit, lane, epoch)
        }
    }

    fn happens_before(&self, a: &Access, t: u32) -> bool {
        self.knows(t, a.unit, a.lane, a.epoch)
    }

    // ---- barriers ----------------------------------------------------------

    fn add(acc: &mut Acc, know: &Vc, t: u32, own: u32, past: &Past) {
        acc.entries.push((t, know.clone(), own, past.clone()));
    }

    /// The join of the phase's releases, leaving out `skip` (lanes whose
    /// arrival carries over into the next phase).
    fn finish(&self, acc: &Acc, skip: &[u32]) -> (Vc, Past) {
        let mut v = vec![0; self.n];
        let mut past: Past = None;
        let mut seen: Vec<*const Vec<u32>> = Vec::new();
        for (t, k, c, p) in &acc.entries {
            if skip.contains(t) {
                continue;
            }
            if !seen.contains(&Rc::as_ptr(k)) {
                seen.push(Rc::as_ptr(k));
                join_into(&mut v, k);
            }
            let e = &mut v[*t as usize];
            *e = (*e).max(*c);
            if p.is_some() {
                past = join_past(&past, p);
            }
        }
        (Rc::new(v), past)
    }

    /// What a completed phase hands waiter `t`: the phase's clock, or, after
    /// a split arrive, the phase's joined into what `t` learnt since.
    fn complete_for(&mut self, t: u32, clock: &(Vc, Past)) {
        if std::mem::take(&mut self.split_joins[t as usize]) {
            self.acquire_cur(t, &clock.0);
            let p = join_past(&self.past[t as usize], &clock.1);
            self.past[t as usize] = p;
        } else {
            self.know[t as usize] = clock.0.clone();
            self.past[t as usize] = clock.1.clone();
        }
    }

    /// An arrival's release: the split arrive's, if one is pending in
    /// `split`, else what the lane knows now.
    #[inline]
    fn arrival(&mut self, t: u32, grid: bool) -> (Vc, u32, Past) {
        let pending = if grid {
            self.grid_split[t as usize].take()
        } else {
            self.split[t as usize].take()
        };
        match pending {
            Some(a) => {
                self.split_joins[t as usize] = true;
                a
            }
            None => (
                self.know[t as usize].clone(),
                self.own[t as usize],
                self.past[t as usize].clone(),
            ),
        }
    }

    fn word(&self, w: usize, shared: bool) -> Option<&Word> {
        if shared {
            self.shared.get(&w)
        } else {
            self.global.get(&w)
        }
    }

    /// Whether the strong load `a` reads the value of word `w`'s last write
    /// in observation order: that write is strong, of the same address and
    /// size, and morally strong with `a` (PTX ISA §8.9.2).
    fn observes(&self, w: usize, a: &Access, shared: bool) -> bool {
        let Some(word) = self.word(w, shared) else {
            return false;
        };
        match (word.write.as_ref(), a.scope) {
            (Some(p), Some(s)) => match p.scope {
                Some(ps) => {
                    p.addr == a.addr
                        && p.size == a.size
                        && self.morally_strong(
                            Head {
                                unit: p.unit,
                                lane: p.lane,
                                scope: ps,
                            },
                            Head {
                                unit: a.unit,
                                lane: a.lane,
                                scope: s,
                            },
                        )
                }
                None => false,
            },
            _ => false,
        }
    }

    fn check_word(&self, w: usize, a: &Access, shared: bool) -> Option<Found> {
        let word = self.word(w, shared)?;
        // The last write precedes `a` in causality order through a read that
        // observed it (§8.9: observation order, then base causality order).
        let observed = |p: &Access| {
            p.scope.is_some()
                && word
                    .observers
                    .iter()
                    .any(|&(unit, lane, epoch)| self.knows(a.lane, unit, lane, epoch))
        };
        let conflicts = |p: &Access| {
            p.overlaps(a)
                && (p.kind.writes() || a.kind.writes())
                && !self.happens_before(p, a.lane)
                && !match (p.scope, a.scope) {
                    (Some(ps), Some(s)) => {
                        p.addr == a.addr
                            && p.size == a.size
                            && self.morally_strong(
                                Head {
                                    unit: p.unit,
                                    lane: p.lane,
                                    scope: ps,
                                },
                                Head {
                                    unit: a.unit,
                                    lane: a.lane,
                                    scope: s,
                                },
                            )
                    }
                    _ => false,
                }
        };
        if let Some(p) = word.write.as_ref().filter(|p| conflicts(p) && !observed(p)) {
            return Some(Found {
                first: *p,
                second: *a,
            });
        }
        if a.kind.writes()
            && let Some(p) = word.reads.iter().find(|p| conflicts(p))
        {
            return Some(Found {
                first: *p,
                second: *a,
            });
        }
        None
    }
}

/// The detector as the unit's sink: each sync point joins or publishes
/// vector clocks, each access is checked against the shadow of its words.
impl SyncSink for Race {
    /// Starts unit `unit` of the launch, whose lanes sit at `places`: the
    /// clocks restart over its lanes; global memory's shadow, the locations'
    /// releases and the device-wide `fence.sc` order carry over.
    fn begin_unit(&mut self, unit: u32, places: Vec<Place>, nclusters: usize) {
        let n = places.len();
        let zero: Vc = Rc::new(vec![0; n]);
        self.unit = unit;
        self.n = n;
        self.own = vec![1; n];
        self.know = vec![zero; n];
        self.past = vec![None; n];
        self.places = places;
        self.shared.clear();
        self.rel_fence = vec![None; n];
        self.loc_release.clear();
        self.split = vec![None; n];
        self.grid_split = vec![None; n];
        self.split_joins = vec![false; n];
        self.acq_pending = vec![Vec::new(); n];
        for acc in &mut self.bars {
            acc.entries.clear();
        }
        self.cluster_acc = (0..nclusters).map(|_| Acc::default()).collect();
        self.cluster_done = vec![None; nclusters];
        self.grid_acc = Acc::default();
        self.sc
            .retain(|(s, _), _| matches!(s, MemScope::Gpu | MemScope::Sys));
    }

    /// Lane `t` arrives at barrier `id` of block slot `b` (release). The
    /// wait of a split arrival ([`split_arrive`](Self::split_arrive))
    /// releases what the lane knew at its arrive, not what it did since.
    fn bar_arrive(&mut self, b: u32, id: u32, t: u32) {
        let (k, own, past) = self.arrival(t, false);
        let i = bar_slot(b, id);
        if i >= self.bars.len() {
            self.bars.resize_with(i + 1, Acc::default);
        }
        self.bars[i].entries.push((t, k, own, past));
        self.tick(t);
    }

    /// `block.barrier_arrive()` of lane `t`: the release point of its next
    /// block barrier phase (CUDA promises visibility after `barrier_wait`
    /// only of what was written before `barrier_arrive`).
    fn split_arrive(&mut self, t: u32) {
        let snap = (
            self.snapshot(t),
            self.own[t as usize],
            self.past[t as usize].clone(),
        );
        self.split[t as usize] = Some(snap);
        self.tick(t);
    }

    /// `grid.barrier_arrive()` of lane `t`: the release point of its next
    /// grid barrier.
    fn grid_split_arrive(&mut self, t: u32) {
        let snap = (
            self.snapshot(t),
            self.own[t as usize],
            self.past[t as usize].clone(),
        );
        self.grid_split[t as usize] = Some(snap);
        self.tick(t);
    }

    /// Barrier `id` of block slot `b` completed: its waiters acquire every
    /// arrival of the phase; `carried` lanes (of warps that only partly
    /// arrived) count again in the next phase.
    fn bar_complete(&mut self, b: u32, id: u32, waiters: &[u32], carried: &[u32]) {
        let i = bar_slot(b, id);
        // No arrival recorded since the last phase: nothing to acquire.
        let Some(acc) = self.bars.get_mut(i).filter(|a| !a.entries.is_empty()) else {
            return;
        };
        let acc = std::mem::take(acc);
        let clock = self.finish(&acc, carried);
        for &t in waiters {
            self.complete_for(t, &clock);
        }
        let mut acc = acc;
        if carried.is_empty() {
            acc.entries.clear();
        } else {
            acc.entries.retain(|(t, _, _, _)| carried.contains(t));
        }
        self.bars[i] = acc;
    }

    /// `bar.warp.sync` (or the grid barrier): every lane of `lanes` acquires
    /// every other's release.
    fn all_to_all(&mut self, lanes: &[u32]) {
        let mut acc = Acc::default();
        for &t in lanes {
            Self::add(
                &mut acc,
                &self.know[t as usize],
                t,
                self.own[t as usize],
                &self.past[t as usize],
            );
        }
        let clock = self.finish(&acc, &[]);
        for &t in lanes {
            self.know[t as usize] = clock.0.clone();
            self.past[t as usize] = clock.1.clone();
            self.tick(t);
        }
    }

    /// A lane arrives at the grid barrier (release).
    fn grid_arrive(&mut self, t: u32) {
        let (k, own, past) = self.arrival(t, true);
        Self::add(&mut self.grid_acc, &k, t, own, &past);
        self.tick(t);
    }

    /// The grid barrier completed: every waiter acquires every arrival.
    fn grid_complete(&mut self, waiters: &[u32]) {
        let acc = std::mem::take(&mut self.grid_acc);
        let clock = self.finish(&acc, &[]);
        for &t in waiters {
            self.complete_for(t, &clock);
        }
    }

    /// `barrier.cluster.arrive` (release).
    fn cluster_arrive(&mut self, c: u32, t: u32) {
        let acc = &mut self.cluster_acc[c as usize];
        Self::add(
            acc,
            &self.know[t as usize],
            t,
            self.own[t as usize],
            &self.past[t as usize],
        );
        self.tick(t);
    }

    /// The cluster barrier's phase completed.
    fn cluster_complete(&mut self, c: u32) {
        let acc = std::mem::take(&mut self.cluster_acc[c as usize]);
        let clock = self.finish(&acc, &[]);
        self.cluster_done[c as usize] = Some(clock);
    }

    /// `barrier.cluster.wait` returned (acquire of the completed phase).
    fn cluster_wait(&mut self, c: u32, t: u32) {
        if let Some((cur, past)) = self.cluster_done[c as usize].clone() {
            self.acquire_cur(t, &cur);
            let p = join_past(&self.past[t as usize], &past);
            self.past[t as usize] = p;
        }
    }

    // ---- memory ------------------------------------------------------------

    /// Checks and records an access of lane `t` (of `shared` memory, whose
    /// shadow ends with the unit, or of global memory); the first race found.
    fn access(&mut self, mut a: Access, shared: bool) -> Option<Found> {
        // The lane's epoch now (a recorded access does not know it).
        a.epoch = self.own[a.lane as usize];
        self.accesses += 1;
        let t = a.lane;
        let first = a.addr & !3;
        let last = (a.addr + a.size.max(1) as usize - 1) & !3;
        let mut w = first;
        while w <= last {
            if let Some(f) = self.check_word(w, &a, shared) {
                return Some(f);
            }
            w += 4;
        }
        let observes = matches!(a.kind, Kind::Atomic(AtomicKind::Load, _));
        let mut w = first;
        while w <= last {
            let observed = observes && self.observes(w, &a, shared);
            let map = if shared {
                &mut self.shared
            } else {
                &mut self.global
            };
            let word = map.entry(w).or_default();
            if a.kind.writes() {
                word.write = Some(a);
                word.reads.clear();
                word.observers.clear();
            } else {
                if observed {
                    word.observers.push((a.unit, t, a.epoch));
                }
                let (know, past, unit) =
                    (&self.know[t as usize], &self.past[t as usize], self.unit);
                word.reads.retain(|r| {
                    !(r.unit == unit && (r.lane == t || know[r.lane as usize] >= r.epoch)
                        || r.unit != unit && past_knows(past, r.unit, r.lane, r.epoch))
                });
                word.reads.push(a);
            }
            w += 4;
        }
        None
    }

    /// The synchronisation of an atomic of lane `t` on `addr` (after its
    /// access was checked): acquire what the location holds, publish a
    /// release. `SeqCst` arrives here already split into `fence.sc` and the
    /// operation.
    fn atomic_sync(
        &mut self,
        t: u32,
        addr: usize,
        kind: AtomicKind,
        order: MemOrder,
        scope: MemScope,
    ) {
        let acquire = matches!(
            order,
            MemOrder::Acquire | MemOrder::AcqRel | MemOrder::SeqCst
        );
        let release = matches!(
            order,
            MemOrder::Release | MemOrder::AcqRel | MemOrder::SeqCst
        );
        let me = self.head(t, scope);
        if kind != AtomicKind::Store
            && let Some(sv) = self.sync.get(&addr)
        {
            let (clock, head) = (sv.clock.clone(), sv.head);
            if !acquire {
                self.acq_pending[t as usize].push((clock, head));
            } else if self.morally_strong(head, me) {
                self.acquire(t, &clock);
            }
        }
        if kind == AtomicKind::Load {
            return;
        }
        // What this write publishes: its own release; or, for a strong write
        // that is not a release, the release patterns it completes (§8.8): a
        // release write of this lane to the same location before it in
        // program order, a release fence of this lane before it.
        let published: Option<(Clock, Head)> = if release {
            let clock = self.release_clock(t);
            self.loc_release.insert((addr, t), (clock.clone(), scope));
            Some((clock, me))
        } else {
            let fence = self.rel_fence[t as usize].as_ref();
            match (self.loc_release.get(&(addr, t)), fence) {
                (Some((c, s)), None) | (None, Some((c, s))) => Some((c.clone(), self.head(t, *s))),
                (Some((c, s)), Some((f, _))) => {
                    let mut v = (*c.cur).clone();
                    join_into(&mut v, &f.cur);
                    let clock = Clock {
                        unit: self.unit,
                        cur: Rc::new(v),
                        past: join_past(&c.past, &f.past),
                    };
                    Some((clock, self.head(t, *s)))
                }
                (None, None) => None,
            }
        };
        match (kind, published) {
            // An RMW continues the chain it read from (§8.9.2).
            (AtomicKind::Rmw, Some((clock, head))) => match self.sync.get_mut(&addr) {
                Some(sv) => {
                    sv.clock = if sv.clock.unit == clock.unit {
                        let mut v = (*sv.clock.cur).clone();
                        join_into(&mut v, &clock.cur);
                        Clock {
                            unit: clock.unit,
                            cur: Rc::new(v),
                            past: join_past(&sv.clock.past, &clock.past),
                        }
                    } else {
                        // The chain came from an earlier unit: it becomes
                        // part of what the new release knew.
                        Clock {
                            unit: clock.unit,
                            cur: clock.cur,
                            past: join_past(
                                &past_with(&sv.clock.past, sv.clock.unit, &sv.clock.cur),
                                &clock.past,
                            ),
                        }
                    };
                    sv.head = head;
                }
                None => {
                    self.sync.insert(addr, SyncVar { clock, head });
                }
            },
            (AtomicKind::Rmw, None) => {}
            (_, Some((clock, head))) => {
                self.sync.insert(addr, SyncVar { clock, head });
            }
            (_, None) => {
                self.sync.remove(&addr);
            }
        }
        if release {
            self.tick(t);
        }
    }

    /// `fence.acq_rel` or `fence.sc` of lane `t` at `scope`.
    fn fence(&mut self, t: u32, sc: bool, scope: MemScope) {
        // Acquire side: releases read by earlier relaxed atomics.
        let pending = std::mem::take(&mut self.acq_pending[t as usize]);
        let me = self.head(t, scope);
        for (clock, head) in pending {
            if self.morally_strong(head, me) {
                self.acquire(t, &clock);
            }
        }
        if sc {
            // Fence-SC order: in the order the simulator runs the fences,
            // between morally strong pairs (both scopes contain the other
            // thread; taken per scope instance, fences of a wider scope
            // from other instances are not joined: fewer edges, never more).
            let p = self.places[t as usize];
            let keys = [
                (MemScope::Cta, p.block),
                (MemScope::Cluster, p.cluster),
                (MemScope::Gpu, 0),
                (MemScope::Sys, 0),
            ];
            let mine = match scope {
                MemScope::Cta => 0,
                MemScope::Cluster => 1,
                MemScope::Gpu => 2,
                MemScope::Sys => 3,
            };
            for key in keys.iter().take(mine + 1) {
                if let Some(c) = self.sc.get(key).cloned() {
                    self.acquire(t, &c);
                }
            }
            let snap = self.release_clock(t);
            let key = keys[mine];
            let unit = self.unit;
            match self.sc.get_mut(&key) {
                Some(c) if c.unit == unit => {
                    join_into(Rc::make_mut(&mut c.cur).as_mut_slice(), &snap.cur);
                    c.past = join_past(&c.past, &snap.past);
                }
                Some(c) => {
                    // An earlier unit's fences: part of what this one knows.
                    let past = join_past(&past_with(&c.past, c.unit, &c.cur), &snap.past);
                    *c = Clock {
                        unit,
                        cur: snap.cur,
                        past,
                    };
                }
                None => {
                    self.sc.insert(key, snap);
                }
            }
        }
        // Release side.
        let snap = self.release_clock(t);
        self.rel_fence[t as usize] = Some((snap, scope));
        self.tick(t);
    }
}

/// `CG_SIM_RACE=0` (or `off`) turns the detector off for every launch.
pub(crate) fn env_enabled() -> bool {
    !matches!(
        std::env::var("CG_SIM_RACE").as_deref(),
        Ok("0") | Ok("off") | Ok("false")
    )
}
