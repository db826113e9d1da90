//! conjugateGradientMultiBlockCG: the whole conjugate gradient solver for
//! `A x = b` (A sparse, in CSR form) in one kernel. Every step (the sparse
//! matrix–vector product, the vector updates, the dot products) is a
//! grid-stride loop over all threads of the grid, and `this_grid().sync()`
//! separates the steps, so the kernel needs a cooperative launch. A dot
//! product is a `reduce` per warp, one per block, and one atomic add of
//! an `f64` per block. Typed parameters: the matrix is read-only, each
//! vector's elements belong to grid threads (grid-stride), the dot
//! product's accumulator is atomic — no `unsafe`.
#![no_std]
#![cfg_attr(
    target_arch = "nvptx64",
    feature(abi_gpu_kernel, asm_experimental_arch)
)]

use cooperative_groups::atomic::Relaxed;
use cooperative_groups::prelude::*;
use cooperative_groups::{AtomicSlice, GlobalSlice, OwnedSlice, dynamic_shared, kernel};

/// The sparse matrix in CSR form: `starts[i]..ends[i]` (`rows[i]` and
/// `rows[i + 1]`) index the nonzeros of row `i` in `cols` (their columns)
/// and `vals`.
#[derive(Clone, Copy)]
struct Csr<'a> {
    starts: GlobalSlice<'a, i32>,
    ends: GlobalSlice<'a, i32>,
    cols: GlobalSlice<'a, i32>,
    vals: GlobalSlice<'a, f32>,
}

/// A vector of the solver: each grid thread owns its grid-stride elements.
type Vector<'a> = OwnedSlice<'a, f32>;

/// `y = alpha · A x`.
#[inline(always)]
fn spmv(a: Csr, alpha: f32, x: &Vector, y: &Vector, grid: &GridGroup) {
    for e in y.grid_stride(grid) {
        let i = e.index();
        let (start, end) = (a.starts.load(i) as usize, a.ends.load(i) as usize);
        // The row's nonzeros as slices of their own: one bounds check per
        // row, none per nonzero but the gather's `x.load`.
        let len = end.saturating_sub(start);
        let (vals, cols) = (a.vals.slice(start, len), a.cols.slice(start, len));
        let mut out = 0.0f32;
        for j in 0..len {
            out += alpha * vals.load(j) * x.load(cols.load(j) as usize);
        }
        e.store(out);
    }
}

/// `y = a · x + y`.
#[inline(always)]
fn saxpy(x: &Vector, y: &Vector, a: f32, grid: &GridGroup) {
    for e in y.grid_stride(grid) {
        e.store(a * x.load(e.index()) + e.load());
    }
}

/// `y = a · x + scale · y`.
#[inline(always)]
fn scale_and_saxpy(x: &Vector, y: &Vector, a: f32, scale: f32, grid: &GridGroup) {
    for e in y.grid_stride(grid) {
        e.store(a * x.load(e.index()) + scale * e.load());
    }
}

/// `y = x`.
#[inline(always)]
fn copy(x: &Vector, y: &Vector, grid: &GridGroup) {
    for e in y.grid_stride(grid) {
        e.store(x.load(e.index()));
    }
}

/// `result[0] += a · b`: each thread's products in `f64`, `reduce` per
/// warp, the warp sums through shared memory (one `f64` per warp), `reduce`
/// in the first warp, one atomic add per block.
#[inline(always)]
fn dot(a: &Vector, b: &Vector, result: &AtomicSlice<f64>, cta: &ThreadBlock, grid: &GridGroup) {
    let tmp = dynamic_shared::<f64>();
    let mut sum = 0.0f64;
    // Four products per trip (nvcc unrolls this loop by four, its loads in
    // flight together); the sum in the same order as one at a time.
    let (rank, threads) = (grid.thread_rank() as usize, grid.num_threads() as usize);
    let trips = a.len().saturating_sub(rank).div_ceil(threads) as u32;
    cooperative_groups::unroll::<4>(trips, |k| {
        let i = rank + k as usize * threads;
        sum += (a.load(i) * b.load(i)) as f64;
    });
    let tile32 = tiled_partition::<32>(cta);
    sum = reduce(&tile32, sum, Plus);
    if tile32.thread_rank() == 0 {
        tmp.store(tile32.meta_group_rank() as usize, sum);
    }
    cta.sync();
    if tile32.meta_group_rank() == 0 {
        let lane = tile32.thread_rank();
        sum = if lane < tile32.meta_group_size() {
            tmp.load(lane as usize)
        } else {
            0.0
        };
        sum = reduce(&tile32, sum, Plus);
        if lane == 0 {
            result.at(0).red_add(sum, Relaxed);
        }
    }
}

/// Solves `A x = b` by conjugate gradients, starting from `x` with `r = b`
/// (and `dot_result[0] = 0`), until `|r|² ≤ tol²` or 10000 iterations;
/// `dot_result[0]` ends as the last `|r|²`. `ax` and `p` are scratch
/// vectors of `n` floats. Dynamic shared memory: one `f64` per warp of the
/// block. Launch cooperatively.
#[kernel]
#[allow(clippy::too_many_arguments)]
pub fn gpu_conjugate_gradient(
    rows: GlobalSlice<i32>,
    cols: GlobalSlice<i32>,
    vals: GlobalSlice<f32>,
    x: Vector,
    ax: Vector,
    p: Vector,
    r: Vector,
    dot_result: AtomicSlice<f64>,
    tol: f32,
) {
    let cta = this_thread_block();
    let grid = this_grid();
    // Every vector cut to `x`'s length, and the row bounds to as many
    // rows, checked once here: the loops' loads of one vector at another's
    // index then carry no bounds check.
    let n = x.len();
    let (ax, p, r) = (ax.prefix(n), p.prefix(n), r.prefix(n));
    let a = Csr {
        starts: rows.prefix(n),
        ends: rows.slice(1, n),
        cols,
        vals,
    };
    let first = grid.thread_rank() == 0;
    let max_iter = 10000;
    let (alpha, alpham1) = (1.0f32, -1.0f32);
    // The accumulator: written by one thread (and the blocks' atomic adds)
    // between grid barriers, read by all after the next.
    let read_dot = || dot_result.at(0).load(Relaxed);
    let reset_dot = || {
        if first {
            dot_result.at(0).store(0.0, Relaxed);
        }
    };

    spmv(a, alpha, &x, &ax, &grid);
    grid.sync();
    saxpy(&ax, &r, alpham1, &grid);
    grid.sync();
    dot(&r, &r, &dot_result, &cta, &grid);
    grid.sync();
    let mut r1 = read_dot() as f32;
    let mut r0 = 0.0f32;
    let mut k = 1;
    while r1 > tol * tol && k <= max_iter {
        if k > 1 {
            let b = r1 / r0;
            scale_and_saxpy(&r, &p, alpha, b, &grid);
        } else {
            copy(&r, &p, &grid);
        }
        grid.sync();
        spmv(a, alpha, &p, &ax, &grid);
        reset_dot();
        grid.sync();
        dot(&p, &ax, &dot_result, &cta, &grid);
        grid.sync();
        let step = (r1 as f64 / read_dot()) as f32;
        saxpy(&p, &x, step, &grid);
        saxpy(&ax, &r, -step, &grid);
        r0 = r1;
        grid.sync();
        reset_dot();
        grid.sync();
        dot(&r, &r, &dot_result, &cta, &grid);
        grid.sync();
        r1 = read_dot() as f32;
        k += 1;
    }
}
