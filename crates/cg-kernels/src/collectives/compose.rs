//! Collectives back to back: each launch runs a sequence of [`STEPS`]
//! collectives on one group, with no `sync` between them, and each thread
//! writes every step's result. A collective that leaves a lane still
//! reading the library's scratch while another lane of the same group
//! already stores the next collective's value there shows up as a wrong
//! result on the simulator (its lanes are not in lockstep) and as a race in
//! `compute-sanitizer --tool racecheck` on the GPU.
//!
//! Kinds: [`Kind::Tile`](super::Kind) (every size), `Dynamic`, `Coalesced`
//! and `Block` ([`COMPOSE_KINDS`]); operators as the collective kernels
//! test them ([`Coverage`]). [`model::check_composed`](super::model)
//! predicts the output from the collective kernels' model.

use cooperative_groups::ops::{Greater, Less, Plus};
use cooperative_groups::{
    ReduceOp, Size, ThreadBlockTile, ThreadGroup, TileSize, coalesced_threads, exclusive_scan,
    inclusive_scan, invoke_one_broadcast, kernel, reduce, this_thread_block, tiled_partition,
    tiled_partition_dyn,
};

use super::kernels::{Coverage, Elem};
use super::{Kind, Params};

/// Collectives per composed launch.
pub const STEPS: usize = 4;

/// A composed launch's sequence of [`Step`] numbers.
pub type Seq = [u32; STEPS];

/// The group kinds the composed kernels run.
pub const COMPOSE_KINDS: [Kind; 4] = [Kind::Tile, Kind::Dynamic, Kind::Coalesced, Kind::Block];

/// One collective of a sequence.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(u32)]
pub enum Step {
    /// `reduce(g, v, op)`.
    Reduce = 0,
    /// `inclusive_scan(g, v, op)`.
    InclusiveScan = 1,
    /// `exclusive_scan(g, v, op)`.
    ExclusiveScan = 2,
    /// `g.shfl(v, src)` with the collective kernels' source (not on the block).
    Shfl = 3,
    /// `g.any(pred)` (not on the block).
    Any = 4,
    /// `g.all(pred)` (not on the block).
    All = 5,
    /// `invoke_one_broadcast(g, || v)`.
    Broadcast = 6,
    /// Nothing (the thread writes nothing for this step).
    Nothing = 7,
}

impl Step {
    /// Every step that runs a collective.
    pub const COLLECTIVES: [Step; 7] = [
        Step::Reduce,
        Step::InclusiveScan,
        Step::ExclusiveScan,
        Step::Shfl,
        Step::Any,
        Step::All,
        Step::Broadcast,
    ];

    /// The step with this number.
    pub fn from_u32(s: u32) -> Option<Step> {
        Step::COLLECTIVES
            .get(s as usize)
            .copied()
            .or((s == Step::Nothing as u32).then_some(Step::Nothing))
    }
}

/// The argument tuple of a composed kernel over `T`: parameters, the
/// sequence, values, predicates, result rows ([`STEPS`] words per thread).
pub type ComposeArgs<T> = (*const Params, *const Seq, *const T, *const u32, *mut u64);

/// An element type of the composed kernels: `Plus`, `Less` and `Greater`
/// exist for every [`Elem`].
pub trait ComposeElem: Elem {
    /// `reduce` (`which == Step::Reduce`), `inclusive_scan` or
    /// `exclusive_scan` under `Op`.
    #[inline(always)]
    fn scan_with<G: ThreadGroup, Op: ReduceOp<Self>>(g: &G, v: Self, op: Op, which: Step) -> Self {
        match which {
            Step::Reduce => reduce(g, v, op),
            Step::InclusiveScan => inclusive_scan(g, v, op),
            _ => exclusive_scan(g, v, op),
        }
    }
    /// [`scan_with`](Self::scan_with) under operator number `op` (`Plus`,
    /// `Less`, `Greater`).
    fn scan_op<G: ThreadGroup>(g: &G, v: Self, op: u32, which: Step) -> Option<Self>;
}

macro_rules! compose_elem {
    ($($t:ty),*) => { $(
        impl ComposeElem for $t {
            #[inline(always)]
            fn scan_op<G: ThreadGroup>(g: &G, v: Self, op: u32, which: Step) -> Option<Self> {
                Some(match op {
                    0 => Self::scan_with(g, v, Plus, which),
                    1 => Self::scan_with(g, v, Less, which),
                    2 => Self::scan_with(g, v, Greater, which),
                    _ => return None,
                })
            }
        }
    )* };
}
compose_elem!(u32, u64, f32);

/// A group the composed kernels run: the shuffle source and the lane-level
/// steps it has (the block has none of `shfl`, `any`, `all`).
trait Composable: Coverage {
    /// `shfl`, `any` or `all` (`step`), or `None` where the group lacks it.
    fn lane_step<T: Elem>(&self, step: Step, p: &Params, v: T, pred: bool) -> Option<u64>;
}

/// The lane-level steps of a group with `shfl`, `any` and `all`; `src` is
/// the `shfl` source.
macro_rules! lane_steps {
    ($g:expr, $step:expr, $v:expr, $pred:expr, $src:expr) => {
        match $step {
            Step::Shfl => Some($g.shfl($v, $src).bits()),
            Step::Any => Some($g.any($pred) as u64),
            Step::All => Some($g.all($pred) as u64),
            _ => None,
        }
    };
}

/// The `shfl` source of a group within a warp, as the collective kernels
/// pick it (a different rank per thread, beyond the group for some).
#[inline(always)]
fn warp_src<G: ThreadGroup>(g: &G, p: &Params) -> u32 {
    (5 * g.thread_rank() + p.src) % 64
}

impl<const N: u32> Composable for ThreadBlockTile<N>
where
    Size<N>: TileSize,
{
    #[inline(always)]
    fn lane_step<T: Elem>(&self, step: Step, p: &Params, v: T, pred: bool) -> Option<u64> {
        // A multi-warp tile's source must be uniform.
        let src = if N <= 32 { warp_src(self, p) } else { p.src };
        lane_steps!(self, step, v, pred, src)
    }
}

impl Composable for cooperative_groups::DynamicTile {
    #[inline(always)]
    fn lane_step<T: Elem>(&self, step: Step, p: &Params, v: T, pred: bool) -> Option<u64> {
        lane_steps!(self, step, v, pred, warp_src(self, p))
    }
}

impl Composable for cooperative_groups::CoalescedGroup {
    #[inline(always)]
    fn lane_step<T: Elem>(&self, step: Step, p: &Params, v: T, pred: bool) -> Option<u64> {
        lane_steps!(self, step, v, pred, warp_src(self, p))
    }
}

impl<const M: u32> Composable for cooperative_groups::ThreadBlock<M> {
    #[inline(always)]
    fn lane_step<T: Elem>(&self, _: Step, _: &Params, _: T, _: bool) -> Option<u64> {
        None
    }
}

/// `reduce`, `inclusive_scan` or `exclusive_scan` (`which`) under
/// operator number `op` (`Plus`, `Less`, `Greater`; only `Plus` where
/// [`Coverage`] says so), as output bits.
#[inline(always)]
fn scan_step<G: Coverage, T: ComposeElem>(g: &G, v: T, op: u32, which: Step) -> Option<u64> {
    if op != 0 && !G::ALL_OPS {
        return None;
    }
    T::scan_op(g, v, op, which).map(Elem::bits)
}

/// Runs the sequence on `g`, writing each step's result to `out[i]`.
#[inline(never)]
fn run_seq<G: Composable, T: ComposeElem>(
    g: &G,
    p: &Params,
    seq: &Seq,
    v: T,
    pred: bool,
    out: *mut u64,
) {
    let mut i = 0;
    while i < STEPS {
        let r = match Step::from_u32(seq[i]) {
            Some(s @ (Step::Reduce | Step::InclusiveScan | Step::ExclusiveScan)) => {
                scan_step(g, v, p.op, s)
            }
            Some(s @ (Step::Shfl | Step::Any | Step::All)) => g.lane_step(s, p, v, pred),
            Some(Step::Broadcast) => Some(invoke_one_broadcast(g, || v).bits()),
            Some(Step::Nothing) | None => None,
        };
        if let Some(r) = r {
            // SAFETY: the launcher allocates `STEPS` words per thread.
            unsafe { *out.add(i) = r };
        }
        i += 1;
    }
}

/// A static tile of `$size` threads of `$block`.
macro_rules! tile_seq {
    ($size:expr, $block:expr, $p:expr, $seq:expr, $v:expr, $pred:expr, $out:expr; $($n:literal)*) => {
        match $size {
            $( $n => run_seq(&tiled_partition::<$n>($block), $p, $seq, $v, $pred, $out), )*
            _ => {}
        }
    };
}

/// The generic kernel body.
#[inline(always)]
fn body<T: ComposeElem>(
    params: *const Params,
    seq: *const Seq,
    values: *const T,
    preds: *const u32,
    out: *mut u64,
) {
    let block = this_thread_block();
    let gid = block.group_index().x * block.num_threads() + block.thread_rank();
    let i = gid as usize;
    // SAFETY: the launcher passes one parameter block, one sequence, one
    // input per thread and `STEPS` output words per thread.
    let (p, seq, v, pred, out) = unsafe {
        (
            &*params,
            &*seq,
            *values.add(i),
            *preds.add(i) != 0,
            out.add(i * STEPS),
        )
    };
    match Kind::from_u32(p.kind) {
        Some(Kind::Tile) => {
            tile_seq!(p.size, &block, p, seq, v, pred, out; 1 2 4 8 16 32 64 128 256 512 1024)
        }
        Some(Kind::Dynamic) => run_seq(&tiled_partition_dyn(&block, p.size), p, seq, v, pred, out),
        Some(Kind::Coalesced) => {
            if pred {
                run_seq(&coalesced_threads(), p, seq, v, pred, out);
            }
        }
        Some(Kind::Block) => run_seq(&block, p, seq, v, pred, out),
        _ => {}
    }
}

macro_rules! compose_kernels {
    ($($name:ident: $t:ty),*) => { $(
        #[doc = concat!("The collectives of `seq`, back to back, on `", stringify!($t), "` values and the group shape `params` selects.")]
        #[kernel]
        pub fn $name(params: *const Params, seq: *const Seq, values: *const $t, preds: *const u32, out: *mut u64) {
            body::<$t>(params, seq, values, preds, out)
        }
    )* };
}

compose_kernels!(compose_u32: u32, compose_u64: u64, compose_f32: f32);
