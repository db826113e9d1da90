//! The ranking step of the block radix sort (CUB's `BlockRadixRank`): for
//! each of the block's items, its position in a stable sort of the block
//! by one digit of `RADIX_BITS` bits.
//!
//! Counters: for `D = 2^RADIX_BITS` digits, `D / 2` *lanes* of 32-bit
//! words per thread, two 16-bit counters per word (digit `d` is counter
//! `d / lanes` of lane `d mod lanes`), plus one padding lane: word
//! `(lane, t)` of thread `t` at `lane · BLOCK + t`.
//!
//! 1. Each thread zeroes its own column and counts its items: an item's
//!    prefix is its counter's value before the increment.
//! 2. `bar.sync`. Thread `t` rakes the `lanes + 1` consecutive words
//!    `t · (lanes + 1) …` (an odd stride: no bank conflicts) into
//!    registers and adds them, both halves at once.
//! 3. The block's exclusive scan of those sums: a warp scan
//!    (`shfl.sync.up`), the warp totals through this primitive's storage,
//!    `bar.sync`, each thread folds the totals of the warps before its own
//!    (`ld.shared.v4`). The high counters come after every low one, so
//!    they also get the total of the low halves (the block total's low
//!    half, shifted up).
//! 4. Each thread writes its words' exclusive prefixes back, `bar.sync`,
//!    and an item's rank is its prefix plus its counter's word.
//!
//! Three barriers per digit; CUB's `BlockRadixRank` with its `BlockScan`
//! has four, and its `BlockRadixSort` one more between the ranking and the
//! exchange, whose storage it shares (here the two have their own). The
//! counters are 16-bit: a tile has fewer than 65536 items (checked when
//! the kernel is compiled).
//!
//! # Why this is race-free
//!
//! Step 1 writes the thread's own column, which other threads last
//! accessed in step 4 of the previous digit (its raking writes, then its
//! owner's reads), before that digit's exchange barrier. Step 2 reads
//! other columns after the barrier that ends step 1. Warp totals are
//! written in step 3 after the step-2 barrier, and were last read in step
//! 3 of the previous digit, before its step-4 barrier. Step 4's raking
//! writes come after every thread's step-2 reads (the step-3 barrier) and
//! its reads after the writes (the step-4 barrier).

use super::sync;
use crate::collective::warp::scan::seg_inclusive_pred;
use crate::group::shape::Seg;
use crate::ops::Plus;
use crate::primitives::storage::Smem;

/// Digits of `RADIX_BITS` bits.
pub(crate) const fn digits(radix_bits: u32) -> u32 {
    1 << radix_bits
}

/// Counter lanes (words per thread, two counters each).
pub(crate) const fn lanes(radix_bits: u32) -> u32 {
    if radix_bits == 0 {
        1
    } else {
        digits(radix_bits) / 2
    }
}

/// Bytes of the counters (16-byte aligned).
const fn counter_bytes(block: u32, radix_bits: u32) -> u32 {
    ((lanes(radix_bits) + 1) * block * 4).next_multiple_of(16)
}

/// Bytes of the ranking storage: the counters, then 32 warp totals.
pub(crate) const fn rank_bytes(block: u32, radix_bits: u32) -> usize {
    (counter_bytes(block, radix_bits) + 32 * 4) as usize
}

/// The ranking of a block of `BLOCK` threads, `ITEMS` items each.
pub(crate) struct RadixRank<const BLOCK: u32, const ITEMS: usize, const RADIX_BITS: u32> {
    rank: u32,
    counters: Smem,
    totals: Smem,
}

impl<const BLOCK: u32, const ITEMS: usize, const RADIX_BITS: u32>
    RadixRank<BLOCK, ITEMS, RADIX_BITS>
{
    const LANES: u32 = lanes(RADIX_BITS);
    const PADDED: u32 = Self::LANES + 1;
    const WARPS: u32 = BLOCK.div_ceil(32);

    #[inline(always)]
    #[track_caller]
    pub(crate) fn new(rank: u32, smem: Smem) -> Self {
        const {
            assert!(RADIX_BITS >= 1 && RADIX_BITS <= 8, "digits of 1 to 8 bits");
            assert!(
                BLOCK as usize * ITEMS < 65536,
                "a radix-sorted tile has fewer than 65536 items (16-bit counters)"
            );
        };
        RadixRank {
            rank,
            counters: smem,
            totals: smem.offset(counter_bytes(BLOCK, RADIX_BITS)),
        }
    }

    /// Byte offset of counter word `(lane, thread)`.
    #[inline(always)]
    fn word(lane: u32, thread: u32) -> u32 {
        4 * (lane * BLOCK + thread)
    }

    /// The rank of each item, by its digit (`< 2^RADIX_BITS`); ties keep
    /// the blocked order. `descending` ranks the largest digit first.
    #[inline(always)]
    #[track_caller]
    /// `digit_of(i)` is item `i`'s digit; it is called twice per item (the
    /// digit is recomputed from the key for the rank rather than kept in a
    /// register per item).
    pub(crate) fn rank<F: Fn(usize) -> u32>(&self, digit_of: F, descending: bool) -> [u32; ITEMS] {
        let lanes = Self::LANES;
        let log_lanes = RADIX_BITS - 1;
        let t = self.rank;
        // 1. Own column to zero, then count.
        let mut l = 0;
        while l < Self::PADDED {
            self.counters.store(Self::word(l, t), 0u32);
            l += 1;
        }
        // Per item only its prefix stays live; the digit, its word and its
        // half are recomputed for the rank.
        let flip = |d: u32| {
            if descending {
                self::digits(RADIX_BITS) - 1 - d
            } else {
                d
            }
        };
        let mut prefix = [0u32; ITEMS];
        unroll!(i in 0..ITEMS => {
            let d = flip(digit_of(i));
            let shift = 16 * (d >> log_lanes);
            let at = Self::word(d & (lanes - 1), t);
            let old: u32 = self.counters.load(at);
            prefix[i] = (old >> shift) & 0xffff;
            self.counters.store(at, old.wrapping_add(1 << shift));
        });
        sync();
        // 2. Rake this thread's segment.
        let mut seg = [0u32; 129];
        let base = 4 * t * Self::PADDED;
        let mut sum = 0u32;
        let mut j = 0;
        while j < Self::PADDED as usize {
            seg[j] = self.counters.load(base + 4 * j as u32);
            sum = sum.wrapping_add(seg[j]);
            j += 1;
        }
        // 3. The block's exclusive scan of the sums, and its total.
        let w = t / 32;
        let lanes_here = if BLOCK - 32 * w < 32 {
            BLOCK - 32 * w
        } else {
            32
        };
        let warp = Seg::warp(t & 31, lanes_here, BLOCK.is_multiple_of(32));
        let inclusive = seg_inclusive_pred::<u32, Plus>(warp, sum, Plus);
        if t & 31 == lanes_here - 1 {
            self.totals.store(4 * w, inclusive);
        }
        sync();
        // Four totals per `ld.shared.v4`, then the rest one at a time
        // (loops of constant trip counts: unrolled).
        let mut before = 0u32;
        let mut total = 0u32;
        let quads = Self::WARPS / 4;
        let mut c = 0;
        while c < quads {
            let v: [u32; 4] = self.totals.load_run(16 * c, true);
            let mut q = 0;
            while q < 4 {
                if 4 * c + q < w {
                    before = before.wrapping_add(v[q as usize]);
                }
                total = total.wrapping_add(v[q as usize]);
                q += 1;
            }
            c += 1;
        }
        let mut k = 4 * quads;
        while k < Self::WARPS {
            let x: u32 = self.totals.load(4 * k);
            if k < w {
                before = before.wrapping_add(x);
            }
            total = total.wrapping_add(x);
            k += 1;
        }
        // The high counters follow every low one.
        let mut running = before
            .wrapping_add(inclusive.wrapping_sub(sum))
            .wrapping_add(total << 16);
        // 4. Prefixes back in place, then the ranks.
        let mut j = 0;
        while j < Self::PADDED as usize {
            self.counters.store(base + 4 * j as u32, running);
            running = running.wrapping_add(seg[j]);
            j += 1;
        }
        sync();
        let mut out = [0u32; ITEMS];
        unroll!(i in 0..ITEMS => {
            let d = flip(digit_of(i));
            let word: u32 = self.counters.load(Self::word(d & (lanes - 1), t));
            out[i] = prefix[i] + ((word >> (16 * (d >> log_lanes))) & 0xffff);
        });
        out
    }
}
