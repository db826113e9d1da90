//! The unit's lanes, warps and run queue, with the operations every
//! primitive uses to block, wake and release lanes: what a subsystem's
//! operation acts on, beside its own state and the race sink. Below the
//! subsystems' states (they may take it) and the unit that holds it.

use std::collections::VecDeque;
use std::ops::{Index, IndexMut};

#[cfg(not(all(target_arch = "x86_64", unix, not(feature = "coroutine-lanes"))))]
use corosensei::Yielder;

use crate::types::{LaneState, Loc, Wait, WarpKind};

pub(crate) struct Lane {
    pub tid: [u32; 3],
    /// Linear thread index inside the block.
    pub linear: u32,
    /// Block slot in the unit.
    pub block: u32,
    /// Warp index in the unit.
    pub warp: u32,
    pub lane_id: u32,
    pub state: LaneState,
    pub wait: Wait,
    pub loc: Loc,
    /// The value a completed rendezvous hands back.
    pub result: u64,
    /// Phase of this lane's pending `barrier.cluster.arrive`.
    pub cluster_pending: Option<u64>,
    /// Block-wide uniformity checks this lane has passed.
    pub checks: u32,
    /// Where this lane's `barrier_arrive` on the block barrier is, until its
    /// `barrier_wait`.
    pub split_at: Option<Loc>,
    /// The address of this lane's last plain global load, and how many
    /// loads of it came in a row (a spin on a plain load gives up its turn).
    pub last_load: usize,
    pub load_repeats: u32,
    /// Where this lane's `grid.barrier_arrive()` is, until its wait.
    pub grid_split_at: Option<Loc>,
    /// The coroutine's yielder, registered when the lane first runs.
    #[cfg(not(all(target_arch = "x86_64", unix, not(feature = "coroutine-lanes"))))]
    pub yielder: *const Yielder<(), ()>,
}

pub(crate) struct Warp {
    /// Unit lane index of lane 0.
    pub base: u32,
    pub block: u32,
    /// Lanes that exist (a block's last warp may be partial).
    pub existing: u32,
    pub exited: u32,
    /// Lanes blocked at a warp collective.
    pub waiting: u32,
    /// The lanes of `waiting` whose collective has the kind and mask
    /// `cur`: a lane completing a collective of that kind and mask needs
    /// only `need & !same == 0`, with no pass over its lanes' waits
    /// (lanes of one warp usually meet at one collective at a time).
    pub same: u32,
    /// The kind and mask of the collective `same` counts (stale while
    /// `same` is 0).
    pub cur: (WarpKind, u32),
    /// Each waiting lane's operands (`a`, and `shfl`'s `b` and `c`), by
    /// lane id, stored at its arrival so that the completing lane reads
    /// them from one place.
    pub vals: [u64; 32],
    pub bc: [(u32, u32); 32],
    /// Lanes blocked at `activemask`.
    pub am_waiting: u32,
}

impl Warp {
    pub fn live(&self) -> u32 {
        self.existing & !self.exited
    }
}

pub(crate) struct Lanes {
    /// Every lane of the unit, by unit lane index (`lanes[i]` indexes it).
    pub all: Vec<Lane>,
    pub warps: Vec<Warp>,
    /// Runnable lanes, in the deterministic order they will be resumed.
    pub queue: VecDeque<u32>,
    /// With [`SimDevice::spin_last`](crate::SimDevice::spin_last):
    /// spin-waiting lanes, resumed only when `queue` is empty.
    pub spinners: VecDeque<u32>,
    pub spin_last: bool,
    /// Warps with lanes waiting at `activemask`.
    pub am_warps: Vec<u32>,
    /// Non-exited lanes of the unit.
    pub live: u32,
}

impl Index<usize> for Lanes {
    type Output = Lane;
    #[inline]
    fn index(&self, i: usize) -> &Lane {
        &self.all[i]
    }
}

impl IndexMut<usize> for Lanes {
    #[inline]
    fn index_mut(&mut self, i: usize) -> &mut Lane {
        &mut self.all[i]
    }
}

impl Lanes {
    pub fn new(spin_last: bool) -> Lanes {
        Lanes {
            all: Vec::new(),
            warps: Vec::new(),
            queue: VecDeque::new(),
            spinners: VecDeque::new(),
            spin_last,
            am_warps: Vec::new(),
            live: 0,
        }
    }

    /// Marks `lane` runnable with `result` and queues it.
    pub fn release(&mut self, lane: u32, result: u64) {
        let l = &mut self.all[lane as usize];
        l.state = LaneState::Runnable;
        l.wait = Wait::None;
        l.result = result;
        self.queue.push_back(lane);
    }

    /// Records `me` as blocked on `wait` at `loc`.
    pub fn block(&mut self, me: u32, wait: Wait, loc: Loc) {
        let l = &mut self.all[me as usize];
        l.state = LaneState::Blocked;
        l.wait = wait;
        l.loc = loc;
    }

    /// Lets waiter `lane` of a completed rendezvous go: the lane that
    /// completed it (`me`) continues in place ([`Lanes::resume_self`]), any
    /// other is released with result 0. True if `lane` was `me`.
    pub fn wake(&mut self, lane: u32, me: Option<u32>) -> bool {
        if Some(lane) == me {
            self.resume_self(lane);
            true
        } else {
            self.release(lane, 0);
            false
        }
    }

    /// `me` completed a rendezvous itself: it continues without suspending.
    pub fn resume_self(&mut self, me: u32) {
        let l = &mut self.all[me as usize];
        l.state = LaneState::Runnable;
        l.wait = Wait::None;
    }
}
