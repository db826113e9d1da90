//! The tensor-copy kernels (`cg_kernels::tma`) on the simulator: the copy
//! and the transpose of matrices whose sides are not multiples of the
//! tile (partial tiles at the right and bottom edges), with rows padded
//! past their width, grids smaller than the tile count (both stages of the
//! ring used, every block several tiles; two and four stages; the
//! transpose in dense and 128-byte swizzled tiles), through `cg-runtime`'s
//! tensor maps as a user builds them.

use cg_kernels::tma::{
    COPY_BLOCK, TILE, TMA_COPY, TMA_COPY_4, TMA_TRANSPOSE, TMA_TRANSPOSE_SWIZZLED, TRANSPOSE_BLOCK,
    Tiles, TilesMut,
};
use cg_runtime::{Backend, LaunchConfig, TensorMap, TensorMapMut};
use cooperative_groups::Kernel;
use cooperative_groups::tma::{Dense, Swizzle128B, TensorMap2d, TensorMap2dMut, TileLayout};

/// `w × h` floats, rows `pitch` apart, element `(x, y)` = `y * 1000 + x`;
/// the padding past each row is -1.
fn matrix(w: usize, h: usize, pitch: usize) -> Vec<f32> {
    (0..h * pitch)
        .map(|i| {
            let (y, x) = (i / pitch, i % pitch);
            if x < w { (y * 1000 + x) as f32 } else { -1.0 }
        })
        .collect()
}

fn run_copy(w: usize, h: usize, pitch: usize, grid: u32) {
    copy_with(&TMA_COPY, w, h, pitch, grid);
}

fn run_copy4(w: usize, h: usize, pitch: usize, grid: u32) {
    copy_with(&TMA_COPY_4, w, h, pitch, grid);
}

fn copy_with(kernel: &Kernel<(Tiles, TilesMut)>, w: usize, h: usize, pitch: usize, grid: u32) {
    let backend = Backend::sim();
    let input = matrix(w, h, pitch);
    let src_buf = backend.upload(&input).unwrap();
    let mut dst_buf = backend.upload(&vec![7.0f32; h * pitch]).unwrap();
    {
        let src = backend.tensor_map(&src_buf, w, h, pitch).unwrap();
        let mut dst = backend.tensor_map_mut(&mut dst_buf, w, h, pitch).unwrap();
        let cfg = LaunchConfig::linear(grid, COPY_BLOCK);
        backend.launch(kernel, &cfg, (&src, &mut dst)).unwrap();
    }
    let out = dst_buf.to_vec().unwrap();
    for y in 0..h {
        for x in 0..pitch {
            let want = if x < w { input[y * pitch + x] } else { 7.0 };
            assert_eq!(out[y * pitch + x], want, "({x}, {y}) of {w} x {h}");
        }
    }
}

fn run_transpose(w: usize, h: usize, pitch: usize, out_pitch: usize, grid: u32) {
    transpose_with::<Dense>(&TMA_TRANSPOSE, w, h, pitch, out_pitch, grid);
    transpose_with::<Swizzle128B>(&TMA_TRANSPOSE_SWIZZLED, w, h, pitch, out_pitch, grid);
}

type TransposeArgs<L> = (
    TensorMap2d<'static, f32, TILE, TILE, L>,
    TensorMap2dMut<'static, f32, TILE, TILE, L>,
);

fn transpose_with<L: TileLayout>(
    kernel: &Kernel<TransposeArgs<L>>,
    w: usize,
    h: usize,
    pitch: usize,
    out_pitch: usize,
    grid: u32,
) {
    let backend = Backend::sim();
    let input = matrix(w, h, pitch);
    let src_buf = backend.upload(&input).unwrap();
    let mut dst_buf = backend.upload(&vec![7.0f32; w * out_pitch]).unwrap();
    {
        let src: TensorMap<'_, f32, TILE, TILE, L> =
            backend.tensor_map(&src_buf, w, h, pitch).unwrap();
        let mut dst: TensorMapMut<'_, f32, TILE, TILE, L> = backend
            .tensor_map_mut(&mut dst_buf, h, w, out_pitch)
            .unwrap();
        let cfg = LaunchConfig::linear(grid, TRANSPOSE_BLOCK);
        backend.launch(kernel, &cfg, (&src, &mut dst)).unwrap();
    }
    let out = dst_buf.to_vec().unwrap();
    for x in 0..w {
        for y in 0..out_pitch {
            let want = if y < h { input[y * pitch + x] } else { 7.0 };
            assert_eq!(
                out[x * out_pitch + y],
                want,
                "{}: out ({y}, {x}) of {h} x {w}",
                kernel.name()
            );
        }
    }
}

#[test]
fn the_copy_moves_whole_and_partial_tiles() {
    run_copy(64, 64, 64, 4);
    run_copy4(100, 70, 104, 3);
    run_copy4(64, 96, 64, 2);
    run_copy(100, 70, 104, 3);
    run_copy(4, 1, 4, 1);
}

#[test]
fn the_transpose_mirrors_whole_and_partial_tiles() {
    run_transpose(64, 32, 64, 32, 2);
    run_transpose(100, 70, 100, 72, 3);
    run_transpose(36, 5, 40, 8, 1);
}

#[test]
fn a_shape_the_driver_refuses_is_an_error_naming_the_rule() {
    let backend = Backend::sim();
    let buf = backend.upload(&vec![0.0f32; 4096]).unwrap();
    // 30 floats = 120 bytes: not a multiple of 16.
    let e = backend
        .tensor_map::<f32, 32, 32, Dense>(&buf, 30, 10, 30)
        .err()
        .unwrap()
        .to_string();
    assert!(e.contains("multiple of 16 bytes"), "{e}");
    let e = backend
        .tensor_map::<f32, 32, 32, Dense>(&buf, 64, 65, 64)
        .err()
        .unwrap()
        .to_string();
    assert!(e.contains("spans"), "{e}");
}

/// The 1-D bulk copy: whole windows, a partial last window, a tail that is
/// not a whole 16-byte granule.
#[test]
fn the_bulk_copy_moves_every_window() {
    use cg_kernels::tma::{BULK_BLOCK, BULK_COPY, BULK_TILE};
    for n in [BULK_TILE, 3 * BULK_TILE + 1030, 7] {
        let backend = Backend::sim();
        let input: Vec<f32> = (0..n).map(|i| i as f32 * 0.5).collect();
        let src = backend.upload(&input).unwrap();
        let mut dst = backend.upload(&vec![-1.0f32; n]).unwrap();
        let cfg = LaunchConfig::linear(n.div_ceil(BULK_TILE) as u32, BULK_BLOCK);
        backend.launch(&BULK_COPY, &cfg, (&src, &mut dst)).unwrap();
        assert_eq!(dst.to_vec().unwrap(), input, "n = {n}");
    }
}

/// The cluster-multicast experiment's kernels (`cg_kernels::tma_multicast`)
/// on the simulator: one block loading each tile for its cluster of four,
/// and each block loading its own, give the host model's words — matrices
/// with partial tiles, grids of one and three clusters.
#[test]
fn the_multicast_and_unicast_folds_match_the_model() {
    use cg_kernels::tma_multicast::{
        MC_BLOCK, MC_CLUSTER, TMA_MULTICAST_FOLD, TMA_UNICAST_FOLD, mc_expected,
    };
    for (w, h, clusters) in [(96, 64, 1), (100, 70, 3)] {
        let backend = Backend::sim();
        let input = matrix(w, h, w);
        let bits: Vec<u32> = input.iter().map(|v| v.to_bits()).collect();
        let src_buf = backend.upload(&input).unwrap();
        let grid = clusters * MC_CLUSTER;
        let want: Vec<u32> = (0..grid * MC_BLOCK)
            .map(|i| mc_expected(&bits, (w, h), grid, i / MC_BLOCK, i % MC_BLOCK))
            .collect();
        for kernel in [&TMA_MULTICAST_FOLD, &TMA_UNICAST_FOLD] {
            let mut out = backend.alloc::<u32>((grid * MC_BLOCK) as usize).unwrap();
            let src = backend.tensor_map(&src_buf, w, h, w).unwrap();
            let cfg = LaunchConfig::linear(grid, MC_BLOCK).with_cluster(MC_CLUSTER);
            backend.launch(kernel, &cfg, (&src, &mut out)).unwrap();
            assert_eq!(out.to_vec().unwrap(), want, "{} {w} x {h}", kernel.name());
        }
    }
}
