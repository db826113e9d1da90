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
//!   checks every block size). On sm_80+ (and the simulator) it is an
//!   `mbarrier` per tile in shared memory expecting the tile's threads:
//!   each thread arrives (`mbarrier.arrive`, release) and waits on its
//!   token (`mbarrier.try_wait`, acquire), with no warp barrier — 340
//!   cycles per sync on the H200 in 1024-thread blocks (`cg-lab sync`,
//!   measured before the barrier's address was read once per handle; the
//!   same loop on the mbarrier API, which reads it once: 286), where the
//!   pair of flags this replaced took 721 and NVIDIA's tiles take 1007
//!   (they arrive on a shared counter with an atomic and spin on a
//!   generation word). Below sm_80 the two warps sync through a pair of
//!   flags: each warp's lane 0 bumps its own flag (`st.release`) and waits
//!   until the other warp's has caught up (`ld.acquire`). One-word `reduce`
//!   and scans on such a tile skip the barrier altogether: the two warps
//!   swap their values in one handshake ([`soft_swap`]), on sm_80+ a second
//!   mbarrier per tile that expects the two warps' lanes 0 (the lab's
//!   1024-thread sweep, tile 64 ÷ tile 32 on the H200: 2.67, where the flag
//!   handshake it replaced took 2.79 and the same handshake spinning without
//!   `nanosleep` 3.27). No barrier makes these tiles as cheap as tile 128:
//!   a block has 16 hardware barriers and 16 such tiles, and an mbarrier's
//!   arrive and wait cost 286 cycles a sync in 1024-thread blocks, on either
//!   side (`cg-lab sync`: the C++ twin `cuda::barrier` takes the same),
//!   against 125 for `bar.sync`.
//!
//! Creating a tile therefore needs no block-wide barrier — except a
//! software-barrier tile, whose barrier must be initialised: its creation
//! syncs the parent (`bar.sync 0` for a block parent, the parent tile's
//! hardware barrier otherwise), has the tile's first thread initialise
//! its mbarrier (or zero its flags) and its swap words, and syncs the
//! parent again (see [`soft_setup`]).
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

use super::ThreadGroup;
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
        Bar::Soft(slot) => soft_sync(m, slot),
    }
}

/// Byte `offset` of software-barrier slot `slot` in the scratch at `base`
/// (the layout of a slot: [`arch::SOFT_SLOT_BYTES`]).
#[inline(always)]
#[track_caller]
fn slot_byte(base: arch::SharedAddr, slot: u32, offset: u32) -> arch::SharedAddr {
    arch::shared_add(base, slot * arch::SOFT_SLOT_BYTES + offset)
}

/// The flag of warp `warp` (0 or 1) of the tile on software-barrier slot
/// `slot`; only that warp's lane 0 writes it.
#[inline(always)]
#[track_caller]
fn soft_flag(base: arch::SharedAddr, slot: u32, warp: u32) -> arch::SharedAddr {
    slot_byte(base, slot, warp * 4)
}

/// Swap word `buffer` (0 or 1) of warp `warp` of the tile on slot `slot`:
/// the warp's sequence number (high half) and value (low half) of a
/// [`soft_swap`]; only that warp's lane 0 writes it.
#[inline(always)]
#[track_caller]
fn swap_word(base: arch::SharedAddr, slot: u32, warp: u32, buffer: u32) -> arch::SharedAddr {
    slot_byte(base, slot, 8 + warp * 16 + buffer * 8)
}

/// The mbarrier of the swaps on slot `slot` (sm_80+): two arrivals per
/// phase, one per warp's lane 0; where the first swap words are below
/// sm_80.
#[inline(always)]
#[track_caller]
fn swap_mbarrier(base: arch::SharedAddr, slot: u32) -> arch::SharedAddr {
    slot_byte(base, slot, 8)
}

/// The word warp `warp` (0 or 1) swaps in the phases of parity `parity`
/// of the slot's [`swap_mbarrier`] (sm_80+); only that warp's lane 0
/// writes it.
#[inline(always)]
#[track_caller]
fn swap_value(base: arch::SharedAddr, slot: u32, warp: u32, parity: u32) -> arch::SharedAddr {
    slot_byte(base, slot, 16 + parity * 8 + warp * 4)
}

/// The mbarrier of software-barrier slot `slot` (sm_80+): the slot's
/// first 8 bytes, where the flags are below sm_80.
#[inline(always)]
#[track_caller]
fn soft_mbarrier(base: arch::SharedAddr, slot: u32) -> arch::SharedAddr {
    slot_byte(base, slot, 0)
}

/// Sets up software-barrier slot `slot` for a new handle of its tile of
/// `threads` threads, whose first thread is `leader`; `parent` is a group
/// containing the tile, whose `sync` every member of the tile calls.
///
/// The leader initialises the slot's mbarrier for `threads` arrivals
/// (below sm_80: zeroes the flags, which must start equal) and zeroes
/// the swap words (sequence 0). The first parent sync lets every member
/// of the tile finish waiting in the syncs of the tile's previous handle
/// first: a member that had not yet seen the last phase complete (or the
/// other warp's flag catch up) would wait forever once the barrier is
/// reset — a hang, which the simulator reports when a test leaves this
/// sync out. The second makes the initialisation visible before the
/// first sync.
#[inline(always)]
#[track_caller]
pub(crate) fn soft_setup(slot: u32, leader: bool, threads: u32, parent: &impl ThreadGroup) {
    if arch::soft_setup_first_sync() {
        parent.sync();
    }
    if leader {
        let base = arch::soft_barrier_scratch();
        // SAFETY: words of the library's soft-barrier scratch, which no
        // member uses until the parent's next sync (8-byte aligned slots;
        // 1 ≤ threads ≤ 64 arrivals).
        unsafe {
            if arch::HAS_MBARRIER {
                arch::mbarrier_init(soft_mbarrier(base, slot), threads);
            } else {
                for warp in 0..2 {
                    arch::st_volatile_shared_u32(soft_flag(base, slot, warp), 0);
                }
            }
            if arch::HAS_MBARRIER {
                arch::mbarrier_init(swap_mbarrier(base, slot), 2);
            } else {
                for warp in 0..2 {
                    for buffer in 0..2 {
                        arch::st_volatile_shared_u64(swap_word(base, slot, warp, buffer), 0);
                    }
                }
            }
        }
    }
    parent.sync();
}

/// The software barrier of a 64-thread tile. On sm_80+ every member
/// arrives on the tile's mbarrier and waits on its own token: a phase
/// needs every member's arrival, so no token is ever stale, and each
/// member acquires for itself. Below sm_80: each warp syncs itself (its
/// lanes' writes are then ordered before lane 0's release), lane 0 bumps
/// the warp's flag to `t` and waits until the other warp's flag reaches
/// `t` (acquire), and the warp syncs again to hand that on to its lanes;
/// neither warp can get two syncs ahead of the other, so the wrapping
/// difference of the flags is -1, 0 or 1. A tile of one warp (the last of
/// a block of 513–543 threads, …) only syncs its warp.
#[inline(always)]
#[track_caller]
fn soft_sync(m: &Multi, slot: u32) {
    if m.warps() == 1 {
        warp_sync_existing(m);
        return;
    }
    if arch::HAS_MBARRIER {
        let bar = soft_mbarrier(m.soft, slot);
        // SAFETY: the slot's mbarrier, initialised by `soft_setup` for the
        // tile's threads, each of which arrives once per phase.
        unsafe {
            let token = arch::mbarrier_arrive(bar);
            arch::mbarrier_wait(bar, token);
        }
        return;
    }
    warp_sync_existing(m);
    if m.lane() == 0 {
        let warp = m.warp_in_group();
        let mine = soft_flag(m.soft, slot, warp);
        let other = soft_flag(m.soft, slot, 1 - warp);
        // SAFETY: words of the library's soft-barrier scratch (every
        // access below), set up by `soft_setup` when the tile was made.
        let t = unsafe { arch::ld_volatile_shared_u32(mine) }.wrapping_add(1);
        // SAFETY: as above.
        unsafe { arch::st_release_shared_u32(mine, t) };
        // SAFETY: as above.
        while (unsafe { arch::ld_acquire_shared_u32(other) }.wrapping_sub(t) as i32) < 0 {
            arch::spin_hint();
        }
    }
    warp_sync_existing(m);
}

/// [`soft_swap`] on sm_80+ (lane 0 of each warp): on the slot's
/// [`swap_mbarrier`], which expects the two lanes. The lane finds the
/// parity of the phase it is about to arrive on (which cannot complete
/// before that arrival), stores its word into that parity's buffer,
/// arrives (release) and waits for the phase (acquire: the other lane's
/// word is there), and reads the other word. A buffer is rewritten two
/// phases later, which needs the other lane's arrival in the phase
/// between, made after its read.
#[inline(always)]
#[track_caller]
fn mbarrier_swap(m: &Multi, slot: u32, word: u32) -> u32 {
    let warp = m.warp_in_group();
    let bar = swap_mbarrier(m.soft, slot);
    // SAFETY: (all accesses) the slot's swap mbarrier, initialised by
    // `soft_setup` for the tile's two lane-0s, each arriving once per
    // phase, and its 4-byte aligned value words.
    unsafe {
        // Phase parity 0 complete: the current phase has parity 1.
        let parity = arch::mbarrier_test_wait_parity(bar, 0) as u32;
        arch::st_volatile_shared_u32(swap_value(m.soft, slot, warp, parity), word);
        let token = arch::mbarrier_arrive(bar);
        arch::mbarrier_wait(bar, token);
        arch::ld_volatile_shared_u32(swap_value(m.soft, slot, 1 - warp, parity))
    }
}

/// One word exchanged between the two warps of a tile on the software
/// barrier, in one handshake (below sm_80; sm_80+: [`mbarrier_swap`]):
/// lane 0 of each warp stores `(sequence,
/// word)` as one 64-bit store and waits for the other warp's store of the
/// same sequence, whose word it returns (lane 0 only). The value travels
/// with its flag, so no fence and no second barrier is needed: the words
/// alternate between two buffers by the sequence's parity, and a warp
/// rewrites a buffer (two swaps later) only after it saw the other warp's
/// next store, which that warp makes after reading the buffer. A warp's
/// sequence is one more than the larger of its two swap words' (the
/// handles of a tile share them; [`soft_setup`] zeroes them).
///
/// For a [`Multi`] on [`Bar::Soft`] with two warps.
#[inline(always)]
#[track_caller]
pub(crate) fn soft_swap(m: &Multi, slot: u32, word: u32) -> u32 {
    let mut theirs = 0;
    if arch::HAS_MBARRIER {
        if m.lane() == 0 {
            theirs = mbarrier_swap(m, slot, word);
        }
        return theirs;
    }
    if m.lane() == 0 {
        let warp = m.warp_in_group();
        // SAFETY: (all accesses) 8-byte aligned words of the library's
        // soft-barrier scratch, set up by `soft_setup`.
        let [a, b] = [0, 1].map(|k| {
            // SAFETY: as above.
            unsafe { (arch::ld_volatile_shared_u64(swap_word(m.soft, slot, warp, k)) >> 32) as u32 }
        });
        let seq = if (a.wrapping_sub(b) as i32) > 0 { a } else { b }.wrapping_add(1);
        let buffer = seq & 1;
        // SAFETY: as above.
        unsafe {
            arch::st_volatile_shared_u64(
                swap_word(m.soft, slot, warp, buffer),
                (seq as u64) << 32 | word as u64,
            )
        };
        let other = swap_word(m.soft, slot, 1 - warp, buffer);
        loop {
            // SAFETY: as above.
            let x = unsafe { arch::ld_volatile_shared_u64(other) };
            if (x >> 32) as u32 == seq {
                theirs = x as u32;
                break;
            }
            arch::spin_hint();
        }
    }
    theirs
}

/// `bar.warp.sync` over the existing lanes of the caller's warp: the
/// constant full mask when the block has no partial warp (ptxas checks a
/// register mask's convergence with four more instructions), as two calls
/// so that the compiler cannot merge them into one with a register mask.
#[inline(always)]
#[track_caller]
fn warp_sync_existing(m: &Multi) {
    if m.warps_full {
        arch::warp_sync(FULL);
    } else {
        arch::warp_sync(m.warp_seg().mask());
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
                            assert!(slot < arch::SOFT_SLOTS);
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
