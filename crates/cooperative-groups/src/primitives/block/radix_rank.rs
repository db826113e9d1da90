//! The ranking step of the block radix sort (CUB's `BlockRadixRank`): for
//! each of the block's items, its position in a stable sort of the block
//! by one digit of `RADIX_BITS` bits.
//!
//! Counters: for `D = 2^RADIX_BITS` digits, `D / 2` *lanes* of 32-bit
//! words per thread, two 16-bit counters per word (digit `d` is counter
//! `d / lanes` of lane `d mod lanes`), plus one padding lane: word
//! `(lane, t)` of thread `t` at `lane · BLOCK + t`.
//!
//! 1. Each thread zeroes its own column and counts its items with 16-bit
//!    loads and stores of the counters themselves (`ld/st.shared.u16`, as
//!    CUB's `DigitCounter`: shifting and masking halves of a word cost 11
//!    more registers per thread in the 256-thread sort): an item's prefix
//!    is its counter's value before the increment.
//! 2. `bar.sync`. Thread `t` rakes the `lanes + 1` consecutive words
//!    `t · (lanes + 1) …` (an odd stride: no bank conflicts) and adds them,
//!    both halves at once.
//! 3. The block's exclusive scan of those sums: a warp scan
//!    (`shfl.sync.up`), the warp totals through this primitive's storage,
//!    `bar.sync`, each thread folds the totals of the warps before its own
//!    (`ld.shared.v4`). The high counters come after every low one, so
//!    they also get the total of the low halves (the block total's low
//!    half, shifted up).
//! 4. Each thread writes its words' exclusive prefixes back (loading its
//!    segment again rather than keeping it in registers: 8 registers
//!    fewer, for 9 more loads), `bar.sync`, and an item's rank is its
//!    prefix plus its counter ([`RadixRank::rank_of`], one load per item,
//!    so that the sort scatters each item as soon as its rank is known).
//!
//! Three barriers per digit; CUB's `BlockRadixRank` with its `BlockScan`
//! has four, and its `BlockRadixSort` one more between the ranking and the
//! exchange, whose storage it shares (here the two have their own where
//! they fit: see `radix_sort`). The counters are 16-bit: a tile has fewer
//! than 65536 items (checked when the kernel is compiled). On the H200
//! (sm_90, ptxas 13.0) the 256-thread sort of 8 `u32` keys per thread
//! takes 48 registers (CUB's: 55), the pairs 55 (CUB's: 64).
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
    /// How many words of the raking segment stay in registers between the
    /// upsweep and the downsweep (CUB's `MEMOIZE_OUTER_SCAN` keeps all);
    /// the rest are loaded again. Blocks of 512 or more threads hold at
    /// most two blocks per SM at up to 64 registers, and without it their
    /// sorts issued 8 % more shared loads than CUB's (1.015× its time for
    /// pairs at 512 threads on the H200); four words keep the 512-thread
    /// pairs' sort at 63 registers (all nine: 69, one block per SM).
    /// Smaller blocks keep the registers, which decide how many of them an
    /// SM holds.
    const MEMO_WORDS: usize = if BLOCK >= 512 { 4 } else { 0 };

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
        let prefix = self.scan(&digit_of, descending);
        let mut out = [0u32; ITEMS];
        unroll!(i in 0..ITEMS => {
            out[i] = self.rank_of(self.flip(digit_of(i), descending), prefix[i]);
        });
        out
    }

    /// The digit a ranking counts (flipped for `descending`).
    #[inline(always)]
    pub(crate) fn flip(&self, d: u32, descending: bool) -> u32 {
        if descending {
            self::digits(RADIX_BITS) - 1 - d
        } else {
            d
        }
    }

    /// After [`scan`](Self::scan): the rank of an item of (flipped) digit
    /// `d` whose counter prefix was `prefix` — one `ld.shared` of the
    /// caller's own counter word. Per item, so that a caller can scatter
    /// each item as soon as its rank is known (fewer live registers).
    #[inline(always)]
    #[track_caller]
    pub(crate) fn rank_of(&self, d: u32, prefix: u32) -> u32 {
        let lanes = Self::LANES;
        let log_lanes = RADIX_BITS - 1;
        let count: u16 =
            self.counters
                .load(Self::counter(d & (lanes - 1), d >> log_lanes, self.rank));
        prefix + count as u32
    }

    /// Byte offset of the 16-bit counter `half` (0 low, 1 high) of word
    /// `(lane, thread)` (little-endian: the low half first).
    #[inline(always)]
    fn counter(lane: u32, half: u32, thread: u32) -> u32 {
        Self::word(lane, thread) + 2 * half
    }

    /// Steps 1–4: counts the items, scans the counters and leaves every
    /// counter word holding its exclusive prefix; returns each item's
    /// prefix within its counter.
    #[inline(always)]
    #[track_caller]
    pub(crate) fn scan<F: Fn(usize) -> u32>(&self, digit_of: &F, descending: bool) -> [u32; ITEMS] {
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
        let mut prefix = [0u32; ITEMS];
        unroll!(i in 0..ITEMS => {
            let d = self.flip(digit_of(i), descending);
            // The counter itself, 16 bits (CUB's `DigitCounter`): no
            // shifts or masks around the increment.
            let at = Self::counter(d & (lanes - 1), d >> log_lanes, t);
            let old: u16 = self.counters.load(at);
            prefix[i] = old as u32;
            self.counters.store(at, old.wrapping_add(1));
        });
        sync();
        // 2. Rake this thread's segment.
        let mut seg = [0u32; 129];
        let base = 4 * t * Self::PADDED;
        let mut sum = 0u32;
        let mut j = 0;
        while j < Self::PADDED as usize {
            let x: u32 = self.counters.load(base + 4 * j as u32);
            if j < Self::MEMO_WORDS {
                seg[j] = x;
            }
            sum = sum.wrapping_add(x);
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
            let at = base + 4 * j as u32;
            let own: u32 = if j < Self::MEMO_WORDS {
                seg[j]
            } else {
                self.counters.load(at)
            };
            self.counters.store(at, running);
            running = running.wrapping_add(own);
            j += 1;
        }
        sync();
        prefix
    }
}
