//! A cluster's state: where its blocks are, and its split barrier
//! (`barrier.cluster.arrive` / `wait`): the phase, who arrived, who waits.
//! The barrier's operations count and complete the phases and tell the
//! race sink of each sync point; the lanes' side (a lane's pending
//! arrival, a misuse, blocking and releasing lanes) is the unit's, in
//! `cluster`.

use crate::race::state::UnitSink;

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

    /// Lane `t`'s `barrier.cluster.arrive` in cluster slot `c` (a
    /// release): the phase it arrived in.
    pub fn arrive(&mut self, c: u32, t: u32, sink: &mut UnitSink) -> u64 {
        self.arrived += 1;
        self.not_arrived -= 1;
        sink.sync(|s| s.cluster_arrive(c, t));
        self.phase
    }

    /// Lane `t`'s `barrier.cluster.wait` after its arrival in phase
    /// `arrived_in`: true if that phase completed (the lane acquired it and
    /// goes on), else false (it waits, released by [`try_complete`](Self::try_complete)).
    pub fn wait(&mut self, c: u32, t: u32, arrived_in: u64, sink: &mut UnitSink) -> bool {
        if arrived_in < self.phase {
            sink.sync(|s| s.cluster_wait(c, t));
            true
        } else {
            self.waiters.push(t);
            false
        }
    }

    /// Completes the phase if every live thread arrived: its waiters, each
    /// of which acquired it, for the unit to release (and hand back,
    /// [`reuse`](Self::reuse)).
    pub fn try_complete(&mut self, c: u32, sink: &mut UnitSink) -> Option<Vec<u32>> {
        if self.not_arrived > 0 || self.arrived == 0 {
            return None;
        }
        self.phase += 1;
        self.arrived = 0;
        self.not_arrived = self.live;
        let waiters = std::mem::take(&mut self.waiters);
        sink.sync(|s| {
            s.cluster_complete(c);
            for &l in &waiters {
                s.cluster_wait(c, l);
            }
        });
        Some(waiters)
    }

    /// The released waiters' vector back, its allocation kept for the
    /// next phase.
    pub fn reuse(&mut self, mut waiters: Vec<u32>) {
        waiters.clear();
        self.waiters = waiters;
    }

    /// A thread of the cluster exited; `arrived_in` the phase of its
    /// pending arrival, if any. True if the phase may now complete (the
    /// thread had not arrived in it: it no longer holds it up).
    pub fn thread_exited(&mut self, arrived_in: Option<u64>) -> bool {
        self.live -= 1;
        if arrived_in == Some(self.phase) {
            return false;
        }
        self.not_arrived -= 1;
        true
    }
}
