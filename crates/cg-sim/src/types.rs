//! The vocabulary every layer of the simulator shares, and nothing else: a
//! call site, the operands of a warp collective, what a blocked lane waits
//! for, what a primitive tells its lane, and the names reports give them.
//! It sits at the bottom (it imports only `cg-isa`), so that the lanes, the
//! subsystems and the scheduler can all speak it without importing each
//! other.

use std::panic::Location;

use cg_isa::{ReduxOp, ShflMode};

/// A call site recorded by `#[track_caller]`.
pub(crate) type Loc = &'static Location<'static>;

/// The kind of a warp collective: lanes rendezvous only with lanes of the
/// same kind and mask.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum WarpKind {
    Shfl(ShflMode),
    Ballot,
    MatchAny,
    MatchAll,
    Redux(ReduxOp),
    Sync,
    Elect,
    Uniform(&'static str),
}

/// One lane's operands of a warp collective.
#[derive(Clone, Copy, Debug)]
pub(crate) struct WarpOp {
    pub kind: WarpKind,
    pub mask: u32,
    /// The lane's value (shuffled value, predicate, match key, …).
    pub a: u64,
    /// `shfl` operands `b` (low half) and `c` (high half), one word: the
    /// arrival copies them with one load, which must match one store of
    /// the caller's (a load spanning two narrower stores waits for them to
    /// reach the cache, a store-forwarding stall on every arrival).
    pub bc: u64,
}

impl WarpOp {
    /// A lane's operands; `b` and `c` are `shfl`'s.
    #[inline(always)]
    pub fn new(kind: WarpKind, mask: u32, a: u64, b: u32, c: u32) -> WarpOp {
        WarpOp {
            kind,
            mask,
            a,
            bc: (c as u64) << 32 | b as u64,
        }
    }
}

/// The collective a lane waits at: its kind and mask (the operands are in
/// the warp's `vals` and `bc`).
#[derive(Clone, Copy, Debug)]
pub(crate) struct WarpAt {
    pub kind: WarpKind,
    pub mask: u32,
}

/// The thread count of a block barrier.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum BarCount {
    /// Every non-exited thread (`bar.sync 0` without a count).
    All,
    /// A multiple of 32.
    Threads(u32),
}

/// What a blocked lane waits for.
#[derive(Clone, Copy, Debug)]
pub(crate) enum Wait {
    None,
    Warp(WarpAt),
    ActiveMask,
    Bar {
        id: u32,
        count: BarCount,
    },
    /// Held at a block-wide check whose threads disagree, until every
    /// live thread has reached it (then the misuse is reported).
    BlockUniform {
        what: &'static str,
        value: u64,
    },
    Cluster,
    Grid,
    /// Waiting for phase `phase` of the mbarrier at `addr` to complete.
    Mbarrier {
        addr: usize,
        phase: u64,
    },
    /// Runnable, but gave up its turn (`yield_now`).
    Spin,
    /// Stopped after a misuse report.
    Misuse,
    /// Stopped at a data race.
    Race,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum LaneState {
    Runnable,
    Blocked,
    Exited,
}

/// What a primitive tells its lane: continue with a value, or suspend and
/// read the value when resumed.
pub(crate) enum Step {
    Done(u64),
    Wait,
}

/// How a running lane gave the thread back to the scheduler.
pub(crate) enum Outcome {
    /// It blocked or spins: it is resumed later.
    Yield,
    /// Its kernel body returned.
    Return,
    /// Its kernel body panicked (or, at teardown, was unwound).
    Panic(Box<dyn std::any::Any + Send>),
}

/// What a strong operation does to its location.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum AtomicKind {
    /// A strong load.
    Load,
    /// A strong store.
    Store,
    /// An atomic read-modify-write (`atom`, `red`).
    Rmw,
}

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

/// Iterates the set bits of `m`, lowest first.
pub(crate) fn bits(mut m: u32) -> impl Iterator<Item = u32> + Clone {
    std::iter::from_fn(move || {
        (m != 0).then(|| {
            let b = m.trailing_zeros();
            m &= m - 1;
            b
        })
    })
}

/// The PTX-style name of a warp collective, for reports.
pub(crate) fn kind_name(kind: WarpKind) -> String {
    match kind {
        WarpKind::Shfl(m) => format!(
            "shfl.sync.{}",
            match m {
                ShflMode::Idx => "idx",
                ShflMode::Up => "up",
                ShflMode::Down => "down",
                ShflMode::Bfly => "bfly",
            }
        ),
        WarpKind::Ballot => "vote.sync.ballot".into(),
        WarpKind::MatchAny => "match.any.sync".into(),
        WarpKind::MatchAll => "match.all.sync".into(),
        WarpKind::Redux(op) => format!(
            "redux.sync.{}",
            match op {
                ReduxOp::Add => "add",
                ReduxOp::MinU => "min.u32",
                ReduxOp::MaxU => "max.u32",
                ReduxOp::MinS => "min.s32",
                ReduxOp::MaxS => "max.s32",
                ReduxOp::And => "and",
                ReduxOp::Or => "or",
                ReduxOp::Xor => "xor",
            }
        ),
        WarpKind::Sync => "bar.warp.sync".into(),
        WarpKind::Elect => "elect.sync".into(),
        WarpKind::Uniform(what) => format!("warp-uniform argument check of `{what}`"),
    }
}
