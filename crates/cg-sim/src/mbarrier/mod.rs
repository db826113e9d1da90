//! `mbarrier` objects in shared memory (PTX ISA §9.7.13.15): a phase
//! counter, the arrivals the current phase still expects, the arrivals
//! every later phase expects, and a transaction count. A phase completes
//! when its pending arrivals and its transaction count are both zero; the
//! barrier then moves to the next phase and expects the full count again.
//!
//! The simulator keeps each object's state beside the block's shared
//! memory, keyed by its address (the eight bytes themselves are never
//! read). Misuse is reported at the call's line: an operation on an
//! address that holds no initialised barrier, re-initialising a barrier
//! whose phase has arrivals or transactions pending, an arrival count
//! larger than the phase still expects, a wait on a token two or more
//! phases old, a transaction count out of the hardware's range. A wait
//! that can never complete (an `expect_tx` whose bytes never come, a
//! missing arrival) is a deadlock report naming the wait, not a hang.
//!
//! For the race detector an mbarrier is an atomic location (at cluster
//! scope: a multicast copy completes bytes on other blocks' barriers): `init` a
//! strong store, every arrival a release read-modify-write
//! (`expect_tx`/`complete_tx` a relaxed one), a wait that returns complete an acquire load — the
//! PTX memory model's reading of `mbarrier.arrive` (release by default)
//! and `test_wait`/`try_wait` (acquire by default), whose
//! read-modify-write chain carries every arrival to the waiter.

pub(crate) mod state;

use self::state::{Mbar, PHASE_BITS};
use crate::Dim3;
use crate::types::AtomicKind;
use crate::types::{Loc, Step, Wait};
use crate::unit::Core;
use cg_isa::{MemOrder, MemScope};

/// The largest arrival count and the transaction-count bound of the
/// PTX ISA (`2^20 - 1`).
pub const MBARRIER_MAX: u32 = (1 << 20) - 1;

/// The scope of every operation on an mbarrier for the race detector:
/// the operations on one object are atomic with each other whichever
/// block of the cluster issues them (a multicast copy's `complete_tx`
/// comes from another block), so they are morally strong at cluster scope.
const MBAR_SCOPE: MemScope = MemScope::Cluster;

impl Core {
    fn mbar_where(&self, me: u32) -> String {
        let l = &self.lanes[me as usize];
        format!(
            "block {} thread {}",
            Dim3::from(self.blocks[l.block as usize].idx),
            Dim3::from(l.tid)
        )
    }

    /// The block whose shared memory holds `addr`: `me`'s own, or another
    /// block of its cluster (an mbarrier reached at the same offset by a
    /// multicast copy, or through `mapa`). `me`'s own when none does.
    pub(crate) fn smem_block(&self, me: u32, addr: usize) -> usize {
        self.cluster_block_of(me, addr)
            .unwrap_or(self.lanes[me as usize].block as usize)
    }

    /// The object at `addr` in `me`'s cluster, or the misuse of using an
    /// address that holds none.
    fn mbar_get(&mut self, me: u32, addr: usize, what: &str, loc: Loc) -> Result<(), Step> {
        let b = self.smem_block(me, addr);
        if b != self.lanes[me as usize].block as usize && self.blocks[b].live == 0 {
            let msg = format!(
                "mbarrier {what} on {addr:#x}, a barrier of block {}, which has exited (keep a \
                 cluster barrier between the last access to another block's shared memory and \
                 its end; PTX: undefined behaviour)",
                Dim3::from(self.blocks[b].idx)
            );
            return Err(self.misuse(me, loc, msg));
        }
        if self.blocks[b].mbars.objects.contains_key(&addr) {
            return Ok(());
        }
        let msg = format!(
            "mbarrier {what} on {:#x}, which holds no initialised mbarrier (mbarrier.init by one \
             thread, made visible by a barrier, must come first; PTX: undefined behaviour)",
            addr
        );
        Err(self.misuse(me, loc, msg))
    }

    /// Counts a bulk copy of `len` bytes on the current phase of the
    /// object at `addr`; the misuse of passing the transaction count's range.
    pub(crate) fn mbar_bulk(
        &mut self,
        me: u32,
        addr: usize,
        len: usize,
        loc: Loc,
    ) -> Result<(), Step> {
        let m = self.mbar(me, addr);
        m.bulk_bytes += len as u64;
        if m.bulk_bytes > MBARRIER_MAX as u64 {
            let msg = format!(
                "bulk copies on mbarrier phase {} total {} bytes in flight: the transaction \
                 count's range is {MBARRIER_MAX} (PTX: undefined behaviour)",
                m.phase, m.bulk_bytes
            );
            return Err(self.misuse(me, loc, msg));
        }
        Ok(())
    }

    /// The current phase of the object at `addr`, if there is one.
    pub(crate) fn mbar_phase(&self, me: u32, addr: usize) -> Option<u64> {
        self.blocks[self.smem_block(me, addr)]
            .mbars
            .objects_phase(addr)
    }

    fn mbar(&mut self, me: u32, addr: usize) -> &mut Mbar {
        let b = self.smem_block(me, addr);
        self.blocks[b]
            .mbars
            .objects
            .get_mut(&addr)
            .expect("checked by mbar_get")
    }

    /// `mbarrier.init [addr], count` by lane `me`.
    pub fn mbar_init(&mut self, me: u32, addr: usize, count: u32, loc: Loc) -> Step {
        let b = self.lanes[me as usize].block as usize;
        if addr & 7 != 0 || self.blocks[b].smem.locate(addr as *mut u8).is_none() {
            let msg = format!(
                "mbarrier.init on {addr:#x}: not an 8-byte aligned address in this block's shared memory"
            );
            return self.misuse(me, loc, msg);
        }
        if count == 0 || count > MBARRIER_MAX {
            let msg =
                format!("mbarrier.init with count {count}: the count must be 1..={MBARRIER_MAX}");
            return self.misuse(me, loc, msg);
        }
        if let Some(m) = self.blocks[b].mbars.objects.get(&addr) {
            let busy =
                m.pending != m.expected || m.tx != 0 || !m.waiters.is_empty() || m.returning > 0;
            if busy {
                let first = m
                    .first_arrival
                    .map(|l| format!(", first arrival at {}:{}", l.file(), l.line()))
                    .unwrap_or_default();
                let msg = format!(
                    "mbarrier re-initialised while its phase {} is in progress ({} of {} arrivals, \
                     {} transaction bytes pending, {} threads waiting, {} threads not yet returned \
                     from a wait on the phase before{first}; initialised at {}:{})",
                    m.phase,
                    m.expected - m.pending,
                    m.expected,
                    m.tx,
                    m.waiters.len(),
                    m.returning,
                    m.init_loc.file(),
                    m.init_loc.line()
                );
                return self.misuse(me, loc, msg);
            }
        }
        let generation = self.blocks[b]
            .mbars
            .objects
            .get(&addr)
            .map_or(0, |m| m.generation + 1);
        self.blocks[b].mbars.objects.insert(
            addr,
            Mbar {
                phase: 0,
                expected: count,
                next_expected: count,
                pending: count,
                tx: 0,
                init_loc: loc,
                first_arrival: None,
                waiters: Vec::new(),
                returning: 0,
                bulk_bytes: 0,
                generation,
            },
        );
        self.mem_atomic(
            me,
            addr,
            8,
            AtomicKind::Store,
            MemOrder::Relaxed,
            MBAR_SCOPE,
            loc,
        )
    }

    /// `mbarrier.arrive` (`drop`: `arrive_drop`) of `count` arrivals, with
    /// `tx` transaction bytes expected (`arrive.expect_tx`), by lane `me`:
    /// the token is the phase the arrival counted in.
    pub fn mbar_arrive(
        &mut self,
        me: u32,
        addr: usize,
        count: u32,
        tx: u32,
        drop: bool,
        loc: Loc,
    ) -> Step {
        if let Err(s) = self.mbar_get(me, addr, "arrive", loc) {
            return s;
        }
        if tx > MBARRIER_MAX {
            let msg = format!("mbarrier expect_tx of {tx} bytes: at most {MBARRIER_MAX}");
            return self.misuse(me, loc, msg);
        }
        let m = self.mbar(me, addr);
        if count == 0 || count > m.pending {
            let msg = format!(
                "mbarrier arrive of {count} when phase {} expects {} more (PTX: undefined behaviour)",
                m.phase, m.pending
            );
            return self.misuse(me, loc, msg);
        }
        if drop && count > m.next_expected {
            let msg = format!(
                "mbarrier arrive_drop of {count} when later phases expect only {}",
                m.next_expected
            );
            return self.misuse(me, loc, msg);
        }
        let token = m.generation << PHASE_BITS | m.phase;
        m.pending -= count;
        m.tx += tx as i64;
        if drop {
            m.next_expected -= count;
        }
        m.first_arrival.get_or_insert(loc);
        if let s @ Step::Wait = self.mem_atomic(
            me,
            addr,
            8,
            AtomicKind::Rmw,
            MemOrder::Release,
            MBAR_SCOPE,
            loc,
        ) {
            return s;
        }
        self.stats.lane_collectives += 1;
        self.mbar_try_complete(me, addr);
        Step::Done(token)
    }

    /// `mbarrier.expect_tx` (`bytes > 0`) or `mbarrier.complete_tx`
    /// (`bytes < 0`) on the current phase.
    pub fn mbar_tx(&mut self, me: u32, addr: usize, bytes: i64, loc: Loc) -> Step {
        // Relaxed both ways (PTX has only `.relaxed` for them).
        self.mbar_tx_ordered(me, addr, bytes, MemOrder::Relaxed, loc)
    }

    /// [`mbar_tx`](Self::mbar_tx) as an access of `order`: a multicast
    /// copy's completion on another block's barrier releases the copy's
    /// writes to that block's waiters (there is no arrival of the issuer
    /// there to do it).
    pub(crate) fn mbar_tx_ordered(
        &mut self,
        me: u32,
        addr: usize,
        bytes: i64,
        order: MemOrder,
        loc: Loc,
    ) -> Step {
        if let Err(s) = self.mbar_get(me, addr, "expect_tx/complete_tx", loc) {
            return s;
        }
        let m = self.mbar(me, addr);
        let tx = m.tx + bytes;
        if tx.unsigned_abs() > MBARRIER_MAX as u64 {
            let msg = format!(
                "mbarrier transaction count of phase {} would be {tx}: the hardware's range is \
                 ±{MBARRIER_MAX}",
                m.phase
            );
            return self.misuse(me, loc, msg);
        }
        m.tx = tx;
        if let s @ Step::Wait =
            self.mem_atomic(me, addr, 8, AtomicKind::Rmw, order, MBAR_SCOPE, loc)
        {
            return s;
        }
        self.mbar_try_complete(me, addr);
        Step::Done(0)
    }

    fn mbar_try_complete(&mut self, me: u32, addr: usize) {
        let m = self.mbar(me, addr);
        if m.pending != 0 || m.tx != 0 {
            return;
        }
        let completed = m.phase;
        m.phase += 1;
        m.expected = m.next_expected;
        m.pending = m.expected;
        m.first_arrival = None;
        m.bulk_bytes = 0;
        let phase = m.phase;
        let (done, rest): (Vec<_>, Vec<_>) = m.waiters.drain(..).partition(|&(_, p)| p < phase);
        m.waiters = rest;
        m.returning += done.len() as u32;
        self.stats.collectives += 1;
        self.bulk_land(me, addr, completed);
        for (lane, _) in done {
            let loc = self.lanes[lane as usize].loc;
            // The waiter's acquire of the phase (a race found here stops
            // that lane, not this one).
            if let Step::Done(_) = self.mem_atomic(
                lane,
                addr,
                8,
                AtomicKind::Load,
                MemOrder::Acquire,
                MBAR_SCOPE,
                loc,
            ) {
                self.lanes.release(lane, 1);
            }
        }
    }

    /// Whether the phase `phase` of the object at `addr` has completed; a
    /// token older than the immediately preceding phase is a misuse.
    fn mbar_done(&mut self, me: u32, addr: usize, token: u64, loc: Loc) -> Result<bool, Step> {
        let m = self.mbar(me, addr);
        let (cur, generation, init) = (m.phase, m.generation, m.init_loc);
        let phase = token & ((1 << PHASE_BITS) - 1);
        if token >> PHASE_BITS != generation {
            let msg = format!(
                "mbarrier wait on a token from before the barrier was re-initialised (at {}:{}): \
                 on the GPU the wait may never return",
                init.file(),
                init.line()
            );
            return Err(self.misuse(me, loc, msg));
        }
        if phase > cur {
            let msg = format!(
                "mbarrier wait on a token of phase {phase}, but the barrier is in phase {cur} \
                 (a token of another barrier, or of one since re-initialised)"
            );
            return Err(self.misuse(me, loc, msg));
        }
        if phase + 1 < cur {
            let msg = format!(
                "mbarrier wait on a stale token: it is of phase {phase}, and phases up to {} have \
                 completed since (a token must be of the current or the immediately preceding \
                 phase; on the GPU the wait may return at once or never) ({})",
                cur - 1,
                self.mbar_where(me)
            );
            return Err(self.misuse(me, loc, msg));
        }
        Ok(phase < cur)
    }

    /// `mbarrier.test_wait` on `token` (`parity`: `test_wait.parity`,
    /// `token` being the parity of the phase waited for, complete when the
    /// current phase's parity differs): 1 when that phase has completed
    /// (with the acquire), else 0.
    pub fn mbar_test(&mut self, me: u32, addr: usize, token: u64, parity: bool, loc: Loc) -> Step {
        if let Err(s) = self.mbar_get(me, addr, "test_wait", loc) {
            return s;
        }
        let done = if parity {
            Ok(self.mbar(me, addr).phase & 1 != token & 1)
        } else {
            self.mbar_done(me, addr, token, loc)
        };
        match done {
            Err(s) => s,
            Ok(false) => Step::Done(0),
            Ok(true) => match self.mem_atomic(
                me,
                addr,
                8,
                AtomicKind::Load,
                MemOrder::Acquire,
                MBAR_SCOPE,
                loc,
            ) {
                Step::Done(_) => Step::Done(1),
                s => s,
            },
        }
    }

    /// A blocking wait for the phase of `token` (or of parity `token`): a
    /// phase not yet complete is the current one. 2 when it returns at
    /// once; a lane that blocked reads 1 when it resumes and must then call
    /// [`mbar_returned`](Self::mbar_returned).
    pub fn mbar_wait(&mut self, me: u32, addr: usize, token: u64, parity: bool, loc: Loc) -> Step {
        match self.mbar_test(me, addr, token, parity, loc) {
            Step::Done(1) => Step::Done(2),
            Step::Done(0) => {
                let phase = self.mbar(me, addr).phase;
                self.lanes.block(me, Wait::Mbarrier { addr, phase }, loc);
                self.mbar(me, addr).waiters.push((me, phase));
                Step::Wait
            }
            s => s,
        }
    }

    /// A lane released by a phase completion runs again (its wait returns).
    pub fn mbar_returned(&mut self, me: u32, addr: usize) {
        let b = self.lanes[me as usize].block as usize;
        if let Some(m) = self.blocks[b].mbars.objects.get_mut(&addr) {
            m.returning = m.returning.saturating_sub(1);
        }
    }
}
