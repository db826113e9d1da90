//! [`BlockRadixSort`]: a stable LSD radix sort of the block's keys (and
//! values) in registers and shared memory (CUB's `BlockRadixSort`).
//!
//! Keys are first mapped to unsigned bits that order as the keys do
//! ([`RadixKey`]: the sign bit flipped for signed integers; for floats all
//! bits flipped when negative, the sign bit otherwise, and `-0.0` ranked
//! as `+0.0`, as CUB does). Each pass ranks the items by the next
//! `RADIX_BITS` bits ([`RadixRank`](super::radix_rank), three barriers),
//! scatters keys and values to their ranks in this primitive's exchange
//! storage, syncs once, and loads the blocked (or, after the last pass,
//! optionally the striped) arrangement back.

use core::marker::PhantomData;

use super::radix_rank::{RadixRank, rank_bytes};
use super::{rank_of, sync};
use crate::group::ThreadBlock;
use crate::group::violation;
use crate::primitives::arrange::{self, padded, tile_bytes};
use crate::primitives::storage::{NeedsTempStorage, Smem, TempStorage};
use crate::value::ShflValue;

mod sealed {
    pub trait Sealed {}
}

/// The unsigned bits a key sorts by (not part of the API).
#[doc(hidden)]
pub trait RadixBits: ShflValue + PartialEq {
    /// Bits in the key.
    const BITS: u32;
    /// `bits` bits from bit `shift` (`bits ≤ 8`).
    fn digit(self, shift: u32, bits: u32) -> u32;
}

/// A key type of the radix sorts: the integers (`u8` … `u64`, `i8` …
/// `i64`) and the floats (`f32`, `f64`; `-0.0` sorts as `+0.0`, NaNs after
/// `+∞` when positive and before `-∞` when negative, as their bits say).
#[diagnostic::on_unimplemented(
    message = "`{Self}` is not a radix-sortable key",
    label = "radix sorts take integers and floats",
    note = "BlockRadixSort sorts u8, u16, u32, u64, i8, i16, i32, i64, f32 and f64; sort other types with BlockMergeSort and a comparator"
)]
pub trait RadixKey: ShflValue + sealed::Sealed {
    /// The bits the key sorts by (not part of the API).
    #[doc(hidden)]
    type Bits: RadixBits;
    /// Bits that order as the keys do.
    #[doc(hidden)]
    fn to_bits(self) -> Self::Bits;
    /// The key of [`to_bits`](Self::to_bits)'s bits.
    #[doc(hidden)]
    fn from_bits(b: Self::Bits) -> Self;
    /// The bits a digit is taken from: [`to_bits`](Self::to_bits)'s, with
    /// `-0.0` as `+0.0` for floats.
    #[doc(hidden)]
    fn digit_bits(b: Self::Bits) -> Self::Bits;
}

macro_rules! bits {
    ($($u:ty),*) => { $(
        impl RadixBits for $u {
            const BITS: u32 = <$u>::BITS;
            #[inline(always)]
            fn digit(self, shift: u32, bits: u32) -> u32 {
                ((self >> shift) as u32) & ((1u32 << bits) - 1)
            }
        }
    )* };
}
bits!(u8, u16, u32, u64);

macro_rules! unsigned_key {
    ($($u:ty),*) => { $(
        impl sealed::Sealed for $u {}
        impl RadixKey for $u {
            type Bits = $u;
            #[inline(always)]
            fn to_bits(self) -> $u { self }
            #[inline(always)]
            fn from_bits(b: $u) -> $u { b }
            #[inline(always)]
            fn digit_bits(b: $u) -> $u { b }
        }
    )* };
}
unsigned_key!(u8, u16, u32, u64);

macro_rules! signed_key {
    ($($s:ty => $u:ty),*) => { $(
        impl sealed::Sealed for $s {}
        impl RadixKey for $s {
            type Bits = $u;
            #[inline(always)]
            fn to_bits(self) -> $u { (self as $u) ^ (1 << (<$u>::BITS - 1)) }
            #[inline(always)]
            fn from_bits(b: $u) -> $s { (b ^ (1 << (<$u>::BITS - 1))) as $s }
            #[inline(always)]
            fn digit_bits(b: $u) -> $u { b }
        }
    )* };
}
signed_key!(i8 => u8, i16 => u16, i32 => u32, i64 => u64);

macro_rules! float_key {
    ($($f:ty => $u:ty),*) => { $(
        impl sealed::Sealed for $f {}
        impl RadixKey for $f {
            type Bits = $u;
            // Negative floats flip every bit, the others the sign bit: one
            // XOR with a mask made of the sign by an arithmetic shift (a
            // shift and one `LOP3` in SASS, where `if … { !b } else { b ^
            // sign }` compiled to a compare and a select).
            #[inline(always)]
            fn to_bits(self) -> $u {
                let b = self.to_bits();
                let sign: $u = 1 << (<$u>::BITS - 1);
                let negative = ((b as <$f as FloatBits>::Signed) >> (<$u>::BITS - 1)) as $u;
                b ^ (negative | sign)
            }
            #[inline(always)]
            fn from_bits(b: $u) -> $f {
                let sign: $u = 1 << (<$u>::BITS - 1);
                // The sign bit set: the key was positive (flip the sign bit
                // back); clear: negative (flip every bit back).
                let positive = ((b as <$f as FloatBits>::Signed) >> (<$u>::BITS - 1)) as $u;
                <$f>::from_bits(b ^ (!positive | sign))
            }
            #[inline(always)]
            fn digit_bits(b: $u) -> $u {
                // `-0.0` maps to `!sign`, `+0.0` to `sign`: take both as `+0.0`.
                let sign: $u = 1 << (<$u>::BITS - 1);
                if b == !sign { sign } else { b }
            }
        }
    )* };
}
float_key!(f32 => u32, f64 => u64);

/// The signed integer of a float's width (for the arithmetic shift of the
/// key twiddles).
trait FloatBits {
    type Signed;
}
impl FloatBits for f32 {
    type Signed = i32;
}
impl FloatBits for f64 {
    type Signed = i64;
}

/// What a radix sort does: the order, the key bits it sorts by, and the
/// arrangement of the result. `const` builders, so that options known
/// when the kernel is compiled cost nothing.
///
/// ```
/// use cooperative_groups::primitives::RadixSortOptions;
/// // Descending by bits 8..24, the result striped.
/// let o = RadixSortOptions::new().descending().bits(8, 24).striped();
/// # let _ = o;
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RadixSortOptions {
    descending: bool,
    begin: u32,
    end: u32,
    striped: bool,
}

impl Default for RadixSortOptions {
    fn default() -> Self {
        Self::new()
    }
}

impl RadixSortOptions {
    /// Ascending, by every bit, blocked result.
    pub const fn new() -> Self {
        RadixSortOptions {
            descending: false,
            begin: 0,
            end: u32::MAX,
            striped: false,
        }
    }
    /// Largest key first (ties still keep their order).
    pub const fn descending(self) -> Self {
        RadixSortOptions {
            descending: true,
            ..self
        }
    }
    /// Sort by bits `begin..end` of the key's ordered bits only (CUB's
    /// `begin_bit`, `end_bit`): keys equal there keep their order.
    pub const fn bits(self, begin: u32, end: u32) -> Self {
        RadixSortOptions { begin, end, ..self }
    }
    /// The result in the striped arrangement (CUB's
    /// `SortBlockedToStriped`): rank `r` holds sorted positions
    /// `r + i · BLOCK`.
    pub const fn striped(self) -> Self {
        RadixSortOptions {
            striped: true,
            ..self
        }
    }
}

/// Sorts a block's `BLOCK · ITEMS` keys, held blocked, and optionally
/// values of type `V` with them, `RADIX_BITS` bits per pass (CUB's
/// `BlockRadixSort<K, BLOCK, ITEMS, V, RADIX_BITS>`; default 4). Stable.
/// The result is blocked (rank `r` holds sorted positions `r · ITEMS + i`)
/// unless [`striped`](RadixSortOptions::striped).
///
/// ```
/// use cooperative_groups::prelude::*;
/// use cooperative_groups::primitives::{BlockRadixSort, RadixSortOptions};
/// use cooperative_groups::temp_storage;
/// # let dev = cg_sim::SimDevice { stack_size: 4 << 20, ..Default::default() };
/// # cg_sim::launch_on(&dev, &cg_sim::LaunchConfig::new(1, 128), &|| {
/// let block = this_thread_block().with_threads::<128>();
/// let temp = temp_storage!(BlockRadixSort<f32, 128, 4, u32>);
/// let r = block.thread_rank();
/// let mut keys = [-(r as f32), r as f32, 0.5, -0.5];
/// let mut values = [r, r, r, r];
/// let sort = BlockRadixSort::<f32, 128, 4, u32>::new(&block, &temp);
/// sort.sort_pairs_descending(&mut keys, &mut values);
/// // Thread 0 holds the four largest keys: 127, 126, 125, 124.
/// # if r == 0 { assert_eq!(keys, [127.0, 126.0, 125.0, 124.0]); assert_eq!(values, [127, 126, 125, 124]); }
/// # block.sync();
/// let mut k = [r as u16 * 7 % 128, 3];
/// BlockRadixSort::<u16, 128, 2>::new(&block, &temp)
///     .sort_keys_with(&mut k, RadixSortOptions::new().bits(0, 4).striped());
/// # }).unwrap();
/// ```
pub struct BlockRadixSort<
    K,
    const BLOCK: u32,
    const ITEMS: usize,
    V = (),
    const RADIX_BITS: u32 = 4,
> {
    rank: u32,
    ranker: RadixRank<BLOCK, ITEMS, RADIX_BITS>,
    keys_smem: Smem,
    values_smem: Smem,
    _t: PhantomData<fn() -> (K, V)>,
}

/// The storage's layout: the ranking's counters, the keys' and the
/// values' exchange buffers, each 16-byte aligned — side by side when they
/// fit in a per-thread budget that keeps a full SM (`228 KiB / 2048`
/// threads, and no more than 44 KiB: static shared memory ends at 48 KiB),
/// else all three at offset 0 (CUB's `union`, with its barriers).
struct Layout {
    separate: bool,
    keys: usize,
    values: usize,
    bytes: usize,
}

const fn layout<K, V>(block: u32, items: usize, radix_bits: u32) -> Layout {
    let tile = block as usize * items;
    let rank = rank_bytes(block, radix_bits).next_multiple_of(16);
    let keys = tile_bytes::<K>(tile, padded(items)).next_multiple_of(16);
    let values = tile_bytes::<V>(tile, padded(items));
    let side_by_side = rank + keys + values;
    let budget = if 114 * (block as usize) < 44 * 1024 {
        114 * block as usize
    } else {
        44 * 1024
    };
    if side_by_side <= budget {
        Layout {
            separate: true,
            keys: rank,
            values: rank + keys,
            bytes: side_by_side,
        }
    } else {
        let mut m = rank;
        if keys > m {
            m = keys;
        }
        if values > m {
            m = values;
        }
        Layout {
            separate: false,
            keys: 0,
            values: 0,
            bytes: m,
        }
    }
}

/// The most passes a sort writes out rather than loops over.
const UNROLLED_PASSES: usize = 4;

impl<K, const BLOCK: u32, const ITEMS: usize, V, const RADIX_BITS: u32> NeedsTempStorage
    for BlockRadixSort<K, BLOCK, ITEMS, V, RADIX_BITS>
{
    const TEMP_BYTES: usize = layout::<K, V>(BLOCK, ITEMS, RADIX_BITS).bytes;
}

impl<K: RadixKey, const BLOCK: u32, const ITEMS: usize, V, const RADIX_BITS: u32>
    BlockRadixSort<K, BLOCK, ITEMS, V, RADIX_BITS>
{
    /// The sort of `block`'s items in `temp`.
    ///
    /// # Panics
    /// A block of another size than `BLOCK` is a contract violation.
    #[inline(always)]
    #[track_caller]
    pub fn new<L: NeedsTempStorage>(block: &ThreadBlock<BLOCK>, temp: &TempStorage<L>) -> Self {
        Self::from_parts(rank_of(block), temp.smem::<Self>())
    }

    #[inline(always)]
    pub(crate) fn from_parts(rank: u32, smem: Smem) -> Self {
        const { assert!(ITEMS > 0, "a thread holds at least one item") };
        let l = layout::<K, V>(BLOCK, ITEMS, RADIX_BITS);
        BlockRadixSort {
            rank,
            ranker: RadixRank::new(rank, smem),
            keys_smem: smem.offset(l.keys as u32),
            values_smem: smem.offset(l.values as u32),
            _t: PhantomData,
        }
    }

    /// `Sort`: ascending, every bit, blocked.
    #[inline(always)]
    #[track_caller]
    pub fn sort(&self, keys: &mut [K; ITEMS]) {
        self.sort_keys_with(keys, RadixSortOptions::new())
    }

    /// `SortDescending`.
    #[inline(always)]
    #[track_caller]
    pub fn sort_descending(&self, keys: &mut [K; ITEMS]) {
        self.sort_keys_with(keys, RadixSortOptions::new().descending())
    }

    /// `SortBlockedToStriped`.
    #[inline(always)]
    #[track_caller]
    pub fn sort_blocked_to_striped(&self, keys: &mut [K; ITEMS]) {
        self.sort_keys_with(keys, RadixSortOptions::new().striped())
    }

    /// `SortDescendingBlockedToStriped`.
    #[inline(always)]
    #[track_caller]
    pub fn sort_descending_blocked_to_striped(&self, keys: &mut [K; ITEMS]) {
        self.sort_keys_with(keys, RadixSortOptions::new().descending().striped())
    }

    /// Sorts `keys` as `options` say (the same options in every thread).
    ///
    /// # Panics
    /// A bit range beyond the key's bits (`begin > end` or `end` above
    /// `8 · size_of::<K>()`, other than the default) is a contract
    /// violation.
    #[inline(always)]
    #[track_caller]
    pub fn sort_keys_with(&self, keys: &mut [K; ITEMS], options: RadixSortOptions) {
        let mut none = [0u8; ITEMS];
        self.run::<u8, false>(keys, &mut none, options);
    }

    /// One pass: ranks the items by bits `bit..` (`RADIX_BITS` of them, or
    /// fewer up to `end`), moves keys (and values) to their ranks through
    /// shared memory, and returns the next pass's first bit.
    #[inline(always)]
    #[track_caller]
    fn pass<U: ShflValue, const PAIRS: bool>(
        &self,
        bits: &mut [K::Bits; ITEMS],
        values: &mut [U; ITEMS],
        bit: u32,
        end: u32,
        o: RadixSortOptions,
    ) -> u32 {
        let all = [true; ITEMS];
        let separate = layout::<K, V>(BLOCK, ITEMS, RADIX_BITS).separate;
        let n = if end - bit < RADIX_BITS {
            end - bit
        } else {
            RADIX_BITS
        };
        let keys_now = *bits;
        let digit_of = |i: usize| K::digit_bits(keys_now[i]).digit(bit, n);
        if !separate && bit > o.begin {
            // The last pass's loads from the shared buffer come first.
            sync();
        }
        let mut ranks = [0u32; ITEMS];
        if separate {
            // Each item to its rank as soon as the rank is known.
            let prefix = self.ranker.scan(&digit_of, o.descending);
            unroll!(i in 0..ITEMS => {
                let d = self.ranker.flip(digit_of(i), o.descending);
                let r = self.ranker.rank_of(d, prefix[i]);
                arrange::put_at::<_, ITEMS>(self.keys_smem, r, bits[i]);
                if PAIRS {
                    arrange::put_at::<_, ITEMS>(self.values_smem, r, values[i]);
                }
            });
        } else {
            ranks = self.ranker.rank(digit_of, o.descending);
            // Every thread's reads of its counters come first.
            sync();
            arrange::put_ranked(self.keys_smem, bits, &ranks, &all);
        }
        let next = bit + n;
        let striped = next >= end && o.striped;
        sync();
        *bits = if striped {
            arrange::get_striped(self.keys_smem, self.rank, BLOCK)
        } else {
            arrange::get_blocked(self.keys_smem, self.rank)
        };
        if PAIRS {
            if !separate {
                sync();
                arrange::put_ranked(self.values_smem, values, &ranks, &all);
                sync();
            }
            *values = if striped {
                arrange::get_striped(self.values_smem, self.rank, BLOCK)
            } else {
                arrange::get_blocked(self.values_smem, self.rank)
            };
        }
        next
    }

    #[inline(always)]
    #[track_caller]
    fn run<U: ShflValue, const PAIRS: bool>(
        &self,
        keys: &mut [K; ITEMS],
        values: &mut [U; ITEMS],
        o: RadixSortOptions,
    ) {
        let width = <K::Bits as RadixBits>::BITS;
        let end = if o.end == u32::MAX { width } else { o.end };
        if o.begin > end || end > width {
            violation!(
                "BlockRadixSort: bits {}..{} of a {width}-bit key",
                o.begin,
                end
            );
        }
        let mut bits = [K::to_bits(keys[0]); ITEMS];
        let mut i = 0;
        while i < ITEMS {
            bits[i] = K::to_bits(keys[i]);
            i += 1;
        }
        let mut bit = o.begin;
        if bit >= end && o.striped {
            // No pass: the blocked keys, striped.
            arrange::put_blocked(self.keys_smem, self.rank, &bits);
            sync();
            bits = arrange::get_striped(self.keys_smem, self.rank, BLOCK);
            if PAIRS {
                sync();
                arrange::put_blocked(self.values_smem, self.rank, values);
                sync();
                *values = arrange::get_striped(self.values_smem, self.rank, BLOCK);
            }
        }
        // Keys of a few passes at most (a histogram's bins, 8- and 16-bit
        // keys): every pass written out, each behind its test, so that a
        // bit range known at compile time (CUB's `begin_bit`, `end_bit`
        // after inlining) leaves straight-line passes with constant
        // digit shifts, as nvcc unrolls CUB's. LLVM does not unroll the
        // loop itself: its body holds barriers and is large. Wider keys
        // keep the loop (eight or more copies of a pass cost instruction
        // cache).
        let max_passes = const { <K::Bits as RadixBits>::BITS.div_ceil(RADIX_BITS) as usize };
        if max_passes <= UNROLLED_PASSES {
            unroll!(_p in 0..max_passes => {
                if bit < end {
                    bit = self.pass::<U, PAIRS>(&mut bits, values, bit, end, o);
                }
            });
        } else {
            while bit < end {
                bit = self.pass::<U, PAIRS>(&mut bits, values, bit, end, o);
            }
        }
        debug_assert!(bit >= end, "every pass ran");
        let mut i = 0;
        while i < ITEMS {
            keys[i] = K::from_bits(bits[i]);
            i += 1;
        }
    }
}

impl<K: RadixKey, const BLOCK: u32, const ITEMS: usize, V: ShflValue, const RADIX_BITS: u32>
    BlockRadixSort<K, BLOCK, ITEMS, V, RADIX_BITS>
{
    /// `Sort(keys, values)`: ascending, values moved with their keys.
    #[inline(always)]
    #[track_caller]
    pub fn sort_pairs(&self, keys: &mut [K; ITEMS], values: &mut [V; ITEMS]) {
        self.sort_pairs_with(keys, values, RadixSortOptions::new())
    }

    /// `SortDescending(keys, values)`.
    #[inline(always)]
    #[track_caller]
    pub fn sort_pairs_descending(&self, keys: &mut [K; ITEMS], values: &mut [V; ITEMS]) {
        self.sort_pairs_with(keys, values, RadixSortOptions::new().descending())
    }

    /// `SortBlockedToStriped(keys, values)`.
    #[inline(always)]
    #[track_caller]
    pub fn sort_pairs_blocked_to_striped(&self, keys: &mut [K; ITEMS], values: &mut [V; ITEMS]) {
        self.sort_pairs_with(keys, values, RadixSortOptions::new().striped())
    }

    /// `SortDescendingBlockedToStriped(keys, values)`.
    #[inline(always)]
    #[track_caller]
    pub fn sort_pairs_descending_blocked_to_striped(
        &self,
        keys: &mut [K; ITEMS],
        values: &mut [V; ITEMS],
    ) {
        self.sort_pairs_with(keys, values, RadixSortOptions::new().descending().striped())
    }

    /// Sorts `keys` and moves `values` with them, as `options` say.
    ///
    /// # Panics
    /// As [`sort_keys_with`](Self::sort_keys_with).
    #[inline(always)]
    #[track_caller]
    pub fn sort_pairs_with(
        &self,
        keys: &mut [K; ITEMS],
        values: &mut [V; ITEMS],
        options: RadixSortOptions,
    ) {
        self.run::<V, true>(keys, values, options);
    }
}
