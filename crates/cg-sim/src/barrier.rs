//! Block barriers (`bar.sync` / `bar.arrive`, ids 0..15, sm_70+ semantics),
//! block-wide uniformity checks, and the grid barrier of cooperative launches.
//!
//! As in the PTX ISA, a barrier counts *warps*: a warp arrives once all its
//! non-exited lanes have executed `bar` on that id (in any branch), and a
//! count of `n` threads completes after `n / 32` warp arrivals. Without a
//! count, every warp that still has a live lane must arrive, so exited
//! threads do not block `__syncthreads()`.

use crate::state::{BarCount, Barrier, Core, Loc, Step, Wait};

/// Hardware barriers per block.
pub const BARRIERS_PER_BLOCK: u32 = 16;

/// `bar.sync 0` / `bar.sync id, n` / `bar.arrive id, n`, for reports.
pub(crate) fn bar_name(id: u32, count: BarCount, wait: bool) -> String {
    let op = if wait { "bar.sync" } else { "bar.arrive" };
    match count {
        BarCount::All => format!("{op} {id}"),
        BarCount::Threads(n) => format!("{op} {id}, {n}"),
    }
}

impl Core {
    /// Lane `me` executes `bar.sync` (`wait`) or `bar.arrive` on barrier `id`.
    pub fn bar_arrive(&mut self, me: u32, id: u32, count: BarCount, wait: bool, loc: Loc) -> Step {
        let (b, w, bit) = {
            let l = &self.lanes[me as usize];
            (l.block as usize, l.warp, 1u32 << l.lane_id)
        };
        let name = || bar_name(id, count, wait);
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
            self.block(me, Wait::Bar { id, count }, loc);
        }
        if let Some(r) = self.race.as_mut() {
            r.bar_arrive(b as u32, id, me);
        }
        self.warp_arrival(b, w, id);
        let done = self.try_complete_bar(b, id, Some(me));
        match (wait, done) {
            (false, _) | (true, true) => Step::Done(0),
            (true, false) => Step::Wait,
        }
    }

    /// Counts warp `w`'s arrival at barrier `id` if all its live lanes arrived.
    fn warp_arrival(&mut self, b: usize, w: u32, id: u32) {
        let live = self.warps[w as usize].live();
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
        bar.warps_arrived = 0;
        let carried = bar.warp_masks.iter().any(|&m| m != 0);
        bar.phase = carried.then_some((count, loc));
        let mut waiters = std::mem::take(&mut bar.waiters);
        self.stats.collectives += 1;
        let mut me_done = false;
        let mut kept = Vec::new();
        for &l in &waiters {
            let wi = (self.lanes[l as usize].warp - first_warp) as usize;
            if self.blocks[b].bars[id as usize].warp_masks[wi] != 0 {
                kept.push(l);
            } else if Some(l) == me {
                me_done = true;
                self.resume_self(l);
            } else {
                self.release(l, 0);
            }
        }
        if let Some(r) = self.race.as_mut() {
            let released: Vec<u32> = waiters
                .iter()
                .copied()
                .filter(|l| !kept.contains(l))
                .collect();
            r.bar_complete(b as u32, id, &released, &kept);
        }
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
    pub fn block_uniform(&mut self, me: u32, what: &'static str, value: u64, loc: Loc) -> Step {
        let b = self.lanes[me as usize].block as usize;
        self.block(me, Wait::BlockUniform { what, value }, loc);
        self.stats.lane_collectives += 1;
        self.blocks[b].uniform.push(me);
        if self.blocks[b].uniform.len() as u32 == self.blocks[b].live {
            return self.complete_uniform(b, Some(me));
        }
        Step::Wait
    }

    fn complete_uniform(&mut self, b: usize, me: Option<u32>) -> Step {
        let waiters = std::mem::take(&mut self.blocks[b].uniform);
        let val = |l: u32| match self.lanes[l as usize].wait {
            Wait::BlockUniform { what, value } => (what, value),
            _ => unreachable!("uniform waiter not waiting"),
        };
        let first = val(waiters[0]);
        if let Some(&odd) = waiters.iter().find(|&&l| val(l) != first) {
            let (l0, lo) = (&self.lanes[waiters[0] as usize], &self.lanes[odd as usize]);
            let msg = if first.0 != val(odd).0 {
                format!(
                    "threads of one block reached different block-wide operations: thread {} at `{}` ({}), \
                     thread {} at `{}` ({})",
                    l0.linear,
                    first.0,
                    l0.loc,
                    lo.linear,
                    val(odd).0,
                    lo.loc
                )
            } else {
                let mut groups: Vec<(u64, Vec<u32>)> = Vec::new();
                for &l in &waiters {
                    let (v, t) = (val(l).1, self.lanes[l as usize].linear);
                    match groups.iter_mut().find(|(x, _)| *x == v) {
                        Some((_, ts)) => ts.push(t),
                        None => groups.push((v, vec![t])),
                    }
                }
                let parts: Vec<String> = groups
                    .iter_mut()
                    .map(|(v, ts)| {
                        ts.sort_unstable();
                        let r = crate::report::fmt_ranges(&crate::report::to_ranges(
                            ts.iter().copied(),
                        ));
                        format!("threads {r} passed {v}")
                    })
                    .collect();
                format!(
                    "non-uniform argument `{}` across the block: {}",
                    first.0,
                    parts.join("; ")
                )
            };
            let (lane, loc) = (odd, self.lanes[odd as usize].loc);
            return self.misuse(me.unwrap_or(lane), loc, msg);
        }
        self.stats.collectives += 1;
        let mut me_done = false;
        for &l in &waiters {
            if Some(l) == me {
                me_done = true;
                self.resume_self(l);
            } else {
                self.release(l, 0);
            }
        }
        if me_done { Step::Done(0) } else { Step::Wait }
    }

    pub(crate) fn uniform_after_exit(&mut self, b: u32) {
        let b = b as usize;
        let blk = &self.blocks[b];
        if !blk.uniform.is_empty() && blk.uniform.len() as u32 == blk.live {
            self.complete_uniform(b, None);
        }
    }

    /// Lane `me` reaches `grid.sync()`.
    pub fn grid_arrive(&mut self, me: u32, loc: Loc) -> Step {
        if !self.geom.cooperative {
            let msg = "grid sync outside a cooperative launch: the grid is not guaranteed to be co-resident, \
                       so grid.sync() is undefined (launch with `cooperative: true`)"
                .to_string();
            return self.misuse(me, loc, msg);
        }
        let b = self.lanes[me as usize].block as usize;
        self.block(me, Wait::Grid, loc);
        self.stats.lane_collectives += 1;
        self.grid.waiters.push(me);
        if let Some(r) = self.race.as_mut() {
            r.grid_arrive(me);
        }
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
        if self.grid.blocks_arrived as usize != self.blocks.len() {
            return false;
        }
        self.stats.collectives += 1;
        self.grid.blocks_arrived = 0;
        self.grid.completed = self.grid.completed.wrapping_add(1);
        for blk in &mut self.blocks {
            blk.grid_waiting = 0;
            blk.grid_arrived = false;
        }
        let mut waiters = std::mem::take(&mut self.grid.waiters);
        if let Some(r) = self.race.as_mut() {
            r.grid_complete(&waiters);
        }
        let mut me_done = false;
        for &l in &waiters {
            if Some(l) == me {
                me_done = true;
                self.resume_self(l);
            } else {
                self.release(l, 0);
            }
        }
        waiters.clear();
        self.grid.waiters = waiters;
        me_done
    }

    pub(crate) fn grid_after_exit(&mut self, b: u32) {
        if self.geom.cooperative && !self.grid.waiters.is_empty() {
            self.grid_block_arrival(b as usize);
            self.try_complete_grid(None);
        }
    }
}
