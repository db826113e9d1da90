//! The kernels: one `#[kernel]` per element type around one generic body.

use cooperative_groups::atomic::atomic_add;
use cooperative_groups::ops::{BitAnd, BitOr, BitXor, Greater, Less, Plus};
use cooperative_groups::{
    MatchValue, ShflValue, Size, ThreadBlockTile, ThreadGroup, TileSize, WarpGroup, WarpTileSize,
    binary_partition, coalesced_threads, exclusive_scan, inclusive_scan, invoke_one,
    invoke_one_broadcast, kernel, labeled_partition, reduce, this_thread_block, tiled_partition,
    tiled_partition_dyn,
};

use super::{Kind, Params, SLOTS, slot};

/// An element type of the collective kernels.
pub trait Elem: ShflValue + MatchValue + cooperative_groups::Pod {
    /// The bits written to the output.
    fn bits(self) -> u64;
    /// `reduce`, `inclusive_scan`, `exclusive_scan` under operator `op`
    /// (an [`OpId`](super::OpId)); `None` when the type lacks the operator,
    /// or when `G` tests `Plus` only ([`Coverage`]).
    fn scans<G: Coverage>(g: &G, v: Self, op: u32) -> Option<(Self, Self, Self)>;
}

macro_rules! elem_int {
    ($($t:ty),*) => { $(
        impl Elem for $t {
            #[inline(always)]
            fn bits(self) -> u64 {
                self as u64
            }
            #[inline(never)]
            fn scans<G: Coverage>(g: &G, v: Self, op: u32) -> Option<(Self, Self, Self)> {
                Some(match op {
                    0 => (reduce(g, v, Plus), inclusive_scan(g, v, Plus), exclusive_scan(g, v, Plus)),
                    _ if !G::ALL_OPS => return None,
                    1 => (reduce(g, v, Less), inclusive_scan(g, v, Less), exclusive_scan(g, v, Less)),
                    2 => (reduce(g, v, Greater), inclusive_scan(g, v, Greater), exclusive_scan(g, v, Greater)),
                    3 => (reduce(g, v, BitAnd), inclusive_scan(g, v, BitAnd), exclusive_scan(g, v, BitAnd)),
                    4 => (reduce(g, v, BitOr), inclusive_scan(g, v, BitOr), exclusive_scan(g, v, BitOr)),
                    5 => (reduce(g, v, BitXor), inclusive_scan(g, v, BitXor), exclusive_scan(g, v, BitXor)),
                    _ => return None,
                })
            }
        }
    )* };
}
elem_int!(u32, i32, u64, i64);

macro_rules! elem_float {
    ($($t:ty),*) => { $(
        impl Elem for $t {
            #[inline(always)]
            fn bits(self) -> u64 {
                self.to_bits() as u64
            }
            #[inline(never)]
            fn scans<G: Coverage>(g: &G, v: Self, op: u32) -> Option<(Self, Self, Self)> {
                Some(match op {
                    0 => (reduce(g, v, Plus), inclusive_scan(g, v, Plus), exclusive_scan(g, v, Plus)),
                    _ if !G::ALL_OPS => return None,
                    1 => (reduce(g, v, Less), inclusive_scan(g, v, Less), exclusive_scan(g, v, Less)),
                    2 => (reduce(g, v, Greater), inclusive_scan(g, v, Greater), exclusive_scan(g, v, Greater)),
                    _ => return None,
                })
            }
        }
    )* };
}
elem_float!(f32, f64);

/// Which operators a group type is tested with. Every operator on every
/// group type would instantiate reduce + two scans × 6 operators × 14 group
/// types × 6 element types: ~5 MB of PTX and ~50 s of `ptxas` per SM. The
/// algorithms depend on the shape, not on the operator, so the static tiles
/// other than 32 and 64 threads — whose shapes the dynamic tiles (every
/// width, runtime) and the 64/block cases cover — are tested with `Plus`.
pub trait Coverage: ThreadGroup {
    /// Tested with every operator (else `Plus` only).
    const ALL_OPS: bool;
}

impl<const N: u32> Coverage for ThreadBlockTile<N>
where
    Size<N>: TileSize,
{
    const ALL_OPS: bool = N == 32 || N == 64;
}
impl Coverage for cooperative_groups::DynamicTile {
    const ALL_OPS: bool = true;
}
impl Coverage for cooperative_groups::CoalescedGroup {
    const ALL_OPS: bool = true;
}
impl<const M: u32> Coverage for cooperative_groups::ThreadBlock<M> {
    const ALL_OPS: bool = true;
}

/// One thread's inputs and output row.
struct Ctx<T> {
    p: Params,
    gid: u32,
    v: T,
    pred: bool,
    label: u32,
    out: *mut u64,
    counters: *mut u32,
}

impl<T: Elem> Ctx<T> {
    #[inline(always)]
    fn put(&self, s: usize, x: u64) {
        // SAFETY: the launcher allocates `SLOTS` words per thread.
        unsafe { *self.out.add(s) = x };
    }
}

/// What every group does: accessors, `reduce` and the scans, `invoke_one`
/// (which bumps the counter of the group's rank-0 thread, `leader`) and
/// `invoke_one_broadcast`.
#[inline(never)]
fn common<G: Coverage, T: Elem>(g: &G, c: &Ctx<T>, meta: (u32, u32), leader: u32) {
    c.put(slot::RANK, g.thread_rank() as u64);
    c.put(slot::SIZE, g.num_threads() as u64);
    c.put(slot::META_RANK, meta.0 as u64);
    c.put(slot::META_SIZE, meta.1 as u64);
    if let Some((r, i, e)) = T::scans(g, c.v, c.p.op) {
        c.put(slot::REDUCE, r.bits());
        c.put(slot::INCLUSIVE, i.bits());
        c.put(slot::EXCLUSIVE, e.bits());
    }
    invoke_one(g, || {
        // SAFETY: one counter per thread of the grid.
        unsafe { atomic_add(c.counters.add(leader as usize), 1) };
    });
    let v = c.v;
    c.put(slot::BROADCAST, invoke_one_broadcast(g, || v).bits());
}

/// The lane-level collectives of a group within a warp.
#[inline(never)]
fn warp_part<G: WarpGroup + Coverage, T: Elem>(g: &G, c: &Ctx<T>, meta: (u32, u32)) {
    let leader = g.shfl(c.gid, 0);
    common(g, c, meta, leader);
    let src = (5 * g.thread_rank() + c.p.src) % 64;
    c.put(slot::SHFL, g.shfl(c.v, src).bits());
    c.put(slot::SHFL_UP, g.shfl_up(c.v, c.p.delta).bits());
    c.put(slot::SHFL_DOWN, g.shfl_down(c.v, c.p.delta).bits());
    c.put(slot::SHFL_XOR, g.shfl_xor(c.v, c.p.xor).bits());
    c.put(slot::ANY, g.any(c.pred) as u64);
    c.put(slot::ALL, g.all(c.pred) as u64);
    c.put(slot::BALLOT, g.ballot(c.pred) as u64);
    c.put(slot::MATCH_ANY, g.match_any(c.v) as u64);
    let label = c.label ^ (c.v.bits() as u32) << 2;
    c.put(slot::MATCH_BITS, g.match_any_bits::<2>(label) as u64);
    c.put(
        slot::MATCH_ALL,
        g.match_all(c.v).map_or(0, |m| m as u64 | 1 << 32),
    );
}

/// A static tile within a warp.
#[inline(never)]
fn warp_tile<const N: u32, T: Elem>(t: &ThreadBlockTile<N>, c: &Ctx<T>)
where
    Size<N>: WarpTileSize,
{
    warp_part(t, c, (t.meta_group_rank(), t.meta_group_size()));
}

/// A static tile of 64–1024 threads: the common part plus `shfl` (uniform
/// source), `any`, `all`.
#[inline(never)]
fn multi_tile<const N: u32, T: Elem>(t: &ThreadBlockTile<N>, c: &Ctx<T>)
where
    Size<N>: TileSize,
{
    common(
        t,
        c,
        (t.meta_group_rank(), t.meta_group_size()),
        c.gid - t.thread_rank(),
    );
    c.put(slot::SHFL, t.shfl(c.v, c.p.src).bits());
    c.put(slot::ANY, t.any(c.pred) as u64);
    c.put(slot::ALL, t.all(c.pred) as u64);
}

/// `body` of a static tile of `$n` threads cut from `$parent`.
macro_rules! tile_cases {
    ($size:expr, $parent:expr, $c:expr; warp: $($w:literal)*; multi: $($m:literal)*) => {
        match $size {
            $( $w => warp_tile(&tiled_partition::<$w>($parent), $c), )*
            $( $m => multi_tile(&tiled_partition::<$m>($parent), $c), )*
            _ => {}
        }
    };
}

/// The generic kernel body. The cases are separate functions
/// (`inline(never)`) on both targets: inlined, the six kernels would make
/// ~10 MB of PTX that takes LLVM minutes per SM, and unoptimised host test
/// builds would give every lane one giant stack frame.
#[inline(always)]
fn body<T: Elem>(
    params: *const Params,
    values: *const T,
    preds: *const u32,
    labels: *const u32,
    out: *mut u64,
    counters: *mut u32,
) {
    let block = this_thread_block();
    let gid = block.group_index().x * block.num_threads() + block.thread_rank();
    let i = gid as usize;
    // SAFETY: the launcher passes one parameter block and one input per thread.
    let c = unsafe {
        Ctx {
            p: *params,
            gid,
            v: *values.add(i),
            pred: *preds.add(i) != 0,
            label: *labels.add(i),
            out: out.add(i * SLOTS),
            counters,
        }
    };
    match Kind::from_u32(c.p.kind) {
        Some(Kind::Tile) => tile_cases!(c.p.size, &block, &c;
            warp: 1 2 4 8 16 32; multi: 64 128 256 512 1024),
        Some(Kind::TileOfTile32) => {
            let parent = tiled_partition::<32>(&block);
            tile_cases!(c.p.size, &parent, &c; warp: 1 2 4 8 16 32; multi:)
        }
        Some(Kind::TileOfTile256) => {
            let parent = tiled_partition::<256>(&block);
            tile_cases!(c.p.size, &parent, &c; warp: 1 2 4 8 16 32; multi: 64 128 256)
        }
        Some(Kind::Dynamic) => {
            let t = tiled_partition_dyn(&block, c.p.size);
            warp_part(&t, &c, (t.meta_group_rank(), t.meta_group_size()));
        }
        Some(Kind::DynamicOfTile64) => {
            let parent = tiled_partition::<64>(&block);
            let t = tiled_partition_dyn(&parent, c.p.size);
            warp_part(&t, &c, (t.meta_group_rank(), t.meta_group_size()));
        }
        Some(Kind::Coalesced) => {
            if c.pred {
                let g = coalesced_threads();
                warp_part(&g, &c, (g.meta_group_rank(), g.meta_group_size()));
            }
        }
        Some(Kind::Labeled) => match c.p.size {
            1 => labeled(&tiled_partition::<1>(&block), &c),
            2 => labeled(&tiled_partition::<2>(&block), &c),
            4 => labeled(&tiled_partition::<4>(&block), &c),
            8 => labeled(&tiled_partition::<8>(&block), &c),
            16 => labeled(&tiled_partition::<16>(&block), &c),
            32 => labeled(&tiled_partition::<32>(&block), &c),
            _ => {}
        },
        Some(Kind::Binary) => match c.p.size {
            1 => binary(&tiled_partition::<1>(&block), &c),
            2 => binary(&tiled_partition::<2>(&block), &c),
            4 => binary(&tiled_partition::<4>(&block), &c),
            8 => binary(&tiled_partition::<8>(&block), &c),
            16 => binary(&tiled_partition::<16>(&block), &c),
            32 => binary(&tiled_partition::<32>(&block), &c),
            _ => {}
        },
        Some(Kind::LabeledOfCoalesced) => {
            if c.pred {
                labeled(&coalesced_threads(), &c);
            }
        }
        Some(Kind::DynamicOfCoalesced) => {
            if c.pred {
                let t = tiled_partition_dyn(&coalesced_threads(), c.p.size);
                warp_part(&t, &c, (t.meta_group_rank(), t.meta_group_size()));
            }
        }
        Some(Kind::Block) => common(&block, &c, (0, 1), gid - block.thread_rank()),
        None => {}
    }
}

#[inline(never)]
fn labeled<G: WarpGroup + Coverage, T: Elem>(parent: &G, c: &Ctx<T>) {
    let g = labeled_partition(parent, c.label);
    warp_part(&g, c, (g.meta_group_rank(), g.meta_group_size()));
}

#[inline(never)]
fn binary<G: WarpGroup + Coverage, T: Elem>(parent: &G, c: &Ctx<T>) {
    let g = binary_partition(parent, c.pred);
    warp_part(&g, c, (g.meta_group_rank(), g.meta_group_size()));
}

macro_rules! collective_kernels {
    ($($name:ident: $t:ty),*) => { $(
        #[doc = concat!("Every collective on `", stringify!($t), "` values, on the group shape `params` selects.")]
        #[kernel]
        pub fn $name(params: *const Params, values: *const $t, preds: *const u32, labels: *const u32, out: *mut u64, counters: *mut u32) {
            body::<$t>(params, values, preds, labels, out, counters)
        }
    )* };
}

collective_kernels!(
    collectives_u32: u32,
    collectives_i32: i32,
    collectives_u64: u64,
    collectives_i64: i64,
    collectives_f32: f32,
    collectives_f64: f64
);
