//! The warpgroup MMA (`cooperative_groups::wgmma`) on the simulator: every
//! accumulator width, the three swizzled layouts, bf16, f16 and e4m3
//! inputs, a block of two warpgroups multiplying their own rows of one
//! tile — each against a host product (exact: small integers); a partial
//! warpgroup and a diverged warp refused.

use cg_sim::LaunchConfig;
use cooperative_groups::host::{Image, run};
use cooperative_groups::prelude::*;
use cooperative_groups::tma::{Swizzle32B, Swizzle64B, Swizzle128B, TensorMap2d, TileLayout};
use cooperative_groups::wgmma::{
    Accumulator, Shape, SmemMatrix, Swizzled, WgmmaElement, WgmmaShape, operands_written,
};
use cooperative_groups::{
    GlobalSlice, OwnedPitched, Pod, SharedSlice, WarpgroupTiles, bf16, e4m3, f16, kernel,
    shared_array,
};

/// Small integers: exact in every input type, sums exact in `f32`.
fn small(i: usize, salt: usize) -> f32 {
    ((i * 7 + salt) % 5) as f32 - 2.0
}

/// `a` (m × k) times `b`ᵀ (`b` n × k), row-major.
fn product_t(a: &[f32], b: &[f32], m: usize, n: usize, k: usize) -> Vec<f32> {
    let mut c = vec![0.0; m * n];
    for i in 0..m {
        for j in 0..n {
            c[i * n + j] = (0..k).map(|kk| a[i * k + kk] * b[j * k + kk]).sum();
        }
    }
    c
}

/// Stages `rows` rows of `src` (each `W` elements, row-major) in `dst` as a
/// tensor-map tile of layout `L` with `W`-element rows lays them out.
fn stage<T: Pod, const W: u32, L: TileLayout>(
    dst: &SharedSlice<T>,
    src: &GlobalSlice<T>,
    rows: usize,
) {
    let block = this_thread_block();
    let t = block.thread_rank() as usize;
    for i in (t..rows * W as usize).step_by(block.num_threads() as usize) {
        let (r, k) = (i / W as usize, i % W as usize);
        dst.store(
            TensorMap2d::<'static, T, W, 8, L>::tile_index(k as u32, r as u32),
            src.load(i),
        );
    }
}

/// `c = a · bᵀ` with `a` 64 × W and `b` N × W staged in layout `L`, then
/// one batch (every K step of the rows), on a block of 128 threads.
fn product<T: WgmmaElement + Pod, const W: u32, L: Swizzled, const N: usize>(
    a: GlobalSlice<T>,
    b: GlobalSlice<T>,
    c: OwnedPitched<f32, WarpgroupTiles<64, N>>,
    sa: SharedSlice<T>,
    sb: SharedSlice<T>,
) where
    Shape<N>: WgmmaShape,
{
    stage::<T, W, L>(&sa, &a, 64);
    stage::<T, W, L>(&sb, &b, N);
    let block = this_thread_block();
    operands_written(&block);
    let wg = tiled_partition::<128>(&block);
    let am = SmemMatrix::<T, L>::k_major(&sa, 64);
    let bm = SmemMatrix::<T, L>::k_major(&sb, N);
    assert_eq!(SmemMatrix::<T, L>::ROW, W as usize);
    let acc = Accumulator::<N>::zero(&wg)
        .begin(&wg)
        .mma(&wg, &am, &bm)
        .commit()
        .wait();
    if let Some(tile) = c.warpgroup_tile(&wg) {
        acc.store(&wg, &tile);
    }
}

macro_rules! kernels {
    ($($name:ident: $t:ty, $w:literal, $l:ty, $n:literal;)*) => {$(
        /// [`product`] of one case.
        #[kernel]
        pub fn $name(a: GlobalSlice<$t>, b: GlobalSlice<$t>, c: OwnedPitched<f32, WarpgroupTiles<64, $n>>) {
            let sa = shared_array!($t; 64 * $w, align 1024);
            let sb = shared_array!($t; $n * $w, align 1024);
            product::<$t, $w, $l, $n>(a, b, c, sa.as_slice(), sb.as_slice());
        }
    )*};
}

kernels! {
    n8: bf16, 64, Swizzle128B, 8;
    n16: bf16, 64, Swizzle128B, 16;
    n32: bf16, 64, Swizzle128B, 32;
    n64: bf16, 64, Swizzle128B, 64;
    n128: bf16, 64, Swizzle128B, 128;
    n256: bf16, 64, Swizzle128B, 256;
    sw64: bf16, 32, Swizzle64B, 64;
    sw32: bf16, 16, Swizzle32B, 64;
    half: f16, 64, Swizzle128B, 128;
    fp8: e4m3, 128, Swizzle128B, 64;
}

/// Runs one case's kernel on the simulator; the host's product, compared.
macro_rules! check {
    ($kernel:expr, $n:literal, $w:literal, $conv:expr, $what:literal) => {{
        let a: Vec<f32> = (0..64 * $w).map(|i| small(i, 1)).collect();
        let b: Vec<f32> = (0..$n * $w).map(|i| small(i, 3)).collect();
        let at: Vec<_> = a.iter().map(|&v| $conv(v)).collect();
        let bt: Vec<_> = b.iter().map(|&v| $conv(v)).collect();
        let mut c = vec![f32::NAN; 64 * $n];
        run(
            &$kernel,
            &LaunchConfig::new(1, 128),
            (&at[..], &bt[..], Image::new(&mut c[..], $n, 64, $n)),
        )
        .unwrap();
        let want = product_t(&a, &b, 64, $n, $w);
        let bad = c.iter().zip(&want).filter(|(g, w)| g != w).count();
        assert_eq!(bad, 0, "{}: {bad} of {} differ", $what, want.len());
    }};
}

#[test]
fn every_width_layout_and_type_matches_the_host() {
    let bf = |v: f32| bf16::from_f32(v);
    check!(N8, 8, 64, bf, "n8");
    check!(N16, 16, 64, bf, "n16");
    check!(N32, 32, 64, bf, "n32");
    check!(N64, 64, 64, bf, "n64");
    check!(N128, 128, 64, bf, "n128");
    check!(N256, 256, 64, bf, "n256");
    check!(SW64, 64, 32, bf, "64-byte swizzle");
    check!(SW32, 64, 16, bf, "32-byte swizzle");
    check!(HALF, 128, 64, f16::from_f32, "f16");
    check!(FP8, 64, 128, e4m3::from_f32_satfinite, "e4m3");
}

/// Two warpgroups, each its own 64 rows of a 128 × 64 tile.
#[kernel]
pub fn two_warpgroups(
    a: GlobalSlice<bf16>,
    b: GlobalSlice<bf16>,
    c: OwnedPitched<f32, WarpgroupTiles<128, 64>>,
) {
    let sa = shared_array!(bf16; 128 * 64, align 1024);
    let sb = shared_array!(bf16; 64 * 64, align 1024);
    let (sa, sb) = (sa.as_slice(), sb.as_slice());
    stage::<bf16, 64, Swizzle128B>(&sa, &a, 128);
    stage::<bf16, 64, Swizzle128B>(&sb, &b, 64);
    let block = this_thread_block();
    operands_written(&block);
    let wg = tiled_partition::<128>(&block);
    let w = block.thread_rank() as usize / 128;
    let am = SmemMatrix::<bf16, Swizzle128B>::k_major(&sa, 128).rows(64 * w, 64);
    let bm = SmemMatrix::<bf16, Swizzle128B>::k_major(&sb, 64);
    let acc = Accumulator::<64>::zero(&wg)
        .begin(&wg)
        .mma(&wg, &am, &bm)
        .commit()
        .wait();
    if let Some(tile) = c.warpgroup_tile(&wg) {
        acc.store(&wg, &tile);
    }
}

#[test]
fn two_warpgroups_share_one_tile() {
    let a: Vec<f32> = (0..128 * 64).map(|i| small(i, 2)).collect();
    let b: Vec<f32> = (0..64 * 64).map(|i| small(i, 4)).collect();
    let at: Vec<bf16> = a.iter().map(|&v| bf16::from_f32(v)).collect();
    let bt: Vec<bf16> = b.iter().map(|&v| bf16::from_f32(v)).collect();
    let mut c = vec![f32::NAN; 128 * 64];
    run(
        &TWO_WARPGROUPS,
        &LaunchConfig::new(1, 256),
        (&at[..], &bt[..], Image::new(&mut c[..], 64, 128, 64)),
    )
    .unwrap();
    assert_eq!(c, product_t(&a, &b, 128, 64, 64));
}

/// A 192-thread block: its second warpgroup tile has 64 threads.
#[kernel]
pub fn partial_warpgroup(c: OwnedPitched<f32, WarpgroupTiles<64, 8>>) {
    let wg = tiled_partition::<128>(&this_thread_block());
    let acc = Accumulator::<8>::zero(&wg).begin(&wg).commit().wait();
    if let Some(tile) = c.warpgroup_tile(&wg) {
        acc.store(&wg, &tile);
    }
}

#[test]
fn a_partial_warpgroup_is_refused() {
    let mut c = vec![0.0f32; 64 * 8];
    let e = run(
        &PARTIAL_WARPGROUP,
        &LaunchConfig::new(1, 192),
        (Image::new(&mut c[..], 8, 64, 8),),
    )
    .unwrap_err();
    assert!(
        e.to_string().contains("partial warpgroup of 64 threads"),
        "{e}"
    );
}
