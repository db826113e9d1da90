//! The warp MMA (`cooperative_groups::mma`) on the simulator: a tiled
//! matrix product over several warps and blocks, in bf16 and f16, with
//! edges that cut tiles, against a host product (exact: integer inputs);
//! general inputs within the rounding the module documents; a partial warp
//! and a diverged warp refused.

use cg_sim::LaunchConfig;
use cooperative_groups::host::{Image, run};
use cooperative_groups::mma::{Accumulator, MatrixA, MatrixB, MmaElement, mma};
use cooperative_groups::prelude::*;
use cooperative_groups::{
    GlobalSlice, OwnedPitched, OwnedSlice, Pitched, Pod, WarpTiles, bf16, f16, kernel,
};

/// `c = a · b + bias[col]` (`a` m × k, `b` k × n, row-major), each warp
/// 32 × 16 tiles of `c` (2 × 2 mma tiles), grid-strided, zero-padded at
/// the edges.
#[kernel(instances(bf16, f16))]
pub fn gemm<T: MmaElement + Pod + Float16>(
    a: Pitched<T>,
    b: Pitched<T>,
    bias: GlobalSlice<f32>,
    c: OwnedPitched<f32, WarpTiles<32, 16>>,
) {
    let warp = tiled_partition::<32>(&this_thread_block());
    let (m, kk, n) = (a.height(), a.width(), b.width());
    let zero = T::from_f32_rn(0.0);
    for tile in c.warp_tile_stride(&warp) {
        for i in 0..2 {
            for j in 0..2 {
                let (r0, c0) = (tile.y0() + 16 * i, tile.x0() + 8 * j);
                let mut acc = Accumulator::zero(&warp);
                for k0 in (0..kk).step_by(16) {
                    let fa = MatrixA::from_fn(&warp, |r, k| {
                        if r0 + r < m && k0 + k < kk {
                            a.load(k0 + k, r0 + r)
                        } else {
                            zero
                        }
                    });
                    let fb = MatrixB::from_fn(&warp, |k, col| {
                        if k0 + k < kk && c0 + col < n {
                            b.load(c0 + col, k0 + k)
                        } else {
                            zero
                        }
                    });
                    acc = mma(&warp, &fa, &fb, acc);
                }
                let acc = acc.map(&warp, |_, col, v| {
                    v + if c0 + col < n {
                        bias.load(c0 + col)
                    } else {
                        0.0
                    }
                });
                acc.store(&warp, &tile, i, j);
            }
        }
    }
}

/// The kernel of one element type.
type Gemm<T> = cooperative_groups::Kernel<(
    Pitched<'static, T>,
    Pitched<'static, T>,
    GlobalSlice<'static, f32>,
    OwnedPitched<'static, f32, WarpTiles<32, 16>>,
)>;

fn check<T: MmaElement + Pod + Float16>(
    kernel: &Gemm<T>,
    (m, n, kk): (usize, usize, usize),
    cfg: LaunchConfig,
    value: impl Fn(usize) -> f32,
    tolerance: f32,
) {
    let a: Vec<T> = (0..m * kk).map(|i| T::from_f32_rn(value(i))).collect();
    let b: Vec<T> = (0..kk * n)
        .map(|i| T::from_f32_rn(value(i * 7 + 3)))
        .collect();
    let bias: Vec<f32> = (0..n).map(|j| j as f32).collect();
    let mut c = vec![f32::NAN; m * n];
    run(
        kernel,
        &cfg,
        (
            Image::new(&a[..], kk, m, kk),
            Image::new(&b[..], n, kk, n),
            &bias[..],
            Image::new(&mut c[..], n, m, n),
        ),
    )
    .unwrap();
    for i in 0..m {
        for j in 0..n {
            let want: f64 = (0..kk)
                .map(|k| a[i * kk + k].widen() as f64 * b[k * n + j].widen() as f64)
                .sum::<f64>()
                + bias[j] as f64;
            let got = c[i * n + j];
            assert!(
                (got as f64 - want).abs() <= tolerance as f64 * (1.0 + want.abs()),
                "({i}, {j}): {got} vs {want}"
            );
        }
    }
}

#[test]
fn a_tiled_product_over_warps_and_blocks_is_exact_on_integers() {
    let ints = |i: usize| ((i * 31 + 7) % 9) as f32 - 4.0;
    // 70 × 45 × 40: tiles cut at the right and bottom edges, K not a
    // multiple of 16; 2 blocks of 64 threads (4 warps) for 3 × 3 tiles.
    check(
        &GEMM_BF16,
        (70, 45, 40),
        LaunchConfig::new(2, 64),
        ints,
        0.0,
    );
    check(&GEMM_F16, (70, 45, 40), LaunchConfig::new(2, 64), ints, 0.0);
}

#[test]
fn general_inputs_within_rounding() {
    let frac = |i: usize| (((i * 2654435761) % 1000) as f32 - 500.0) / 317.0;
    check(
        &GEMM_BF16,
        (32, 16, 64),
        LaunchConfig::new(1, 32),
        frac,
        1e-6,
    );
    check(
        &GEMM_F16,
        (32, 16, 64),
        LaunchConfig::new(1, 32),
        frac,
        1e-6,
    );
}

/// An mma in every warp of the block, whatever its size.
#[kernel]
pub fn every_warp(out: OwnedSlice<f32>) {
    let warp = tiled_partition::<32>(&this_thread_block());
    let fa = MatrixA::from_fn(&warp, |_, _| bf16::from_f32(1.0));
    let fb = MatrixB::from_fn(&warp, |_, _| bf16::from_f32(1.0));
    let acc = mma(&warp, &fa, &fb, Accumulator::zero(&warp));
    if let Some(e) = out.at(&this_grid()) {
        e.store(acc.elements(&warp)[0].2);
    }
}

/// An mma in the lower half of each warp only.
#[kernel]
pub fn half_warp(out: OwnedSlice<f32>) {
    let warp = tiled_partition::<32>(&this_thread_block());
    if warp.thread_rank() < 16 {
        let fa = MatrixA::from_fn(&warp, |_, _| bf16::from_f32(1.0));
        let fb = MatrixB::from_fn(&warp, |_, _| bf16::from_f32(1.0));
        let acc = mma(&warp, &fa, &fb, Accumulator::zero(&warp));
        if let Some(e) = out.at(&this_grid()) {
            e.store(acc.elements(&warp)[0].2);
        }
    }
}

#[test]
fn full_warps_only() {
    let mut out = vec![0.0f32; 64];
    run(&EVERY_WARP, &LaunchConfig::new(1, 64), (&mut out[..],)).unwrap();
    assert!(out.iter().all(|&v| v == 16.0), "{out:?}");

    // 48 threads: the second warp has 16 lanes.
    let e = run(&EVERY_WARP, &LaunchConfig::new(1, 48), (&mut out[..48],)).unwrap_err();
    assert!(e.to_string().contains("partial warp of 16 threads"), "{e}");

    // Half a warp at the collective: reported at the kernel's call.
    let e = run(&HALF_WARP, &LaunchConfig::new(1, 32), (&mut out[..32],)).unwrap_err();
    let s = e.to_string();
    assert!(s.contains("lanes 16-31"), "{s}");
    assert!(s.contains("tests/mma.rs"), "{s}");
}
