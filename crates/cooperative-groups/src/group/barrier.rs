//! Synchronisation of multi-warp groups, and how tiles of 64–1024 threads
//! get their barriers.
//!
//! # Named-barrier reservation
//!
//! A block has 16 hardware barriers. Id 0 is `__syncthreads()`; **this
//! crate reserves ids 1–15 for tiles of 64–512 threads** — do not use named
//! barriers 1–15 yourself (`bar.sync 1..15`) in kernels that create such
//! tiles. The ids of a block of `B` threads are assigned statically, from
//! `B` alone, so that tiles of different sizes that may be in flight at the
//! same time never share one:
//!
//! * a tile as large as the block syncs with `bar.sync 0`;
//! * the other sizes `N < B` (64 ≤ N ≤ 512), from the largest to the
//!   smallest, get consecutive ranges of `⌈B / N⌉` ids starting at 1; tile
//!   `k` of size `N` uses `base(N) + k` with `bar.sync id, 32 · warps`;
//! * a size whose range would pass 15 uses a **software barrier** instead.
//!   That happens only for 64-thread tiles in blocks of more than 512
//!   threads (512, 256 and 128 take at most 2 + 4 + 8 = 14 ids; a unit test
//!   checks every block size): a 64-thread tile then syncs through a
//!   counter and a generation word in shared memory (one warp leader
//!   arrives with `atom.shared.add`, the last one bumps the generation, the
//!   others spin on it), like NVIDIA's implementation of every large tile.
//!
//! Creating a tile therefore needs no block-wide barrier — except a
//! software-barrier tile, whose counter must be zeroed before first use:
//! its creation zeroes it and syncs the parent once (`bar.sync 0` for a
//! block parent, the parent tile's hardware barrier otherwise).
//!
//! # Reserved barriers and occupancy
//!
//! ptxas reserves, per kernel, every barrier up to the largest id it can
//! see; a register id counts as all 16, and 16 barriers per block let an
//! H200 SM hold only 4 blocks. When the block is bounded to at most 256
//! threads at compile time (`ThreadBlock::with_max_threads`), `sync` turns
//! the id into an immediate (one `bar.sync k` per id the bound allows, see
//! [`immediate_id_bound`]), so such kernels reserve 3 or 7 barriers and
//! keep their full occupancy.

use super::shape::{Bar, FULL, Multi};
use crate::arch;

/// The ids a block of `block` threads gives to tiles of `size` threads
/// (`64 ≤ size < block`): the first id, and the number of tiles.
#[inline(always)]
pub(crate) const fn named_range(size: u32, block: u32) -> (u32, u32) {
    let mut base = 1;
    let mut m = 512;
    while m > size {
        if m < block {
            base += block.div_ceil(m);
        }
        m /= 2;
    }
    (base, block.div_ceil(size))
}

/// The barrier of tile `index` of `size` threads in a block of `block`.
#[inline(always)]
pub(crate) const fn tile_barrier(size: u32, block: u32, index: u32) -> Bar {
    if size >= block {
        return Bar::Block;
    }
    let (base, tiles) = named_range(size, block);
    // Only 64-thread tiles can run out of ids (the unit test below checks
    // every block size); saying so lets the compiler drop the check.
    if size != 64 || base + tiles - 1 <= 15 {
        Bar::Named(base + index)
    } else {
        Bar::Soft(index)
    }
}

/// The largest named-barrier id a tile of `size` threads gets in any block
/// of at most `max_block` threads (0: none, the tile is the block). The ids
/// of a size grow with the block, so the largest block decides; 15 when it
/// would pass 15 (64-thread tiles whose large blocks use the software
/// barrier). With a small `max_block` known at compile time
/// ([`ThreadBlock::with_max_threads`](crate::ThreadBlock::with_max_threads))
/// `sync` emits immediate ids and ptxas reserves this many + 1 barriers
/// (see [`immediate_id_bound`]).
#[inline(always)]
pub(crate) const fn max_named_id(size: u32, max_block: u32) -> u32 {
    if size >= max_block {
        return 0;
    }
    let (base, tiles) = named_range(size, max_block);
    let top = base + tiles - 1;
    if top > 15 { 15 } else { top }
}

/// The id bound a tile's `sync` passes to `barrier_sync_upto`: the tile's
/// [`max_named_id`] when the block is bounded to at most 256 threads, else
/// 15 (the register form). Only blocks that small lose blocks per SM to 16
/// reserved barriers (4 blocks of 512 threads already fill the SM), and a
/// chain of immediate ids costs compares on every sync: with it, tiles of
/// 256 threads in 1024-thread blocks ran 1.25× slower on the H200.
#[inline(always)]
pub(crate) const fn immediate_id_bound(size: u32, max_block: u32) -> u32 {
    if max_block <= 256 {
        max_named_id(size, max_block)
    } else {
        15
    }
}

/// Whether a tile of `size` threads in a block of at most `max_block` can
/// ever use the software barrier (only 64-thread tiles of blocks larger
/// than 512 threads run out of ids; the unit tests check every block):
/// with a bound, the software-barrier code folds away.
#[inline(always)]
pub(crate) const fn may_use_soft(size: u32, max_block: u32) -> bool {
    size == 64 && max_block > 512
}

/// Encodes a [`Bar`] in one `u32` (0: block, 1..=15: named, 16+: software).
#[inline(always)]
pub(crate) const fn encode(bar: Bar) -> u32 {
    match bar {
        Bar::Block => 0,
        Bar::Named(id) => id,
        Bar::Soft(slot) => 16 + slot,
    }
}

/// Decodes [`encode`], for a tile of `size` threads in blocks of at most
/// `max_block`: the cases that cannot occur for those fold away at compile
/// time.
#[inline(always)]
pub(crate) const fn decode(code: u32, size: u32, max_block: u32) -> Bar {
    if size >= 1024 || size >= max_block || code == 0 {
        Bar::Block
    } else if !may_use_soft(size, max_block) || code < 16 {
        Bar::Named(code)
    } else {
        Bar::Soft(code - 16)
    }
}

/// `sync()` of a multi-warp group.
#[inline(always)]
#[track_caller]
pub(crate) fn sync(m: &Multi) {
    match m.bar {
        Bar::Block => arch::sync_threads(),
        Bar::Named(id) => arch::barrier_sync_upto(id, m.max_bar_id, m.warps() * 32),
        Bar::Soft(slot) => soft_sync(slot, m.warps(), m.lane()),
    }
}

/// The (count, generation) words of software-barrier slot `slot`.
#[inline(always)]
#[track_caller]
fn soft_words(slot: u32) -> (arch::SharedAddr, arch::SharedAddr) {
    let base = arch::shared_add(arch::soft_barrier_scratch(), slot * 8);
    (base, arch::shared_add(base, 4))
}

/// Zeroes the arrival counter of software-barrier slot `slot`; the caller
/// then syncs a group containing the tile before the tile's first `sync`.
#[inline(always)]
#[track_caller]
pub(crate) fn soft_init(slot: u32) {
    let (count, _) = soft_words(slot);
    // SAFETY: `count` is a word of the library's soft-barrier scratch.
    unsafe { arch::st_volatile_shared_u32(count, 0) };
}

/// A software barrier over `warps` warps: every warp syncs itself, its lane
/// 0 arrives on the shared counter; the last arrival resets the counter and
/// bumps the generation, which the others spin on. The generation may start
/// at any value (only its change is watched); the counter starts at 0
/// ([`soft_init`]).
#[inline(never)]
#[track_caller]
fn soft_sync(slot: u32, warps: u32, lane: u32) {
    arch::warp_sync(FULL);
    if lane == 0 {
        let (last, generation) = lane0_arrive(slot, warps);
        if last {
            lane0_release(slot, generation);
        } else {
            lane0_wait(slot, generation);
        }
        // Acquire the other warps' writes for the whole warp.
        arch::fence_block();
    }
    arch::warp_sync(FULL);
}

/// [`soft_sync`] split in two, for a collective that the last warp to
/// arrive finishes before anyone leaves (one software barrier where a
/// collective needs two; NVIDIA's shape for large tiles): every warp syncs
/// itself and its lane 0 arrives. Returns to the whole warp whether it
/// arrived last — then the other warps' earlier writes are visible to it,
/// and it must call [`soft_release`] after its own — and the generation to
/// hand on (meaningful in lane 0). The others call [`soft_wait`].
#[inline(always)]
#[track_caller]
pub(crate) fn soft_arrive(slot: u32, warps: u32, lane: u32, mask: u32) -> (bool, u32) {
    arch::warp_sync(FULL);
    let (mut last, mut generation) = (false, 0);
    if lane == 0 {
        (last, generation) = lane0_arrive(slot, warps);
        if last {
            arch::fence_block();
        }
    }
    // `bar.warp.sync` hands lane 0's acquire to the whole warp.
    arch::warp_sync(FULL);
    let last = arch::shfl(arch::ShflMode::Idx, mask, last as u32, 0, 0x1f) != 0;
    (last, generation)
}

/// The last warp's end of a split software barrier: its lanes' writes
/// (ordered by `bar.warp.sync`) are released with the new generation.
#[inline(always)]
#[track_caller]
pub(crate) fn soft_release(slot: u32, generation: u32, lane: u32) {
    arch::warp_sync(FULL);
    if lane == 0 {
        lane0_release(slot, generation);
    }
}

/// The other warps' end of a split software barrier: wait for the last
/// warp's release, then see its writes.
#[inline(always)]
#[track_caller]
pub(crate) fn soft_wait(slot: u32, generation: u32, lane: u32) {
    if lane == 0 {
        lane0_wait(slot, generation);
        arch::fence_block();
    }
    arch::warp_sync(FULL);
}

/// Lane 0's arrival: reads the generation, releases the warp's writes
/// (ordered before by `bar.warp.sync`) and counts itself in. Returns
/// whether it was the last of `warps`, and the generation it saw.
#[inline(always)]
#[track_caller]
fn lane0_arrive(slot: u32, warps: u32) -> (bool, u32) {
    let (count, gen_word) = soft_words(slot);
    // SAFETY (all accesses): `count` and `gen_word` are words of the
    // library's soft-barrier scratch.
    let generation = unsafe { arch::ld_volatile_shared_u32(gen_word) };
    arch::fence_block();
    let arrived = unsafe { arch::atomic_add_shared_u32(count, 1) };
    (arrived == warps - 1, generation)
}

/// Lane 0 of the last warp: resets the counter, then publishes the next
/// generation (after everything the warp wrote).
#[inline(always)]
#[track_caller]
fn lane0_release(slot: u32, generation: u32) {
    let (count, gen_word) = soft_words(slot);
    // SAFETY (both stores): words of the library's soft-barrier scratch.
    unsafe { arch::st_volatile_shared_u32(count, 0) };
    arch::fence_block();
    unsafe { arch::st_volatile_shared_u32(gen_word, generation.wrapping_add(1)) };
}

/// Lane 0 of the other warps: spins until the generation moves on.
#[inline(always)]
#[track_caller]
fn lane0_wait(slot: u32, generation: u32) {
    let (_, gen_word) = soft_words(slot);
    // SAFETY: a word of the library's soft-barrier scratch.
    while unsafe { arch::ld_volatile_shared_u32(gen_word) } == generation {
        arch::spin_hint();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Software barriers are needed only for 64-thread tiles in blocks of
    /// more than 512 threads, and named ids never collide.
    #[test]
    fn named_ids_fit_except_tile64_in_big_blocks() {
        for block in 1..=1024u32 {
            let mut used = [false; 16];
            for size in [512u32, 256, 128, 64] {
                if size >= block {
                    continue;
                }
                let tiles = block.div_ceil(size);
                let (base, n) = named_range(size, block);
                assert_eq!(n, tiles);
                if size != 64 {
                    assert!(
                        base + n - 1 <= 15,
                        "size {size} in block {block} needs ids up to {}",
                        base + n - 1
                    );
                } else if block <= 512 {
                    assert!(base + n - 1 <= 15, "block {block}");
                }
                for k in 0..tiles {
                    match tile_barrier(size, block, k) {
                        Bar::Named(id) => {
                            assert!((1..=15).contains(&id));
                            assert!(
                                !used[id as usize],
                                "id {id} reused (block {block}, size {size})"
                            );
                            used[id as usize] = true;
                        }
                        Bar::Soft(slot) => {
                            assert_eq!(size, 64, "block {block}");
                            assert!(block > 512);
                            assert_eq!(slot, k);
                            assert!(slot < 32);
                        }
                        Bar::Block => unreachable!(),
                    }
                }
            }
        }
        assert_eq!(tile_barrier(64, 1024, 3), Bar::Soft(3));
        assert_eq!(tile_barrier(64, 512, 0), Bar::Named(7));
        assert_eq!(tile_barrier(256, 256, 0), Bar::Block);
    }

    /// Every id a tile gets in a block within the bound is at most the
    /// bound's `max_named_id`, and the bound is reached (no wasted barrier).
    #[test]
    fn max_named_id_bounds_every_smaller_block() {
        for max_block in 1..=1024u32 {
            for size in [512u32, 256, 128, 64] {
                let max = max_named_id(size, max_block);
                let mut top = 0;
                for block in 1..=max_block {
                    for k in 0..block.div_ceil(size) {
                        if let Bar::Named(id) = tile_barrier(size, block, k) {
                            assert!(id <= max, "size {size}, block {block}: id {id} > {max}");
                            top = top.max(id);
                        }
                    }
                }
                // 15 stands for "the register form" (64-thread tiles whose
                // largest blocks fall back to the software barrier).
                if max < 15 {
                    assert_eq!(top, max, "size {size}, max_block {max_block}");
                }
            }
        }
        assert_eq!(max_named_id(64, 128), 2);
        assert_eq!(max_named_id(64, 256), 6);
        assert_eq!(max_named_id(128, 128), 0);
        assert_eq!(max_named_id(64, 1024), 15);
    }

    #[test]
    fn encoding_round_trips() {
        for (size, bar) in [
            (64, Bar::Soft(5)),
            (64, Bar::Named(3)),
            (128, Bar::Named(15)),
            (512, Bar::Block),
            (1024, Bar::Block),
        ] {
            assert_eq!(decode(encode(bar), size, 1024), bar);
        }
    }
}
