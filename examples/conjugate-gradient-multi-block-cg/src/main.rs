//! conjugateGradientMultiBlockCG: solves `A x = 1` for a random symmetric
//! tridiagonal matrix of order N = 2^20 (diagonal `rand()/RAND_MAX + 10`,
//! off-diagonal `rand()/RAND_MAX`, generated in CSR form as the original
//! does), from x = 0, tolerance 1e-5, in one cooperative launch of blocks
//! of 512 threads, as many as can be co-resident. The original's check:
//! the final residual √(r·r) < tol (it also prints the largest |A x − b|).
//! Host checks: the largest |b − A x| in `f64` from the solution, and the
//! solution against the same algorithm run on the host. On a GPU the solver
//! is timed against its C++ twin (`src/conjugate_gradient_multi_block_cg.cu`,
//! built by nvcc in this process), both checked. On the simulator: N = 2048,
//! 2 blocks of 128 threads.

use std::cell::RefCell;

use cg_runtime::{Backend, Buffer, Dim3, LaunchConfig};
use conjugate_gradient_multi_block_cg_kernels::GPU_CONJUGATE_GRADIENT as KERNEL;
use samples_support::{
    Cpp, Error, Rng, backend, ensure, report_times, time_interleaved_with_reset,
};

include!(concat!(
    env!("OUT_DIR"),
    "/conjugate_gradient_multi_block_cg_kernels.rs"
));

const TOL: f32 = 1e-5;

/// A random symmetric tridiagonal matrix in CSR form, element by element
/// as the original generates it (`rand()` → [`Rng::next_u31`]).
struct Csr {
    rows: Vec<i32>,
    cols: Vec<i32>,
    vals: Vec<f32>,
}

fn gen_tridiag(n: usize, rng: &mut Rng) -> Csr {
    let nz = (n - 2) * 3 + 4;
    let mut rand = || rng.next_u31() as f32 / i32::MAX as f32;
    let (mut rows, mut cols, mut vals) = (vec![0i32; n + 1], vec![0i32; nz], vec![0f32; nz]);
    cols[1] = 1;
    vals[0] = rand() + 10.0;
    vals[1] = rand();
    for i in 1..n {
        rows[i] = if i > 1 { rows[i - 1] + 3 } else { 2 };
        let start = (i - 1) * 3 + 2;
        cols[start] = i as i32 - 1;
        cols[start + 1] = i as i32;
        if i < n - 1 {
            cols[start + 2] = i as i32 + 1;
        }
        vals[start] = vals[start - 1];
        vals[start + 1] = rand() + 10.0;
        if i < n - 1 {
            vals[start + 2] = rand();
        }
    }
    rows[n] = nz as i32;
    Csr { rows, cols, vals }
}

impl Csr {
    fn row(&self, i: usize) -> std::ops::Range<usize> {
        self.rows[i] as usize..self.rows[i + 1] as usize
    }

    /// `y = A x` in `f32`, as the solver computes it.
    fn spmv(&self, x: &[f32], y: &mut [f32]) {
        for (i, yi) in y.iter_mut().enumerate() {
            *yi = self
                .row(i)
                .map(|j| self.vals[j] * x[self.cols[j] as usize])
                .sum();
        }
    }
}

/// The solver's algorithm on the host (the original's CPU version):
/// `f32` vectors, `f64` dot products. Returns x and the iterations.
fn cpu_cg(a: &Csr, n: usize) -> (Vec<f32>, u32) {
    let dot = |u: &[f32], v: &[f32]| u.iter().zip(v).map(|(a, b)| (a * b) as f64).sum::<f64>();
    let (mut x, mut r, mut p, mut ax) =
        (vec![0f32; n], vec![1f32; n], vec![0f32; n], vec![0f32; n]);
    a.spmv(&x, &mut ax);
    r.iter_mut().zip(&ax).for_each(|(r, q)| *r -= q);
    let mut r1 = dot(&r, &r) as f32;
    let mut r0 = 0f32;
    let mut k = 1;
    while r1 > TOL * TOL && k <= 10000 {
        if k > 1 {
            let b = r1 / r0;
            p.iter_mut().zip(&r).for_each(|(p, r)| *p = r + b * *p);
        } else {
            p.copy_from_slice(&r);
        }
        a.spmv(&p, &mut ax);
        let step = (r1 as f64 / dot(&p, &ax)) as f32;
        x.iter_mut().zip(&p).for_each(|(x, p)| *x += step * p);
        r.iter_mut().zip(&ax).for_each(|(r, q)| *r -= step * q);
        r0 = r1;
        r1 = dot(&r, &r) as f32;
        k += 1;
    }
    (x, k - 1)
}

/// The solver's read-write buffers.
struct State {
    x: Buffer<f32>,
    r: Buffer<f32>,
    p: Buffer<f32>,
    ax: Buffer<f32>,
    dot: Buffer<f64>,
}

fn main() -> Result<(), Error> {
    let backend = backend(&CONJUGATE_GRADIENT_MULTI_BLOCK_CG_KERNELS);
    let sim = backend.is_sim();
    let n: usize = if sim { 2048 } else { 1 << 20 };
    let threads: u32 = if sim { 128 } else { 512 };
    let smem = 8 * (threads / 32 + 1);
    let mut rng = Rng::new(1);
    let a = gen_tridiag(n, &mut rng);
    let nz = a.vals.len();
    let (x_cpu, iters) = cpu_cg(&a, n);
    let cpp = match &backend {
        Backend::Gpu(gpu) => {
            let cpp = Cpp::build(
                gpu,
                "conjugate_gradient_multi_block_cg",
                include_str!("conjugate_gradient_multi_block_cg.cu"),
            )?;
            println!("C++ twin: {}", cpp.command);
            Some(cpp)
        }
        Backend::Sim(_) => None,
    };
    // As many blocks as can be co-resident (the original's grid), for the
    // Rust kernel and the C++ one alike: the smaller of the two counts.
    let blocks = match &backend {
        Backend::Gpu(g) => {
            let fit = |f| g.max_coresident_blocks(f, Dim3::x(threads), smem);
            let rust = fit(g.kernels().kernel(&KERNEL)?)?;
            let c = fit(cpp.as_ref().unwrap().module.function(KERNEL.name())?)?;
            println!("co-resident blocks: Rust {rust}, C++ {c}");
            rust.min(c)
        }
        Backend::Sim(_) => 2,
    };
    println!(
        "N = {n}, {nz} nonzeros (tridiagonal, CSR), tol {TOL:e}; {blocks} blocks of {threads} threads (cooperative launch); host CG: {iters} iterations"
    );

    let dev_rows = backend.upload(&a.rows)?;
    let dev_cols = backend.upload(&a.cols)?;
    let dev_vals = backend.upload(&a.vals)?;
    let (zeros, ones) = (vec![0f32; n], vec![1f32; n]);
    // The solver's vectors and accumulator, in a cell: the timed launch and
    // the reset between launches both take them by `&mut`, one at a time.
    let state = RefCell::new(State {
        x: backend.upload(&zeros)?,
        r: backend.upload(&ones)?,
        p: backend.alloc::<f32>(n)?,
        ax: backend.alloc::<f32>(n)?,
        dot: backend.alloc::<f64>(1)?,
    });
    let cfg = LaunchConfig::linear(blocks, threads)
        .with_dynamic_smem(smem)
        .with_cooperative(true);
    // x = 0, r = b = 1, the dot product's word 0 (on the GPU: synchronous copies).
    let reset = || -> Result<(), Error> {
        let s = &mut *state.borrow_mut();
        s.x.copy_from(&zeros)?;
        s.r.copy_from(&ones)?;
        s.dot.zero()?;
        Ok(())
    };
    let launch = |b: &Backend| -> Result<(), Error> {
        let s = &mut *state.borrow_mut();
        let args = (
            &dev_rows, &dev_cols, &dev_vals, &mut s.x, &mut s.ax, &mut s.p, &mut s.r, &mut s.dot,
            TOL,
        );
        match b {
            // Asynchronous on the GPU (timed between events).
            Backend::Gpu(gpu) => gpu.launch(&KERNEL, &cfg, args)?,
            Backend::Sim(_) => b.launch(&KERNEL, &cfg, args)?,
        }
        Ok(())
    };
    let check = |what: &str| -> Result<(), Error> {
        let (r1, xs) = {
            let s = state.borrow();
            (s.dot.to_vec()?[0], s.x.to_vec()?)
        };
        // The original's report: the largest |A x − b|, summed in f32.
        let mut ax = vec![0f32; n];
        a.spmv(&xs, &mut ax);
        let err = ax.iter().map(|v| (v - 1.0).abs()).fold(0f32, f32::max);
        ensure(r1.sqrt() < TOL as f64, || {
            format!(
                "{what}: final residual {:e} is not below {TOL:e}",
                r1.sqrt()
            )
        })?;
        // Host checks: |b − A x| in f64, and x against the host's solver.
        let true_res = (0..n)
            .map(|i| {
                let s: f64 = a
                    .row(i)
                    .map(|j| a.vals[j] as f64 * xs[a.cols[j] as usize] as f64)
                    .sum();
                (1.0 - s).abs()
            })
            .fold(0f64, f64::max);
        let dx = xs
            .iter()
            .zip(&x_cpu)
            .map(|(g, c)| (g - c).abs())
            .fold(0f32, f32::max);
        ensure(true_res <= 1e-5, || {
            format!("{what}: max |b − A x| = {true_res:e} (over 1e-5)")
        })?;
        ensure(dx <= 1e-5, || {
            format!("{what}: max |x − x_host| = {dx:e} (over 1e-5)")
        })?;
        println!(
            "{what}: final residual {:e} < {TOL:e}; error amount (max |A x − b|, f32) {err:e}; host: max |b − A x| (f64) {true_res:e}, max |x − x_host| {dx:e}",
            r1.sqrt()
        );
        Ok(())
    };

    launch(&backend)?;
    if let Backend::Gpu(gpu) = &backend {
        gpu.synchronize()?;
    }
    check("Rust")?;
    if let (Backend::Gpu(gpu), Some(cpp)) = (&backend, &cpp) {
        let name = KERNEL.name();
        let f = cpp.module.function(name)?;
        // The C++ twin's arguments: raw device pointers (its launch is `unsafe`).
        let cpp_args = {
            let s = state.borrow();
            (
                dev_rows.as_ptr() as *const i32,
                dev_cols.as_ptr() as *const i32,
                dev_vals.as_ptr() as *const f32,
                s.x.as_ptr(),
                s.ax.as_ptr(),
                s.p.as_ptr(),
                s.r.as_ptr(),
                s.dot.as_ptr(),
                nz as i32,
                n as i32,
                TOL,
            )
        };
        reset()?;
        // SAFETY: the twin's matrix and vectors are the buffers above, of
        // `nz` nonzeros and `n` floats, alive across every launch here.
        unsafe { gpu.launch_function(f, name, &cfg, cpp_args) }?;
        gpu.synchronize()?;
        check("C++")?;
        let (r_ms, c_ms) = time_interleaved_with_reset(
            gpu,
            21,
            reset,
            || launch(&backend),
            // SAFETY: as above.
            || Ok(unsafe { gpu.launch_function(f, name, &cfg, cpp_args) }?),
        )?;
        report_times(&format!("whole solver, one launch (N = {n})"), r_ms, c_ms);
        // The last timed launch (Rust's or C++'s) left its solution: checked.
        gpu.synchronize()?;
        check("last timed launch")?;
    }
    println!("conjugateGradientMultiBlockCG: PASSED");
    Ok(())
}
