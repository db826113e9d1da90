//! The shuffle family on values that are not one register: 32-byte arrays
//! (8 × `shfl.sync` per call), 3-byte arrays and `u128`. Each thread writes
//! `[shfl, shfl_up, shfl_down, shfl_xor]` of its value (only `shfl` on a
//! multi-warp tile); [`model::expected_shuffles`](super::model) predicts it.
//!
//! Kinds: [`Kind::Tile`](super::Kind) (every size), `Dynamic`, `Coalesced`.

use cooperative_groups::{
    ShflValue, Size, ThreadBlockTile, WarpGroup, WarpTileSize, coalesced_threads, kernel,
    this_thread_block, tiled_partition, tiled_partition_dyn,
};

use super::{Kind, Params};

struct Ctx<V> {
    p: Params,
    v: V,
    rank_src: u32,
    out: *mut [V; 4],
}

impl<V: ShflValue> Ctx<V> {
    #[inline(always)]
    fn put(&self, k: usize, x: V) {
        // SAFETY: the launcher allocates one row per thread.
        unsafe { (*self.out)[k] = x };
    }
}

#[inline(never)]
fn warp<G: WarpGroup, V: ShflValue>(g: &G, c: &Ctx<V>) {
    let src = (5 * g.thread_rank() + c.rank_src) % 64;
    c.put(0, g.shfl(c.v, src));
    c.put(1, g.shfl_up(c.v, c.p.delta));
    c.put(2, g.shfl_down(c.v, c.p.delta));
    c.put(3, g.shfl_xor(c.v, c.p.xor));
}

#[inline(never)]
fn warp_tile<const N: u32, V: ShflValue>(t: &ThreadBlockTile<N>, c: &Ctx<V>)
where
    Size<N>: WarpTileSize,
{
    warp(t, c)
}

#[inline(never)]
fn multi_tile<const N: u32, V: ShflValue>(t: &ThreadBlockTile<N>, c: &Ctx<V>)
where
    Size<N>: cooperative_groups::TileSize,
{
    c.put(0, t.shfl(c.v, c.p.src));
}

#[inline(always)]
fn body<V: ShflValue>(
    params: *const Params,
    values: *const V,
    preds: *const u32,
    out: *mut [V; 4],
) {
    let block = this_thread_block();
    let i = (block.group_index().x * block.num_threads() + block.thread_rank()) as usize;
    // SAFETY: one parameter block, one value, predicate and row per thread.
    let (p, v, pred, out) = unsafe { (*params, *values.add(i), *preds.add(i) != 0, out.add(i)) };
    let c = Ctx {
        p,
        v,
        rank_src: p.src,
        out,
    };
    match Kind::from_u32(p.kind) {
        Some(Kind::Tile) => match p.size {
            1 => warp_tile(&tiled_partition::<1>(&block), &c),
            2 => warp_tile(&tiled_partition::<2>(&block), &c),
            4 => warp_tile(&tiled_partition::<4>(&block), &c),
            8 => warp_tile(&tiled_partition::<8>(&block), &c),
            16 => warp_tile(&tiled_partition::<16>(&block), &c),
            32 => warp_tile(&tiled_partition::<32>(&block), &c),
            64 => multi_tile(&tiled_partition::<64>(&block), &c),
            128 => multi_tile(&tiled_partition::<128>(&block), &c),
            256 => multi_tile(&tiled_partition::<256>(&block), &c),
            512 => multi_tile(&tiled_partition::<512>(&block), &c),
            1024 => multi_tile(&tiled_partition::<1024>(&block), &c),
            _ => {}
        },
        Some(Kind::Dynamic) => warp(&tiled_partition_dyn(&block, p.size), &c),
        Some(Kind::Coalesced) if pred => warp(&coalesced_threads(), &c),
        _ => {}
    }
}

macro_rules! wide_kernels {
    ($($name:ident: $t:ty),*) => { $(
        #[doc = concat!("The shuffle family on `", stringify!($t), "` values.")]
        #[kernel]
        pub fn $name(params: *const Params, values: *const $t, preds: *const u32, out: *mut [$t; 4]) {
            body::<$t>(params, values, preds, out)
        }
    )* };
}

wide_kernels!(shfl_wide_32b: [u32; 8], shfl_wide_3b: [u8; 3], shfl_wide_u128: u128);
