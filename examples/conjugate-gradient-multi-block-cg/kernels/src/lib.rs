//! conjugateGradientMultiBlockCG: the whole conjugate gradient solver for
//! `A x = b` (A sparse, in CSR form) in one kernel. Every step (the sparse
//! matrix–vector product, the vector updates, the dot products) is a
//! grid-stride loop over all threads of the grid, and `this_grid().sync()`
//! separates the steps, so the kernel needs a cooperative launch. A dot
//! product is a `reduce` per warp, one per block, and one `atomic_add` of
//! an `f64` per block.
#![no_std]
#![cfg_attr(
    target_arch = "nvptx64",
    feature(abi_gpu_kernel, asm_experimental_arch)
)]

use cooperative_groups::atomic::atomic_add;
use cooperative_groups::prelude::*;
use cooperative_groups::{dynamic_shared, kernel};

/// Calls `f(i)` for the grid-stride indices `grid.thread_rank(), +
/// grid.num_threads(), …` below `n`.
#[inline(always)]
fn grid_for(grid: &GridGroup, n: i32, mut f: impl FnMut(usize)) {
    let mut i = grid.thread_rank();
    while i < n as u64 {
        f(i as usize);
        i += grid.num_threads();
    }
}

/// The sparse matrix in CSR form: `rows[i]..rows[i + 1]` index the
/// nonzeros of row `i` in `cols` (their columns) and `vals`.
#[derive(Clone, Copy)]
struct Csr {
    rows: *const i32,
    cols: *const i32,
    vals: *const f32,
    n: i32,
}

/// `y = alpha · A x`.
#[inline(always)]
fn spmv(a: Csr, alpha: f32, x: *const f32, y: *mut f32, grid: &GridGroup) {
    grid_for(grid, a.n, |i| {
        // SAFETY: i < n; `rows` has n + 1 entries, and the CSR arrays are
        // consistent (every column index below n).
        unsafe {
            let (start, end) = (*a.rows.add(i), *a.rows.add(i + 1));
            let mut out = 0.0f32;
            for j in start..end {
                let j = j as usize;
                out += alpha * *a.vals.add(j) * *x.add(*a.cols.add(j) as usize);
            }
            *y.add(i) = out;
        }
    });
}

/// `y = a · x + y`.
#[inline(always)]
fn saxpy(x: *const f32, y: *mut f32, a: f32, n: i32, grid: &GridGroup) {
    grid_for(grid, n, |i| {
        // SAFETY: i < n, the vectors' length.
        unsafe { *y.add(i) = a * *x.add(i) + *y.add(i) };
    });
}

/// `y = a · x + scale · y`.
#[inline(always)]
fn scale_and_saxpy(x: *const f32, y: *mut f32, a: f32, scale: f32, n: i32, grid: &GridGroup) {
    grid_for(grid, n, |i| {
        // SAFETY: i < n, the vectors' length.
        unsafe { *y.add(i) = a * *x.add(i) + scale * *y.add(i) };
    });
}

/// `y = x`.
#[inline(always)]
fn copy(x: *const f32, y: *mut f32, n: i32, grid: &GridGroup) {
    grid_for(grid, n, |i| {
        // SAFETY: i < n, the vectors' length.
        unsafe { *y.add(i) = *x.add(i) };
    });
}

/// `*result += a · b`: each thread's products in `f64`, `reduce` per warp,
/// the warp sums through shared memory (one `f64` per warp), `reduce` in
/// the first warp, one `atomic_add` per block.
#[inline(always)]
fn dot(
    a: *const f32,
    b: *const f32,
    result: *mut f64,
    n: i32,
    cta: &ThreadBlock,
    grid: &GridGroup,
) {
    let tmp = dynamic_shared::<f64>();
    let mut sum = 0.0f64;
    grid_for(grid, n, |i| {
        // SAFETY: i < n, the vectors' length.
        sum += unsafe { *a.add(i) * *b.add(i) } as f64;
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
            // SAFETY: `result` is one f64 of global memory.
            unsafe { atomic_add(result, sum) };
        }
    }
}

/// Solves `A x = b` by conjugate gradients, starting from `x` with `r = b`
/// (and `*dot_result = 0`), until `|r|² ≤ tol²` or 10000 iterations; `*dot_result`
/// ends as the last `|r|²`. `Ax` and `p` are scratch vectors of `n`
/// floats. Dynamic shared memory: one `f64` per warp of the block. Launch
/// cooperatively.
#[kernel]
#[allow(clippy::too_many_arguments)]
pub fn gpu_conjugate_gradient(
    rows: *const i32,
    cols: *const i32,
    vals: *const f32,
    x: *mut f32,
    ax: *mut f32,
    p: *mut f32,
    r: *mut f32,
    dot_result: *mut f64,
    nnz: i32,
    n: i32,
    tol: f32,
) {
    let _ = nnz;
    let cta = this_thread_block();
    let grid = this_grid();
    let a = Csr {
        rows,
        cols,
        vals,
        n,
    };
    let first = grid.thread_rank() == 0;
    let max_iter = 10000;
    let (alpha, alpham1) = (1.0f32, -1.0f32);
    // SAFETY: (every read and write of `*dot_result` below) one f64 of
    // global memory; written by one thread between grid syncs and read by
    // all after the next grid sync.
    let read_dot = || unsafe { dot_result.read_volatile() };

    spmv(a, alpha, x, ax, &grid);
    grid.sync();
    saxpy(ax, r, alpham1, n, &grid);
    grid.sync();
    dot(r, r, dot_result, n, &cta, &grid);
    grid.sync();
    let mut r1 = read_dot() as f32;
    let mut r0 = 0.0f32;
    let mut k = 1;
    while r1 > tol * tol && k <= max_iter {
        if k > 1 {
            let b = r1 / r0;
            scale_and_saxpy(r, p, alpha, b, n, &grid);
        } else {
            copy(r, p, n, &grid);
        }
        grid.sync();
        spmv(a, alpha, p, ax, &grid);
        if first {
            // SAFETY: `dot_result` is the launch's one-element accumulator;
            // only the first thread writes it, between two grid barriers.
            unsafe { dot_result.write_volatile(0.0) };
        }
        grid.sync();
        dot(p, ax, dot_result, n, &cta, &grid);
        grid.sync();
        let step = (r1 as f64 / read_dot()) as f32;
        saxpy(p, x, step, n, &grid);
        saxpy(ax, r, -step, n, &grid);
        r0 = r1;
        grid.sync();
        if first {
            // SAFETY: `dot_result` is the launch's one-element accumulator;
            // only the first thread writes it, between two grid barriers.
            unsafe { dot_result.write_volatile(0.0) };
        }
        grid.sync();
        dot(r, r, dot_result, n, &cta, &grid);
        grid.sync();
        r1 = read_dot() as f32;
        k += 1;
    }
}
