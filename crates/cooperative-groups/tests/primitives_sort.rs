//! The sorts against their models on the simulator: `BlockRadixSort`
//! (every key type, keys and pairs, ascending and descending, bit ranges,
//! blocked and striped results, radix widths, shapes with partial warps)
//! and `WarpMergeSort` / `BlockMergeSort` (comparators, pairs, partial
//! tiles). Stability is checked through the values (each key's original
//! position).

mod prim_common;

use cooperative_groups::prelude::*;
use cooperative_groups::primitives::*;
use prim_common::{Out, dyn_temp, run_smem};
use proptest::prelude::*;

/// A key type with its model of the radix order: the ordered bits.
trait Key: RadixKey + PartialEq + core::fmt::Debug {
    const BITS: u32;
    fn make(x: u64) -> Self;
    /// The bits the key sorts by (the documented mapping, written
    /// independently of the library's).
    fn ordered(self) -> u64;
}

macro_rules! ukey {
    ($($t:ty),*) => { $(
        impl Key for $t {
            const BITS: u32 = <$t>::BITS;
            fn make(x: u64) -> Self { x as $t }
            fn ordered(self) -> u64 { self as u64 }
        }
    )* };
}
ukey!(u8, u16, u32, u64);
macro_rules! ikey {
    ($($t:ty => $u:ty),*) => { $(
        impl Key for $t {
            const BITS: u32 = <$t>::BITS;
            fn make(x: u64) -> Self { x as $t }
            fn ordered(self) -> u64 { (self as $u as u64) ^ (1u64 << (<$t>::BITS - 1)) }
        }
    )* };
}
ikey!(i8 => u8, i16 => u16, i32 => u32, i64 => u64);
impl Key for f32 {
    const BITS: u32 = 32;
    fn make(x: u64) -> Self {
        // Mostly ordinary values, with zeros of both signs, infinities and NaNs.
        match x % 16 {
            0 => 0.0,
            1 => -0.0,
            2 => f32::INFINITY,
            3 => f32::NEG_INFINITY,
            4 => f32::from_bits(0x7fc0_0000 | (x >> 8) as u32 & 0xff),
            5 => f32::from_bits(0xffc0_0000),
            _ => ((x >> 4) as i32 % 1000) as f32 / 8.0,
        }
    }
    fn ordered(self) -> u64 {
        let b = if self == 0.0 { 0 } else { self.to_bits() };
        (if b >> 31 == 1 { !b } else { b | 1 << 31 }) as u64
    }
}
impl Key for f64 {
    const BITS: u32 = 64;
    fn make(x: u64) -> Self {
        f32::make(x) as f64
    }
    fn ordered(self) -> u64 {
        let b = if self == 0.0 { 0 } else { self.to_bits() };
        if b >> 63 == 1 { !b } else { b | 1 << 63 }
    }
}

/// One radix-sort case: options as values.
#[derive(Clone, Copy, Debug)]
struct Opts {
    descending: bool,
    begin: u32,
    end: u32,
    striped: bool,
    pairs: bool,
}

/// The model: a stable sort of (key, position) by the ordered bits in
/// `begin..end`.
fn model<K: Key>(keys: &[K], o: Opts) -> Vec<(K, u32)> {
    let mask = |k: K| {
        let width = o.end - o.begin;
        let v = k.ordered() >> o.begin;
        if width >= 64 {
            v
        } else {
            v & ((1u64 << width) - 1)
        }
    };
    let mut v: Vec<(K, u32)> = keys.iter().copied().zip(0..).collect();
    if o.descending {
        v.sort_by_key(|a| std::cmp::Reverse(mask(a.0)));
    } else {
        v.sort_by_key(|a| mask(a.0));
    }
    v
}

fn radix<K: Key, const B: u32, const I: usize, const R: u32>(seeds: &[u64], o: Opts) {
    let tile = B as usize * I;
    let keys: Vec<K> = (0..tile)
        .map(|i| K::make(seeds[i % seeds.len()].wrapping_add(i as u64 * 0x9e37)))
        .collect();
    let mut out = Out::new(tile, (K::make(0), 0u32));
    let p = out.ptr();
    let ks = &keys;
    type S<K, const B: u32, const I: usize, const R: u32> = BlockRadixSort<K, B, I, u32, R>;
    run_smem(1, B, S::<K, B, I, R>::TEMP_BYTES, &|| {
        let block = this_thread_block().with_threads::<B>();
        let temp = dyn_temp::<S<K, B, I, R>>(0);
        let sort = S::<K, B, I, R>::new(&block, &temp);
        let r = block.thread_rank() as usize;
        let mut k: [K; I] = core::array::from_fn(|i| ks[r * I + i]);
        let mut v: [u32; I] = core::array::from_fn(|i| (r * I + i) as u32);
        let mut opts = RadixSortOptions::new().bits(o.begin, o.end);
        if o.descending {
            opts = opts.descending();
        }
        if o.striped {
            opts = opts.striped();
        }
        if o.pairs {
            sort.sort_pairs_with(&mut k, &mut v, opts);
        } else {
            sort.sort_keys_with(&mut k, opts);
        }
        for i in 0..I {
            let pos = if o.striped {
                r + i * B as usize
            } else {
                r * I + i
            };
            p.set(pos, (k[i], v[i]));
        }
    });
    let got = out.into_vec();
    let want = model(&keys, o);
    for (pos, (g, w)) in got.iter().zip(&want).enumerate() {
        // Keys equal in the sorted bits may differ elsewhere: compare the
        // key a stable sort puts there (bit for bit, NaNs included).
        assert_eq!(g.0.ordered(), w.0.ordered(), "key at {pos} ({o:?})");
        if o.pairs {
            assert_eq!(g.1, w.1, "value at {pos} ({o:?}): not stable");
        }
    }
}

fn opts<K: Key>() -> impl Strategy<Value = Opts> {
    (
        any::<bool>(),
        any::<bool>(),
        any::<bool>(),
        0..=K::BITS,
        0..=K::BITS,
        any::<bool>(),
    )
        .prop_map(|(descending, striped, pairs, a, b, all)| {
            let (begin, end) = if all {
                (0, K::BITS)
            } else {
                (a.min(b), a.max(b))
            };
            Opts {
                descending,
                begin,
                end,
                striped,
                pairs,
            }
        })
}

fn seeds() -> impl Strategy<Value = Vec<u64>> {
    prop_oneof![
        prop::collection::vec(any::<u64>(), 1..64),
        // Few distinct keys: long runs of equal keys (stability).
        prop::collection::vec(0u64..4, 1..8),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 10, ..ProptestConfig::default() })]

    #[test]
    fn radix_u32(s in seeds(), o in opts::<u32>()) {
        radix::<u32, 128, 4, 4>(&s, o);
        radix::<u32, 64, 8, 4>(&s, o);
        radix::<u32, 96, 3, 5>(&s, o);
        // 512 threads and more keep part of the raking segment in registers.
        radix::<u32, 512, 2, 4>(&s, o);
    }

    #[test]
    fn radix_small_ints(s in seeds(), o8 in opts::<u8>(), o16 in opts::<i16>()) {
        radix::<u8, 64, 5, 4>(&s, o8);
        radix::<i8, 33, 2, 3>(&s, Opts { begin: 0, end: 8, ..o8 });
        radix::<i16, 32, 4, 8>(&s, o16);
        radix::<u16, 64, 2, 1>(&s, Opts { begin: 0, end: 16, ..o16 });
        radix::<u8, 1024, 1, 4>(&s, o8);
    }

    #[test]
    fn radix_wide_and_signed(s in seeds(), o in opts::<i64>(), o32 in opts::<i32>()) {
        radix::<i64, 64, 2, 4>(&s, o);
        radix::<u64, 32, 3, 6>(&s, o);
        radix::<i32, 160, 2, 4>(&s, o32);
    }

    #[test]
    fn radix_floats(s in seeds(), o in opts::<f32>()) {
        let all = Opts { begin: 0, end: 32, ..o };
        radix::<f32, 64, 4, 4>(&s, all);
        radix::<f64, 32, 2, 4>(&s, Opts { begin: 0, end: 64, ..o });
    }
}

/// The merge sorts' model: a stable sort of the first `valid` by the key
/// order, the others `oob` after them.
fn merge_model(keys: &[i32], valid: usize, desc: bool) -> Vec<(i32, u32)> {
    let mut v: Vec<(i32, u32)> = keys[..valid].iter().copied().zip(0..).collect();
    if desc {
        v.sort_by_key(|a| std::cmp::Reverse(a.0));
    } else {
        v.sort_by_key(|a| a.0);
    }
    v
}

fn block_merge<const B: u32, const N: usize>(keys: &[i32], valid: usize, desc: bool) {
    let tile = B as usize * N;
    let mut out = Out::new(tile, (0i32, 0u32));
    let p = out.ptr();
    run_smem(1, B, BlockMergeSort::<i32, B, N, u32>::TEMP_BYTES, &|| {
        let block = this_thread_block().with_threads::<B>();
        let temp = dyn_temp::<BlockMergeSort<i32, B, N, u32>>(0);
        let sort = BlockMergeSort::<i32, B, N, u32>::new(&block, &temp);
        let r = block.thread_rank() as usize;
        let mut k: [i32; N] = core::array::from_fn(|i| keys[r * N + i]);
        let mut v: [u32; N] = core::array::from_fn(|i| (r * N + i) as u32);
        let less = |a: &i32, b: &i32| if desc { a > b } else { a < b };
        if valid >= tile {
            sort.sort_pairs(&mut k, &mut v, less);
        } else {
            sort.sort_pairs_partial(&mut k, &mut v, valid, i32::MIN, less);
        }
        for i in 0..N {
            p.set(r * N + i, (k[i], v[i]));
        }
    });
    check_merge(out.into_vec(), keys, valid.min(tile), desc);
    // Keys only.
    let mut out = Out::new(tile, 0i32);
    let p = out.ptr();
    run_smem(1, B, BlockMergeSort::<i32, B, N>::TEMP_BYTES, &|| {
        let block = this_thread_block().with_threads::<B>();
        let temp = dyn_temp::<BlockMergeSort<i32, B, N>>(0);
        let r = block.thread_rank() as usize;
        let mut k: [i32; N] = core::array::from_fn(|i| keys[r * N + i]);
        let sort = BlockMergeSort::<i32, B, N>::new(&block, &temp);
        if valid >= tile {
            sort.sort(&mut k, |a, b| if desc { a > b } else { a < b });
        } else {
            sort.sort_partial(
                &mut k,
                valid,
                i32::MIN,
                |a, b| if desc { a > b } else { a < b },
            );
        }
        for (i, v) in k.into_iter().enumerate() {
            p.set(r * N + i, v);
        }
    });
    let want = merge_model(keys, valid.min(tile), desc);
    let got = out.into_vec();
    for (pos, g) in got.iter().enumerate() {
        let w = want.get(pos).map_or(i32::MIN, |w| w.0);
        assert_eq!(*g, w, "key at {pos}");
    }
}

fn warp_merge<const W: u32, const N: usize>(keys: &[i32], valid: usize, desc: bool)
where
    Size<W>: WarpTileSize,
{
    let wt = W as usize * N;
    let mut out = Out::new(wt, (0i32, 0u32));
    let p = out.ptr();
    run_smem(1, W, WarpMergeSort::<i32, N, W, u32>::TEMP_BYTES, &|| {
        let tile = tiled_partition::<W>(&this_thread_block());
        let temp = dyn_temp::<WarpMergeSort<i32, N, W, u32>>(0);
        let sort = WarpMergeSort::<i32, N, W, u32>::new(&tile, &temp);
        let r = tile.thread_rank() as usize;
        let mut k: [i32; N] = core::array::from_fn(|i| keys[r * N + i]);
        let mut v: [u32; N] = core::array::from_fn(|i| (r * N + i) as u32);
        let less = |a: &i32, b: &i32| if desc { a > b } else { a < b };
        if valid >= wt {
            sort.sort_pairs(&mut k, &mut v, less);
        } else {
            sort.sort_pairs_partial(&mut k, &mut v, valid, i32::MIN, less);
        }
        for i in 0..N {
            p.set(r * N + i, (k[i], v[i]));
        }
    });
    check_merge(out.into_vec(), keys, valid.min(wt), desc);
}

fn check_merge(got: Vec<(i32, u32)>, keys: &[i32], valid: usize, desc: bool) {
    let want = merge_model(keys, valid, desc);
    for (pos, g) in got.iter().enumerate() {
        if pos < valid {
            assert_eq!(*g, want[pos], "pair at {pos} (valid {valid})");
        } else {
            assert_eq!(g.0, i32::MIN, "out-of-bounds key at {pos} (valid {valid})");
            assert!(
                g.1 as usize >= valid,
                "out-of-bounds value at {pos}: {}",
                g.1
            );
        }
    }
}

fn merge_keys(n: usize) -> impl Strategy<Value = Vec<i32>> {
    prop_oneof![
        prop::collection::vec(any::<i32>(), n),
        prop::collection::vec(-3i32..3, n),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 10, ..ProptestConfig::default() })]

    #[test]
    fn block_merge_sorts(k in merge_keys(512), valid in prop_oneof![Just(usize::MAX), 0usize..=512], desc in any::<bool>()) {
        block_merge::<128, 4>(&k, valid, desc);
        block_merge::<64, 3>(&k, valid, desc);
        block_merge::<48, 2>(&k, valid, desc);
    }

    #[test]
    fn warp_merge_sorts(k in merge_keys(128), valid in prop_oneof![Just(usize::MAX), 0usize..=128], desc in any::<bool>()) {
        warp_merge::<32, 4>(&k, valid, desc);
        warp_merge::<16, 5>(&k, valid, desc);
        warp_merge::<4, 1>(&k, valid, desc);
    }
}

/// The float keys' order-preserving bits, as written before the twiddles
/// became branch-free: negative floats flip every bit, the others the
/// sign bit.
fn twiddle_model(b: u64, sign: u64) -> u64 {
    if b & sign != 0 { !b } else { b ^ sign }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 256, ..ProptestConfig::default() })]

    #[test]
    fn float_key_bits_match_the_model_and_round_trip(b32 in any::<u32>(), b64 in any::<u64>()) {
        let x = f32::from_bits(b32);
        let t = <f32 as RadixKey>::to_bits(x);
        prop_assert_eq!(t as u64, twiddle_model(b32 as u64, 1 << 31) & 0xffff_ffff);
        prop_assert_eq!(<f32 as RadixKey>::from_bits(t).to_bits(), b32);
        let y = f64::from_bits(b64);
        let t = <f64 as RadixKey>::to_bits(y);
        prop_assert_eq!(t, twiddle_model(b64, 1 << 63));
        prop_assert_eq!(<f64 as RadixKey>::from_bits(t).to_bits(), b64);
    }
}
