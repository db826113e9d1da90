//! Thread-block clusters: the split cluster barrier
//! (`barrier.cluster.arrive` / `wait`) over every non-exited thread of the
//! cluster, and distributed shared memory (`mapa`). The barrier's phases
//! are its state's (`state`), told the race sink there; here are the
//! lanes' side of it and the misuses.

pub(crate) mod state;

use crate::shared::state::Which;
use crate::types::{Loc, Step, Wait};
use crate::unit::Core;

impl Core {
    /// Lane `me` executes `barrier.cluster.arrive`.
    pub fn cluster_arrive(&mut self, me: u32, loc: Loc) -> Step {
        let c = self.blocks[self.lanes[me as usize].block as usize].cluster as usize;
        if self.lanes[me as usize].cluster_pending.is_some() {
            let msg = "barrier.cluster.arrive twice without a barrier.cluster.wait in between"
                .to_string();
            return self.misuse(me, loc, msg);
        }
        let phase = self.clusters[c].arrive(c as u32, me, &mut self.race);
        self.lanes[me as usize].cluster_pending = Some(phase);
        self.stats.lane_collectives += 1;
        self.try_complete_cluster(c);
        Step::Done(0)
    }

    /// Lane `me` executes `barrier.cluster.wait`.
    pub fn cluster_wait(&mut self, me: u32, loc: Loc) -> Step {
        let c = self.blocks[self.lanes[me as usize].block as usize].cluster as usize;
        match self.lanes[me as usize].cluster_pending {
            None => {
                let msg =
                    "barrier.cluster.wait without a preceding barrier.cluster.arrive".to_string();
                self.misuse(me, loc, msg)
            }
            Some(p) => {
                if self.clusters[c].wait(c as u32, me, p, &mut self.race) {
                    self.lanes[me as usize].cluster_pending = None;
                    Step::Done(0)
                } else {
                    self.lanes.block(me, Wait::Cluster, loc);
                    Step::Wait
                }
            }
        }
    }

    /// Releases cluster `c`'s waiters if its barrier's phase completed.
    fn try_complete_cluster(&mut self, c: usize) {
        let Some(waiters) = self.clusters[c].try_complete(c as u32, &mut self.race) else {
            return;
        };
        self.stats.collectives += 1;
        for &l in &waiters {
            self.lanes[l as usize].cluster_pending = None;
            self.lanes.release(l, 0);
        }
        self.clusters[c].reuse(waiters);
    }

    pub(crate) fn cluster_after_exit(&mut self, lane: u32) {
        let l = &self.lanes[lane as usize];
        let c = self.blocks[l.block as usize].cluster as usize;
        if self.clusters[c].thread_exited(l.cluster_pending) {
            self.try_complete_cluster(c);
        }
    }

    /// `mapa`: the address at the same offset of the same shared variable in
    /// block `rank` of the caller's cluster.
    pub fn cluster_map(&mut self, me: u32, p: *mut u8, rank: u32, loc: Loc) -> Step {
        match self.cluster_map_addr(me, p, rank) {
            Ok(a) => Step::Done(a as u64),
            Err(msg) => self.misuse(me, loc, msg),
        }
    }

    /// The address [`cluster_map`](Self::cluster_map) maps `p` to, or the
    /// misuse's message.
    pub(crate) fn cluster_map_addr(
        &mut self,
        me: u32,
        p: *mut u8,
        rank: u32,
    ) -> Result<usize, String> {
        let b = self.lanes[me as usize].block as usize;
        let cl = &self.clusters[self.blocks[b].cluster as usize];
        let (first, n) = (cl.first_block as usize, cl.nblocks);
        if rank >= n {
            return Err(format!(
                "cluster map_shared_rank: rank {rank} out of range (the cluster has {n} blocks)"
            ));
        }
        // The caller's own block first, then the rest of its cluster (a
        // pointer already mapped to another block may be mapped again).
        let found = std::iter::once(b)
            .chain(first..first + n as usize)
            .find_map(|blk| self.blocks[blk].smem.locate(p));
        let Some((which, off)) = found else {
            return Err(format!(
                "cluster map_shared_rank: {p:p} is not an address in the shared memory of this block's cluster"
            ));
        };
        let target = (first + rank as usize) as u32;
        let base = match which {
            Which::Dynamic => Ok(self.blocks[target as usize].smem.dynamic().0),
            Which::Static { key, bytes, align } => self.static_buffer(target, key, bytes, align),
        }?;
        // `off` is less than the buffer's length (or 0), and the target
        // buffer has the same length.
        Ok(base.wrapping_add(off) as usize)
    }

    /// The block, of `me`'s cluster, whose shared memory holds `addr`
    /// (`me`'s own looked at first, the others only in a cluster of
    /// several): what DSMEM accesses, `getctarank` and mbarrier operations
    /// on other blocks' barriers resolve.
    pub(crate) fn cluster_block_of(&self, me: u32, addr: usize) -> Option<usize> {
        let b = self.lanes[me as usize].block as usize;
        if self.blocks[b].smem.locate(addr as *mut u8).is_some() {
            return Some(b);
        }
        let c = &self.clusters[self.blocks[b].cluster as usize];
        if c.nblocks <= 1 {
            return None;
        }
        (c.first_block..c.first_block + c.nblocks)
            .map(|p| p as usize)
            .find(|&p| self.blocks[p].smem.locate(addr as *mut u8).is_some())
    }

    /// `getctarank`: the rank, in the caller's cluster, of the block whose
    /// shared memory holds `p`.
    pub fn cluster_query_rank(&mut self, me: u32, p: *const u8, loc: Loc) -> Step {
        let b = self.lanes[me as usize].block as usize;
        let first = self.clusters[self.blocks[b].cluster as usize].first_block as usize;
        match self.cluster_block_of(me, p as usize) {
            Some(blk) => Step::Done((blk - first) as u64),
            None => {
                let msg = format!(
                    "cluster query_shared_rank: {p:p} is not an address in the shared memory of this block's cluster"
                );
                self.misuse(me, loc, msg)
            }
        }
    }
}
