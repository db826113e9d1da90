//! Ownership of the shapes whose size is a launch argument, on the
//! simulator (race detector on): a row of run-time width per warp, per
//! block and per thread; a `TM × TN` register tile per thread (cut at the
//! image's edges); block- and tile-strided windows. Every element is
//! checked against a host reference; a row wider than its buffer and a
//! row past the image are reported.

use cg_sim::{LaunchConfig, SimError};
use cooperative_groups::host::{Image, run};
use cooperative_groups::prelude::*;
use cooperative_groups::{
    BlockRows, GlobalSlice, OwnedPitched, OwnedSlice, PerBlock, PerTile, Pitched, ThreadRows,
    ThreadTiles, TileRows, kernel,
};

/// A layer norm, one warp per row (grid-stride over the rows), the row
/// length `C` the image's width: `y = (x − mean) / √(var + ε) · γ`.
#[kernel]
pub fn layer_norm_warp(
    x: Pitched<f32>,
    gamma: GlobalSlice<f32>,
    y: OwnedPitched<f32, TileRows<32>>,
) {
    let warp = tiled_partition::<32>(&this_thread_block());
    for row in y.row_stride(&warp) {
        let xr = x.row(row.y());
        let g = gamma.prefix(row.len());
        let n = row.len() as f32;
        let mut s = 0.0f32;
        for e in row.striped() {
            s += xr.load(e.x());
        }
        let mean = reduce(&warp, s, Plus) / n;
        let mut v = 0.0f32;
        for e in row.striped() {
            let d = xr.load(e.x()) - mean;
            v += d * d;
        }
        let var = reduce(&warp, v, Plus) / n;
        let r = 1.0 / cooperative_groups::math::sqrtf(var + 1e-5);
        for e in row.striped() {
            e.store((xr.load(e.x()) - mean) * r * g.load(e.x()));
        }
    }
}

fn layer_norm_host(x: &[f32], gamma: &[f32], c: usize, rows: usize, pitch: usize) -> Vec<f32> {
    let mut out = vec![0.0f32; rows * c];
    for r in 0..rows {
        let xr = &x[r * pitch..r * pitch + c];
        let mean = xr.iter().map(|&v| v as f64).sum::<f64>() / c as f64;
        let var = xr.iter().map(|&v| (v as f64 - mean).powi(2)).sum::<f64>() / c as f64;
        let k = 1.0 / (var + 1e-5).sqrt();
        for j in 0..c {
            out[r * c + j] = ((xr[j] as f64 - mean) * k * gamma[j] as f64) as f32;
        }
    }
    out
}

#[test]
fn a_warp_per_row_of_run_time_width() {
    // Widths below, at and past the warp, and not a multiple of it; more
    // rows than the grid has warps (the grid-stride), a pitch past the width.
    for &(c, rows) in &[(1usize, 3usize), (31, 5), (32, 9), (100, 13), (768, 4)] {
        let pitch = c + 3;
        let x: Vec<f32> = (0..rows * pitch)
            .map(|i| ((i * 37 % 101) as f32 - 50.0) * 0.03)
            .collect();
        let gamma: Vec<f32> = (0..c).map(|j| 1.0 + j as f32 * 0.01).collect();
        let mut y = vec![f32::NAN; rows * c];
        run(
            &LAYER_NORM_WARP,
            &LaunchConfig::new(2, 64),
            (
                Image::new(&x[..], c, rows, pitch),
                &gamma[..],
                Image::new(&mut y[..], c, rows, c),
            ),
        )
        .unwrap();
        let want = layer_norm_host(&x, &gamma, c, rows, pitch);
        for (i, (&g, &w)) in y.iter().zip(&want).enumerate() {
            assert!(
                (g - w).abs() <= 1e-4 * (1.0 + w.abs()),
                "C = {c}: element {i}: {g} vs {w}"
            );
        }
    }
}

/// Each block writes its rows (grid-stride), striped over its threads.
#[kernel]
pub fn fill_block_rows(out: OwnedPitched<u32, BlockRows>) {
    let block = this_thread_block();
    for row in out.row_stride(&block) {
        for e in row.striped() {
            e.store((e.y() * 1000 + e.x()) as u32);
        }
    }
}

/// Each thread writes its rows whole: a running sum along the row.
#[kernel]
pub fn prefix_thread_rows(x: Pitched<u32>, out: OwnedPitched<u32, ThreadRows>) {
    for row in out.row_stride(&this_grid()) {
        let xr = x.row(row.y());
        let mut acc = 0u32;
        for e in row.striped() {
            acc += xr.load(e.x());
            e.store(acc);
        }
    }
}

/// The first row of each block only (`row`, no stride).
#[kernel]
pub fn first_block_row(out: OwnedPitched<u32, BlockRows>) {
    if let Some(row) = out.row(&this_thread_block()) {
        let mut k = 0;
        while let Some(e) = row.mine(k) {
            e.store(7 + row.y() as u32);
            k += 1;
        }
    }
}

#[test]
fn block_and_thread_rows() {
    let (w, h, pitch) = (70usize, 11usize, 75usize);
    let mut out = vec![u32::MAX; h * pitch];
    run(
        &FILL_BLOCK_ROWS,
        &LaunchConfig::new(3, 32),
        (Image::new(&mut out[..], w, h, pitch),),
    )
    .unwrap();
    for y in 0..h {
        for x in 0..pitch {
            let want = if x < w {
                (y * 1000 + x) as u32
            } else {
                u32::MAX
            };
            assert_eq!(out[y * pitch + x], want, "({x}, {y})");
        }
    }

    let x: Vec<u32> = (0..h * w).map(|i| (i % 13) as u32).collect();
    let mut out = vec![0u32; h * w];
    run(
        &PREFIX_THREAD_ROWS,
        &LaunchConfig::new(2, 4),
        (
            Image::new(&x[..], w, h, w),
            Image::new(&mut out[..], w, h, w),
        ),
    )
    .unwrap();
    for y in 0..h {
        let mut acc = 0;
        for i in 0..w {
            acc += x[y * w + i];
            assert_eq!(out[y * w + i], acc, "row {y} column {i}");
        }
    }

    // Five blocks, three rows: blocks 3 and 4 own none.
    let mut out = vec![0u32; 3 * 40];
    run(
        &FIRST_BLOCK_ROW,
        &LaunchConfig::new(5, 32),
        (Image::new(&mut out[..], 40, 3, 40),),
    )
    .unwrap();
    assert!(
        out.iter()
            .enumerate()
            .all(|(i, &v)| v == 7 + (i / 40) as u32)
    );
}

/// `c = a · b`, each thread an 8 × 8 tile of `c` in registers.
#[kernel]
pub fn matmul_thread_tiles(
    a: Pitched<f32>,
    b: Pitched<f32>,
    c: OwnedPitched<f32, ThreadTiles<8, 8>>,
) {
    let Some(t) = c.tile(&this_grid()) else {
        return;
    };
    let mut acc = [[0.0f32; 8]; 8];
    for k in 0..a.width() {
        let mut av = [0.0f32; 8];
        let mut bv = [0.0f32; 8];
        for i in 0..8 {
            if i < t.rows() {
                av[i] = a.load(k, t.y0() + i);
            }
            if i < t.cols() {
                bv[i] = b.load(t.x0() + i, k);
            }
        }
        for i in 0..8 {
            for j in 0..8 {
                acc[i][j] += av[i] * bv[j];
            }
        }
    }
    t.store_all(&acc);
}

/// [`matmul_thread_tiles`] over more tiles than threads (`tile_stride`).
#[kernel]
pub fn matmul_tile_stride(
    a: Pitched<f32>,
    b: Pitched<f32>,
    c: OwnedPitched<f32, ThreadTiles<8, 8>>,
) {
    for t in c.tile_stride(&this_grid()) {
        let mut acc = [[0.0f32; 8]; 8];
        for k in 0..a.width() {
            for (i, row) in acc.iter_mut().enumerate().take(t.rows()) {
                let av = a.load(k, t.y0() + i);
                for (j, v) in row.iter_mut().enumerate().take(t.cols()) {
                    *v += av * b.load(t.x0() + j, k);
                }
            }
        }
        t.store_all(&acc);
    }
}

/// A thread-tile product kernel.
type Matmul = cooperative_groups::Kernel<(
    Pitched<'static, f32>,
    Pitched<'static, f32>,
    OwnedPitched<'static, f32, ThreadTiles<8, 8>>,
)>;

#[test]
fn a_register_tile_per_thread_cut_at_the_edges() {
    // 37 × 29 (neither a multiple of 8): full tiles, right, bottom and
    // corner tiles; threads past the image own nothing.
    let (m, n, kk) = (37usize, 29usize, 5usize);
    let a: Vec<f32> = (0..m * kk).map(|i| (i % 7) as f32 - 3.0).collect();
    let b: Vec<f32> = (0..kk * n).map(|i| (i % 5) as f32 - 2.0).collect();
    let check = |kernel: &Matmul, cfg: LaunchConfig, what: &str| {
        let mut c = vec![f32::NAN; m * n];
        run(
            kernel,
            &cfg,
            (
                Image::new(&a[..], kk, m, kk),
                Image::new(&b[..], n, kk, n),
                Image::new(&mut c[..], n, m, n),
            ),
        )
        .unwrap();
        for i in 0..m {
            for j in 0..n {
                let want: f32 = (0..kk).map(|k| a[i * kk + k] * b[k * n + j]).sum();
                assert_eq!(c[i * n + j], want, "{what} ({i}, {j})");
            }
        }
    };
    check(
        &MATMUL_THREAD_TILES,
        LaunchConfig::new((2, 2), (3, 3)),
        "tile",
    );
    // 2 × 3 threads for 4 × 5 tiles: each thread strides over several.
    check(
        &MATMUL_TILE_STRIDE,
        LaunchConfig::new((1, 1), (2, 3)),
        "stride",
    );
}

/// Block `b` writes `b` into elements `b, b + B, …` (a block-strided
/// output, by each block's thread 0).
#[kernel]
pub fn block_strided(out: OwnedSlice<u32, PerBlock>) {
    let block = this_thread_block();
    for w in out.windows(&block) {
        if let Some(e) = w.mine(0) {
            e.store(block.group_index().x);
        }
    }
}

/// Windows of 3 per warp, warp-strided, striped over the warp.
#[kernel]
pub fn tile_strided(out: OwnedSlice<u32, PerTile<32, 3>>) {
    let warp = tiled_partition::<32>(&this_thread_block());
    for w in out.windows(&warp) {
        for e in w.striped() {
            e.store((w.start() / 3) as u32 * 10 + warp.thread_rank());
        }
    }
}

#[test]
fn block_and_tile_strided_windows() {
    let mut out = vec![u32::MAX; 10];
    run(&BLOCK_STRIDED, &LaunchConfig::new(3, 64), (&mut out[..],)).unwrap();
    assert_eq!(out, (0..10).map(|i| i % 3).collect::<Vec<u32>>());

    // 2 blocks of 64: 4 warps; 31 elements: 11 windows, the last of one.
    let mut out = vec![u32::MAX; 31];
    run(&TILE_STRIDED, &LaunchConfig::new(2, 64), (&mut out[..],)).unwrap();
    let want: Vec<u32> = (0..31).map(|i| (i / 3) * 10 + i % 3).collect();
    assert_eq!(out, want);
}

#[test]
fn a_row_wider_than_its_buffer_is_refused() {
    let mut data = vec![0u32; 3 * 40];
    let e = run(
        &FILL_BLOCK_ROWS,
        &LaunchConfig::new(2, 32),
        (Image::new(&mut data[..], 41, 3, 41),),
    );
    match e {
        Err(SimError::InvalidLaunch(msg)) => {
            assert!(msg.starts_with("`out`: "), "{msg}");
            assert!(msg.contains("the buffer has 120"), "{msg}");
        }
        other => panic!("expected a refused launch, got {other:?}"),
    }
    assert!(data.iter().all(|&v| v == 0));
}

/// Reads row `y.height()` of `x`: one past the last.
#[kernel]
pub fn row_past_the_image(x: Pitched<u32>, out: OwnedSlice<u32>) {
    if let Some(e) = out.at(&this_grid()) {
        e.store(x.row(x.height()).load(0)); // past the image
    }
}

#[test]
fn a_row_past_the_image_is_reported() {
    let x = [1u32; 12];
    let mut out = [0u32; 1];
    match run(
        &ROW_PAST_THE_IMAGE,
        &LaunchConfig::new(1, 1),
        (Image::new(&x[..], 4, 3, 4), &mut out[..]),
    ) {
        Err(SimError::OutOfBounds(rep)) => {
            let s = rep.to_string();
            assert!(s.contains("rows.rs"), "{s}");
        }
        other => panic!("expected an out-of-bounds report, got {other:?}"),
    }
}
