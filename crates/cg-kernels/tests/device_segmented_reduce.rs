//! The device-wide segmented sum (`device_segmented_reduce`) on the
//! simulator against the host model: empty segments, segments shorter
//! than a block, longer than four block strides, the whole input as one
//! segment, `i32` (wrapping) and `f32`, and random cases under proptest;
//! offsets that pass the input's end stop the kernel with a bounds report.

use cg_kernels::device_segmented_reduce::{
    DEVICE_SEGMENTED_REDUCE_F32, DEVICE_SEGMENTED_REDUCE_I32, SEG_BLOCK, segmented_model,
};
use cg_kernels::xorshift::Xorshift;
use proptest::prelude::*;

fn dev() -> cg_sim::SimDevice {
    cg_sim::SimDevice {
        stack_size: 1 << 20,
        ..Default::default()
    }
}

/// Offsets of segments of the given lengths, from 0.
fn offsets(lengths: &[u32]) -> Vec<u32> {
    let mut o = vec![0u32];
    for &l in lengths {
        o.push(o.last().unwrap() + l);
    }
    o
}

fn cfg(segments: usize) -> cg_sim::LaunchConfig {
    cg_sim::LaunchConfig::new(segments.max(1) as u32, SEG_BLOCK)
}

fn sums_i32(input: &[i32], offsets: &[u32]) -> Vec<i32> {
    let mut out = vec![7i32; offsets.len() - 1];
    let launch = cfg(out.len());
    let args = (input, offsets, &mut out[..]);
    cooperative_groups::host::run_on(&dev(), &DEVICE_SEGMENTED_REDUCE_I32, &launch, args).unwrap();
    out
}

fn sums_f32(input: &[f32], offsets: &[u32]) -> Vec<f32> {
    let mut out = vec![7f32; offsets.len() - 1];
    let launch = cfg(out.len());
    let args = (input, offsets, &mut out[..]);
    cooperative_groups::host::run_on(&dev(), &DEVICE_SEGMENTED_REDUCE_F32, &launch, args).unwrap();
    out
}

fn model_i32(input: &[i32], offsets: &[u32]) -> Vec<i32> {
    let mut out = vec![0; offsets.len() - 1];
    segmented_model(input, offsets, &mut out);
    out
}

/// Small integers in −20..=20 (their `f32` sums are exact in any order;
/// `i32_sums_wrap` makes sums wrap).
fn data(n: usize, seed: u64) -> Vec<i32> {
    let mut x = Xorshift::seeded(seed);
    (0..n)
        .map(|_| ((x.next() >> 20) % 41) as i32 - 20)
        .collect()
}

#[test]
fn every_segment_shape_sums_as_the_model() {
    let b = SEG_BLOCK;
    let lengths = [
        0,
        1,
        5,
        b - 1,
        b,
        b + 1,
        3 * b + 7,
        4 * b,
        4 * b + 1,
        9 * b + 3,
        0,
        2,
    ];
    let o = offsets(&lengths);
    let input = data(*o.last().unwrap() as usize, 3);
    assert_eq!(sums_i32(&input, &o), model_i32(&input, &o));
    let floats: Vec<f32> = input.iter().map(|&x| x as f32).collect();
    let want: Vec<f32> = model_i32(&input, &o).iter().map(|&x| x as f32).collect();
    assert_eq!(sums_f32(&floats, &o), want);
}

#[test]
fn i32_sums_wrap() {
    let input = vec![i32::MAX; 3 * SEG_BLOCK as usize + 5];
    let o = vec![0, input.len() as u32];
    assert_eq!(sums_i32(&input, &o), model_i32(&input, &o));
}

#[test]
fn offsets_past_the_input_are_a_bounds_report() {
    let input = data(100, 1);
    let e = cooperative_groups::host::run_on(
        &dev(),
        &DEVICE_SEGMENTED_REDUCE_I32,
        &cfg(1),
        (&input[..], &[0u32, 101][..], &mut [0i32][..]),
    )
    .unwrap_err()
    .to_string();
    assert!(
        e.contains("out of range") || e.contains("out of bounds"),
        "{e}"
    );
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 12, ..ProptestConfig::default() })]
    #[test]
    fn random_segments(lengths in proptest::collection::vec(0u32..1200, 1..6), seed in any::<u64>()) {
        let o = offsets(&lengths);
        let input = data(*o.last().unwrap() as usize, seed);
        prop_assert_eq!(sums_i32(&input, &o), model_i32(&input, &o));
        let floats: Vec<f32> = input.iter().map(|&x| x as f32).collect();
        let want: Vec<f32> = model_i32(&input, &o).iter().map(|&x| x as f32).collect();
        prop_assert_eq!(sums_f32(&floats, &o), want);
    }
}
