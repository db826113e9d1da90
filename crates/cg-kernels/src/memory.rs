//! The `memory` experiment of `cg-lab compare` (issue 57, "memory as real
//! kernels touch it"): the typed global memory of the library in the
//! shapes real kernels have — 16-byte vector copies, a streaming
//! read-modify-write, a layer norm whose row length is a launch argument,
//! a register-tiled matrix product — each with a C++ twin of the same
//! algorithm in `reference/cuda/memory.cu`.
//!
//! No kernel here has `unsafe` or a raw pointer: every parameter is typed,
//! so the lab launches them safely with its buffers, and every bound is
//! checked where it cannot be proven — once per launch or per row, outside
//! the loops that move the data (the experiment's SASS report shows the
//! loops next to the twin's).

use cooperative_groups::cache::Streaming;
use cooperative_groups::math::fast::rsqrtf;
use cooperative_groups::prelude::*;
use cooperative_groups::vector::{Bf16x8, F32x2, F32x4};
use cooperative_groups::{
    BlockRows, GlobalSlice, OwnedPitched, OwnedSlice, Pitched, ThreadTiles, TileRows, kernel,
    unroll,
};

/// Threads per block of the copies and the read-modify-write (their
/// `launch_bounds`, and the twin's `__launch_bounds__`).
pub const COPY_BLOCK: u32 = 256;
/// Threads per block of the warp-per-row layer norm: 8 rows at a time.
pub const LN_WARP_BLOCK: u32 = 256;
/// Threads per block of the block-per-row layer norm.
pub const LN_BLOCK: u32 = 1024;
/// The register tile of [`sgemm_8x8`]: each thread `TILE × TILE` outputs.
pub const TILE: usize = 8;
/// The block of [`sgemm_8x8`]: 16 × 16 threads, a 128 × 128 tile of `c`.
pub const GEMM_BLOCK: (u32, u32) = (16, 16);

/// `y = x`, 16 bytes (four `f32`, CUDA's `float4`) per load and store, in
/// a grid-stride loop: `LDG.E.128.CONSTANT` and `STG.E.128`. `x` is
/// checked against `y`'s length once, so the loop's own bound is the only
/// test in it.
#[kernel(launch_bounds(256))]
pub fn copy_f32x4(x: GlobalSlice<F32x4>, y: OwnedSlice<F32x4>) {
    let x = x.prefix(y.len());
    for e in y.grid_stride(&this_grid()) {
        e.store(x.load(e.index()));
    }
}

/// `y = x` for `bf16` data, eight elements (16 bytes) per load and store
/// ([`Bf16x8`]; CUDA kernels move them as a `uint4`), as [`copy_f32x4`].
#[kernel(launch_bounds(256))]
pub fn copy_bf16x8(x: GlobalSlice<Bf16x8>, y: OwnedSlice<Bf16x8>) {
    let x = x.prefix(y.len());
    for e in y.grid_stride(&this_grid()) {
        e.store(x.load(e.index()));
    }
}

/// `y = a·x + y` on 16-byte vectors with the streaming cache hint on every
/// access (`ld.global.cs`, `st.global.cs`: CUDA's `__ldcs`/`__stcs`; SASS
/// `.EF`, evict first): data touched once should not push out what stays.
#[kernel(launch_bounds(256))]
pub fn axpy_streaming(a: f32, x: GlobalSlice<F32x4>, y: OwnedSlice<F32x4>) {
    let x = x.prefix(y.len());
    let av = F32x4::splat(a);
    for e in y.grid_stride(&this_grid()) {
        let v = x.load_hint(e.index(), Streaming) * av + e.load_hint(Streaming);
        e.store_hint(v, Streaming);
    }
}

/// A vector's contribution to a row's `(sum, sum of squares)`, summed in
/// the order the twin sums it (`(v0 + v1) + (v2 + v3)`, then the squares
/// as a chain of multiply-adds), so that both sides round alike.
#[inline(always)]
fn moments(s: F32x2, v: F32x4) -> F32x2 {
    let sum = s[0] + ((v[0] + v[1]) + (v[2] + v[3]));
    let sq = s[1] + v[0] * v[0] + v[1] * v[1] + v[2] * v[2] + v[3] * v[3];
    F32x2::new([sum, sq])
}

/// One scalar's contribution (the row's tail).
#[inline(always)]
fn moment(s: F32x2, v: f32) -> F32x2 {
    F32x2::new([s[0] + v, s[1] + v * v])
}

/// A row's mean and `1 / sqrt(variance + eps)` from its reduced `(sum,
/// sum of squares)`: `var = E[x²] − mean²` (one read of the row for both
/// moments; clamped at 0 against rounding), `rsqrt.approx` as CUDA's
/// `rsqrtf`.
#[inline(always)]
fn stats(t: F32x2, inv_c: f32, eps: f32) -> (f32, f32) {
    let mean = t[0] * inv_c;
    let var = (t[1] * inv_c - mean * mean).max(0.0);
    (mean, rsqrtf(var + eps))
}

/// `(x − mean)·rstd·gamma + beta`, lane by lane.
#[inline(always)]
fn norm4(x: F32x4, mean: f32, rstd: f32, g: F32x4, b: F32x4) -> F32x4 {
    (x - F32x4::splat(mean)) * F32x4::splat(rstd) * g + b
}

/// The sum of a `(sum, sum of squares)` pair (the reductions' operator).
#[inline(always)]
fn add2(p: F32x2, q: F32x2) -> F32x2 {
    p + q
}

/// Layer norm, one warp per row: `y(j, r) = (x(j, r) − mean_r) · rstd_r ·
/// gamma(j) + beta(j)` over rows of `C` = the images' width, a launch
/// argument. The warp owns its rows under [`TileRows<32, 4>`]: each lane
/// reads and writes four floats at a time (`striped_vec`, `load_vec`:
/// 16-byte accesses where the row is aligned, which a pitch of a multiple
/// of 4 gives every row), the last `C mod 4` by `tail`; a first pass
/// sums the row and its squares, `reduce` over the warp (a butterfly:
/// every lane gets both), a second pass normalizes — the row's second
/// read comes from L1.
#[kernel(launch_bounds(256))]
pub fn layer_norm_warp(
    x: Pitched<f32>,
    gamma: GlobalSlice<f32>,
    beta: GlobalSlice<f32>,
    eps: f32,
    y: OwnedPitched<f32, TileRows<32, 4>>,
) {
    let warp = tiled_partition::<32>(&this_thread_block());
    let c = y.width();
    let (gamma, beta) = (gamma.prefix(c), beta.prefix(c));
    let inv_c = 1.0 / c as f32;
    for row in y.row_stride(&warp) {
        let xr = x.row(row.y()).prefix(row.len());
        let mut s = F32x2::default();
        for v in row.striped_vec() {
            s = moments(s, xr.load_vec(v.x()));
        }
        for e in row.tail() {
            s = moment(s, xr.load(e.x()));
        }
        let (mean, rstd) = stats(reduce(&warp, s, add2), inv_c, eps);
        for v in row.striped_vec() {
            let i = v.x();
            v.store(norm4(
                xr.load_vec(i),
                mean,
                rstd,
                gamma.load_vec(i),
                beta.load_vec(i),
            ));
        }
        for e in row.tail() {
            let i = e.x();
            e.store((xr.load(i) - mean) * rstd * gamma.load(i) + beta.load(i));
        }
    }
}

/// [`layer_norm_warp`] with one block per row (rows of tens of thousands
/// of elements): the rows under [`BlockRows<4>`], the moments reduced over
/// the block (warp butterflies, one exchange through shared memory).
#[kernel(launch_bounds(1024))]
pub fn layer_norm_block(
    x: Pitched<f32>,
    gamma: GlobalSlice<f32>,
    beta: GlobalSlice<f32>,
    eps: f32,
    y: OwnedPitched<f32, BlockRows<4>>,
) {
    let block = this_thread_block();
    let c = y.width();
    let (gamma, beta) = (gamma.prefix(c), beta.prefix(c));
    let inv_c = 1.0 / c as f32;
    for row in y.row_stride(&block) {
        let xr = x.row(row.y()).prefix(row.len());
        let mut s = F32x2::default();
        for v in row.striped_vec() {
            s = moments(s, xr.load_vec(v.x()));
        }
        for e in row.tail() {
            s = moment(s, xr.load(e.x()));
        }
        let (mean, rstd) = stats(reduce(&block, s, add2), inv_c, eps);
        for v in row.striped_vec() {
            let i = v.x();
            v.store(norm4(
                xr.load_vec(i),
                mean,
                rstd,
                gamma.load_vec(i),
                beta.load_vec(i),
            ));
        }
        for e in row.tail() {
            let i = e.x();
            e.store((xr.load(i) - mean) * rstd * gamma.load(i) + beta.load(i));
        }
    }
}

/// The `k` loop of [`sgemm_8x8`] for the tile whose first row of `a` is
/// vector `xa` of a row of `at`, first column vector `xb` of a row of `b`:
/// per `k` two 16-byte loads of `aᵀ`'s row `k` (the tile's 8 rows of `a`
/// at column `k`), two of `b`'s row `k`, 64 multiply-adds into registers.
/// `FULL`: both vectors of each exist (checked by the caller, once);
/// otherwise the second of each is loaded only where it exists (a tile
/// cut by the edge: the matrices' sides are multiples of 4).
#[inline(always)]
fn k_loop<const FULL: bool>(
    at: &Pitched<F32x4>,
    b: &Pitched<F32x4>,
    xa: usize,
    xb: usize,
) -> [[f32; TILE]; TILE] {
    let mut acc = [[0.0f32; TILE]; TILE];
    let (a2, b2) = (FULL || xa + 1 < at.width(), FULL || xb + 1 < b.width());
    for k in 0..at.height() {
        let (ar, br) = (at.row(k), b.row(k));
        let half = |r: &GlobalSlice<F32x4>, x: usize, two: bool| {
            let lo = r.load(x);
            let hi = if two { r.load(x + 1) } else { F32x4::default() };
            [lo[0], lo[1], lo[2], lo[3], hi[0], hi[1], hi[2], hi[3]]
        };
        let av = half(&ar, xa, a2);
        let bv = half(&br, xb, b2);
        unroll!(i in 0..8 => {
            unroll!(j in 0..8 => {
                acc[i][j] += av[i] * bv[j];
            });
        });
    }
    acc
}

/// `c = a · b` (`f32`, `M × K` by `K × N`), register-tiled: each thread an
/// 8 × 8 tile of `c` under [`ThreadTiles<8, 8>`], its accumulator 64
/// registers (loops written out by [`unroll!`]), no shared memory. `a`
/// comes transposed (`at`: `K` rows of `M` floats, a column-major `a`) so
/// that a tile's 8 rows of `a` at column `k` are two 16-byte vectors, as
/// its 8 columns of `b` are: `at` and `b` are images of [`F32x4`] (`M / 4`
/// and `N / 4` wide; the sides are multiples of 4). The tiles cut by the
/// matrix's edge take the same loop with their missing vectors zero and
/// store what lies inside
/// ([`ThreadTile::store_all`](cooperative_groups::global::ThreadTile::store_all)).
#[kernel(launch_bounds(256))]
pub fn sgemm_8x8(at: Pitched<F32x4>, b: Pitched<F32x4>, c: OwnedPitched<f32, ThreadTiles<8, 8>>) {
    let Some(t) = c.tile(&this_grid()) else {
        return;
    };
    // Shapes that do not multiply: nothing to compute (the host checks
    // them before the launch). Said here, the checks of `b.row(k)` below
    // follow from `k < at.height()`.
    if at.height() != b.height() {
        return;
    }
    let (xa, xb) = (t.y0() / 4, t.x0() / 4);
    let acc = if t.is_full() && xa + 1 < at.width() && xb + 1 < b.width() {
        k_loop::<true>(&at, &b, xa, xb)
    } else {
        k_loop::<false>(&at, &b, xa, xb)
    };
    t.store_all(&acc);
}
