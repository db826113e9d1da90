//! Asynchronous copies global → shared (`cp.async` and its commit groups),
//! as a lane sees them: a copy's bytes are read from the source when it is
//! issued, its destination is filled with [`POISON`](crate::POISON) at
//! once, and the bytes land only when the issuing lane waits for the copy's
//! commit group (`cp.async.wait_group N`). Until then the destination is
//! *in flight*: a checked access to it, a second copy into it, or the lane
//! exiting with copies it never waited for is a misuse, reported at the
//! source line of the access and of the copy.

pub(crate) mod state;

use self::state::Pending;
use crate::Dim3;
use crate::SimError;
use crate::report::Report;
use crate::shared::state::POISON;
use crate::types::{Loc, Step};
use crate::unit::Core;
use cg_isa::MemOrder;

impl Core {
    pub(crate) fn copy_owner(&self, lane: u32) -> String {
        let l = &self.lanes[lane as usize];
        format!("thread {}", Dim3::from(l.tid))
    }

    /// `cp.async` of `len` bytes from `src` to `dst` by lane `me`.
    ///
    /// # Safety
    /// `src` must be readable and `dst` writable for `len` bytes.
    pub unsafe fn async_copy(
        &mut self,
        me: u32,
        dst: *mut u8,
        src: *const u8,
        len: usize,
        loc: Loc,
    ) -> Step {
        let b = self.lanes[me as usize].block as usize;
        if let Some(c) = self.blocks[b].copies.overlapping(dst as usize, len) {
            let msg = format!(
                "memcpy_async into shared memory that an earlier memcpy_async ({}, at {}) is still \
                 copying: wait for it (wait / wait_prior) before reusing the buffer",
                self.copy_owner(c.lane),
                crate::SourceLocation::from(c.loc)
            );
            return self.misuse(me, loc, msg);
        }
        // SAFETY: forwarded from the caller.
        if !unsafe { self.start_copy(me, dst, src, len, loc, None) } {
            return Step::Wait;
        }
        let copies = &mut self.blocks[b].copies;
        copies.lanes.entry(me).or_default().open.push(dst as usize);
        Step::Done(0)
    }

    /// What every copy does at issue (`cp.async` with `bulk: None`, a bulk
    /// copy with its barrier and phase): the race detector's accesses, the
    /// source read now, the destination poisoned and in flight. `false`
    /// when a race stopped `me`.
    ///
    /// # Safety
    /// `src` must be readable and `dst` writable for `len` bytes.
    unsafe fn start_copy(
        &mut self,
        me: u32,
        dst: *mut u8,
        src: *const u8,
        len: usize,
        loc: Loc,
        bulk: Option<(usize, u64)>,
    ) -> bool {
        if !self.copy_access(me, dst as usize, src as usize, len, loc) {
            return false;
        }
        // SAFETY: the caller guarantees `src` readable for `len` bytes.
        let data = unsafe { self.read_source(src, len) };
        // SAFETY: `dst` writable for `len` bytes (the caller's contract).
        unsafe { self.pend(me, dst, src as usize, data, loc, bulk) };
        true
    }

    /// A copy's source: `len` bytes of global memory at `src`, read now.
    ///
    /// # Safety
    /// `src` must be readable for `len` bytes.
    unsafe fn read_source(&self, src: *const u8, len: usize) -> Vec<u8> {
        let mut data = vec![0u8; len];
        // SAFETY: the caller's contract; `data` has `len` bytes.
        unsafe { self.read_global(src, &mut data) };
        data
    }

    /// Why a copy of `len` bytes may not land at `dst` in block `b` (`into`
    /// names the memory: this block's, or a rank's of the cluster): an
    /// earlier copy still fills some of it, or a tile store still reads
    /// it. `None` when it is free.
    fn copy_dest_busy(
        &self,
        b: usize,
        dst: usize,
        len: usize,
        what: &str,
        into: &str,
    ) -> Option<String> {
        if let Some(c) = self.blocks[b].copies.overlapping(dst, len) {
            return Some(format!(
                "{what} into {into} that an earlier copy ({}, at {}) is still filling: wait for \
                 its phase (or its memcpy_async) before reusing the buffer",
                self.copy_owner(c.lane),
                crate::SourceLocation::from(c.loc)
            ));
        }
        self.reading_overlap(b, dst, len).map(|r| {
            format!(
                "{what} into {into} that a tile store ({}, at {}) is still reading: wait for the \
                 store's reads first",
                self.copy_owner(r.lane),
                crate::SourceLocation::from(r.loc)
            )
        })
    }

    /// A copy's destination poisoned and in flight, its bytes `data`
    /// (read from `src`) to land later.
    ///
    /// # Safety
    /// `dst` must be writable for `data.len()` bytes.
    unsafe fn pend(
        &mut self,
        me: u32,
        dst: *mut u8,
        src: usize,
        data: Vec<u8>,
        loc: Loc,
        bulk: Option<(usize, u64)>,
    ) {
        let len = data.len();
        // SAFETY: the caller's contract.
        unsafe { dst.write_bytes(POISON, len) };
        // A multicast copy's destination may be another block's.
        let b = self.smem_block(me, dst as usize);
        self.blocks[b].copies.pending.insert(
            dst as usize,
            Pending {
                end: dst as usize + len,
                lane: me,
                src,
                data,
                loc,
                bulk,
            },
        );
    }

    /// What every copy that completes on an mbarrier does (`cp.async.bulk`
    /// and the tensor tile loads, `what` naming it in reports): checks that
    /// `dst` (`len` bytes) is free — no copy still filling it, no tile store
    /// still reading it —, counts the bytes on the barrier's phase, lets
    /// `fill` record the copy's accesses for the race detector and read its
    /// bytes (`None`: a race stopped `me`), puts them in flight, completes
    /// the bytes and arrives once expecting them.
    ///
    /// # Safety
    /// `dst` must be writable for `len` bytes.
    pub(crate) unsafe fn bulk_arrive(
        &mut self,
        me: u32,
        dst: *mut u8,
        len: usize,
        (bar, loc): (usize, Loc),
        what: &str,
        fill: impl FnOnce(&mut Core) -> Option<(usize, Vec<u8>)>,
    ) -> Step {
        let b = self.lanes[me as usize].block as usize;
        let Some(phase) = self.mbar_phase(me, bar) else {
            // The arrival reports the missing barrier.
            return self.mbar_arrive(me, bar, 1, 0, false, loc);
        };
        if let Some(msg) = self.copy_dest_busy(b, dst as usize, len, what, "shared memory") {
            return self.misuse(me, loc, msg);
        }
        if let Err(s) = self.mbar_bulk(me, bar, len, loc) {
            return s;
        }
        let Some((src, data)) = fill(self) else {
            return Step::Wait;
        };
        debug_assert_eq!(data.len(), len);
        // SAFETY: forwarded from the caller.
        unsafe { self.pend(me, dst, src, data, loc, Some((bar, phase))) };
        // The copy's bytes complete first (the count may dip below zero
        // until the expecting arrival), so that the arrival's release
        // follows the copy's accesses.
        if let s @ Step::Wait = self.mbar_tx(me, bar, -(len as i64), loc) {
            return s;
        }
        self.mbar_arrive(me, bar, 1, len as u32, false, loc)
    }

    /// What every multicast copy does (`.multicast::cluster`: a bulk copy
    /// and the tensor tile loads, `what` naming it): the same bytes land at
    /// `dst`'s offset in each block of `me`'s cluster whose rank is in
    /// `mask`, each completing them on the mbarrier at `bar`'s offset in
    /// that block, with no arrival. Each destination is checked as
    /// [`bulk_arrive`](Self::bulk_arrive) checks one, and its barrier must
    /// be initialised. `fill` records the copy's accesses for the race
    /// detector (its source once, every destination) and reads the bytes;
    /// each completion is a release by `me` on that block's barrier, which
    /// orders the copy before the phase's waiters.
    ///
    /// # Safety
    /// `dst` must be writable for `len` bytes (so is the same offset in
    /// every block of the cluster).
    pub(crate) unsafe fn bulk_multicast(
        &mut self,
        me: u32,
        dst: *mut u8,
        len: usize,
        (bar, mask, loc): (usize, u16, Loc),
        what: &str,
        fill: impl FnOnce(&mut Core, &[usize]) -> Option<(usize, Vec<u8>)>,
    ) -> Step {
        let b = self.lanes[me as usize].block as usize;
        let n = self.clusters[self.blocks[b].cluster as usize].nblocks;
        if mask == 0 || u32::from(mask) >> n != 0 {
            let msg = format!(
                "{what} multicast to blocks {mask:#06x}: the mask must name blocks of the cluster \
                 (ranks below {n}), at least one"
            );
            return self.misuse(me, loc, msg);
        }
        let mut targets = Vec::new();
        for rank in (0..n).filter(|r| mask >> r & 1 != 0) {
            let (d, m) = match (
                self.cluster_map(me, dst, rank, loc),
                self.cluster_map(me, bar as *mut u8, rank, loc),
            ) {
                (Step::Done(d), Step::Done(m)) => (d as usize, m as usize),
                (Step::Done(_), s) | (s, _) => return s,
            };
            let tb = self.smem_block(me, d);
            let Some(phase) = self.blocks[tb].mbars.objects_phase(m) else {
                let msg = format!(
                    "{what} multicast into block rank {rank}, whose mbarrier at the same offset \
                     is not initialised (initialise it and sync the cluster before the copy; PTX: \
                     undefined behaviour)"
                );
                return self.misuse(me, loc, msg);
            };
            let into = format!("block rank {rank}'s shared memory");
            if let Some(msg) = self.copy_dest_busy(tb, d, len, &format!("{what} multicast"), &into)
            {
                return self.misuse(me, loc, msg);
            }
            targets.push((d, m, phase));
        }
        for &(_, m, _) in &targets {
            if let Err(s) = self.mbar_bulk(me, m, len, loc) {
                return s;
            }
        }
        let dsts: Vec<usize> = targets.iter().map(|t| t.0).collect();
        let Some((src, data)) = fill(self, &dsts) else {
            return Step::Wait;
        };
        debug_assert_eq!(data.len(), len);
        for &(d, m, phase) in &targets {
            // SAFETY: the same offset as `dst` in a block of the cluster,
            // writable by the caller's contract.
            unsafe { self.pend(me, d as *mut u8, src, data.clone(), loc, Some((m, phase))) };
        }
        for &(_, m, _) in &targets {
            if let s @ Step::Wait =
                self.mbar_tx_ordered(me, m, -(len as i64), MemOrder::Release, loc)
            {
                return s;
            }
        }
        Step::Done(0)
    }

    /// `cp.async.bulk…multicast::cluster` of `len` bytes from global `src`
    /// into `dst`'s offset in the blocks of `mask`, by lane `me`, each
    /// completing on the mbarrier at `bar`'s offset there (no arrival).
    ///
    /// # Safety
    /// `src` must be readable and `dst` writable for `len` bytes.
    #[allow(clippy::too_many_arguments)]
    pub unsafe fn bulk_copy_multicast(
        &mut self,
        me: u32,
        dst: *mut u8,
        src: *const u8,
        len: usize,
        bar: usize,
        mask: u16,
        loc: Loc,
    ) -> Step {
        let fill = |c: &mut Core, dsts: &[usize]| {
            for &d in dsts {
                if !c.copy_access(me, d, src as usize, len, loc) {
                    return None;
                }
            }
            // SAFETY: `src` is readable for `len` bytes (the caller's
            // contract).
            Some((src as usize, unsafe { c.read_source(src, len) }))
        };
        // SAFETY: forwarded from the caller.
        unsafe { self.bulk_multicast(me, dst, len, (bar, mask, loc), "bulk copy", fill) }
    }

    /// `cp.async.commit_group` by lane `me`: its open copies become a group.
    pub fn async_commit(&mut self, me: u32) -> Step {
        let b = self.lanes[me as usize].block as usize;
        let lc = self.blocks[b].copies.lanes.entry(me).or_default();
        let open = std::mem::take(&mut lc.open);
        lc.groups.push_back(open);
        Step::Done(0)
    }

    /// `cp.async.wait_group n` by lane `me`: every committed group but the
    /// newest `n` lands in shared memory.
    pub fn async_wait(&mut self, me: u32, n: u32) -> Step {
        let b = self.lanes[me as usize].block as usize;
        let copies = &mut self.blocks[b].copies;
        let Some(lc) = copies.lanes.get_mut(&me) else {
            return Step::Done(0);
        };
        let mut landed = Vec::new();
        while lc.groups.len() > n as usize {
            let group = lc.groups.pop_front().expect("len > n >= 0");
            for start in group {
                let c = copies
                    .pending
                    .remove(&start)
                    .expect("a lane's group names its copies in flight");
                // SAFETY: `start` was writable for `data.len()` bytes at
                // issue (the caller's contract), and shared buffers live
                // as long as their block.
                unsafe {
                    std::ptr::copy_nonoverlapping(c.data.as_ptr(), start as *mut u8, c.data.len())
                };
                landed.push((start, c.src, c.data.len(), c.loc));
            }
        }
        for (dst, src, len, loc) in landed {
            if !self.copy_access(me, dst, src, len, loc) {
                return Step::Wait;
            }
        }
        Step::Done(0)
    }

    /// A checked access (`what`: "reads" or "writes") of `len` shared bytes
    /// at `p` by lane `me`: a misuse if a copy in flight covers any of them.
    pub fn async_check_access(
        &mut self,
        me: u32,
        p: *const u8,
        len: usize,
        what: &str,
        loc: Loc,
    ) -> Step {
        let b = self.lanes[me as usize].block as usize;
        let copies = &self.blocks[b].copies;
        if copies.pending.is_empty() {
            if copies.reading.is_empty() || what != "writes" {
                return Step::Done(0);
            }
            return self.store_check_write(me, p as usize, len, loc);
        }
        if what == "writes"
            && !copies.reading.is_empty()
            && let s @ Step::Wait = self.store_check_write(me, p as usize, len, loc)
        {
            return s;
        }
        let copies = &self.blocks[b].copies;
        match copies.overlapping(p as usize, len) {
            None => Step::Done(0),
            Some(c) => {
                let who = if c.lane == me {
                    "this thread".to_string()
                } else {
                    self.copy_owner(c.lane)
                };
                let msg = if c.bulk.is_some() {
                    format!(
                        "{what} shared memory that a bulk copy ({who}, at {}) is still filling: \
                         its data is visible only after its mbarrier phase completes (wait on \
                         the phase first)",
                        crate::SourceLocation::from(c.loc)
                    )
                } else {
                    format!(
                        "{what} shared memory that memcpy_async ({who}, at {}) is still copying: \
                         asynchronously copied data is visible only after the copying thread's \
                         wait / wait_prior",
                        crate::SourceLocation::from(c.loc)
                    )
                };
                self.misuse(me, loc, msg)
            }
        }
    }

    /// `cp.async.bulk` of `len` bytes from global `src` to shared `dst` by
    /// lane `me`, completing its bytes on the mbarrier at `bar` (then
    /// one arrival on it): the source is read now, the destination is
    /// poisoned and in flight until the barrier's current phase completes,
    /// when the bytes land. For the race detector the copy is a weak read
    /// of the source and a weak write of the destination by `me`, ordered
    /// before `me`'s arrival (a release), so the phase's waiters see it.
    ///
    /// # Safety
    /// `src` must be readable and `dst` writable for `len` bytes.
    pub unsafe fn bulk_copy(
        &mut self,
        me: u32,
        dst: *mut u8,
        src: *const u8,
        len: usize,
        bar: usize,
        loc: Loc,
    ) -> Step {
        let fill = |c: &mut Core| {
            if !c.copy_access(me, dst as usize, src as usize, len, loc) {
                return None;
            }
            // SAFETY: `src` is readable for `len` bytes (the caller's
            // contract).
            Some((src as usize, unsafe { c.read_source(src, len) }))
        };
        // SAFETY: forwarded from the caller.
        unsafe { self.bulk_arrive(me, dst, len, (bar, loc), "bulk copy", fill) }
    }

    /// The mbarrier at `bar` (in lane `me`'s cluster) completed phase
    /// `phase`: the bulk copies waiting for it land.
    pub(crate) fn bulk_land(&mut self, me: u32, bar: usize, phase: u64) {
        let b = self.smem_block(me, bar);
        let copies = &mut self.blocks[b].copies;
        if copies.pending.is_empty() {
            return;
        }
        let done: Vec<usize> = copies
            .pending
            .iter()
            .filter(|(_, c)| c.bulk == Some((bar, phase)))
            .map(|(&start, _)| start)
            .collect();
        for start in done {
            let c = copies.pending.remove(&start).expect("listed above");
            // SAFETY: `start` was writable for `data.len()` bytes at issue
            // (the caller's contract), and shared buffers live as long as
            // their block.
            unsafe {
                std::ptr::copy_nonoverlapping(c.data.as_ptr(), start as *mut u8, c.data.len())
            };
        }
    }

    /// Lane `i` exited: copies it never waited for are a misuse (reported
    /// at the copy's line), unless another report came first.
    pub fn async_after_exit(&mut self, i: u32) {
        let b = self.lanes[i as usize].block as usize;
        let copies = &mut self.blocks[b].copies;
        let Some(lc) = copies.lanes.remove(&i) else {
            return;
        };
        let first = lc.groups.iter().flatten().chain(&lc.open).next().copied();
        let Some(start) = first else {
            return;
        };
        let loc = copies.pending[&start].loc;
        for s in lc.groups.iter().flatten().chain(&lc.open) {
            copies.pending.remove(s);
        }
        if self.error.is_none() {
            let l = &self.lanes[i as usize];
            let summary = format!(
                "thread exited with memcpy_async copies it never waited for (every member of the \
                 group must call wait or wait_prior) (block {} thread {})",
                Dim3::from(self.blocks[b].idx),
                Dim3::from(l.tid)
            );
            self.error = Some(SimError::Misuse(Report {
                summary,
                location: Some(loc.into()),
                blocked: self.blocked_groups(),
                notes: Vec::new(),
                accesses: None,
            }));
        }
    }
}
