//! A cluster's state: where its blocks are, and its split barrier
//! (`barrier.cluster.arrive` / `wait`): the phase, who arrived, who waits.
//! The barrier's operations act on the lanes (a lane's pending arrival,
//! blocking and releasing it) and tell the race sink of each sync point;
//! the unit (`cluster`) only finds the cluster, counts and reports misuse.

use crate::lanes::Lanes;
use crate::race::state::UnitSink;
use crate::types::{Loc, Step, Wait};

pub(crate) struct Cluster {
    pub first_block: u32,
    pub nblocks: u32,
    /// Non-exited threads of the cluster.
    pub live: u32,
    pub phase: u64,
    pub arrived: u32,
    pub not_arrived: u32,
    pub waiters: Vec<u32>,
}

impl Cluster {
    /// A cluster of `nblocks` blocks from slot `first_block`, of `threads`
    /// threads in all, before its barrier's first phase.
    pub fn new(first_block: u32, nblocks: u32, threads: u32) -> Cluster {
        Cluster {
            first_block,
            nblocks,
            live: threads,
            phase: 0,
            arrived: 0,
            not_arrived: threads,
            waiters: Vec::new(),
        }
    }

    /// Lane `me`'s `barrier.cluster.arrive` in cluster slot `c` (a
    /// release), or the misuse's message.
    pub fn arrive(
        &mut self,
        c: u32,
        me: u32,
        lanes: &mut Lanes,
        sink: &mut UnitSink,
    ) -> Result<(), &'static str> {
        let pending = &mut lanes[me as usize].cluster_pending;
        if pending.is_some() {
            return Err("barrier.cluster.arrive twice without a barrier.cluster.wait in between");
        }
        *pending = Some(self.phase);
        self.arrived += 1;
        self.not_arrived -= 1;
        sink.sync(|s| s.cluster_arrive(c, me));
        Ok(())
    }

    /// Lane `me`'s `barrier.cluster.wait` at `loc`: it goes on if the phase
    /// of its arrival completed (acquiring it), else waits for
    /// [`try_complete`](Self::try_complete); or the misuse's message.
    pub fn wait(
        &mut self,
        c: u32,
        me: u32,
        loc: Loc,
        lanes: &mut Lanes,
        sink: &mut UnitSink,
    ) -> Result<Step, &'static str> {
        match lanes[me as usize].cluster_pending {
            None => Err("barrier.cluster.wait without a preceding barrier.cluster.arrive"),
            Some(p) if p < self.phase => {
                lanes[me as usize].cluster_pending = None;
                sink.sync(|s| s.cluster_wait(c, me));
                Ok(Step::Done(0))
            }
            Some(_) => {
                lanes.block(me, Wait::Cluster, loc);
                self.waiters.push(me);
                Ok(Step::Wait)
            }
        }
    }

    /// Completes the phase if every live thread arrived, releasing its
    /// waiters (each acquires it). True if it completed.
    pub fn try_complete(&mut self, c: u32, lanes: &mut Lanes, sink: &mut UnitSink) -> bool {
        if self.not_arrived > 0 || self.arrived == 0 {
            return false;
        }
        self.phase += 1;
        self.arrived = 0;
        self.not_arrived = self.live;
        let mut waiters = std::mem::take(&mut self.waiters);
        sink.sync(|s| {
            s.cluster_complete(c);
            for &l in &waiters {
                s.cluster_wait(c, l);
            }
        });
        for &l in &waiters {
            lanes[l as usize].cluster_pending = None;
            lanes.release(l, 0);
        }
        // The vector's allocation kept for the next phase.
        waiters.clear();
        self.waiters = waiters;
        true
    }

    /// The after-exit hook: lane `lane` of the cluster exited. If it had not
    /// arrived in the current phase it no longer holds it up, which may
    /// complete it; true if it did.
    pub fn lane_exited(
        &mut self,
        c: u32,
        lane: u32,
        lanes: &mut Lanes,
        sink: &mut UnitSink,
    ) -> bool {
        self.live -= 1;
        if lanes[lane as usize].cluster_pending == Some(self.phase) {
            return false;
        }
        self.not_arrived -= 1;
        self.try_complete(c, lanes, sink)
    }
}
