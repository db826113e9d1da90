//! The exchanges, loads and stores against their models on the simulator:
//! `BlockExchange` (blocked ↔ striped ↔ warp-striped, scatters),
//! `WarpExchange`, `BlockLoad`/`BlockStore` with every algorithm and
//! `WarpLoad`/`WarpStore` with theirs, full and partial tiles (random
//! valid counts, unaligned slices), several element types and shapes.

mod prim_common;

use cooperative_groups::prelude::*;
use cooperative_groups::primitives::*;
use prim_common::{Gen, Out, align16, dyn_temp, run_smem, values};
use proptest::prelude::*;
use std::any::TypeId;

/// The blocked tile position of thread `r`'s item `i`.
fn blocked(r: usize, i: usize, items: usize) -> usize {
    r * items + i
}
/// The striped one, `p` threads.
fn striped(r: usize, i: usize, p: usize) -> usize {
    r + i * p
}
/// The warp-striped one.
fn warp_striped(r: usize, i: usize, items: usize) -> usize {
    (r / 32) * 32 * items + (r % 32) + 32 * i
}

/// The blocked ↔ striped conversions of `BlockExchange<T, B, I>` on one
/// tile, and the scatters by the permutation `perm`.
fn block_exchange<T: Gen, const B: u32, const I: usize>(
    seeds: &[u64],
    perm: &[usize],
    flags: &[bool],
) {
    let tile = B as usize * I;
    let data: Vec<T> = values(seeds, tile);
    let mut out = Out::new(5 * tile, T::make(0));
    let o = out.ptr();
    let d = &data;
    run_smem(1, B, BlockExchange::<T, B, I>::TEMP_BYTES, &|| {
        let block = this_thread_block().with_threads::<B>();
        let temp = dyn_temp::<BlockExchange<T, B, I>>(0);
        let ex = BlockExchange::<T, B, I>::new(&block, &temp);
        let r = block.thread_rank() as usize;
        let put = |k: usize, x: [T; I], pos: &dyn Fn(usize) -> usize| {
            for (i, v) in x.into_iter().enumerate() {
                o.set(k * tile + pos(i), v);
            }
        };
        // 0: blocked → striped; the result lands at the striped positions.
        let x: [T; I] = core::array::from_fn(|i| d[blocked(r, i, I)]);
        put(0, ex.blocked_to_striped(x), &|i| striped(r, i, B as usize));
        block.sync();
        // 1: striped → blocked.
        let x: [T; I] = core::array::from_fn(|i| d[striped(r, i, B as usize)]);
        put(1, ex.striped_to_blocked(x), &|i| blocked(r, i, I));
        block.sync();
        // 2: scatter to blocked: the item at blocked position k goes to perm[k].
        let x: [T; I] = core::array::from_fn(|i| d[blocked(r, i, I)]);
        let ranks: [u32; I] = core::array::from_fn(|i| perm[blocked(r, i, I)] as u32);
        put(2, ex.scatter_to_blocked(x, &ranks), &|i| blocked(r, i, I));
        block.sync();
        // 3: scatter to striped.
        put(3, ex.scatter_to_striped(x, &ranks), &|i| {
            striped(r, i, B as usize)
        });
        block.sync();
        // 4: scatter to striped, flagged (unflagged positions: not compared).
        let valid: [bool; I] = core::array::from_fn(|i| flags[blocked(r, i, I)]);
        put(4, ex.scatter_to_striped_flagged(x, &ranks, &valid), &|i| {
            striped(r, i, B as usize)
        });
    });
    let got = out.into_vec();
    let part = |k: usize| &got[k * tile..(k + 1) * tile];
    assert_eq!(part(0), &data[..], "blocked_to_striped");
    assert_eq!(part(1), &data[..], "striped_to_blocked");
    for (k, &p) in perm.iter().enumerate() {
        assert_eq!(part(2)[p], data[k], "scatter_to_blocked: position {p}");
        assert_eq!(part(3)[p], data[k], "scatter_to_striped: position {p}");
        if flags[k] {
            assert_eq!(
                part(4)[p],
                data[k],
                "scatter_to_striped_flagged: position {p}"
            );
        }
    }
}

/// The warp-striped conversions of `BlockExchange<T, B, I>` (`B` whole
/// warps).
fn block_exchange_warp<T: Gen, const B: u32, const I: usize>(seeds: &[u64]) {
    let tile = B as usize * I;
    let data: Vec<T> = values(seeds, tile);
    let mut out = Out::new(2 * tile, T::make(0));
    let o = out.ptr();
    let d = &data;
    run_smem(1, B, BlockExchange::<T, B, I>::TEMP_BYTES, &|| {
        let block = this_thread_block().with_threads::<B>();
        let warp = tiled_partition::<32>(&block);
        let temp = dyn_temp::<BlockExchange<T, B, I>>(0);
        let ex = BlockExchange::<T, B, I>::new(&block, &temp);
        let r = block.thread_rank() as usize;
        let x: [T; I] = core::array::from_fn(|i| d[blocked(r, i, I)]);
        for (i, v) in ex.blocked_to_warp_striped(x).into_iter().enumerate() {
            o.set(warp_striped(r, i, I), v);
        }
        warp.sync();
        let x: [T; I] = core::array::from_fn(|i| d[warp_striped(r, i, I)]);
        for (i, v) in ex.warp_striped_to_blocked(x).into_iter().enumerate() {
            o.set(tile + blocked(r, i, I), v);
        }
    });
    let got = out.into_vec();
    assert_eq!(&got[..tile], &data[..], "blocked_to_warp_striped");
    assert_eq!(&got[tile..], &data[..], "warp_striped_to_blocked");
}

/// `WarpExchange<T, I, W>` in a block of `block` threads (a partial last
/// tile when `block` is not a multiple of `W`).
fn warp_exchange<T: Gen, const I: usize, const W: u32>(seeds: &[u64], block: u32)
where
    Size<W>: WarpTileSize,
{
    let tiles = block.div_ceil(W) as usize;
    let wt = W as usize * I;
    let data: Vec<T> = values(seeds, tiles * wt);
    let mut out = Out::new(2 * tiles * wt, T::make(0));
    let o = out.ptr();
    let d = &data;
    run_smem(1, block, <[WarpExchange<T, I, W>; 32]>::TEMP_BYTES, &|| {
        let b = this_thread_block();
        let tile = tiled_partition::<W>(&b);
        let temp = dyn_temp::<[WarpExchange<T, I, W>; 32]>(0);
        let t = tile.meta_group_rank() as usize;
        let ex = WarpExchange::<T, I, W>::new(&tile, &temp.part(t as u32));
        let r = tile.thread_rank() as usize;
        let x: [T; I] = core::array::from_fn(|i| d[t * wt + blocked(r, i, I)]);
        for (i, v) in ex.blocked_to_striped(x).into_iter().enumerate() {
            o.set(t * wt + striped(r, i, W as usize), v);
        }
        tile.sync();
        let x: [T; I] = core::array::from_fn(|i| d[t * wt + striped(r, i, W as usize)]);
        for (i, v) in ex.striped_to_blocked(x).into_iter().enumerate() {
            o.set(tiles * wt + t * wt + blocked(r, i, I), v);
        }
    });
    let got = out.into_vec();
    // Positions of existing threads only (the last tile may be short).
    for (t, &members) in tile_threads(block, W).iter().enumerate() {
        for r in 0..members {
            for i in 0..I {
                let s = t * wt + striped(r, i, W as usize);
                let bl = t * wt + blocked(r, i, I);
                // Items of a missing thread never arrive: compare what is defined.
                let src_thread = |p: usize| p % wt / I;
                if src_thread(s - t * wt) < members {
                    assert_eq!(
                        got[s], data[s],
                        "blocked_to_striped tile {t} rank {r} item {i}"
                    );
                }
                if (bl - t * wt) % (W as usize) < members {
                    assert_eq!(
                        got[tiles * wt + bl],
                        data[bl],
                        "striped_to_blocked tile {t} rank {r} item {i}"
                    );
                }
            }
        }
    }
}

/// Threads of each tile of `w` in a block of `block`.
fn tile_threads(block: u32, w: u32) -> Vec<usize> {
    (0..block.div_ceil(w))
        .map(|t| (block - t * w).min(w) as usize)
        .collect()
}

/// `BlockLoad` then `BlockStore`, algorithm `A`, of the tile at `src_off`
/// of the data (unaligned for odd offsets), `valid` items (a full tile if
/// `valid ≥ tile`).
fn block_load_store<T: Gen, A: BlockAlgorithm + 'static, const B: u32, const I: usize>(
    seeds: &[u64],
    src_off: usize,
    valid: usize,
) {
    let tile = B as usize * I;
    let data: Vec<T> = values(seeds, src_off + tile.min(valid));
    let oob = T::make(12345);
    let mut loaded = Out::new(tile, T::make(0));
    let mut stored = Out::new(src_off + tile + 8, T::make(7));
    let (l, s) = (loaded.ptr(), stored.ptr());
    let src = &data[src_off..];
    let striped_regs = TypeId::of::<A>() == TypeId::of::<Striped>();
    let lb = align16(BlockLoad::<T, B, I, A>::TEMP_BYTES);
    run_smem(1, B, lb + BlockStore::<T, B, I, A>::TEMP_BYTES, &|| {
        let block = this_thread_block().with_threads::<B>();
        let lt = dyn_temp::<BlockLoad<T, B, I, A>>(0);
        let st = dyn_temp::<BlockStore<T, B, I, A>>(lb);
        let r = block.thread_rank() as usize;
        let load = BlockLoad::<T, B, I, A>::new(&block, &lt);
        let store = BlockStore::<T, B, I, A>::new(&block, &st);
        let full = valid >= tile;
        let x = if full {
            load.load(src)
        } else {
            load.load_partial(src, valid, oob)
        };
        for (i, v) in x.iter().enumerate() {
            let p = if striped_regs {
                striped(r, i, B as usize)
            } else {
                blocked(r, i, I)
            };
            l.set(p, *v);
        }
        let dst = s.ptr().wrapping_add(src_off);
        // SAFETY: the tile's elements of `stored`, written once each.
        unsafe {
            if full {
                store.store(dst, x)
            } else {
                store.store_partial(dst, valid, x)
            }
        }
    });
    let loaded = loaded.into_vec();
    let stored = stored.into_vec();
    for p in 0..tile {
        let want = if p < valid.min(tile) { src[p] } else { oob };
        assert_eq!(
            loaded[p], want,
            "load position {p} (valid {valid}, offset {src_off})"
        );
        let want = if p < valid.min(tile) {
            src[p]
        } else {
            T::make(7)
        };
        assert_eq!(
            stored[src_off + p],
            want,
            "store position {p} (valid {valid}, offset {src_off})"
        );
    }
    assert!(
        stored[..src_off]
            .iter()
            .chain(&stored[src_off + tile..])
            .all(|v| *v == T::make(7))
    );
}

/// `WarpLoad` then `WarpStore`, algorithm `A`, tiles of `W` in a block of
/// 64, each tile's part of `valid` items.
fn warp_load_store<T: Gen, A: WarpAlgorithm + 'static, const I: usize, const W: u32>(
    seeds: &[u64],
    valid: usize,
) where
    Size<W>: WarpTileSize,
{
    let tiles = 64 / W as usize;
    let wt = W as usize * I;
    let data: Vec<T> = values(seeds, tiles * wt);
    let oob = T::make(999);
    let mut loaded = Out::new(tiles * wt, T::make(0));
    let mut stored = Out::new(tiles * wt, T::make(7));
    let (l, s) = (loaded.ptr(), stored.ptr());
    let d = &data;
    let striped_regs = TypeId::of::<A>() == TypeId::of::<Striped>();
    let lb = align16(<[WarpLoad<T, I, A, W>; 16]>::TEMP_BYTES);
    run_smem(
        1,
        64,
        lb + <[WarpStore<T, I, A, W>; 16]>::TEMP_BYTES,
        &|| {
            let b = this_thread_block();
            let tile = tiled_partition::<W>(&b);
            let t = tile.meta_group_rank() as usize;
            let temp = dyn_temp::<[WarpLoad<T, I, A, W>; 16]>(0);
            let stemp = dyn_temp::<[WarpStore<T, I, A, W>; 16]>(lb);
            let load = WarpLoad::<T, I, A, W>::new(&tile, &temp.part(t as u32));
            let store = WarpStore::<T, I, A, W>::new(&tile, &stemp.part(t as u32));
            let r = tile.thread_rank() as usize;
            let src = &d[t * wt..];
            let full = valid >= wt;
            let x = if full {
                load.load(src)
            } else {
                load.load_partial(src, valid, oob)
            };
            for (i, v) in x.iter().enumerate() {
                let p = if striped_regs {
                    striped(r, i, W as usize)
                } else {
                    blocked(r, i, I)
                };
                l.set(t * wt + p, *v);
            }
            // SAFETY: the tile's part of `stored`, written once each.
            unsafe {
                let dst = s.ptr().add(t * wt);
                if full {
                    store.store(dst, x)
                } else {
                    store.store_partial(dst, valid, x)
                }
            }
        },
    );
    let loaded = loaded.into_vec();
    let stored = stored.into_vec();
    for t in 0..tiles {
        for p in 0..wt {
            let k = t * wt + p;
            let inside = p < valid.min(wt);
            assert_eq!(
                loaded[k],
                if inside { data[k] } else { oob },
                "load tile {t} position {p}"
            );
            assert_eq!(
                stored[k],
                if inside { data[k] } else { T::make(7) },
                "store tile {t} position {p}"
            );
        }
    }
}

/// A random permutation of `0..n` and `n` random flags.
fn perm_and_flags(n: usize) -> impl Strategy<Value = (Vec<usize>, Vec<bool>)> {
    (
        Just((0..n).collect::<Vec<_>>()).prop_shuffle(),
        prop::collection::vec(any::<bool>(), n),
    )
}

macro_rules! exchange_matrix {
    ($name:ident: $($t:ty, $b:literal, $i:literal;)*) => {
        proptest! {
            #![proptest_config(ProptestConfig { cases: 8, ..ProptestConfig::default() })]
            $(
                #[test]
                #[allow(non_snake_case)]
                fn $name(seeds in prop::collection::vec(any::<u64>(), 1..8),
                          (perm, flags) in perm_and_flags($b * $i)) {
                    block_exchange::<$t, $b, $i>(&seeds, &perm, &flags);
                }
            )*
        }
    };
}

mod block_exchange_u32_128_4 {
    use super::*;
    exchange_matrix!(t: u32, 128, 4;);
}
mod block_exchange_u32_64_8 {
    use super::*;
    exchange_matrix!(t: u32, 64, 8;);
}
mod block_exchange_u32_96_3 {
    use super::*;
    exchange_matrix!(t: u32, 96, 3;);
}
mod block_exchange_u32_40_1 {
    use super::*;
    exchange_matrix!(t: u32, 40, 1;);
}
mod block_exchange_u8_64_16 {
    use super::*;
    exchange_matrix!(t: u8, 64, 16;);
}
mod block_exchange_u64_32_2 {
    use super::*;
    exchange_matrix!(t: u64, 32, 2;);
}
mod block_exchange_a3_32_5 {
    use super::*;
    exchange_matrix!(t: [u32; 3], 32, 5;);
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 8, ..ProptestConfig::default() })]

    #[test]
    fn block_exchanges_warp_striped(seeds in prop::collection::vec(any::<u64>(), 1..8)) {
        block_exchange_warp::<u32, 128, 4>(&seeds);
        block_exchange_warp::<u32, 64, 8>(&seeds);
        block_exchange_warp::<u8, 32, 16>(&seeds);
        block_exchange_warp::<u64, 96, 3>(&seeds);
    }

    #[test]
    fn warp_exchanges(seeds in prop::collection::vec(any::<u64>(), 1..8), block in prop_oneof![Just(64u32), 33u32..64]) {
        warp_exchange::<u32, 4, 32>(&seeds, block);
        warp_exchange::<u32, 8, 16>(&seeds, block);
        warp_exchange::<u8, 3, 8>(&seeds, block);
        warp_exchange::<u64, 2, 4>(&seeds, block);
    }

    #[test]
    fn block_loads_and_stores_u32(seeds in prop::collection::vec(any::<u64>(), 1..8),
                                  off in 0usize..6, valid in prop_oneof![Just(usize::MAX), 0usize..=512]) {
        block_load_store::<u32, Direct, 128, 4>(&seeds, off, valid);
        block_load_store::<u32, Striped, 128, 4>(&seeds, off, valid);
        block_load_store::<u32, Vectorize, 128, 4>(&seeds, off, valid);
        block_load_store::<u32, Transpose, 128, 4>(&seeds, off, valid);
        block_load_store::<u32, WarpTranspose, 128, 4>(&seeds, off, valid);
        block_load_store::<u32, Transpose, 48, 3>(&seeds, off, valid);
        block_load_store::<u32, Vectorize, 64, 8>(&seeds, off, valid);
        block_load_store::<u32, WarpTranspose, 64, 8>(&seeds, off, valid);
    }

    #[test]
    fn block_loads_and_stores_other_types(seeds in prop::collection::vec(any::<u64>(), 1..8),
                                          off in 0usize..6, valid in prop_oneof![Just(usize::MAX), 0usize..=256]) {
        block_load_store::<u8, Vectorize, 32, 8>(&seeds, off, valid);
        block_load_store::<u8, WarpTranspose, 32, 8>(&seeds, off, valid);
        block_load_store::<u64, Vectorize, 64, 2>(&seeds, off, valid);
        block_load_store::<u64, Transpose, 64, 2>(&seeds, off, valid);
        block_load_store::<[u32; 3], Vectorize, 32, 4>(&seeds, off, valid);
        block_load_store::<[u32; 3], WarpTranspose, 32, 4>(&seeds, off, valid);
    }

    #[test]
    fn warp_loads_and_stores(seeds in prop::collection::vec(any::<u64>(), 1..8),
                             valid in prop_oneof![Just(usize::MAX), 0usize..=128]) {
        warp_load_store::<u32, Direct, 4, 32>(&seeds, valid);
        warp_load_store::<u32, Striped, 4, 32>(&seeds, valid);
        warp_load_store::<u32, Vectorize, 4, 32>(&seeds, valid);
        warp_load_store::<u32, Transpose, 4, 32>(&seeds, valid);
        warp_load_store::<u16, Transpose, 3, 8>(&seeds, valid);
        warp_load_store::<u64, Vectorize, 2, 16>(&seeds, valid);
    }
}
