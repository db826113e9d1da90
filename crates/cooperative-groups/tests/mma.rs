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
    GlobalSlice, OwnedPitched, OwnedSlice, Pitched, Pod, WarpTiles, bf16, e4m3, e5m2, f16, kernel,
    shared_array,
};

/// `c = a · b + bias[col]` (`a` m × k, `b` k × n, row-major), each warp
/// 32 × 16 tiles of `c` (2 × 2 mma tiles), grid-strided, zero-padded at
/// the edges.
#[kernel(instances(bf16, f16))]
pub fn gemm<T: MmaElement<Acc = f32> + Pod + Float16>(
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

fn check<T: MmaElement<Acc = f32> + Pod + Float16>(
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

/// `c = a · b` for one 16 × 8 tile, the operands staged in shared memory
/// (rows `LD` elements apart, padded; B at column 8) and loaded with
/// `ldmatrix` (A: `.x4`, B: `.x2.trans`); the same product from `from_fn`
/// fragments in `d`.
#[kernel]
pub fn staged(
    a: GlobalSlice<bf16>,
    b: GlobalSlice<bf16>,
    c: OwnedPitched<f32, WarpTiles<16, 8>>,
    d: OwnedPitched<f32, WarpTiles<16, 8>>,
) {
    const LD: usize = 24;
    let block = this_thread_block();
    let warp = tiled_partition::<32>(&block);
    let sa = shared_array!(bf16; 16 * LD, align 16);
    let sb = shared_array!(bf16; 16 * LD, align 16);
    let t = block.thread_rank() as usize;
    for i in (t..256).step_by(32) {
        sa.store((i / 16) * LD + i % 16, a.load(i));
    }
    for i in (t..128).step_by(32) {
        sb.store((i / 8) * LD + 8 + i % 8, b.load(i));
    }
    block.sync();
    let fa = MatrixA::load_shared(&warp, &sa.as_slice(), 0, 0, LD);
    let fb = MatrixB::load_shared(&warp, &sb.as_slice(), 0, 8, LD);
    let acc = mma(&warp, &fa, &fb, Accumulator::zero(&warp));
    let ga = MatrixA::from_fn(&warp, |r, k| a.load(r * 16 + k));
    let gb = MatrixB::from_fn(&warp, |k, n| b.load(k * 8 + n));
    let want = mma(&warp, &ga, &gb, Accumulator::zero(&warp));
    if let (Some(tc), Some(td)) = (c.warp_tile(&warp), d.warp_tile(&warp)) {
        acc.store(&warp, &tc, 0, 0);
        want.store(&warp, &td, 0, 0);
    }
}

/// `ldmatrix` of a block whose rows are not 16-byte aligned (`ld` = 20).
#[kernel]
pub fn misaligned(c: OwnedPitched<f32, WarpTiles<16, 8>>) {
    let warp = tiled_partition::<32>(&this_thread_block());
    let sa = shared_array!(bf16; 16 * 20, align 16);
    let fa = MatrixA::load_shared(&warp, &sa.as_slice(), 0, 0, 20);
    let fb = MatrixB::from_fn(&warp, |_, _| bf16::from_f32(1.0));
    let acc = mma(&warp, &fa, &fb, Accumulator::zero(&warp));
    if let Some(t) = c.warp_tile(&warp) {
        acc.store(&warp, &t, 0, 0);
    }
}

#[test]
fn ldmatrix_loads_the_fragments_from_shared_memory() {
    let a: Vec<bf16> = (0..256)
        .map(|i| bf16::from_f32(((i * 7) % 11) as f32 - 5.0))
        .collect();
    let b: Vec<bf16> = (0..128)
        .map(|i| bf16::from_f32(((i * 5) % 7) as f32 - 3.0))
        .collect();
    let (mut c, mut d) = (vec![f32::NAN; 128], vec![f32::NAN; 128]);
    run(
        &STAGED,
        &LaunchConfig::new(1, 32),
        (
            &a[..],
            &b[..],
            Image::new(&mut c[..], 8, 16, 8),
            Image::new(&mut d[..], 8, 16, 8),
        ),
    )
    .unwrap();
    for i in 0..16 {
        for j in 0..8 {
            let want: f32 = (0..16)
                .map(|k| a[i * 16 + k].to_f32() * b[k * 8 + j].to_f32())
                .sum();
            assert_eq!(d[i * 8 + j], want, "from_fn ({i}, {j})");
            assert_eq!(c[i * 8 + j], want, "ldmatrix ({i}, {j})");
        }
    }
    let mut c = vec![0.0f32; 128];
    let e = run(
        &MISALIGNED,
        &LaunchConfig::new(1, 32),
        (Image::new(&mut c[..], 8, 16, 8),),
    )
    .unwrap_err()
    .to_string();
    assert!(e.contains("16-byte boundaries"), "{e}");
}

/// `c = a · b` with 8-bit integer inputs (`m16n8k32`, `i32` accumulators),
/// each warp its 16 × 8 tiles, `k` zero-padded to a multiple of 32.
#[kernel(instances(i8, u8))]
pub fn gemm_int<T: MmaElement<Acc = i32> + Pod + Default>(
    a: Pitched<T>,
    b: Pitched<T>,
    c: OwnedPitched<i32, WarpTiles<16, 8>>,
) {
    let warp = tiled_partition::<32>(&this_thread_block());
    let (m, kk, n) = (a.height(), a.width(), b.width());
    for tile in c.warp_tile_stride(&warp) {
        let (r0, c0) = (tile.y0(), tile.x0());
        let mut acc = Accumulator::zero(&warp);
        for k0 in (0..kk).step_by(MatrixA::<T>::K) {
            let fa = MatrixA::from_fn(&warp, |r, k| {
                if r0 + r < m && k0 + k < kk {
                    a.load(k0 + k, r0 + r)
                } else {
                    T::default()
                }
            });
            let fb = MatrixB::from_fn(&warp, |k, col| {
                if k0 + k < kk && c0 + col < n {
                    b.load(c0 + col, k0 + k)
                } else {
                    T::default()
                }
            });
            acc = mma(&warp, &fa, &fb, acc);
        }
        acc.store(&warp, &tile, 0, 0);
    }
}

/// The integer kernel of one input type.
type GemmInt<T> = cooperative_groups::Kernel<(
    Pitched<'static, T>,
    Pitched<'static, T>,
    OwnedPitched<'static, i32, WarpTiles<16, 8>>,
)>;

/// `kernel` on every byte value (inputs `from_byte` of a byte pattern)
/// against the host's exact `i32` product.
fn check_int<T: MmaElement<Acc = i32> + Pod + Default + Into<i32>>(
    kernel: &GemmInt<T>,
    from_byte: fn(u8) -> T,
    name: &str,
) {
    let (m, n, kk) = (40usize, 20usize, 70usize);
    let a: Vec<T> = (0..m * kk)
        .map(|i| from_byte(((i * 97 + 13) % 256) as u8))
        .collect();
    let b: Vec<T> = (0..kk * n)
        .map(|i| from_byte(((i * 61 + 7) % 256) as u8))
        .collect();
    let mut c = vec![0i32; m * n];
    run(
        kernel,
        &LaunchConfig::new(2, 64),
        (
            Image::new(&a[..], kk, m, kk),
            Image::new(&b[..], n, kk, n),
            Image::new(&mut c[..], n, m, n),
        ),
    )
    .unwrap();
    for i in 0..m {
        for j in 0..n {
            let want: i32 = (0..kk)
                .map(|k| a[i * kk + k].into() * b[k * n + j].into())
                .sum();
            assert_eq!(c[i * n + j], want, "{name} ({i}, {j})");
        }
    }
}

#[test]
fn integer_products_are_exact_over_the_whole_range() {
    check_int(&GEMM_INT_I8, |b| b as i8, "i8");
    check_int(&GEMM_INT_U8, |b| b, "u8");
}

/// One 16 × 32 by 32 × 8 product of 8-bit floats (`m16n8k32`, `f32`
/// accumulators).
#[kernel(instances(e4m3, e5m2))]
pub fn fp8_tile<T: MmaElement<Acc = f32> + Pod>(
    a: GlobalSlice<T>,
    b: GlobalSlice<T>,
    c: OwnedPitched<f32, WarpTiles<16, 8>>,
) {
    let warp = tiled_partition::<32>(&this_thread_block());
    let fa = MatrixA::from_fn(&warp, |r, k| a.load(r * 32 + k));
    let fb = MatrixB::from_fn(&warp, |k, n| b.load(k * 8 + n));
    let acc = mma(&warp, &fa, &fb, Accumulator::zero(&warp));
    if let Some(t) = c.warp_tile(&warp) {
        acc.store(&warp, &t, 0, 0);
    }
}

/// The kernel of one 8-bit float type.
type Fp8Tile<T> = cooperative_groups::Kernel<(
    GlobalSlice<'static, T>,
    GlobalSlice<'static, T>,
    OwnedPitched<'static, f32, WarpTiles<16, 8>>,
)>;

/// `FP8_TILE_*` against the host product of the same 8-bit values.
fn check_fp8<T: MmaElement<Acc = f32> + Pod>(
    kernel: &Fp8Tile<T>,
    to: fn(f32) -> T,
    back: fn(T) -> f32,
) {
    let a: Vec<T> = (0..512)
        .map(|i| to(((i * 7) % 13) as f32 * 0.25 - 1.5))
        .collect();
    let b: Vec<T> = (0..256).map(|i| to(((i * 5) % 9) as f32 - 4.0)).collect();
    let mut c = vec![0.0f32; 128];
    run(
        kernel,
        &LaunchConfig::new(1, 32),
        (&a[..], &b[..], Image::new(&mut c[..], 8, 16, 8)),
    )
    .unwrap();
    for i in 0..16 {
        for j in 0..8 {
            let want: f32 = (0..32)
                .map(|k| back(a[i * 32 + k]) * back(b[k * 8 + j]))
                .sum();
            assert_eq!(c[i * 8 + j], want, "({i}, {j})");
        }
    }
}

#[test]
fn fp8_products() {
    check_fp8(&FP8_TILE_E4M3, e4m3::from_f32_satfinite, e4m3::to_f32);
    check_fp8(&FP8_TILE_E5M2, e5m2::from_f32_satfinite, e5m2::to_f32);
}
