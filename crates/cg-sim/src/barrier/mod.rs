//! Block barriers (`bar.sync` / `bar.arrive`, ids 0..15, sm_70+ semantics),
//! block-wide uniformity checks, and the grid barrier of cooperative launches.
//!
//! As in the PTX ISA, a barrier counts *warps*: a warp arrives once all its
//! non-exited lanes have executed `bar` on that id (in any branch), and a
//! count of `n` threads completes after `n / 32` warp arrivals. Without a
//! count, every warp that still has a live lane must arrive, so exited
//! threads do not block `__syncthreads()`.

pub(crate) mod state;

use self::state::{CheckEntry, CheckGroup};
use crate::SimError;
use crate::barrier::state::Barrier;
use crate::types::{BARRIERS_PER_BLOCK, BarCount, Loc, Step, Wait, bar_name};
use crate::unit::Core;

const NOT_COOPERATIVE: &str = "grid sync outside a cooperative launch: the grid is not guaranteed \
    to be co-resident, so grid.sync() is undefined (launch with `cooperative: true`)";

impl Core {
    /// A misuse if lane `me` is between a `barrier_arrive` and its
    /// `barrier_wait` on the block barrier: the group may perform no
    /// collective there (CUDA Programming Guide, `barrier_arrive`).
    fn split_pending(&mut self, me: u32, what: impl FnOnce() -> String, loc: Loc) -> Option<Step> {
        let at = self.lanes[me as usize].split_at?;
        let what = what();
        let msg = format!(
            "{what} between this thread's block.barrier_arrive() (at {}:{}) and its              block.barrier_wait(): the block may perform no collective operation between the two",
            at.file(),
            at.line()
        );
        Some(self.misuse(me, loc, msg))
    }

    /// `block.barrier_arrive()` of lane `me`: its release point for the
    /// next phase of barrier 0, waited for by [`bar_split_wait`](Self::bar_split_wait).
    pub fn bar_split_arrive(&mut self, me: u32, loc: Loc) -> Step {
        if let Some(step) = self.split_pending(me, || "a second block.barrier_arrive()".into(), loc)
        {
            return step;
        }
        self.lanes[me as usize].split_at = Some(loc);
        self.sync(|s| s.split_arrive(me));
        Step::Done(0)
    }

    /// `block.barrier_wait(token)` of lane `me`: `bar.sync 0`, whose release
    /// is the lane's `barrier_arrive`.
    pub fn bar_split_wait(&mut self, me: u32, loc: Loc) -> Step {
        if self.lanes[me as usize].split_at.take().is_none() {
            return self.misuse(
                me,
                loc,
                "block.barrier_wait() without a block.barrier_arrive() of this thread".into(),
            );
        }
        self.bar_arrive(me, 0, BarCount::All, true, loc)
    }

    /// Lane `me` executes `bar.sync` (`wait`) or `bar.arrive` on barrier `id`.
    pub fn bar_arrive(&mut self, me: u32, id: u32, count: BarCount, wait: bool, loc: Loc) -> Step {
        let (b, w, bit) = {
            let l = &self.lanes[me as usize];
            (l.block as usize, l.warp, 1u32 << l.lane_id)
        };
        let name = || bar_name(id, count, wait);
        if id == 0
            && let Some(step) = self.split_pending(me, || format!("`{}`", name()), loc)
        {
            return step;
        }
        if id >= BARRIERS_PER_BLOCK {
            return self.misuse(
                me,
                loc,
                format!(
                    "{}: barrier id {id} out of range (a block has barriers 0..15)",
                    name()
                ),
            );
        }
        let nwarps = self.blocks[b].nwarps;
        if let BarCount::Threads(n) = count {
            let cap = nwarps * 32;
            let why = if n == 0 {
                Some("a thread count must be non-zero".to_string())
            } else if n % 32 != 0 {
                Some("a thread count must be a multiple of the warp size (32)".to_string())
            } else if n > cap {
                Some(format!(
                    "the block has only {} threads ({nwarps} warps)",
                    self.blocks[b].nthreads
                ))
            } else {
                None
            };
            if let Some(why) = why {
                return self.misuse(
                    me,
                    loc,
                    format!("{}: invalid thread count {n}: {why}", name()),
                );
            }
        }
        let blk = &mut self.blocks[b];
        if blk.bars.is_empty() {
            blk.bars
                .resize_with(BARRIERS_PER_BLOCK as usize, Barrier::default);
        }
        let bar = &mut blk.bars[id as usize];
        if bar.warp_masks.is_empty() {
            bar.warp_masks.resize(nwarps as usize, 0);
        }
        match bar.phase {
            None => bar.phase = Some((count, loc)),
            Some((c, first)) if c != count => {
                let msg = format!(
                    "barrier {id}: threads disagree on its thread count in one phase: {} at {first}, {} here",
                    bar_name(id, c, true),
                    name()
                );
                return self.misuse(me, loc, msg);
            }
            Some(_) => {}
        }
        if wait {
            bar.waiters.push(me);
        }
        let wi = (w - blk.first_warp) as usize;
        bar.warp_masks[wi] |= bit;
        self.stats.lane_collectives += 1;
        if wait {
            self.lanes.block(me, Wait::Bar { id, count }, loc);
        }
        self.sync(|s| s.bar_arrive(b as u32, id, me));
        self.warp_arrival(b, w, id);
        // Most arrivals leave the phase short of warps: say so without the
        // completion's call (the phase's count is `count`, checked above).
        let blk = &self.blocks[b];
        let expected = match count {
            BarCount::All => blk.live_warps,
            BarCount::Threads(n) => n / 32,
        };
        let done = blk.bars[id as usize].warps_arrived >= expected
            && self.try_complete_bar(b, id, Some(me));
        match (wait, done) {
            (false, _) | (true, true) => Step::Done(0),
            (true, false) => Step::Wait,
        }
    }

    /// Counts warp `w`'s arrival at barrier `id` if all its live lanes arrived.
    #[inline]
    fn warp_arrival(&mut self, b: usize, w: u32, id: u32) {
        let live = self.lanes.warps[w as usize].live();
        let blk = &mut self.blocks[b];
        let bar = &mut blk.bars[id as usize];
        let wi = (w - blk.first_warp) as usize;
        let m = bar.warp_masks[wi];
        if m != 0 && m & live == live {
            bar.warp_masks[wi] = 0;
            bar.warps_arrived += 1;
        }
    }

    /// Completes barrier `id` of block `b` if enough warps arrived; `me` (the
    /// lane that caused it, if any) continues without suspending. Lanes of a
    /// warp that has only partly arrived stay blocked: their arrival carries
    /// over into the next phase.
    fn try_complete_bar(&mut self, b: usize, id: u32, me: Option<u32>) -> bool {
        let blk = &mut self.blocks[b];
        let first_warp = blk.first_warp;
        let bar = &mut blk.bars[id as usize];
        let Some((count, loc)) = bar.phase else {
            return false;
        };
        let expected = match count {
            BarCount::All => blk.live_warps,
            BarCount::Threads(n) => n / 32,
        };
        if bar.warps_arrived < expected {
            return false;
        }
        if !blk.checks.is_empty() {
            let masks = &bar.warp_masks;
            let arrived: Vec<u32> = bar
                .waiters
                .iter()
                .copied()
                .filter(|&l| masks[(self.lanes[l as usize].warp - first_warp) as usize] == 0)
                .collect();
            let at = me.or(arrived.first().copied());
            let name = || bar_name(id, count, true);
            let loc = at.map_or(loc, |l| self.lanes[l as usize].loc);
            if self
                .check_order(arrived.iter().copied(), me, &name, loc)
                .is_some()
            {
                return false;
            }
        }
        let blk = &mut self.blocks[b];
        let bar = &mut blk.bars[id as usize];
        bar.warps_arrived = 0;
        let carried = bar.warp_masks.iter().any(|&m| m != 0);
        bar.phase = carried.then_some((count, loc));
        let mut waiters = std::mem::take(&mut bar.waiters);
        self.stats.collectives += 1;
        let mut me_done = false;
        if !carried {
            // Every warp's arrival was counted (the usual case): every
            // waiter goes, with no per-waiter look at its warp.
            for &l in &waiters {
                me_done |= self.lanes.wake(l, me);
            }
            self.sync(|s| s.bar_complete(b as u32, id, &waiters, &[]));
            waiters.clear();
            self.blocks[b].bars[id as usize].waiters = waiters;
            return me_done;
        }
        let mut kept = Vec::new();
        for &l in &waiters {
            let wi = (self.lanes[l as usize].warp - first_warp) as usize;
            if self.blocks[b].bars[id as usize].warp_masks[wi] != 0 {
                kept.push(l);
            } else {
                me_done |= self.lanes.wake(l, me);
            }
        }
        self.sync(|s| {
            let released: Vec<u32> = waiters
                .iter()
                .copied()
                .filter(|l| !kept.contains(l))
                .collect();
            s.bar_complete(b as u32, id, &released, &kept)
        });
        if kept.is_empty() {
            waiters.clear();
            kept = waiters;
        }
        self.blocks[b].bars[id as usize].waiters = kept;
        me_done
    }

    /// A lane of warp `w` in block `b` exited: its warp may now have arrived
    /// at some barrier, and barrier 0 may need one warp fewer.
    pub(crate) fn barriers_after_exit(&mut self, b: u32, w: u32) {
        let b = b as usize;
        if self.blocks[b].bars.is_empty() {
            return;
        }
        for id in 0..BARRIERS_PER_BLOCK {
            if self.blocks[b].bars[id as usize].phase.is_some() {
                self.warp_arrival(b, w, id);
                self.try_complete_bar(b, id, None);
            }
        }
    }

    /// Lane `me` reaches a block-wide check that every live thread of the
    /// block arrives with the same `value` for `what`.
    ///
    /// The check does not hold the lane (it costs nothing on the GPU, so it
    /// must not order the lanes either): the lane's arrival is recorded as
    /// its `k`-th check and it runs on. Disagreeing values are reported once
    /// every live thread has arrived (the disagreeing lanes wait for that);
    /// a thread that meets, at a barrier or a warp collective, threads that
    /// made more checks than it did before that rendezvous is reported
    /// there ([`Core::check_order`]); a thread that exits without the check
    /// is harmless, as it is on the GPU.
    pub fn block_uniform(&mut self, me: u32, what: &'static str, value: u64, loc: Loc) -> Step {
        if let Some(step) =
            self.split_pending(me, || format!("a block-wide collective (`{what}`)"), loc)
        {
            return step;
        }
        let (b, k, linear) = {
            let l = &mut self.lanes[me as usize];
            l.checks += 1;
            (l.block as usize, l.checks - 1, l.linear)
        };
        self.stats.lane_collectives += 1;
        let live = self.blocks[b].live;
        let chk = &mut self.blocks[b].checks;
        let i = (k - chk.base) as usize;
        if i == chk.entries.len() {
            self.stats.collectives += 1;
            chk.entries.push_back(CheckEntry {
                groups: vec![CheckGroup {
                    what,
                    value,
                    loc,
                    threads: vec![linear],
                }],
                pending: live - 1,
                odd: None,
            });
        } else {
            let e = &mut chk.entries[i];
            e.pending -= 1;
            match e
                .groups
                .iter_mut()
                .find(|g| g.what == what && g.value == value)
            {
                Some(g) => g.threads.push(linear),
                None => {
                    e.groups.push(CheckGroup {
                        what,
                        value,
                        loc,
                        threads: vec![linear],
                    });
                    e.odd.get_or_insert(me);
                }
            }
        }
        if chk.entries[i].odd.is_some() {
            // Held until every live thread arrived, for a full report.
            self.lanes
                .block(me, Wait::BlockUniform { what, value }, loc);
            return self.settle_checks(b, Some(me)).unwrap_or(Step::Wait);
        }
        self.settle_checks(b, Some(me));
        Step::Done(0)
    }

    /// Drops the block's checks that every live thread has passed; reports
    /// the first one whose threads disagreed once all have arrived.
    fn settle_checks(&mut self, b: usize, me: Option<u32>) -> Option<Step> {
        loop {
            let chk = &mut self.blocks[b].checks;
            let e = chk.entries.front()?;
            if e.pending > 0 {
                return None;
            }
            if e.odd.is_some() {
                return Some(self.uniform_misuse(b, 0, me));
            }
            chk.entries.pop_front();
            chk.base += 1;
        }
    }

    /// The report for check `i` of block `b`, whose threads disagreed.
    pub(crate) fn uniform_misuse(&mut self, b: usize, i: usize, me: Option<u32>) -> Step {
        let e = &self.blocks[b].checks.entries[i];
        let odd = e.odd.expect("a disagreeing check");
        let (g0, g1) = (&e.groups[0], &e.groups[1]);
        let msg = if let Some(g) = e.groups.iter().find(|g| g.what != g0.what) {
            format!(
                "threads of one block reached different block-wide operations: thread {} at `{}` ({}), \
                 thread {} at `{}` ({})",
                g0.threads[0], g0.what, g0.loc, g.threads[0], g.what, g.loc
            )
        } else {
            let parts: Vec<String> = e
                .groups
                .iter()
                .map(|g| {
                    let mut ts = g.threads.clone();
                    ts.sort_unstable();
                    let r = crate::report::fmt_ranges(&crate::report::to_ranges(ts));
                    format!("threads {r} passed {}", g.value)
                })
                .collect();
            format!(
                "non-uniform argument `{}` across the block: {}",
                g0.what,
                parts.join("; ")
            )
        };
        let loc = g1.loc;
        self.misuse(me.unwrap_or(odd), loc, msg)
    }

    /// Lane `i` exited: it no longer owes the block's pending checks.
    pub(crate) fn checks_after_exit(&mut self, i: u32) {
        let (b, done) = {
            let l = &self.lanes[i as usize];
            (l.block as usize, l.checks)
        };
        let chk = &mut self.blocks[b].checks;
        let base = chk.base;
        for (j, e) in chk.entries.iter_mut().enumerate() {
            if base + j as u32 >= done {
                e.pending -= 1;
            }
        }
        self.settle_checks(b, None);
    }

    /// Lanes `lanes` meet at a rendezvous (`op` at `loc`): within a block,
    /// they must have made the same number of block-wide checks before it.
    /// Otherwise some threads passed a check (`tiled_partition`, …) and
    /// then synchronised with threads that skip it or make it later — the
    /// whole parent did not take part together: a misuse, reported at the
    /// check's line with the rendezvous named. `me` is the lane completing
    /// the rendezvous, if any.
    pub(crate) fn check_order(
        &mut self,
        lanes: impl Iterator<Item = u32> + Clone,
        me: Option<u32>,
        op: &dyn Fn() -> String,
        loc: Loc,
    ) -> Option<Step> {
        let mut seen: Vec<(u32, u32)> = Vec::new();
        let mut bad = None;
        for l in lanes.clone() {
            let lane = &self.lanes[l as usize];
            if self.blocks[lane.block as usize].checks.is_empty() {
                continue;
            }
            match seen.iter().find(|(b, _)| *b == lane.block) {
                None => seen.push((lane.block, lane.checks)),
                Some(&(_, c)) if c != lane.checks => {
                    bad = Some(lane.block);
                    break;
                }
                Some(_) => {}
            }
        }
        let b = bad?;
        let ours = lanes.filter(|&l| self.lanes[l as usize].block == b);
        let min = ours.clone().map(|l| self.lanes[l as usize].checks).min()?;
        let (mut behind, mut ahead): (Vec<u32>, Vec<u32>) = (Vec::new(), Vec::new());
        let mut first_behind = None;
        for l in ours {
            let lane = &self.lanes[l as usize];
            if lane.checks == min {
                behind.push(lane.linear);
                first_behind.get_or_insert(l);
            } else {
                ahead.push(lane.linear);
            }
        }
        behind.sort_unstable();
        ahead.sort_unstable();
        let chk = &self.blocks[b as usize].checks;
        let g = &chk.entries[(min - chk.base) as usize].groups[0];
        let msg = format!(
            "threads {} passed the block-wide `{}` at {} and then met threads {} at `{}` ({loc}), \
             which had not passed it: the whole block must take part in it before synchronising \
             again (on the GPU, a hang or undefined behaviour)",
            crate::report::fmt_ranges(&crate::report::to_ranges(ahead)),
            g.what,
            g.loc,
            crate::report::fmt_ranges(&crate::report::to_ranges(behind)),
            op(),
        );
        let check_loc = g.loc;
        let who = me.or(first_behind)?;
        Some(self.misuse(who, check_loc, msg))
    }

    /// Lane `me` reaches `grid.sync()`.
    pub fn grid_arrive(&mut self, me: u32, loc: Loc) -> Step {
        if !self.geom.cooperative {
            return self.misuse(me, loc, NOT_COOPERATIVE.to_string());
        }
        if let Some(step) = self.split_pending(me, || "grid.sync()".into(), loc) {
            return step;
        }
        if let Some(at) = self.lanes[me as usize].grid_split_at {
            let msg = format!(
                "grid.sync() between this thread's grid.barrier_arrive() (at {}:{}) and its \
                 grid.barrier_wait(): the grid may perform no collective operation between the two",
                at.file(),
                at.line()
            );
            return self.misuse(me, loc, msg);
        }
        self.grid_barrier(me, loc)
    }

    /// `grid.barrier_arrive()` of lane `me`: its release point for the next
    /// grid barrier, waited for by [`grid_split_wait`](Self::grid_split_wait).
    pub fn grid_split_arrive(&mut self, me: u32, loc: Loc) -> Step {
        if !self.geom.cooperative {
            return self.misuse(me, loc, NOT_COOPERATIVE.to_string());
        }
        if let Some(at) = self.lanes[me as usize].grid_split_at {
            let msg = format!(
                "a second grid.barrier_arrive() before the grid.barrier_wait() of the one at {}:{}",
                at.file(),
                at.line()
            );
            return self.misuse(me, loc, msg);
        }
        self.lanes[me as usize].grid_split_at = Some(loc);
        self.sync(|s| s.grid_split_arrive(me));
        Step::Done(0)
    }

    /// `grid.barrier_wait(token)` of lane `me`: the grid barrier, whose
    /// release is the lane's `grid.barrier_arrive()`.
    pub fn grid_split_wait(&mut self, me: u32, loc: Loc) -> Step {
        if self.lanes[me as usize].grid_split_at.take().is_none() {
            return self.misuse(
                me,
                loc,
                "grid.barrier_wait() without a grid.barrier_arrive() of this thread".into(),
            );
        }
        if let Some(step) = self.split_pending(me, || "grid.barrier_wait()".into(), loc) {
            return step;
        }
        self.grid_barrier(me, loc)
    }

    fn grid_barrier(&mut self, me: u32, loc: Loc) -> Step {
        let b = self.lanes[me as usize].block as usize;
        self.lanes.block(me, Wait::Grid, loc);
        self.stats.lane_collectives += 1;
        self.grid.waiters.push(me);
        self.sync(|s| s.grid_arrive(me));
        self.blocks[b].grid_waiting += 1;
        self.grid_block_arrival(b);
        if self.try_complete_grid(Some(me)) {
            Step::Done(0)
        } else {
            Step::Wait
        }
    }

    fn grid_block_arrival(&mut self, b: usize) {
        let blk = &mut self.blocks[b];
        if !blk.grid_arrived && blk.grid_waiting > 0 && blk.grid_waiting == blk.live {
            blk.grid_arrived = true;
            self.grid.blocks_arrived += 1;
        }
    }

    fn try_complete_grid(&mut self, me: Option<u32>) -> bool {
        // One cluster of a launch run in segments: its blocks are not the
        // grid. Its lanes wait until the launching thread has seen every
        // cluster's blocks arrive (`Core::grid_release`).
        if self.grid.blocks_arrived as usize != self.blocks.len() || self.coop.is_some() {
            return false;
        }
        self.stats.collectives += 1;
        self.grid.blocks_arrived = 0;
        self.grid.completed = self.grid.completed.wrapping_add(1);
        for blk in &mut self.blocks {
            blk.grid_waiting = 0;
            blk.grid_arrived = false;
        }
        if self.blocks.iter().any(|b| !b.checks.is_empty()) {
            let waiters = std::mem::take(&mut self.grid.waiters);
            let loc = self.lanes[waiters[0] as usize].loc;
            let bad = self
                .check_order(waiters.iter().copied(), me, &|| "grid sync".into(), loc)
                .is_some();
            self.grid.waiters = waiters;
            if bad {
                return false;
            }
        }
        let mut waiters = std::mem::take(&mut self.grid.waiters);
        self.sync(|s| s.grid_complete(&waiters));
        let mut me_done = false;
        for &l in &waiters {
            me_done |= self.lanes.wake(l, me);
        }
        waiters.clear();
        self.grid.waiters = waiters;
        me_done
    }

    /// Whether every block of this unit waits at the grid barrier (a block
    /// whose threads all exited never arrives).
    pub(crate) fn grid_all_arrived(&self) -> bool {
        self.blocks.iter().all(|b| b.grid_arrived)
    }

    /// One cluster of a cooperative launch run in segments: the grid
    /// barrier completed (every block of the grid arrived, which the
    /// launching thread saw, and it released the barrier in the launch's
    /// detector), so this cluster's waiters go on, queued in the order
    /// they arrived. What [`try_complete_grid`](Self::try_complete_grid)
    /// does for the one unit of the whole grid, with the same check that
    /// every block's threads made the same block-wide checks before the
    /// barrier; its misuse, if any, is the error.
    pub(crate) fn grid_release(&mut self) -> Result<(), SimError> {
        self.grid.blocks_arrived = 0;
        self.grid.completed = self.grid.completed.wrapping_add(1);
        for blk in &mut self.blocks {
            blk.grid_waiting = 0;
            blk.grid_arrived = false;
        }
        let mut waiters = std::mem::take(&mut self.grid.waiters);
        if self.blocks.iter().any(|b| !b.checks.is_empty()) {
            let loc = self.lanes[waiters[0] as usize].loc;
            if self
                .check_order(waiters.iter().copied(), None, &|| "grid sync".into(), loc)
                .is_some()
            {
                self.grid.waiters = waiters;
                return Err(self.error.take().expect("check_order reports a misuse"));
            }
        }
        for &l in &waiters {
            self.lanes.release(l, 0);
        }
        waiters.clear();
        self.grid.waiters = waiters;
        Ok(())
    }

    pub(crate) fn grid_after_exit(&mut self, b: u32) {
        if self.geom.cooperative && !self.grid.waiters.is_empty() {
            self.grid_block_arrival(b as usize);
            self.try_complete_grid(None);
        }
    }
}
