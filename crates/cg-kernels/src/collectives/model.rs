//! The sequential model of the collective kernels (host only): which group
//! each thread is in, and what every collective must return, computed one
//! group at a time in plain Rust. [`check`] compares a launch's output with
//! it and names the first difference.

extern crate std;

use std::format;
use std::string::String;
use std::vec;
use std::vec::Vec;

use cooperative_groups::ReduceOp;
use cooperative_groups::ops::{BitAnd, BitOr, BitXor, Greater, Less, Plus};

use super::compose::{ComposeArgs, STEPS, Seq, Step};
use super::kernels::Elem;
use super::{Kind, NOT_WRITTEN, Params, SLOTS, slot};

/// An operator as the model uses it: (combine, identity).
pub type ModelOp<T> = (fn(T, T) -> T, T);

/// An element type the model can combine (every [`Elem`]).
pub trait ModelElem: Elem + PartialEq + core::fmt::Debug {
    /// The operator `op` (an [`OpId`](super::OpId)), `None` if the type lacks it.
    fn op(op: u32) -> Option<ModelOp<Self>>;
}

macro_rules! model_int {
    ($($t:ty),*) => { $(
        impl ModelElem for $t {
            fn op(op: u32) -> Option<ModelOp<Self>> {
                Some(match op {
                    0 => (|a, b| ReduceOp::<$t>::combine(&Plus, a, b), ReduceOp::<$t>::identity(&Plus)),
                    1 => (|a, b| ReduceOp::<$t>::combine(&Less, a, b), ReduceOp::<$t>::identity(&Less)),
                    2 => (|a, b| ReduceOp::<$t>::combine(&Greater, a, b), ReduceOp::<$t>::identity(&Greater)),
                    3 => (|a, b| ReduceOp::<$t>::combine(&BitAnd, a, b), ReduceOp::<$t>::identity(&BitAnd)),
                    4 => (|a, b| ReduceOp::<$t>::combine(&BitOr, a, b), ReduceOp::<$t>::identity(&BitOr)),
                    5 => (|a, b| ReduceOp::<$t>::combine(&BitXor, a, b), ReduceOp::<$t>::identity(&BitXor)),
                    _ => return None,
                })
            }
        }
    )* };
}
model_int!(u32, i32, u64, i64);

macro_rules! model_float {
    ($($t:ty),*) => { $(
        impl ModelElem for $t {
            fn op(op: u32) -> Option<ModelOp<Self>> {
                Some(match op {
                    0 => (|a, b| ReduceOp::<$t>::combine(&Plus, a, b), ReduceOp::<$t>::identity(&Plus)),
                    1 => (|a, b| ReduceOp::<$t>::combine(&Less, a, b), ReduceOp::<$t>::identity(&Less)),
                    2 => (|a, b| ReduceOp::<$t>::combine(&Greater, a, b), ReduceOp::<$t>::identity(&Greater)),
                    _ => return None,
                })
            }
        }
    )* };
}
model_float!(f32, f64);

/// The largest `k` with `2^k <= x`.
fn log2(x: u32) -> u32 {
    31 - x.leading_zeros()
}

/// A valid tile-size parameter for `kind` in a block of `block` threads
/// (from a raw choice `k`), or `None` if the kind cannot run in that block.
pub fn size_for(kind: Kind, block: u32, k: u32) -> Option<u32> {
    let pick = |max_log: u32| Some(1 << (k % (max_log + 1)));
    match kind {
        Kind::Tile => pick(log2(block).min(10)),
        Kind::TileOfTile32 if block >= 32 => pick(5),
        Kind::TileOfTile256 if block >= 256 => pick(8),
        Kind::Dynamic | Kind::Labeled | Kind::Binary => pick(log2(block).min(5)),
        Kind::DynamicOfTile64 if block >= 64 => pick(5),
        Kind::DynamicOfCoalesced => pick(5),
        Kind::Coalesced | Kind::LabeledOfCoalesced | Kind::Block => Some(0),
        _ => None,
    }
}

/// Test values of each element type from raw integers. Floats stay on a
/// coarse grid (`|x| < 2^bits`, in steps the format holds exactly), so sums
/// of up to 1024 of them are exact in any order: f32 inputs are multiples of
/// 1/16 below 64, f64 inputs multiples of 1/4 below 2^18.
pub trait TestValue: ModelElem {
    /// The value for raw integer `v`.
    fn from_raw(v: i64) -> Self;
    /// Operators the type supports (ids `0..OPS`).
    const OPS: u32;
}

impl TestValue for u32 {
    fn from_raw(v: i64) -> Self {
        v as u32
    }
    const OPS: u32 = 6;
}
impl TestValue for i32 {
    fn from_raw(v: i64) -> Self {
        v as i32
    }
    const OPS: u32 = 6;
}
impl TestValue for u64 {
    fn from_raw(v: i64) -> Self {
        (v as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15)
    }
    const OPS: u32 = 6;
}
impl TestValue for i64 {
    fn from_raw(v: i64) -> Self {
        v.wrapping_mul(0x1_0000_0001)
    }
    const OPS: u32 = 6;
}
impl TestValue for f32 {
    fn from_raw(v: i64) -> Self {
        (v % (1 << 10)) as f32 / 16.0
    }
    const OPS: u32 = 3;
}
impl TestValue for f64 {
    fn from_raw(v: i64) -> Self {
        (v % (1 << 20)) as f64 * 0.25
    }
    const OPS: u32 = 3;
}

/// A 1-D launch: `blocks` blocks of `block` threads.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Launch {
    /// Blocks in the grid.
    pub blocks: u32,
    /// Threads per block.
    pub block: u32,
}

impl Launch {
    /// Threads in the grid.
    pub fn threads(&self) -> usize {
        (self.blocks * self.block) as usize
    }
}

/// The per-thread inputs of a launch.
#[derive(Clone, Debug)]
pub struct Inputs<T> {
    /// `values[gid]`.
    pub values: Vec<T>,
    /// `preds[gid]` (non-zero = true).
    pub preds: Vec<u32>,
    /// `labels[gid]`.
    pub labels: Vec<u32>,
}

/// How a group's `shfl` family addresses members.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Addr {
    /// A tile within a warp of `width` lanes (static or dynamic), in the
    /// warp whose lane 0 is global id `.1`; `.2`: the warp has all 32 lanes
    /// (then every lane takes part in the collectives of tiles).
    Seg(u32, u32, bool),
    /// A coalesced group: ranks; `.0` is the global id of lane 0 of its warp.
    Coal(u32),
    /// A multi-warp tile of `N` threads.
    Multi(u32),
    /// The block (no shuffles).
    Block,
}

/// A group: its members' global ids in rank order.
#[derive(Clone, Debug)]
struct Group {
    members: Vec<u32>,
    meta: (u32, u32),
    addr: Addr,
}

/// The members of the static tile of `n` threads around block rank `t`.
fn tile_members(first: u32, block: u32, t: u32, n: u32) -> Vec<u32> {
    let base = t / n * n;
    (base..(base + n).min(block)).map(|r| first + r).collect()
}

/// The number of threads of the tile of `n` around `t`.
fn tile_len(block: u32, t: u32, n: u32) -> u32 {
    let base = t / n * n;
    (base + n).min(block) - base
}

/// Lanes of `t`'s warp whose `pred` is set, as global ids.
fn pred_lanes(first: u32, block: u32, t: u32, preds: &[u32]) -> Vec<u32> {
    let base = t / 32 * 32;
    (base..(base + 32).min(block))
        .map(|r| first + r)
        .filter(|&g| preds[g as usize] != 0)
        .collect()
}

/// `labeled_partition` of `parent` (global ids in rank order) for thread `me`.
fn labeled(parent: &[u32], me: u32, labels: &[u32], warp0: u32) -> Group {
    let label = |g: u32| labels[g as usize];
    let members: Vec<u32> = parent
        .iter()
        .copied()
        .filter(|&g| label(g) == label(me))
        .collect();
    // Group leaders (lowest member) in lane order.
    let mut leaders: Vec<u32> = Vec::new();
    for &g in parent {
        if !parent.iter().any(|&h| h < g && label(h) == label(g)) {
            leaders.push(g);
        }
    }
    let my_leader = members[0];
    let rank = leaders.iter().filter(|&&l| l < my_leader).count() as u32;
    Group {
        members,
        meta: (rank, leaders.len() as u32),
        addr: Addr::Coal(warp0),
    }
}

/// The group thread `gid` belongs to under `p`, or `None` if it takes no part.
fn group_of(launch: Launch, p: &Params, gid: u32, preds: &[u32], labels: &[u32]) -> Option<Group> {
    let b = launch.block;
    let t = gid % b;
    let first = gid - t;
    let n = p.size;
    let warp0 = t / 32 * 32;
    let seg = |n: u32| Addr::Seg(n, first + warp0, warp0 + 32 <= b);
    let static_addr = |n: u32| {
        if n <= 32 { seg(n) } else { Addr::Multi(n) }
    };
    Some(match Kind::from_u32(p.kind)? {
        Kind::Tile => Group {
            members: tile_members(first, b, t, n),
            meta: (t / n, b.div_ceil(n)),
            addr: static_addr(n),
        },
        Kind::TileOfTile32 | Kind::TileOfTile256 | Kind::DynamicOfTile64 => {
            let parent = match Kind::from_u32(p.kind)? {
                Kind::TileOfTile32 => 32,
                Kind::TileOfTile256 => 256,
                _ => 64,
            };
            let (prank, psize) = (t % parent, tile_len(b, t, parent));
            Group {
                members: tile_members(first, b, t, n),
                meta: (prank / n, psize.div_ceil(n)),
                addr: static_addr(n),
            }
        }
        Kind::Dynamic => Group {
            members: tile_members(first, b, t, n),
            meta: (t / n, b.div_ceil(n)),
            addr: seg(n),
        },
        Kind::Coalesced => {
            if preds[gid as usize] == 0 {
                return None;
            }
            Group {
                members: pred_lanes(first, b, t, preds),
                meta: (0, 1),
                addr: Addr::Coal(first + warp0),
            }
        }
        Kind::Labeled => labeled(&tile_members(first, b, t, n), gid, labels, first + warp0),
        Kind::Binary => {
            let parent = tile_members(first, b, t, n);
            let pred = |g: u32| preds[g as usize] != 0;
            let set = parent.iter().filter(|&&g| pred(g)).count();
            if set == 0 || set == parent.len() {
                Group {
                    members: parent,
                    meta: (0, 1),
                    addr: Addr::Coal(first + warp0),
                }
            } else {
                let mine = pred(gid);
                let members = parent.into_iter().filter(|&g| pred(g) == mine).collect();
                Group {
                    members,
                    meta: (mine as u32, 2),
                    addr: Addr::Coal(first + warp0),
                }
            }
        }
        Kind::LabeledOfCoalesced => {
            if preds[gid as usize] == 0 {
                return None;
            }
            labeled(&pred_lanes(first, b, t, preds), gid, labels, first + warp0)
        }
        Kind::DynamicOfCoalesced => {
            if preds[gid as usize] == 0 {
                return None;
            }
            let parent = pred_lanes(first, b, t, preds);
            let prank = parent.iter().position(|&g| g == gid).unwrap() as u32;
            let k = prank / n;
            let end = ((k + 1) * n).min(parent.len() as u32);
            let members = parent[(k * n) as usize..end as usize].to_vec();
            Group {
                members,
                meta: (k, (parent.len() as u32).div_ceil(n)),
                addr: Addr::Coal(first + warp0),
            }
        }
        Kind::Block => Group {
            members: (first..first + b).collect(),
            meta: (0, 1),
            addr: Addr::Block,
        },
    })
}

/// Whether the launch's group type is tested with every operator (see
/// [`Coverage`](super::kernels::Coverage)): static tiles only at 32 and 64.
pub fn all_ops(p: &Params) -> bool {
    match Kind::from_u32(p.kind) {
        Some(Kind::Tile | Kind::TileOfTile32 | Kind::TileOfTile256) => p.size == 32 || p.size == 64,
        _ => true,
    }
}

/// The expected output row of every thread (`NOT_WRITTEN` where a thread
/// writes nothing), except [`slot::BROADCAST`], which [`check`] verifies as
/// "one member's value, the same for all".
pub fn expected<T: ModelElem>(launch: Launch, p: &Params, inputs: &Inputs<T>) -> Vec<[u64; SLOTS]> {
    let mut rows = vec![[NOT_WRITTEN; SLOTS]; launch.threads()];
    for gid in 0..launch.threads() as u32 {
        let Some(g) = group_of(launch, p, gid, &inputs.preds, &inputs.labels) else {
            continue;
        };
        rows[gid as usize] = row(p, &g, gid, inputs);
    }
    rows
}

fn row<T: ModelElem>(p: &Params, g: &Group, gid: u32, inputs: &Inputs<T>) -> [u64; SLOTS] {
    let mut r = [NOT_WRITTEN; SLOTS];
    let m = &g.members;
    let len = m.len() as u32;
    let rank = m.iter().position(|&x| x == gid).unwrap() as u32;
    let v = |k: u32| inputs.values[m[k as usize] as usize];
    let pred = |k: u32| inputs.preds[m[k as usize] as usize] != 0;
    let own = v(rank).bits();
    r[slot::RANK] = rank as u64;
    r[slot::SIZE] = len as u64;
    r[slot::META_RANK] = g.meta.0 as u64;
    r[slot::META_SIZE] = g.meta.1 as u64;
    if let Some((f, id)) = T::op(p.op).filter(|_| p.op == 0 || all_ops(p)) {
        let fold = |n: u32| (1..n).fold(v(0), |a, k| f(a, v(k)));
        r[slot::REDUCE] = fold(len).bits();
        r[slot::INCLUSIVE] = fold(rank + 1).bits();
        r[slot::EXCLUSIVE] = if rank == 0 {
            id.bits()
        } else {
            fold(rank).bits()
        };
    }
    let at = |gid: Option<u32>| gid.map_or(own, |gid| inputs.values[gid as usize].bits());
    let [shfl, up, down, xor] = shuffle_sources(p, g, rank);
    for (s, src) in [
        (slot::SHFL, shfl),
        (slot::SHFL_UP, up),
        (slot::SHFL_DOWN, down),
        (slot::SHFL_XOR, xor),
    ] {
        if let Some(src) = src {
            r[s] = at(src);
        }
    }
    match g.addr {
        Addr::Block => {}
        Addr::Multi(_) => {
            r[slot::ANY] = (0..len).any(pred) as u64;
            r[slot::ALL] = (0..len).all(pred) as u64;
        }
        Addr::Seg(..) | Addr::Coal(_) => {
            r[slot::ANY] = (0..len).any(pred) as u64;
            r[slot::ALL] = (0..len).all(pred) as u64;
            r[slot::BALLOT] = (0..len).filter(|&k| pred(k)).fold(0u64, |b, k| b | 1 << k);
            let same = |k: u32| v(k).bits() == own;
            r[slot::MATCH_ANY] = (0..len).filter(|&k| same(k)).fold(0u64, |b, k| b | 1 << k);
            r[slot::MATCH_ALL] = if (0..len).all(same) {
                ((1u64 << len) - 1) | 1 << 32
            } else {
                0
            };
            let low = |k: u32| inputs.labels[m[k as usize] as usize] & 3;
            r[slot::MATCH_BITS] = (0..len)
                .filter(|&k| low(k) == low(rank))
                .fold(0u64, |b, k| b | 1 << k);
        }
    }
    r
}

/// The thread each shuffle of the kernels reads for the member of rank
/// `rank` — `[shfl, shfl_up, shfl_down, shfl_xor]` — as `Some(Some(gid))`,
/// `Some(None)` (the caller's own value) or `None` (the group has no such
/// shuffle). CUDA's rules: tiles shuffle as `__shfl_*_sync` with the tile's
/// width (the hardware reads the low 5 bits of a distance or lane mask; an
/// xor partner in an earlier segment is read when the whole warp takes part);
/// coalesced groups as NVIDIA's `coalesced_group` (a full warp shuffles by
/// `d & 31`; a rank past the last member reads lane 31).
fn shuffle_sources(p: &Params, g: &Group, rank: u32) -> [Option<Option<u32>>; 4] {
    let len = g.members.len() as u32;
    let member = |k: Option<u32>| Some(k.filter(|&k| k < len).map(|k| g.members[k as usize]));
    let src = (5 * rank + p.src) % 64;
    match g.addr {
        Addr::Block => [None; 4],
        Addr::Multi(n) => [member(Some(p.src % n)), None, None, None],
        Addr::Seg(w, warp0, warp_full) => {
            let (delta, xor) = (p.delta & 31, p.xor & 31);
            // Lanes of the segment: rank r is lane `base + r`.
            let lane = (g.members[0] - warp0) + rank;
            let base = lane - rank;
            let partner = lane ^ xor;
            let xor_src = if partner >= base {
                member(Some(partner - base))
            } else if warp_full {
                Some(Some(warp0 + partner))
            } else {
                Some(None)
            };
            [
                member(Some(src % w)),
                member(rank.checked_sub(delta)),
                member(rank.checked_add(delta)),
                xor_src,
            ]
        }
        Addr::Coal(warp0) => {
            let full = len == 32;
            let lane_src = if full { src & 31 } else { src.min(32) };
            // Past the last member, NVIDIA's lane 31 (the last member only
            // if the group holds lane 31: then it has the highest lane).
            let holds_31 = g.members[len as usize - 1] == warp0 + 31;
            let shfl_src = if lane_src < len {
                member(Some(lane_src))
            } else if holds_31 {
                member(Some(len - 1))
            } else {
                Some(None)
            };
            let d = if full { p.delta & 31 } else { p.delta };
            [
                shfl_src,
                member(rank.checked_sub(d)),
                member(rank.checked_add(d)),
                member(Some(rank ^ p.xor)),
            ]
        }
    }
}

/// The expected rows of a [`SHFL_WIDE_32B`](super::wide) -style launch:
/// `[shfl, shfl_up, shfl_down, shfl_xor]` of `values` per thread, `fill`
/// where nothing is written.
pub fn expected_shuffles<V: Copy>(
    launch: Launch,
    p: &Params,
    values: &[V],
    preds: &[u32],
    fill: V,
) -> Vec<[V; 4]> {
    let labels = vec![0; launch.threads()];
    (0..launch.threads() as u32)
        .map(|gid| {
            let Some(g) = group_of(launch, p, gid, preds, &labels) else {
                return [fill; 4];
            };
            let rank = g.members.iter().position(|&x| x == gid).unwrap() as u32;
            shuffle_sources(p, &g, rank).map(|src| match src {
                None => fill,
                Some(None) => values[gid as usize],
                Some(Some(src)) => values[src as usize],
            })
        })
        .collect()
}

/// Whether column `col` of the group's rows (`width` words per thread) of
/// `out` is what `invoke_one_broadcast` must give: one member's value, the
/// same for every member.
fn broadcast_ok<T: ModelElem>(
    g: &Group,
    inputs: &Inputs<T>,
    out: &[u64],
    width: usize,
    col: usize,
) -> bool {
    let b = out[g.members[0] as usize * width + col];
    g.members
        .iter()
        .any(|&h| inputs.values[h as usize].bits() == b)
        && g.members
            .iter()
            .all(|&h| out[h as usize * width + col] == b)
}

/// Compares a launch's `out` (rows of [`SLOTS`]) and `counters` with the
/// model: every slot, the broadcast (one member's value, the same in the
/// whole group) and `invoke_one` (exactly one call per group, counted at its
/// rank-0 thread).
pub fn check<T: ModelElem>(
    launch: Launch,
    p: &Params,
    inputs: &Inputs<T>,
    out: &[u64],
    counters: &[u32],
) -> Result<(), String> {
    let names = [
        "thread_rank",
        "num_threads",
        "meta_group_rank",
        "meta_group_size",
        "reduce",
        "inclusive_scan",
        "exclusive_scan",
        "shfl",
        "shfl_up",
        "shfl_down",
        "shfl_xor",
        "any",
        "all",
        "ballot",
        "match_any",
        "match_all",
        "invoke_one_broadcast",
        "match_any_bits",
    ];
    let rows = expected(launch, p, inputs);
    let mut want_counters = vec![0u32; launch.threads()];
    for gid in 0..launch.threads() as u32 {
        let got = &out[gid as usize * SLOTS..][..SLOTS];
        let Some(g) = group_of(launch, p, gid, &inputs.preds, &inputs.labels) else {
            if got.iter().any(|&x| x != NOT_WRITTEN) {
                return Err(format!("thread {gid} is in no group but wrote {got:x?}"));
            }
            continue;
        };
        want_counters[g.members[0] as usize] = 1;
        for s in 0..SLOTS {
            if s == slot::BROADCAST {
                let b = got[s];
                if !broadcast_ok(&g, inputs, out, SLOTS, s) {
                    return Err(format!(
                        "thread {gid}: invoke_one_broadcast gave {b:#x}, not one member's value shared by the group {:?}",
                        g.members
                    ));
                }
            } else if got[s] != rows[gid as usize][s] {
                return Err(format!(
                    "thread {gid} (rank {} of group {:?}, meta {:?}): {} = {:#x}, model says {:#x}",
                    rows[gid as usize][slot::RANK],
                    g.members,
                    g.meta,
                    names[s],
                    got[s],
                    rows[gid as usize][s]
                ));
            }
        }
    }
    if let Some(i) = (0..counters.len()).find(|&i| counters[i] != want_counters[i]) {
        return Err(format!(
            "invoke_one: counter of thread {i} is {}, model says {}",
            counters[i], want_counters[i]
        ));
    }
    Ok(())
}

/// The argument tuple of a collective kernel over `T`: parameters, values,
/// predicates, labels, result rows, `invoke_one` counters.
pub type Args<T> = (
    *const Params,
    *const T,
    *const u32,
    *const u32,
    *mut u64,
    *mut u32,
);

/// Runs `kernel` with `args` on the simulator, in `launch`'s shape.
///
/// # Safety
/// `args` must meet the kernel's contract for `launch` (buffers as large
/// as the kernel reads and writes, alive during the launch).
unsafe fn sim_launch<A: Copy>(
    kernel: &cooperative_groups::Kernel<A>,
    launch: Launch,
    args: A,
) -> Result<(), cg_sim::SimError> {
    // SAFETY: forwarded contract.
    let body = unsafe { kernel.host_fn_unchecked() };
    cg_sim::launch(
        &cg_sim::LaunchConfig::new(launch.blocks, launch.block),
        &|| body(args),
    )
    .map(|_| ())
}

/// Runs a collective kernel on the simulator; returns its result rows
/// (prefilled with [`NOT_WRITTEN`]) and `invoke_one` counters.
pub fn run_on_sim<T: ModelElem>(
    kernel: &cooperative_groups::Kernel<Args<T>>,
    launch: Launch,
    p: &Params,
    inputs: &Inputs<T>,
) -> Result<(Vec<u64>, Vec<u32>), cg_sim::SimError> {
    let n = launch.threads();
    assert_eq!(inputs.values.len(), n, "one input per thread");
    let mut out = vec![NOT_WRITTEN; n * SLOTS];
    let mut counters = vec![0u32; n];
    let args: Args<T> = (
        p,
        inputs.values.as_ptr(),
        inputs.preds.as_ptr(),
        inputs.labels.as_ptr(),
        out.as_mut_ptr(),
        counters.as_mut_ptr(),
    );
    // SAFETY: the collective kernels read one input of each kind and write
    // `SLOTS` results and one counter per thread: the buffers above, alive
    // across the launch.
    unsafe { sim_launch(kernel, launch, args) }?;
    Ok((out, counters))
}

/// The output slot of the collective kernels that holds `step`'s result
/// (`None` for [`Step::Nothing`]).
fn step_slot(step: Step) -> Option<usize> {
    Some(match step {
        Step::Reduce => slot::REDUCE,
        Step::InclusiveScan => slot::INCLUSIVE,
        Step::ExclusiveScan => slot::EXCLUSIVE,
        Step::Shfl => slot::SHFL,
        Step::Any => slot::ANY,
        Step::All => slot::ALL,
        Step::Broadcast => slot::BROADCAST,
        Step::Nothing => return None,
    })
}

/// Compares a [`compose`](super::compose) launch's `out` ([`STEPS`] words
/// per thread) with the model: each step's result is what the collective
/// kernels' model says that collective returns alone (the broadcast: one
/// member's value, the same in the whole group), so running collectives
/// back to back must change nothing.
pub fn check_composed<T: ModelElem>(
    launch: Launch,
    p: &Params,
    seq: &Seq,
    inputs: &Inputs<T>,
    out: &[u64],
) -> Result<(), String> {
    let rows = expected(launch, p, inputs);
    for gid in 0..launch.threads() as u32 {
        let got = &out[gid as usize * STEPS..][..STEPS];
        let Some(g) = group_of(launch, p, gid, &inputs.preds, &inputs.labels) else {
            if got.iter().any(|&x| x != NOT_WRITTEN) {
                return Err(format!("thread {gid} is in no group but wrote {got:x?}"));
            }
            continue;
        };
        for (i, &s) in seq.iter().enumerate() {
            let step = Step::from_u32(s).ok_or_else(|| format!("step {s} does not exist"))?;
            let want = step_slot(step).map_or(NOT_WRITTEN, |k| rows[gid as usize][k]);
            let ok = if step == Step::Broadcast {
                broadcast_ok(&g, inputs, out, STEPS, i)
            } else {
                got[i] == want
            };
            if !ok {
                return Err(format!(
                    "thread {gid} (rank {} of a group of {} from thread {}): step {i} ({step:?}) of {seq:?} = {:#x}, model says {}",
                    rows[gid as usize][slot::RANK],
                    g.members.len(),
                    g.members[0],
                    got[i],
                    if step == Step::Broadcast {
                        "one member's value, the same for the group".into()
                    } else {
                        format!("{want:#x}")
                    }
                ));
            }
        }
    }
    Ok(())
}

/// Runs a composed kernel on the simulator; returns its result rows
/// (prefilled with [`NOT_WRITTEN`]).
pub fn run_composed_on_sim<T: ModelElem>(
    kernel: &cooperative_groups::Kernel<ComposeArgs<T>>,
    launch: Launch,
    p: &Params,
    seq: &Seq,
    inputs: &Inputs<T>,
) -> Result<Vec<u64>, cg_sim::SimError> {
    let n = launch.threads();
    assert_eq!(inputs.values.len(), n, "one input per thread");
    let mut out = vec![NOT_WRITTEN; n * STEPS];
    let args: ComposeArgs<T> = (
        p,
        seq,
        inputs.values.as_ptr(),
        inputs.preds.as_ptr(),
        out.as_mut_ptr(),
    );
    // SAFETY: the composed kernels read one input of each kind and write
    // `STEPS` results per thread: the buffers above, alive across the launch.
    unsafe { sim_launch(kernel, launch, args) }?;
    Ok(out)
}
