//! reductionMultiBlockCG: 2^25 floats `(rand() & 0xFF) / RAND_MAX`
//! reduced in one cooperative launch of blocks of 1024 threads, as many as
//! can be co-resident (at most two per SM, the original's limit). The
//! original's check: |GPU − CPU (Kahan)| < 1e-8 · n. On a GPU the kernel is
//! timed against its C++ twin (`src/reduction_multi_block_cg.cu`, built by
//! nvcc in this process), both checked.

use cg_runtime::{Backend, Dim3, LaunchConfig};
use reduction_multi_block_cg_kernels::REDUCE_SINGLE_PASS_MULTI_BLOCK_CG as KERNEL;
use samples_support::{Cpp, Error, Rng, backend, ensure, report_times, time_interleaved};

include!(concat!(
    env!("OUT_DIR"),
    "/reduction_multi_block_cg_kernels.rs"
));

/// Kahan summation, as the original's CPU reference.
fn reduce_cpu(data: &[f32]) -> f32 {
    let (mut sum, mut c) = (data[0], 0.0f32);
    for &x in &data[1..] {
        let y = x - c;
        let t = sum + y;
        c = (t - sum) - y;
        sum = t;
    }
    sum
}

fn main() -> Result<(), Error> {
    let backend = backend(&REDUCTION_MULTI_BLOCK_CG_KERNELS);
    let n: u32 = if backend.is_sim() { 1 << 12 } else { 1 << 25 };
    let threads: u32 = if backend.is_sim() { 128 } else { 1024 };
    let smem = threads * 8;
    let blocks = match &backend {
        Backend::Gpu(g) => {
            let f = g.kernels().kernel(&KERNEL)?;
            let fit = g.max_coresident_blocks(f, Dim3::x(threads), smem)?;
            fit.min(g.info().sm_count * (2048 / threads))
        }
        Backend::Sim(_) => 4,
    };
    let mut rng = Rng::new(25);
    let data: Vec<f32> = (0..n)
        .map(|_| (rng.next_u31() & 0xFF) as f32 / i32::MAX as f32)
        .collect();
    let cpu = reduce_cpu(&data);
    println!("{n} elements, {threads} threads, {blocks} blocks (cooperative launch)");
    let input = backend.upload(&data)?;
    let mut out = backend.alloc::<f32>(blocks as usize)?;
    // The C++ twin's arguments: raw device pointers (its launch is `unsafe`).
    let cpp_args = (input.as_ptr() as *const f32, out.as_ptr(), n);
    let cfg = LaunchConfig::linear(blocks, threads)
        .with_dynamic_smem(smem)
        .with_cooperative(true);
    let check = |what: &str, got: f32| -> Result<(), Error> {
        let diff = (got as f64 - cpu as f64).abs();
        ensure(diff < 1e-8 * n as f64, || {
            format!("{what}: {got:.12} vs CPU {cpu:.12} (|diff| {diff:e})")
        })?;
        // A tighter check than the original's (its bound is loose for
        // inputs this small): relative error within 1e-5.
        ensure(diff <= 1e-5 * cpu.abs() as f64, || {
            format!("{what}: {got:.12} vs CPU {cpu:.12}: relative error over 1e-5")
        })?;
        println!(
            "{what}: result {got:.12}, CPU result {cpu:.12}: within 1e-8 · n and 1e-5 relative"
        );
        Ok(())
    };
    backend.launch(&KERNEL, &cfg, (&input, &mut out))?;
    let rust = out.to_vec()?[0];
    check("Rust", rust)?;

    if let Backend::Gpu(gpu) = &backend {
        let cpp = Cpp::build(
            gpu,
            "reduction_multi_block_cg",
            include_str!("reduction_multi_block_cg.cu"),
        )?;
        println!("C++ twin: {}", cpp.command);
        let name = "reduce_single_pass_multi_block_cg";
        let f = cpp.module.function(name)?;
        // SAFETY: the twin reads `n` floats and writes one per block: the
        // buffers above, alive across every launch here.
        unsafe { gpu.launch_function(f, name, &cfg, cpp_args) }?;
        gpu.synchronize()?;
        let c = out.to_vec()?[0];
        check("C++", c)?;
        println!(
            "Rust and C++ results bit-identical: {}",
            rust.to_bits() == c.to_bits()
        );
        let (r_ms, c_ms) = time_interleaved(
            gpu,
            21,
            10,
            || Ok(gpu.launch(&KERNEL, &cfg, (&input, &mut out))?),
            // SAFETY: as above.
            || Ok(unsafe { gpu.launch_function(f, name, &cfg, cpp_args) }?),
        )?;
        report_times(&format!("single-pass reduction ({n} floats)"), r_ms, c_ms);
        println!(
            "bandwidth: Rust {:.1} GB/s, C++ {:.1} GB/s",
            n as f64 * 4.0 / (r_ms * 1e6),
            n as f64 * 4.0 / (c_ms * 1e6)
        );
    }
    println!("reductionMultiBlockCG: PASSED");
    Ok(())
}
