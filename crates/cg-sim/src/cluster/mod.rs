//! Thread-block clusters: the split cluster barrier
//! (`barrier.cluster.arrive` / `wait`) over every non-exited thread of the
//! cluster, and distributed shared memory (`mapa`). The barrier's
//! operations are its state's (`state`), on the lanes and the race sink;
//! here the unit finds the cluster, counts, and reports misuse.

pub(crate) mod state;

use crate::shared::state::Which;
use crate::types::{Loc, Step};
use crate::unit::Core;

impl Core {
    /// The slot of lane `me`'s cluster.
    fn cluster_of(&self, me: u32) -> usize {
        self.blocks[self.lanes[me as usize].block as usize].cluster as usize
    }

    /// Lane `me` executes `barrier.cluster.arrive`.
    pub fn cluster_arrive(&mut self, me: u32, loc: Loc) -> Step {
        let c = self.cluster_of(me);
        if let Err(msg) = self.clusters[c].arrive(c as u32, me, &mut self.lanes, &mut self.race) {
            return self.misuse(me, loc, msg.into());
        }
        self.stats.lane_collectives += 1;
        self.try_complete_cluster(c);
        Step::Done(0)
    }

    /// Lane `me` executes `barrier.cluster.wait`.
    pub fn cluster_wait(&mut self, me: u32, loc: Loc) -> Step {
        let c = self.cluster_of(me);
        match self.clusters[c].wait(c as u32, me, loc, &mut self.lanes, &mut self.race) {
            Ok(step) => step,
            Err(msg) => self.misuse(me, loc, msg.into()),
        }
    }

    fn try_complete_cluster(&mut self, c: usize) {
        if self.clusters[c].try_complete(c as u32, &mut self.lanes, &mut self.race) {
            self.stats.collectives += 1;
        }
    }

    pub(crate) fn cluster_after_exit(&mut self, lane: u32) {
        let c = self.cluster_of(lane);
        if self.clusters[c].lane_exited(c as u32, lane, &mut self.lanes, &mut self.race) {
            self.stats.collectives += 1;
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
