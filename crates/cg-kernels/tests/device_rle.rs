//! The device-wide run-length encoding (`device_rle`) on the simulator
//! against the sequential model: empty and one-element inputs, runs across
//! warp and tile boundaries, one run over several tiles, every element its
//! own run, consecutive launches on the same tile states (a new epoch
//! each), inputs at aligned and unaligned addresses, and random cases
//! under proptest.

use cg_kernels::device_rle::{
    DEVICE_RLE_ENCODE_I32, RLE_BLOCK, RLE_SMEM_BYTES, RLE_TILE, rle_grid, rle_model,
};
use cg_kernels::xorshift::Xorshift;
use proptest::prelude::*;

/// The simulated device, with an sm_90 GPU's opt-in shared memory per
/// block (the tile and its heads take 48 KiB, beside the block's static
/// shared memory), as cg-runtime's launches raise it.
fn dev() -> cg_sim::SimDevice {
    cg_sim::SimDevice {
        stack_size: 4 << 20,
        max_smem_per_block: 227 << 10,
        ..Default::default()
    }
}

/// The kernel's runs of `input`: (values, lengths).
fn encode(input: &[i32], epoch: &mut u32) -> (Vec<i32>, Vec<u32>) {
    let n = input.len() as u32;
    let grid = rle_grid(n);
    let (mut s1, mut s2) = (vec![0u64; grid as usize], vec![0u64; grid as usize]);
    *epoch += 1;
    let mut unique = vec![i32::MIN; input.len()];
    let mut counts = vec![u32::MAX; input.len()];
    let mut runs = u32::MAX;
    let args = (
        input.as_ptr(),
        unique.as_mut_ptr(),
        counts.as_mut_ptr(),
        &mut runs as *mut u32,
        s1.as_mut_ptr(),
        s2.as_mut_ptr(),
        n,
        *epoch,
    );
    let cfg = cg_sim::LaunchConfig::new(grid, RLE_BLOCK).with_dynamic_smem(RLE_SMEM_BYTES);
    // SAFETY: `n` inputs, room for `n` runs, one count, a state per block in each array.
    let k = unsafe { DEVICE_RLE_ENCODE_I32.host_fn_unchecked() };
    cg_sim::launch_on(&dev(), &cfg, &|| k(args)).unwrap();
    let r = runs as usize;
    assert!(r <= input.len(), "runs {runs}");
    assert!(unique[r..].iter().all(|&x| x == i32::MIN));
    assert!(counts[r..].iter().all(|&x| x == u32::MAX));
    unique.truncate(r);
    counts.truncate(r);
    (unique, counts)
}

fn model(input: &[i32]) -> (Vec<i32>, Vec<u32>) {
    let (mut u, mut c) = (vec![0; input.len()], vec![0; input.len()]);
    let r = rle_model(input, &mut u, &mut c);
    u.truncate(r);
    c.truncate(r);
    (u, c)
}

fn runs(n: usize, seed: u64, max_run: u64) -> Vec<i32> {
    let mut x = Xorshift::seeded(seed);
    let mut next = move || x.next() >> 11;
    let mut v = Vec::with_capacity(n);
    while v.len() < n {
        let val = (next() % 7) as i32;
        for _ in 0..1 + next() % max_run {
            v.push(val);
        }
    }
    v.truncate(n);
    v
}

#[test]
fn encodings_match_the_model() {
    let mut epoch = 0;
    for n in [0usize, 1, 2, 33, RLE_TILE, 3 * RLE_TILE + 77] {
        for max_run in [1u64, 5, 600] {
            let input = runs(n, n as u64 + max_run, max_run);
            assert_eq!(
                encode(&input, &mut epoch),
                model(&input),
                "n {n}, runs ≤ {max_run}"
            );
            // From an address 4 bytes past the allocation's (not 16-byte
            // aligned: the tiles are read element by element).
            let shifted = [&[i32::MIN][..], &input].concat();
            assert_eq!(
                encode(&shifted[1..], &mut epoch),
                model(&input),
                "n {n}, runs ≤ {max_run}, unaligned"
            );
        }
    }
}

#[test]
fn one_run_over_tiles_and_all_distinct() {
    let mut epoch = 0;
    let one = vec![3i32; 2 * RLE_TILE + 9];
    assert_eq!(encode(&one, &mut epoch), (vec![3], vec![one.len() as u32]));
    let distinct: Vec<i32> = (0..RLE_TILE as i32 + 40).collect();
    assert_eq!(encode(&distinct, &mut epoch), model(&distinct));
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 12, ..ProptestConfig::default() })]
    #[test]
    fn random_encodings(n in 0usize..3 * RLE_TILE, seed in any::<u64>(), max_run in 1u64..3000) {
        let mut epoch = 0;
        let input = runs(n, seed, max_run);
        prop_assert_eq!(encode(&input, &mut epoch), model(&input));
    }
}
