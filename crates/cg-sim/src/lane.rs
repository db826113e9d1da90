//! Primitives a running lane calls (the `cooperative-groups` host arch layer
//! forwards here). Calling any of them outside a simulated kernel panics.
//!
//! Blocking primitives are `#[track_caller]`: the call site they record is
//! the one reports name, so callers that are themselves `#[track_caller]`
//! pass the user's source line through.

use std::cell::{Cell, RefCell};
use std::panic::Location;

use crate::sched::{block_on, block_on_or, with_core};
use crate::types::BARRIERS_PER_BLOCK;
use crate::types::{BarCount, Step, WarpKind, WarpOp};

pub use cg_isa::{ReduxOp, ShflMode};

/// The lanes a [`check_uniform`] covers.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Scope {
    /// The lanes of the caller's warp named by the mask.
    Warp(u32),
    /// Every non-exited thread of the caller's block.
    Block,
}

pub use crate::warp::shfl_source;

thread_local! {
    /// The call sites primitives recorded since [`record_call_sites`]
    /// (`None`: not recording).
    static SITES: RefCell<Option<Vec<(u32, &'static Location<'static>)>>> = const { RefCell::new(None) };
    /// Whether `SITES` records (checked first: every primitive asks).
    static RECORDING: Cell<bool> = const { Cell::new(false) };
}

/// The call site of a primitive as reports will name it (through every
/// `#[track_caller]` caller), recorded while [`record_call_sites`] is on.
#[track_caller]
#[inline(always)]
fn here() -> &'static Location<'static> {
    let loc = Location::caller();
    if RECORDING.with(Cell::get) {
        record_site(loc);
    }
    loc
}

#[cold]
#[inline(never)]
fn record_site(loc: &'static Location<'static>) {
    SITES.with(|s| {
        if let Some(v) = s.borrow_mut().as_mut() {
            v.push((crate::sched::current_lane(), loc));
        }
    });
}

/// Starts (`true`) or stops recording, on this thread, the source location
/// every primitive names — the line a report about it would show — and
/// clears what was recorded. For tests that check that a library function
/// passes its caller's line through (`#[track_caller]` all the way down).
pub fn record_call_sites(on: bool) {
    SITES.with(|s| *s.borrow_mut() = on.then(Vec::new));
    RECORDING.with(|r| r.set(on));
}

/// The call sites the calling lane's primitives recorded since its last
/// call (or since [`record_call_sites`]), oldest first; empty when not
/// recording.
pub fn take_call_sites() -> Vec<&'static Location<'static>> {
    let me = crate::sched::current_lane();
    SITES.with(|s| {
        let mut s = s.borrow_mut();
        let Some(v) = s.as_mut() else {
            return Vec::new();
        };
        let mine = v
            .iter()
            .filter(|(l, _)| *l == me)
            .map(|(_, loc)| *loc)
            .collect();
        v.retain(|(l, _)| *l != me);
        mine
    })
}

/// `threadIdx` of the calling lane.
pub fn thread_idx() -> [u32; 3] {
    with_core(|c, me| c.lanes[me as usize].tid)
}

/// `blockDim`.
pub fn block_dim() -> [u32; 3] {
    with_core(|c, _| c.geom.block.to_array())
}

/// `blockIdx` of the calling lane.
pub fn block_idx() -> [u32; 3] {
    with_core(|c, me| c.blocks[c.lanes[me as usize].block as usize].idx)
}

/// `gridDim`.
pub fn grid_dim() -> [u32; 3] {
    with_core(|c, _| c.geom.grid.to_array())
}

/// `%laneid`: the lane's index in its warp (linear thread index mod 32).
pub fn lane_id() -> u32 {
    with_core(|c, me| c.lanes[me as usize].lane_id)
}

/// The lanes of the caller's warp that exist: all 32, except in the last
/// warp of a block whose thread count is not a multiple of 32.
pub fn existing_lanes() -> u32 {
    with_core(|c, me| c.lanes.warps[c.lanes[me as usize].warp as usize].existing)
}

/// Inlined into each collective, whose `kind` is then a constant: passed
/// by reference (it does not fit in registers), it was read back with a
/// wide load right after the caller's byte stores (a store-forwarding
/// stall on every lane's arrival).
#[track_caller]
#[inline(always)]
fn warp_op(kind: WarpKind, mask: u32, a: u64, b: u32, c: u32) -> u64 {
    let loc = here();
    let op = WarpOp::new(kind, mask, a, b, c);
    block_on(|core, me| core.warp_arrive(me, op, loc))
}

/// `shfl.sync.{mode}.b32 d, v, b, c, mask`, with the PTX semantics of `c`
/// (segment mask in bits 8..12, clamp in bits 0..4): a lane whose source is
/// out of range, or not a participant of `mask`, gets its own `v`.
#[track_caller]
pub fn shfl(mode: ShflMode, mask: u32, v: u32, b: u32, c: u32) -> u32 {
    warp_op(WarpKind::Shfl(mode), mask, v as u64, b, c) as u32
}

/// `vote.sync.ballot.b32`: bit `i` set when lane `i` of `mask` passed `true`.
#[track_caller]
pub fn ballot(mask: u32, pred: bool) -> u32 {
    warp_op(WarpKind::Ballot, mask, pred as u64, 0, 0) as u32
}

/// `match.any.sync`: the lanes of `mask` that passed the same `v` as the caller.
#[track_caller]
pub fn match_any(mask: u32, v: u64) -> u32 {
    warp_op(WarpKind::MatchAny, mask, v, 0, 0) as u32
}

/// `match.all.sync`: `mask` (its existing lanes) if every lane passed the
/// same `v`, else 0.
#[track_caller]
pub fn match_all(mask: u32, v: u64) -> u32 {
    warp_op(WarpKind::MatchAll, mask, v, 0, 0) as u32
}

/// `redux.sync.{op}`: the reduction of `v` over the lanes of `mask`.
#[track_caller]
pub fn redux(op: ReduxOp, mask: u32, v: u32) -> u32 {
    warp_op(WarpKind::Redux(op), mask, v as u64, 0, 0) as u32
}

/// `bar.warp.sync mask` (`__syncwarp`).
#[track_caller]
pub fn warp_sync(mask: u32) {
    warp_op(WarpKind::Sync, mask, 0, 0, 0);
}

/// `elect.sync`: the lane id of the lowest lane of `mask`, for every lane.
#[track_caller]
pub fn elect(mask: u32) -> u32 {
    warp_op(WarpKind::Elect, mask, 0, 0, 0) as u32
}

/// `activemask.b32` under the convergence model: the lane waits until no
/// lane of the launch can run, then gets the set of its warp's lanes that
/// wait at `activemask` at the same call site.
#[track_caller]
pub fn activemask() -> u32 {
    let loc = here();
    block_on(|core, me| core.activemask_arrive(me, loc)) as u32
}

/// `bar.sync 0` (`__syncthreads`): waits for every non-exited thread of the block.
#[track_caller]
pub fn sync_threads() {
    let loc = here();
    block_on(|core, me| core.bar_arrive(me, 0, BarCount::All, true, loc));
}

/// `bar.sync id, count`: named barrier `id` (0..15) over `count` threads, a
/// non-zero multiple of 32 (whole warps arrive).
#[track_caller]
pub fn barrier_sync(id: u32, count: u32) {
    let loc = here();
    block_on(|core, me| core.bar_arrive(me, id, BarCount::Threads(count), true, loc));
}

/// `bar.arrive id, count`: arrives at named barrier `id` without waiting.
#[track_caller]
pub fn barrier_arrive(id: u32, count: u32) {
    let loc = here();
    block_on(|core, me| core.bar_arrive(me, id, BarCount::Threads(count), false, loc));
}

/// `block.barrier_arrive()`: the calling thread's release point for the
/// next phase of the block barrier (barrier 0), waited for by
/// [`block_barrier_wait`]. Until then the thread may take part in no
/// collective of the block (a misuse: `bar.sync 0`, a block-wide check, a
/// grid barrier), and what it writes in between is not published by that
/// phase.
#[track_caller]
pub fn block_barrier_arrive() {
    let loc = here();
    block_on(|core, me| core.bar_split_arrive(me, loc));
}

/// `block.barrier_wait()`: `bar.sync 0` that releases what the thread did
/// before its [`block_barrier_arrive`].
#[track_caller]
pub fn block_barrier_wait() {
    let loc = here();
    block_on(|core, me| core.bar_split_wait(me, loc));
}

/// Number of hardware barriers per block (ids `0..16`).
pub const NUM_BARRIERS: u32 = BARRIERS_PER_BLOCK;

/// The calling block's dynamic shared memory and its size in bytes (the
/// pointer is valid, 16-byte aligned and non-null even for size 0).
pub fn dynamic_shared() -> (*mut u8, usize) {
    with_core(|c, me| c.blocks[c.lanes[me as usize].block as usize].smem.dynamic())
}

/// The calling block's buffer for the static shared allocation `key`:
/// `bytes` bytes aligned to `align`, filled with [`POISON`](crate::POISON)
/// when the block starts, and at the same address for the block's lifetime.
///
/// A lane that unwinds (a destructor running after a panic, or at the
/// teardown of a failed launch) gets the buffer too, or, where a report
/// would have stopped it (a size that differs from the first
/// declaration's), scratch memory of that size: never an address that
/// names nothing.
#[track_caller]
pub fn static_shared(key: &'static str, bytes: usize, align: usize) -> *mut u8 {
    let loc = here();
    block_on_or(
        |core, me| core.static_shared(me, key, bytes, align, loc),
        |core, me| {
            let b = core.lanes[me as usize].block;
            let p = match core.static_buffer(b, key, bytes, align) {
                Ok(p) => p,
                Err(_) => core.scratch(bytes, align),
            };
            p as u64
        },
    ) as usize as *mut u8
}

pub use crate::shared::state::SharedOwner;

/// The calling lane's block, as the owner of a shared-memory handle made
/// now (of its static or dynamic shared memory): see [`SharedOwner`].
pub fn shared_owner() -> SharedOwner {
    with_core(|c, me| c.owner(c.lanes[me as usize].block as usize, false))
}

/// Checks an access (`write`: a store or an atomic; `what` names it) of
/// `len` bytes at `p` through a shared-memory handle of `owner`: `true`
/// when the caller may make it.
///
/// The handle must be the calling lane's block's, or, for a handle mapped
/// by [`cluster_map_owned`], a block of the lane's cluster whose threads
/// have not all exited; otherwise the launch ends with a misuse report
/// naming both blocks and the caller's line, and the lane stops before the
/// access. Then the access is checked against the block's copies in flight
/// ([`async_check_access`]). A lane that unwinds (a destructor after a
/// panic, or at the teardown of a failed launch) is not stopped by a
/// report: it gets `false` where one would have stopped it, and must skip
/// the access (its block's memory may be gone).
#[track_caller]
pub fn shared_access(
    owner: SharedOwner,
    p: *const u8,
    len: usize,
    write: bool,
    what: &'static str,
) -> bool {
    let loc = here();
    block_on_or(
        |core, me| match core.shared_access(me, owner, (p, len), write, what, loc) {
            Step::Done(_) => Step::Done(1),
            wait => wait,
        },
        |core, me| core.shared_reachable(me, owner, false) as u64,
    ) == 1
}

/// [`shared_access`] for a use of a handle that must be the calling
/// block's own shared memory (a copy's destination or a tile store's
/// source, `what`), without the check of copies in flight (the copy makes
/// its own): a cluster peer's memory, even mapped, is a misuse. `false`
/// only for an unwinding lane, which must skip the use.
#[track_caller]
pub fn shared_own(owner: SharedOwner, what: &'static str) -> bool {
    let loc = here();
    block_on_or(
        |core, me| match core.shared_own(me, owner, what, loc) {
            Step::Done(_) => Step::Done(1),
            wait => wait,
        },
        |core, me| core.shared_reachable(me, owner, true) as u64,
    ) == 1
}

/// The grid-wide barrier of a cooperative launch (a misuse otherwise).
#[track_caller]
pub fn grid_sync() {
    let loc = here();
    block_on(|core, me| core.grid_arrive(me, loc));
}

/// `grid.barrier_arrive()`: the calling thread's release point for the next
/// grid barrier, waited for by [`grid_barrier_wait`]; in between it may take
/// part in no grid barrier, and what it writes is not published by it.
#[track_caller]
pub fn grid_barrier_arrive() {
    let loc = here();
    block_on(|core, me| core.grid_split_arrive(me, loc));
}

/// `grid.barrier_wait()`: the grid barrier, releasing what the thread did
/// before its [`grid_barrier_arrive`].
#[track_caller]
pub fn grid_barrier_wait() {
    let loc = here();
    block_on(|core, me| core.grid_split_wait(me, loc));
}

/// Whether the launch is cooperative (its grid may use the grid barrier).
pub fn cooperative() -> bool {
    with_core(|c, _| c.geom.cooperative)
}

/// The phase of the grid barrier: the number of grid barriers this launch
/// completed so far, modulo 2 (the GPU's barrier word flips its top bit at
/// each barrier).
pub fn grid_phase() -> u32 {
    with_core(|c, _| c.grid.completed & 1)
}

/// The launch's global scratch of `bytes` bytes (16-byte aligned, zeroed,
/// at the same address for the whole launch; one per launch, like a
/// module's `.global` array on the GPU). Every call of a launch must ask
/// for the same size.
pub fn grid_scratch(bytes: usize) -> *mut u8 {
    with_core(|c, _| {
        let words = bytes.div_ceil(16);
        if let Some(coop) = &c.coop {
            // One cluster of a launch run in segments: the launch's
            // scratch, which every cluster's unit shares. The blocks of a
            // phase (between two grid barriers) may run on several threads:
            // the grid collectives write only the half of the current
            // phase and read only the other one, which the launching
            // thread's release of the grid barrier orders before them.
            let mut s = coop.scratch.lock().unwrap_or_else(|e| e.into_inner());
            if s.is_empty() {
                *s = vec![0u128; words];
            }
            assert_eq!(s.len(), words, "grid scratch size changed within a launch");
            return s.as_mut_ptr().cast();
        }
        if c.grid.scratch.is_empty() {
            c.grid.scratch = vec![0u128; words];
        }
        assert_eq!(
            c.grid.scratch.len(),
            words,
            "grid scratch size changed within a launch"
        );
        c.grid.scratch.as_mut_ptr().cast()
    })
}

/// Checks that every lane of `scope` passes the same `value` for the
/// argument named `what`. Costs nothing on the GPU.
///
/// * `Scope::Warp`: a rendezvous of the mask's lanes: a misuse report if
///   the values differ, a deadlock naming `what` if some lanes never arrive.
/// * `Scope::Block`: holds no lane (so it orders neither the schedule nor
///   memory): the arrival is recorded and the lane runs on. Differing
///   values are reported once every live thread of the block arrived;
///   threads that meet at a barrier or warp collective after different
///   numbers of block-wide checks are reported there, at the check's line.
///   A thread that exits without the check is fine.
#[track_caller]
pub fn check_uniform(scope: Scope, what: &'static str, value: u64) {
    let loc = here();
    match scope {
        Scope::Warp(mask) => {
            let op = WarpOp::new(WarpKind::Uniform(what), mask, value, 0, 0);
            block_on(|core, me| core.warp_arrive(me, op, loc));
        }
        Scope::Block => {
            block_on(|core, me| core.block_uniform(me, what, value, loc));
        }
    }
}

/// `%cluster_ctarank`: the block's rank in its cluster.
pub fn cluster_cta_rank() -> u32 {
    with_core(|c, me| c.blocks[c.lanes[me as usize].block as usize].rank)
}

/// `%cluster_nctarank`: blocks in the cluster.
pub fn cluster_num_ctas() -> u32 {
    with_core(|c, _| c.geom.cluster.volume() as u32)
}

/// `%cluster_ctaid`: the block's position inside its cluster.
pub fn cluster_cta_idx() -> [u32; 3] {
    with_core(|c, me| c.blocks[c.lanes[me as usize].block as usize].cta_idx)
}

/// `%cluster_nctaid`: the cluster's shape in blocks.
pub fn cluster_dim() -> [u32; 3] {
    with_core(|c, _| c.geom.cluster.to_array())
}

/// `barrier.cluster.arrive`: arrives at the cluster barrier (every
/// non-exited thread of the cluster must arrive before any `wait` returns).
#[track_caller]
pub fn cluster_arrive() {
    let loc = here();
    block_on(|core, me| core.cluster_arrive(me, loc));
}

/// `barrier.cluster.wait`: waits for the phase this thread arrived in.
#[track_caller]
pub fn cluster_wait() {
    let loc = here();
    block_on(|core, me| core.cluster_wait(me, loc));
}

/// `mapa`: the same offset of the same shared variable (static or dynamic)
/// in block `rank` of the cluster. A pointer outside the cluster's shared
/// memory is a misuse. A lane that unwinds gets the mapped address where
/// there is one, else null.
#[track_caller]
pub fn cluster_map_shared(p: *mut u8, rank: u32) -> *mut u8 {
    let loc = here();
    block_on_or(
        |core, me| core.cluster_map(me, p, rank, loc),
        |core, me| core.cluster_map_addr(me, p, rank).unwrap_or(0) as u64,
    ) as usize as *mut u8
}

/// `mapa` of a shared-memory handle of `owner` (the calling block's:
/// another's is a misuse, as for [`shared_own`]) whose `len` bytes start
/// at `p` (aligned to `align`): the same bytes in block `rank` of the
/// cluster, and their owner, a mapped handle's (which [`shared_access`]
/// lets every block of the cluster use while block `rank` runs). A lane
/// that unwinds gets scratch memory where a report would have stopped it.
#[track_caller]
pub fn cluster_map_owned(
    owner: SharedOwner,
    p: *mut u8,
    (len, align): (usize, usize),
    rank: u32,
) -> (*mut u8, SharedOwner) {
    let loc = here();
    let a = block_on_or(
        |core, me| match core.shared_own(me, owner, "map_shared_array", loc) {
            Step::Done(_) => core.cluster_map(me, p, rank, loc),
            wait => wait,
        },
        |core, me| {
            let mapped = core
                .shared_reachable(me, owner, true)
                .then(|| core.cluster_map_addr(me, p, rank).ok())
                .flatten();
            match mapped {
                Some(a) => a as u64,
                None => core.scratch(len, align) as u64,
            }
        },
    );
    let peer = with_core(|c, me| {
        let b = c.lanes[me as usize].block as usize;
        let cl = &c.clusters[c.blocks[b].cluster as usize];
        let target = if rank < cl.nblocks {
            (cl.first_block + rank) as usize
        } else {
            b
        };
        c.owner(target, true)
    });
    // Never 0: a lane stopped by a report is never resumed, only unwound.
    assert!(a != 0, "a lane stopped by a shared-memory report resumed");
    (a as usize as *mut u8, peer)
}

/// `getctarank`: the cluster rank of the block whose shared memory holds `p`.
#[track_caller]
pub fn cluster_query_shared_rank(p: *const u8) -> u32 {
    let loc = here();
    block_on(|core, me| core.cluster_query_rank(me, p, loc)) as u32
}

/// Gives up the lane's turn (it stays runnable). Spin-wait loops on memory
/// written by other lanes must call this (e.g. from a `nanosleep` or spin
/// hint), since lanes are not preempted; if only spinning lanes remain for
/// a long time, the launch fails with a livelock report naming this call.
#[track_caller]
pub fn yield_now() {
    crate::sched::yield_now(here())
}

/// `mbarrier.init [addr], count`: an mbarrier object in this block's
/// shared memory at `addr` (8-byte aligned), expecting `count` arrivals
/// per phase. Re-initialising one whose phase has arrivals pending is a
/// misuse.
#[track_caller]
pub fn mbarrier_init(addr: *mut u8, count: u32) {
    let loc = here();
    block_on(|core, me| core.mbar_init(me, addr as usize, count, loc));
}

/// `mbarrier.arrive` of `count` arrivals expecting `tx` more transaction
/// bytes (`arrive.expect_tx`; 0: none), `drop` for `arrive_drop` (later
/// phases expect `count` fewer): returns the arrival's token.
#[track_caller]
pub fn mbarrier_arrive(addr: *mut u8, count: u32, tx: u32, drop: bool) -> u64 {
    let loc = here();
    block_on(|core, me| core.mbar_arrive(me, addr as usize, count, tx, drop, loc))
}

/// `mbarrier.expect_tx` (`bytes > 0`) or `mbarrier.complete_tx`
/// (`bytes < 0`) on the barrier's current phase.
#[track_caller]
pub fn mbarrier_tx(addr: *mut u8, bytes: i64) {
    let loc = here();
    block_on(|core, me| core.mbar_tx(me, addr as usize, bytes, loc));
}

/// `mbarrier.test_wait` on a token (`parity`: on the parity of the phase
/// waited for): whether that phase has completed. Never blocks; a `false`
/// gives up the lane's turn, so that a loop on it is a spin-wait.
#[track_caller]
pub fn mbarrier_test_wait(addr: *mut u8, token: u64, parity: bool) -> bool {
    let loc = here();
    let done = block_on(|core, me| core.mbar_test(me, addr as usize, token, parity, loc)) == 1;
    if !done {
        crate::sched::yield_now(loc);
    }
    done
}

/// Blocks until the phase of `token` (or of parity `token`) completes: a
/// phase that never completes is a deadlock report naming this call.
#[track_caller]
pub fn mbarrier_wait(addr: *mut u8, token: u64, parity: bool) {
    let loc = here();
    if block_on(|core, me| core.mbar_wait(me, addr as usize, token, parity, loc)) == 1 {
        with_core(|core, me| core.mbar_returned(me, addr as usize));
    }
}

/// `cp.async.bulk` of `len` bytes from global `src` to shared `dst`,
/// completing on the mbarrier at `bar`, then one arrival on it that
/// expects those bytes (`arrive.expect_tx`): the token. The destination
/// is in flight until the barrier's phase completes (a checked access
/// before is a misuse).
///
/// # Safety
/// `src` must be readable and `dst` (in the block's shared memory)
/// writable for `len` bytes.
#[track_caller]
pub unsafe fn bulk_copy_arrive(dst: *mut u8, src: *const u8, len: usize, bar: *mut u8) -> u64 {
    let loc = here();
    // SAFETY: forwarded from the caller.
    block_on(|core, me| unsafe { core.bulk_copy(me, dst, src, len, bar as usize, loc) })
}

/// The tensor tile load of the box at `at` of `t` into shared `dst`,
/// completing on the mbarrier at `bar`, then one arrival on it that
/// expects the box's bytes: the token. Elements outside the tensor land as
/// zeros; the destination is in flight until the barrier's phase
/// completes.
///
/// # Safety
/// `t` must describe readable memory and `dst` (in the block's shared
/// memory) be writable for the box's bytes.
#[track_caller]
pub unsafe fn tile_load_arrive(
    dst: *mut u8,
    t: crate::TensorBox,
    at: crate::TensorAt,
    bar: *mut u8,
) -> u64 {
    let loc = here();
    // SAFETY: forwarded from the caller.
    block_on(|core, me| unsafe { core.tile_load(me, dst, t, at, bar as usize, loc) })
}

/// The tensor tile load of the box at `at` of `t` into `dst`'s offset
/// in each block of this lane's cluster whose rank is in `mask`, each
/// completing on the mbarrier at `bar`'s offset there, with no arrival
/// (`.multicast::cluster`): every destination is in flight until its
/// block's phase completes.
///
/// # Safety
/// `t` must describe readable memory and `dst` (in the block's shared
/// memory) be writable for the box's bytes.
#[track_caller]
pub unsafe fn tile_load_multicast(
    dst: *mut u8,
    t: crate::TensorBox,
    at: crate::TensorAt,
    bar: *mut u8,
    mask: u16,
) {
    let loc = here();
    // SAFETY: forwarded from the caller.
    block_on(|core, me| unsafe {
        core.tile_load_multicast(me, dst, t, at, (bar as usize, mask), loc)
    });
}

/// `cp.async.bulk…multicast::cluster`: `len` bytes from global `src` into
/// `dst`'s offset in each block of this lane's cluster whose rank is in
/// `mask`, completing on the mbarrier at `bar`'s offset there (no
/// arrival).
///
/// # Safety
/// `src` must be readable and `dst` (in the block's shared memory)
/// writable for `len` bytes.
#[track_caller]
pub unsafe fn bulk_copy_multicast(
    dst: *mut u8,
    src: *const u8,
    len: usize,
    bar: *mut u8,
    mask: u16,
) {
    let loc = here();
    // SAFETY: forwarded from the caller.
    block_on(|core, me| unsafe {
        core.bulk_copy_multicast(me, dst, src, len, bar as usize, mask, loc)
    });
}

/// The tensor tile store of shared `src` into the box at `at` of `t`,
/// in this lane's open bulk group: the global writes happen now, and `src`
/// is being read until the lane waits for the group ([`bulk_wait`]).
///
/// # Safety
/// `t` must describe writable memory and `src` be readable for the box's
/// bytes.
#[track_caller]
pub unsafe fn tile_store(t: crate::TensorBox, at: crate::TensorAt, src: *const u8) {
    let loc = here();
    // SAFETY: forwarded from the caller.
    block_on(|core, me| unsafe { core.tile_store(me, t, at, src, loc) });
}

/// `cp.async.bulk.commit_group`.
pub fn bulk_commit() {
    block_on(|core, me| core.bulk_commit(me));
}

/// `cp.async.bulk.wait_group[.read] 0`: this lane's committed tile stores
/// have read their shared sources (and written global memory).
pub fn bulk_wait() {
    block_on(|core, me| core.bulk_wait(me));
}

/// `cp.async` of `len` bytes from global `src` to shared `dst`: the source
/// is read now, the destination is poisoned now, and the bytes land when
/// this lane waits for the copy's commit group ([`async_wait`]). A copy
/// into bytes that another copy still fills is a misuse.
///
/// # Safety
/// `src` must be readable and `dst` (in the block's shared memory) writable
/// for `len` bytes.
#[track_caller]
pub unsafe fn async_copy(dst: *mut u8, src: *const u8, len: usize) {
    let loc = here();
    // SAFETY: forwarded from the caller.
    block_on(|core, me| unsafe { core.async_copy(me, dst, src, len, loc) });
}

/// `cp.async.commit_group`: the lane's copies since the last commit form a group.
pub fn async_commit() {
    block_on(|core, me| core.async_commit(me));
}

/// `cp.async.wait_group n`: every committed group of this lane but the
/// newest `n` lands in shared memory.
pub fn async_wait(n: u32) {
    block_on(|core, me| core.async_wait(me, n));
}

/// Checks an access of `len` shared bytes at `p` (`write`: a store) against
/// the block's copies in flight: touching bytes that a `memcpy_async` has
/// not yet delivered (no `wait` / `wait_prior` by its thread) is a misuse,
/// reported at the caller's line.
#[track_caller]
pub fn async_check_access(p: *const u8, len: usize, write: bool) {
    let loc = here();
    let what = if write { "writes" } else { "reads" };
    block_on(|core, me| core.async_check_access(me, p, len, what, loc));
}

/// Whether `p` lies in the calling block's shared memory (static or
/// dynamic): the simulator's `isspacep.shared`.
pub fn is_shared(p: *const u8) -> bool {
    with_core(|c, me| {
        c.blocks[c.lanes[me as usize].block as usize]
            .smem
            .locate(p as *mut u8)
            .is_some()
    })
}

// ---- memory accesses, for the race detector --------------------------------

pub use crate::types::AtomicKind;
pub use cg_isa::{MemOrder, MemScope};

/// Whether the race detector checks the running launch's accesses (false
/// outside a launch).
pub fn race_check_enabled() -> bool {
    crate::sched::in_launch() && with_core(|c, _| c.race_on())
}

/// Tells the race detector that the calling lane made a plain (weak) load
/// (`write == false`) or store of `size` bytes at `p` (shared or global
/// memory). Does nothing outside a launch or with the detector off; ends
/// the launch with [`SimError::DataRace`](crate::SimError::DataRace) when
/// no happens-before edge orders it after a conflicting access.
#[track_caller]
pub fn mem_access(p: *const u8, size: usize, write: bool) {
    if !crate::sched::in_launch() {
        return;
    }
    let loc = here();
    block_on(|core, me| core.mem_access(me, p as usize, size, write, loc));
}

/// Tells the race detector that the calling lane made a strong access of
/// `size` bytes at `p`: an atomic (`kind`), or a `.relaxed`/`.acquire`/
/// `.release`/`.volatile` load or store, with its ordering and scope. The
/// detector checks it like [`mem_access`] (two strong accesses of the same
/// address and size whose scopes contain each other's threads never race)
/// and applies its synchronisation (release and acquire patterns, PTX ISA
/// §8.8). Call it after performing the operation.
#[track_caller]
pub fn mem_atomic(p: *const u8, size: usize, kind: AtomicKind, order: MemOrder, scope: MemScope) {
    if !crate::sched::in_launch() {
        return;
    }
    let loc = here();
    block_on(|core, me| core.mem_atomic(me, p as usize, size, kind, order, scope, loc));
}

/// Checks a typed access of `len` bytes at `p` (a kernel parameter's
/// global memory): inside a launch, within one of the regions its launcher
/// registered. Anything else — a view made for another launch, or used
/// outside one — panics before the access, so a view that escaped its
/// launch reaches no freed memory. `true`: the access may be made.
///
/// `false` only for a lane that unwinds (its own panic, or the teardown
/// after another lane's report) and whose access lies outside the regions:
/// no report can stop it, and a second panic would abort the process, so
/// the caller skips the access (a load gives zero bytes).
#[track_caller]
pub fn region_check(p: *const u8, len: usize) -> bool {
    if let Some(ok) = unwinding_region(p, len, false) {
        return ok;
    }
    assert!(
        crate::sched::in_launch(),
        "typed global memory accessed outside a simulated kernel launch"
    );
    let ok = with_core(|c, _| c.in_regions(p as usize, len));
    assert!(
        ok,
        "a typed global parameter used outside its launch: {len} bytes at {p:p} are in none of \
         this launch's parameters"
    );
    true
}

/// [`region_check`] for a typed write (a store, an atomic) of `len` bytes
/// at `p`: the bytes must also lie in a region its launcher registered as
/// writable. A write into a read-only parameter (one the host lent shared,
/// as `&[T]`) ends the launch with a misuse report naming the parameter and
/// the caller's line, before the write. `false` only for an unwinding lane
/// outside the writable regions: it skips the write.
#[track_caller]
pub fn region_check_write(p: *const u8, len: usize) -> bool {
    if let Some(ok) = unwinding_region(p, len, true) {
        return ok;
    }
    assert!(
        crate::sched::in_launch(),
        "typed global memory accessed outside a simulated kernel launch"
    );
    let loc = here();
    let writable = block_on(|core, me| core.region_write(me, p as usize, len, loc)) == 1;
    if !writable {
        // In no region: the panic of `region_check`.
        region_check(p, len);
        assert!(
            writable,
            "a write of {len} bytes at {p:p} into a parameter registered for reads only"
        );
    }
    true
}

/// For a lane that is unwinding (its own panic, or the teardown after
/// another lane's report), whether it may touch `len` bytes at `p` of
/// typed global memory: only inside the running launch's regions (a
/// writable one for a write). `None` for a lane that is not unwinding.
fn unwinding_region(p: *const u8, len: usize, write: bool) -> Option<bool> {
    let launch = crate::sched::in_launch();
    let tearing_down = launch && with_core(|c, _| c.tearing_down);
    if !tearing_down && !std::thread::panicking() {
        return None;
    }
    if !launch {
        return Some(false);
    }
    let addr = p as usize;
    Some(with_core(|c, _| {
        if write {
            c.in_writable_region(addr, len)
        } else {
            c.in_regions(addr, len)
        }
    }))
}

/// A plain load of `size` bytes at `p` from a typed global parameter:
/// checked by the race detector, and after many loads of one address in a
/// row the lane gives up its turn (a spin on a plain load that another
/// block must end becomes a livelock report, not a hang).
#[track_caller]
pub fn global_load(p: *const u8, size: usize) {
    let loc = here();
    let spin = with_core(|c, me| c.repeated_load(me, p as usize));
    block_on(|core, me| core.mem_access(me, p as usize, size, false, loc));
    if spin {
        crate::sched::yield_now(loc);
    }
}

/// An index outside a typed global parameter (`base` its first element,
/// `len` its length): the launch ends with
/// [`SimError::OutOfBounds`](crate::SimError::OutOfBounds) naming the
/// parameter, the index, the length, the thread and the caller's line.
#[track_caller]
pub fn out_of_bounds(base: *const u8, index: usize, len: usize, write: bool) -> ! {
    let loc = here();
    block_on(|core, me| core.out_of_bounds(me, base as usize, index, len, write, loc));
    panic!("index {index} out of bounds of a global parameter of length {len}")
}

/// Tells the race detector that the calling lane executed `fence.sc`
/// (`sc == true`, also `membar`) or `fence.acq_rel` at `scope`.
pub fn mem_fence(sc: bool, scope: MemScope) {
    if !crate::sched::in_launch() {
        return;
    }
    with_core(|core, me| core.mem_fence(me, sc, scope));
}
