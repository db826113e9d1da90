//! The device-wide even histogram (`device_histogram`) on the simulator
//! against a sequential model: partial last tiles and vectors, grids
//! smaller and larger than the tiles, bins of power-of-two widths (the
//! shift) and of other widths (the division), samples outside the range,
//! and random cases under proptest.

use cg_kernels::device_histogram::{
    DEVICE_HISTOGRAM_EVEN, HISTO_BLOCK, HISTO_SMEM_BYTES, HISTO_TILE, U4, even_bin, even_shift,
    histogram_grid,
};
use cg_kernels::xorshift::Xorshift;
use proptest::prelude::*;

/// `U4`s holding `samples` (the last one padded with zeros).
fn to_vectors(samples: &[u32]) -> Vec<U4> {
    samples
        .chunks(4)
        .map(|c| {
            let mut v = [0u32; 4];
            v[..c.len()].copy_from_slice(c);
            U4(v)
        })
        .collect()
}

fn dev() -> cg_sim::SimDevice {
    cg_sim::SimDevice {
        stack_size: 4 << 20,
        ..Default::default()
    }
}

/// The kernel's histogram of `samples` on a grid of `grid` blocks.
fn histogram(samples: &[u32], lower: u32, upper: u32, bins: u32, grid: u32) -> Vec<u32> {
    let vectors = to_vectors(samples);
    let mut hist = vec![0u32; bins as usize];
    let cfg = cg_sim::LaunchConfig::new(grid, HISTO_BLOCK).with_dynamic_smem(HISTO_SMEM_BYTES);
    let shift = even_shift(lower, upper, bins);
    let args = (
        &vectors[..],
        samples.len() as u32,
        lower,
        upper,
        bins,
        shift,
        &mut hist[..],
    );
    cooperative_groups::host::run_on(&dev(), &DEVICE_HISTOGRAM_EVEN, &cfg, args).unwrap();
    hist
}

fn model(samples: &[u32], lower: u32, upper: u32, bins: u32) -> Vec<u32> {
    let mut hist = vec![0u32; bins as usize];
    for &s in samples {
        if let Some(b) = even_bin(s, lower, upper, bins) {
            hist[b as usize] += 1;
        }
    }
    hist
}

/// A small deterministic generator.
fn samples(n: usize, seed: u64, max: u32) -> Vec<u32> {
    let mut x = Xorshift::seeded(seed);
    (0..n).map(|_| ((x.next() >> 16) as u32) % max).collect()
}

#[test]
fn shift_bins_count_every_sample() {
    // 256 bins of width 2^16 over [0, 2^24); partial last tile and vector.
    for (n, grid) in [
        (1usize, 1u32),
        (HISTO_TILE, 1),
        (3 * HISTO_TILE + 7, 2),
        (5003, 4),
    ] {
        let xs = samples(n, n as u64, 1 << 24);
        assert_eq!(even_shift(0, 1 << 24, 256), 16);
        let got = histogram(&xs, 0, 1 << 24, 256, grid);
        assert_eq!(got, model(&xs, 0, 1 << 24, 256), "n {n}, grid {grid}");
        assert_eq!(got.iter().sum::<u32>() as usize, n);
    }
}

#[test]
fn divided_bins_and_samples_outside_the_range() {
    // 100 bins over [1000, 61000): width 600 (a division); samples below
    // and above the range are not counted.
    let xs = samples(2 * HISTO_TILE + 333, 7, 70_000);
    assert_eq!(even_shift(1000, 61_000, 100), u32::MAX);
    let got = histogram(&xs, 1000, 61_000, 100, 3);
    assert_eq!(got, model(&xs, 1000, 61_000, 100));
    assert!(got.iter().sum::<u32>() < xs.len() as u32);
}

#[test]
fn the_grid_is_the_resident_blocks_or_the_tiles() {
    assert_eq!(histogram_grid(1, 1056), 1);
    assert_eq!(histogram_grid(10 * HISTO_TILE as u32, 4), 4);
    assert_eq!(histogram_grid(1 << 28, 1056), 1056);
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 16, ..ProptestConfig::default() })]
    #[test]
    fn random_even_histograms(
        n in 0usize..3 * HISTO_TILE,
        seed in any::<u64>(),
        lower in 0u32..5000,
        width in 1u32..4000,
        bins in 1u32..=256,
        grid in 1u32..4,
    ) {
        let upper = lower + width * bins;
        let xs = samples(n, seed, upper + 3000);
        prop_assert_eq!(histogram(&xs, lower, upper, bins, grid), model(&xs, lower, upper, bins));
    }
}

/// The kernel's range histogram of `samples` over `levels` on `grid` blocks.
fn range_histogram(samples: &[u32], levels: &[u32], grid: u32) -> Vec<u32> {
    use cg_kernels::device_histogram::DEVICE_HISTOGRAM_RANGE;
    let vectors = to_vectors(samples);
    let mut hist = vec![0u32; levels.len().saturating_sub(1)];
    let cfg = cg_sim::LaunchConfig::new(grid, HISTO_BLOCK).with_dynamic_smem(HISTO_SMEM_BYTES);
    let args = (&vectors[..], samples.len() as u32, levels, &mut hist[..]);
    cooperative_groups::host::run_on(&dev(), &DEVICE_HISTOGRAM_RANGE, &cfg, args).unwrap();
    hist
}

fn range_model(samples: &[u32], levels: &[u32]) -> Vec<u32> {
    let mut hist = vec![0u32; levels.len().saturating_sub(1)];
    for &s in samples {
        if let Some(b) = cg_kernels::device_histogram::range_bin(s, levels) {
            hist[b as usize] += 1;
        }
    }
    hist
}

/// Uneven levels (quadratic, as the lab's), samples below, inside and
/// above the range, one bin, 256 bins, levels with empty bins (equal
/// neighbours), and a sample equal to the last level (outside).
#[test]
fn range_bins_follow_the_levels() {
    let quad: Vec<u32> = (0..=256u32).map(|i| i * i * 3 + 100).collect();
    let xs = samples(2 * HISTO_TILE + 77, 5, 256 * 256 * 3 + 300);
    assert_eq!(range_histogram(&xs, &quad, 3), range_model(&xs, &quad));
    let one = [10u32, 20];
    let xs: Vec<u32> = (0..40).collect();
    assert_eq!(range_histogram(&xs, &one, 1), vec![10]);
    let flat = [5u32, 9, 9, 9, 30, 31];
    let xs: Vec<u32> = (0..40).collect();
    assert_eq!(range_histogram(&xs, &flat, 2), range_model(&xs, &flat));
    assert_eq!(range_model(&xs, &flat), vec![4, 0, 0, 21, 1]);
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 12, ..ProptestConfig::default() })]
    #[test]
    fn random_range_histograms(
        n in 0usize..2 * HISTO_TILE,
        seed in any::<u64>(),
        mut levels in proptest::collection::vec(0u32..100_000, 2..=257),
        grid in 1u32..4,
    ) {
        levels.sort_unstable();
        let xs = samples(n, seed, 110_000);
        prop_assert_eq!(range_histogram(&xs, &levels, grid), range_model(&xs, &levels));
    }
}
