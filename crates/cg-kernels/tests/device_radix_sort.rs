//! The device-wide radix sort (`device_radix_sort`) on the simulator
//! against a sorted copy: the histogram launch and the four onesweep
//! passes, partial last tiles, keys that differ in one byte only, equal
//! keys, consecutive sorts on the same tile states (new epochs), random
//! inputs under proptest, `i32` / `f32` keys in CUB's order (negative
//! keys, both zeros equal, infinities and NaNs by their bits), and `u64`
//! keys and pairs over eight passes (keys that differ only in their high
//! half, or only in their low half).

use cg_kernels::device_radix_sort::{
    DIGITS, HIST_BLOCK, HistogramsKernel, OnesweepKernel, OnesweepPairsKernel,
    RADIX_HISTOGRAMS_F32, RADIX_HISTOGRAMS_I32, RADIX_HISTOGRAMS_U32, RADIX_HISTOGRAMS_U64,
    RADIX_ONESWEEP_F32, RADIX_ONESWEEP_I32, RADIX_ONESWEEP_PAIRS_F32, RADIX_ONESWEEP_PAIRS_U32,
    RADIX_ONESWEEP_PAIRS_U64, RADIX_ONESWEEP_U32, RADIX_ONESWEEP_U64, SortKey, passes, sort_block,
    sort_smem, sort_tile, sort_tiles,
};
use cg_kernels::xorshift::Xorshift;
use cooperative_groups::primitives::RadixKey;
use proptest::prelude::*;

/// The simulator with an sm_90 GPU's opt-in shared memory per block (a
/// pairs pass uses more than the default 48 KiB, as `cg-runtime` allows).
fn dev() -> cg_sim::SimDevice {
    cg_sim::SimDevice {
        stack_size: 4 << 20,
        max_smem_per_block: 227 << 10,
        ..Default::default()
    }
}

/// Sorts `keys` with the kernels (histograms, then four passes).
fn sort(keys: &[u32], epoch: &mut u32) -> Vec<u32> {
    sort_as(&RADIX_HISTOGRAMS_U32, &RADIX_ONESWEEP_U32, keys, epoch)
}

/// Sorts `keys` with the kernels of key type `K` (histograms, then its
/// passes: four, eight for 64-bit keys).
fn sort_as<K: SortKey>(
    hist: &HistogramsKernel<K>,
    pass_kernel: &OnesweepKernel<K>,
    keys: &[K],
    epoch: &mut u32,
) -> Vec<K> {
    let n = keys.len() as u32;
    let mut a = keys.to_vec();
    let mut b = keys.to_vec();
    let mut counts = vec![0u32; passes::<K>() * DIGITS];
    let mut states = vec![0u64; sort_tiles::<K>(n, false) as usize * DIGITS];
    let (pa, pc) = (a.as_ptr(), counts.as_mut_ptr());
    // SAFETY: `n` keys and the counters.
    let h = unsafe { hist.host_fn_unchecked() };
    cg_sim::launch_on(&dev(), &cg_sim::LaunchConfig::new(2, HIST_BLOCK), &|| {
        h((pa, pc, n))
    })
    .unwrap();
    assert_eq!(counts[..DIGITS].iter().sum::<u32>(), n);
    // SAFETY: as the kernel's documentation asks: `n` keys in and out,
    // the counters, `DIGITS` states per tile.
    let k = unsafe { pass_kernel.host_fn_unchecked() };
    let cfg = cg_sim::LaunchConfig::new(sort_tiles::<K>(n, false), sort_block::<K>(false));
    for pass in 0..passes::<K>() as u32 {
        *epoch += 1;
        let (src, dst) = if pass % 2 == 0 {
            (&a, &mut b)
        } else {
            (&b, &mut a)
        };
        let (pi, po, pc, ps, e) = (
            src.as_ptr(),
            dst.as_mut_ptr(),
            counts.as_ptr(),
            states.as_mut_ptr(),
            *epoch,
        );
        cg_sim::launch_on(&dev(), &cfg, &|| k((pi, po, pc, ps, n, pass, e))).unwrap();
    }
    a
}

/// Sorts `keys` and moves `values` with them (histograms, four passes).
fn sort_pairs(keys: &[u32], values: &[u32], epoch: &mut u32) -> (Vec<u32>, Vec<u32>) {
    sort_pairs_as(
        &RADIX_HISTOGRAMS_U32,
        &RADIX_ONESWEEP_PAIRS_U32,
        keys,
        values,
        epoch,
        0,
    )
}

/// [`sort_pairs`] with the kernels of key type `K`, the values' buffers
/// `shift` elements past a 16-byte boundary (1: whole tiles cannot copy
/// their values in 16-byte vectors).
fn sort_pairs_as<K: SortKey>(
    hist: &HistogramsKernel<K>,
    pairs_kernel: &OnesweepPairsKernel<K>,
    keys: &[K],
    values: &[u32],
    epoch: &mut u32,
    shift: usize,
) -> (Vec<K>, Vec<u32>) {
    let n = keys.len() as u32;
    let (mut a, mut b) = (keys.to_vec(), keys.to_vec());
    // Vectors of `u32` from the system allocator start 16-byte aligned.
    let mut va = vec![0u32; shift];
    va.extend_from_slice(values);
    let mut vb = vec![0u32; shift + keys.len()];
    assert!(
        keys.is_empty()
            || va.as_ptr().addr().is_multiple_of(16) && vb.as_ptr().addr().is_multiple_of(16)
    );
    let mut counts = vec![0u32; passes::<K>() * DIGITS];
    let mut states = vec![0u64; sort_tiles::<K>(n, true) as usize * DIGITS];
    let (pa, pc) = (a.as_ptr(), counts.as_mut_ptr());
    // SAFETY: `n` keys and the counters.
    let h = unsafe { hist.host_fn_unchecked() };
    cg_sim::launch_on(&dev(), &cg_sim::LaunchConfig::new(3, HIST_BLOCK), &|| {
        h((pa, pc, n))
    })
    .unwrap();
    // SAFETY: `n` keys and values in and out, the counters, `DIGITS`
    // states per tile.
    let k = unsafe { pairs_kernel.host_fn_unchecked() };
    let cfg = cg_sim::LaunchConfig::new(sort_tiles::<K>(n, true), sort_block::<K>(true))
        .with_dynamic_smem(sort_smem(true));
    for pass in 0..passes::<K>() as u32 {
        *epoch += 1;
        let (src, dst, vsrc, vdst) = if pass % 2 == 0 {
            (&a, &mut b, &va, &mut vb)
        } else {
            (&b, &mut a, &vb, &mut va)
        };
        let args = (
            src.as_ptr(),
            dst.as_mut_ptr(),
            vsrc[shift..].as_ptr(),
            vdst[shift..].as_mut_ptr(),
            counts.as_ptr(),
            states.as_mut_ptr(),
            n,
            pass,
            *epoch,
        );
        cg_sim::launch_on(&dev(), &cfg, &|| k(args)).unwrap();
    }
    (a, va.split_off(shift))
}

/// The stable sort of the pairs by key.
fn sorted_pairs(keys: &[u32], values: &[u32]) -> (Vec<u32>, Vec<u32>) {
    let mut p: Vec<(u32, u32)> = keys.iter().copied().zip(values.iter().copied()).collect();
    p.sort_by_key(|&(k, _)| k);
    p.into_iter().unzip()
}

#[test]
fn pairs_sort_stably() {
    let mut epoch = 0;
    let tile = sort_tile::<u32>(true);
    for n in [0usize, 5, tile + 1, 2 * tile + 300] {
        // Few distinct keys: long runs of equal keys keep their values' order.
        let k = keys(n, 11 + n as u64, 0x0101_0101);
        let v: Vec<u32> = (0..n as u32).collect();
        assert_eq!(
            sort_pairs(&k, &v, &mut epoch),
            sorted_pairs(&k, &v),
            "n {n}"
        );
    }
}

#[test]
fn pairs_sort_with_values_off_a_vector_boundary() {
    let mut epoch = 0;
    let n = 2 * sort_tile::<u32>(true) + 300;
    let k = keys(n, 29, u32::MAX);
    let v: Vec<u32> = (0..n as u32).map(|i| i.wrapping_mul(0x9e37_79b9)).collect();
    let got = sort_pairs_as(
        &RADIX_HISTOGRAMS_U32,
        &RADIX_ONESWEEP_PAIRS_U32,
        &k,
        &v,
        &mut epoch,
        1,
    );
    let mut want: Vec<(u32, u32)> = k.iter().copied().zip(v.iter().copied()).collect();
    want.sort_by_key(|&(k, _)| k);
    assert_eq!(got, want.into_iter().unzip());
}

fn sorted(keys: &[u32]) -> Vec<u32> {
    let mut v = keys.to_vec();
    v.sort_unstable();
    v
}

fn keys(n: usize, seed: u64, mask: u32) -> Vec<u32> {
    let mut x = Xorshift::seeded(seed);
    (0..n).map(|_| (x.next() >> 20) as u32 & mask).collect()
}

#[test]
fn sorts_match_the_model() {
    let mut epoch = 0;
    let tile = sort_tile::<u32>(false);
    for n in [0usize, 1, 100, tile, 3 * tile + 77] {
        for mask in [u32::MAX, 0xff00, 0x0300_0003, 0] {
            let k = keys(n, n as u64 + mask as u64, mask);
            assert_eq!(sort(&k, &mut epoch), sorted(&k), "n {n}, mask {mask:#x}");
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 8, ..ProptestConfig::default() })]
    #[test]
    fn random_sorts(n in 0usize..3 * sort_tile::<u32>(false), seed in any::<u64>()) {
        let mut epoch = 0;
        let k = keys(n, seed, u32::MAX);
        prop_assert_eq!(sort(&k, &mut epoch), sorted(&k));
    }
}

/// CUB's order of `K` keys: by their order-preserving bits, `-0.0` equal
/// to `+0.0` (kept in input order), NaNs by their bits.
fn sorted_as<K: RadixKey<Bits = u32> + Into<Raw>>(keys: &[K]) -> Vec<u32> {
    let mut v: Vec<(u32, usize, u32)> = keys
        .iter()
        .enumerate()
        .map(|(i, &k)| (K::digit_bits(k.to_bits()), i, k.into().0))
        .collect();
    v.sort();
    v.into_iter().map(|(_, _, raw)| raw).collect()
}

/// A key's bit pattern.
struct Raw(u32);
impl From<i32> for Raw {
    fn from(k: i32) -> Raw {
        Raw(k as u32)
    }
}
impl From<f32> for Raw {
    fn from(k: f32) -> Raw {
        Raw(k.to_bits())
    }
}

#[test]
fn signed_and_float_keys_sort_in_cubs_order() {
    let mut epoch = 0;
    let n = 2 * sort_tile::<u32>(false) + 321;
    let bits = keys(n, 7, u32::MAX);
    let ints: Vec<i32> = bits.iter().map(|&b| b as i32).collect();
    let got: Vec<u32> = sort_as(
        &RADIX_HISTOGRAMS_I32,
        &RADIX_ONESWEEP_I32,
        &ints,
        &mut epoch,
    )
    .into_iter()
    .map(|k| k as u32)
    .collect();
    assert_eq!(got, sorted_as(&ints), "i32");
    assert!(got.windows(2).all(|w| (w[0] as i32) <= (w[1] as i32)));
    // Random bit patterns (every sign and exponent, NaNs), with both zeros,
    // infinities and the extremes mixed in.
    let mut floats: Vec<f32> = bits.iter().map(|&b| f32::from_bits(b)).collect();
    let special = [
        0.0,
        -0.0,
        f32::INFINITY,
        f32::NEG_INFINITY,
        f32::NAN,
        -f32::NAN,
        f32::MIN_POSITIVE,
        -f32::MIN_POSITIVE,
        f32::MAX,
        f32::MIN,
    ];
    for (i, &x) in special.iter().cycle().take(200).enumerate() {
        floats[i * 97 % n] = x;
    }
    let got: Vec<u32> = sort_as(
        &RADIX_HISTOGRAMS_F32,
        &RADIX_ONESWEEP_F32,
        &floats,
        &mut epoch,
    )
    .into_iter()
    .map(f32::to_bits)
    .collect();
    assert_eq!(got, sorted_as(&floats), "f32");
    // The numbers (NaNs aside) come out in ascending order, zeros of
    // either sign together.
    let nums: Vec<f32> = got
        .iter()
        .map(|&b| f32::from_bits(b))
        .filter(|x| !x.is_nan())
        .collect();
    assert!(nums.windows(2).all(|w| w[0] <= w[1]));
}

#[test]
fn float_pairs_keep_equal_zeros_in_input_order() {
    let mut epoch = 0;
    let n = sort_tile::<f32>(true) + 77;
    // Only zeros of both signs and two other keys: the values show the
    // order equal keys came out in.
    let keys: Vec<f32> = (0..n)
        .map(|i| match i % 4 {
            0 => 0.0,
            1 => -0.0,
            2 => -1.5,
            _ => 2.5,
        })
        .collect();
    let values: Vec<u32> = (0..n as u32).collect();
    let (k, v) = sort_pairs_as(
        &RADIX_HISTOGRAMS_F32,
        &RADIX_ONESWEEP_PAIRS_F32,
        &keys,
        &values,
        &mut epoch,
        0,
    );
    let want: Vec<u32> = (0..n as u32)
        .filter(|i| i % 4 == 2)
        .chain((0..n as u32).filter(|i| i % 4 < 2))
        .chain((0..n as u32).filter(|i| i % 4 == 3))
        .collect();
    assert_eq!(v, want);
    let raw: Vec<u32> = k.iter().map(|x| x.to_bits()).collect();
    let want_keys: Vec<u32> = want.iter().map(|&i| keys[i as usize].to_bits()).collect();
    assert_eq!(raw, want_keys, "the zeros keep their signs");
}

/// `n` 64-bit keys: `hi_mask` of random high halves, `lo_mask` of random
/// low halves.
fn keys64(n: usize, seed: u64, hi_mask: u32, lo_mask: u32) -> Vec<u64> {
    let mut x = Xorshift::seeded(seed);
    (0..n)
        .map(|_| {
            let hi = (x.next() >> 20) as u32 & hi_mask;
            let lo = (x.next() >> 20) as u32 & lo_mask;
            (hi as u64) << 32 | lo as u64
        })
        .collect()
}

#[test]
fn u64_keys_sort_over_eight_passes() {
    let mut epoch = 0;
    let tile = sort_tile::<u64>(false);
    for n in [0usize, 1, 100, tile, 2 * tile + 77] {
        for (hi, lo) in [
            (u32::MAX, u32::MAX),
            (u32::MAX, 0),
            (0, u32::MAX),
            (0x0100_0001, 0xff00_0000),
        ] {
            let k = keys64(n, n as u64 + hi as u64 + lo as u64, hi, lo);
            let mut want = k.clone();
            want.sort_unstable();
            let got = sort_as(&RADIX_HISTOGRAMS_U64, &RADIX_ONESWEEP_U64, &k, &mut epoch);
            assert_eq!(got, want, "n {n}, high {hi:#x}, low {lo:#x}");
        }
    }
}

#[test]
fn u64_pairs_sort_stably() {
    let mut epoch = 0;
    let n = 2 * sort_tile::<u64>(true) + 300;
    // Few distinct keys, distinct in both halves: equal keys keep their
    // values' order.
    let k = keys64(n, 5, 0x0101_0101, 0x8000_0001);
    let v: Vec<u32> = (0..n as u32).collect();
    let mut want: Vec<(u64, u32)> = k.iter().copied().zip(v.iter().copied()).collect();
    want.sort_by_key(|&(k, _)| k);
    let (wk, wv): (Vec<u64>, Vec<u32>) = want.into_iter().unzip();
    let (gk, gv) = sort_pairs_as(
        &RADIX_HISTOGRAMS_U64,
        &RADIX_ONESWEEP_PAIRS_U64,
        &k,
        &v,
        &mut epoch,
        0,
    );
    assert_eq!(gk, wk);
    assert_eq!(gv, wv);
}
