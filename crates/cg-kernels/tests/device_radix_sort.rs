//! The device-wide radix sort (`device_radix_sort`) on the simulator
//! against a sorted copy: the histogram launch and the four onesweep
//! passes, partial last tiles, keys that differ in one byte only, equal
//! keys, consecutive sorts on the same tile states (new epochs), and
//! random inputs under proptest.

use cg_kernels::device_radix_sort::{
    DIGITS, HIST_BLOCK, PASSES, RADIX_HISTOGRAMS, RADIX_ONESWEEP, RADIX_ONESWEEP_PAIRS, SORT_BLOCK,
    sort_tile, sort_tiles,
};
use proptest::prelude::*;

fn dev() -> cg_sim::SimDevice {
    cg_sim::SimDevice {
        stack_size: 4 << 20,
        ..Default::default()
    }
}

/// Sorts `keys` with the kernels (histograms, then four passes).
fn sort(keys: &[u32], epoch: &mut u32) -> Vec<u32> {
    let n = keys.len() as u32;
    let mut a = keys.to_vec();
    let mut b = vec![0u32; keys.len()];
    let mut counts = vec![0u32; PASSES * DIGITS];
    let mut states = vec![0u64; sort_tiles(n, false) as usize * DIGITS];
    let (pa, pc) = (a.as_ptr(), counts.as_mut_ptr());
    // SAFETY: `n` keys and the counters.
    let h = unsafe { RADIX_HISTOGRAMS.host_fn_unchecked() };
    cg_sim::launch_on(&dev(), &cg_sim::LaunchConfig::new(2, HIST_BLOCK), &|| {
        h((pa, pc, n))
    })
    .unwrap();
    assert_eq!(counts[..DIGITS].iter().sum::<u32>(), n);
    // SAFETY: as the kernel's documentation asks: `n` keys in and out,
    // the counters, `DIGITS` states per tile.
    let k = unsafe { RADIX_ONESWEEP.host_fn_unchecked() };
    let cfg = cg_sim::LaunchConfig::new(sort_tiles(n, false), SORT_BLOCK);
    for pass in 0..PASSES as u32 {
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
    let n = keys.len() as u32;
    let (mut a, mut b) = (keys.to_vec(), vec![0u32; keys.len()]);
    let (mut va, mut vb) = (values.to_vec(), vec![0u32; keys.len()]);
    let mut counts = vec![0u32; PASSES * DIGITS];
    let mut states = vec![0u64; sort_tiles(n, true) as usize * DIGITS];
    let (pa, pc) = (a.as_ptr(), counts.as_mut_ptr());
    // SAFETY: `n` keys and the counters.
    let h = unsafe { RADIX_HISTOGRAMS.host_fn_unchecked() };
    cg_sim::launch_on(&dev(), &cg_sim::LaunchConfig::new(3, HIST_BLOCK), &|| {
        h((pa, pc, n))
    })
    .unwrap();
    // SAFETY: `n` keys and values in and out, the counters, `DIGITS`
    // states per tile.
    let k = unsafe { RADIX_ONESWEEP_PAIRS.host_fn_unchecked() };
    let cfg = cg_sim::LaunchConfig::new(sort_tiles(n, true), SORT_BLOCK);
    for pass in 0..PASSES as u32 {
        *epoch += 1;
        let (src, dst, vsrc, vdst) = if pass % 2 == 0 {
            (&a, &mut b, &va, &mut vb)
        } else {
            (&b, &mut a, &vb, &mut va)
        };
        let args = (
            src.as_ptr(),
            dst.as_mut_ptr(),
            vsrc.as_ptr(),
            vdst.as_mut_ptr(),
            counts.as_ptr(),
            states.as_mut_ptr(),
            n,
            pass,
            *epoch,
        );
        cg_sim::launch_on(&dev(), &cfg, &|| k(args)).unwrap();
    }
    (a, va)
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
    let tile = sort_tile(true);
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

fn sorted(keys: &[u32]) -> Vec<u32> {
    let mut v = keys.to_vec();
    v.sort_unstable();
    v
}

fn keys(n: usize, seed: u64, mask: u32) -> Vec<u32> {
    let mut x = seed.wrapping_mul(0x9e37_79b9_7f4a_7c15) | 1;
    (0..n)
        .map(|_| {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            (x >> 20) as u32 & mask
        })
        .collect()
}

#[test]
fn sorts_match_the_model() {
    let mut epoch = 0;
    let tile = sort_tile(false);
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
    fn random_sorts(n in 0usize..3 * sort_tile(false), seed in any::<u64>()) {
        let mut epoch = 0;
        let k = keys(n, seed, u32::MAX);
        prop_assert_eq!(sort(&k, &mut epoch), sorted(&k));
    }
}
