//! The `reduction` sample with its Cooperative Groups kernels (8 and 9) and
//! its defaults: 2^24 ints `rand() & 0xFF`, 256 threads, 64 blocks. Each
//! kernel's block partials are checked against the host's (integer sums:
//! exact), and their sum against the host's total (the original's check).
//! On a GPU each kernel is timed against its C++ twin (`src/reduction.cu`,
//! built by nvcc in this process), both verified.

use cg_runtime::{Backend, LaunchConfig};
use reduction_kernels::{CG_REDUCE, MULTI_WARP_CG_REDUCE_256_128};
use samples_support::{Cpp, Error, Rng, backend, ensure, report_times, time_interleaved};

include!(concat!(env!("OUT_DIR"), "/reduction_kernels.rs"));

const THREADS: u32 = 256;

/// What block `b` of kernel 8 sums.
fn partials_8(data: &[i32], blocks: u32) -> Vec<i32> {
    let stride = (blocks * THREADS) as usize;
    let mut p = vec![0i32; blocks as usize];
    for (i, &x) in data.iter().enumerate() {
        let b = (i % stride) / THREADS as usize;
        p[b] = p[b].wrapping_add(x);
    }
    p
}

/// What block `b` of kernel 9 sums (a power-of-two `n`: pairs a block apart).
fn partials_9(data: &[i32], blocks: u32) -> Vec<i32> {
    let n = data.len();
    let stride = 2 * (blocks * THREADS) as usize;
    let mut p = vec![0i32; blocks as usize];
    for (i, &x) in data.iter().enumerate() {
        let b = if n.is_power_of_two() {
            (i % stride) / (2 * THREADS as usize)
        } else {
            (i % (stride / 2)) / THREADS as usize
        };
        p[b] = p[b].wrapping_add(x);
    }
    p
}

fn main() -> Result<(), Error> {
    let backend = backend(&REDUCTION_KERNELS);
    let (n, blocks) = if backend.is_sim() {
        (1u32 << 12, 4u32)
    } else {
        (1 << 24, 64)
    };
    let mut rng = Rng::new(24);
    let data: Vec<i32> = (0..n).map(|_| (rng.next_u31() & 0xFF) as i32).collect();
    let total = data.iter().fold(0i32, |a, &x| a.wrapping_add(x));
    println!("{n} ints, {THREADS} threads, {blocks} blocks");
    let input = backend.upload(&data)?;
    let mut partials = backend.alloc::<i32>(blocks as usize)?;
    let cfg8 = LaunchConfig::linear(blocks, THREADS).with_dynamic_smem(THREADS * 4);
    let cfg9 = LaunchConfig::linear(blocks, THREADS);
    let want8 = partials_8(&data, blocks);
    let want9 = partials_9(&data, blocks);
    let check = |what: &str, got: Vec<i32>, want: &[i32]| -> Result<(), Error> {
        ensure(got == want, || {
            format!(
                "{what}: block partials {:?}… differ from the host's {:?}…",
                &got[..4],
                &want[..4]
            )
        })?;
        let sum = got.iter().fold(0i32, |a, &x| a.wrapping_add(x));
        ensure(sum == total, || format!("{what}: sum {sum}, host {total}"))?;
        println!("{what}: {blocks} block partials and the sum {sum} equal the host's");
        Ok(())
    };
    backend.launch(&CG_REDUCE, &cfg8, (&input, &mut partials))?;
    check("kernel 8 (cg_reduce)", partials.to_vec()?, &want8)?;
    backend.launch(
        &MULTI_WARP_CG_REDUCE_256_128,
        &cfg9,
        (&input, &mut partials),
    )?;
    check(
        "kernel 9 (multi_warp_cg_reduce<256, 128>)",
        partials.to_vec()?,
        &want9,
    )?;

    if let Backend::Gpu(gpu) = &backend {
        let cpp = Cpp::build(gpu, "reduction", include_str!("reduction.cu"))?;
        println!("C++ twin: {}", cpp.command);
        for (what, kernel_name, cfg, want) in [
            ("kernel 8", "cg_reduce", cfg8, &want8),
            ("kernel 9", "multi_warp_cg_reduce_256_128", cfg9, &want9),
        ] {
            let f = cpp.module.function(kernel_name)?;
            // The C++ twin takes raw device pointers: its launch is `unsafe`.
            let cpp_args = (input.as_ptr() as *const i32, partials.as_ptr(), n);
            // SAFETY: `cg_reduce(const int*, int*, unsigned)` reads `n` ints and
            // writes one partial per block: the buffers above, alive across it.
            unsafe { gpu.launch_function(f, kernel_name, &cfg, cpp_args) }?;
            gpu.synchronize()?;
            check(&format!("{what} C++"), partials.to_vec()?, want)?;
            let c = || -> Result<(), Error> {
                // SAFETY: as above.
                Ok(unsafe { gpu.launch_function(f, kernel_name, &cfg, cpp_args) }?)
            };
            let partials_rust = &mut partials;
            let rust = || -> Result<(), Error> {
                if kernel_name == "cg_reduce" {
                    gpu.launch(&CG_REDUCE, &cfg, (&input, &mut *partials_rust))?;
                } else {
                    gpu.launch(
                        &MULTI_WARP_CG_REDUCE_256_128,
                        &cfg,
                        (&input, &mut *partials_rust),
                    )?;
                }
                Ok(())
            };
            let (r_ms, c_ms) = time_interleaved(gpu, 21, 20, rust, c)?;
            report_times(&format!("{what} ({n} ints)"), r_ms, c_ms);
            check(&format!("{what} after timing"), partials.to_vec()?, want)?;
        }
    }
    println!("reduction (CG kernels 8 and 9): PASSED");
    Ok(())
}
