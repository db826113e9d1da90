//! A cudarc program that uses this library's kernels. It owns its
//! `CudaContext`, makes its own stream and allocates its `CudaSlice`s with
//! cudarc; `cg-runtime` loads the kernel crate's PTX into that context
//! (`Gpu::from_context`: no second context) and queues the kernels on that
//! stream (`Gpu::launch_on`: asynchronous), with the slices as the typed
//! arguments. Between the launches the program runs cudarc's own work on
//! the same stream (a device-to-device copy), and the kernels also write
//! a `cg-runtime` buffer, which cudarc then reads as one of its slices.
//! CUDA events on the stream time the sequence; the results are read back
//! on a second stream, ordered after the kernels by cudarc's event
//! tracking alone, and checked against the CPU.
//!
//! Where there is no GPU (or `CG_SIM=1`), the same kernels run on the
//! simulator on the same inputs and are checked the same way; the cudarc
//! part needs a GPU and is skipped, which the output says.

use std::sync::Arc;

use cg_runtime::{Backend, Gpu, LaunchConfig, cuda_context};
use cudarc::driver::sys::CUevent_flags;
use cudarc::driver::{CudaContext, CudaSlice};
use cudarc_interop_kernels::{BLOCK_SUMS, GRID_SUM, SCALE};
use samples_support::{Error, Rng, ensure};

include!(concat!(env!("OUT_DIR"), "/cudarc_interop_kernels.rs"));

const THREADS: u32 = 256;
const FACTOR: f32 = 2.5;

/// The inputs: `n` small integers (sums stay exact in `u32`) and `n`
/// floats.
fn inputs(n: usize) -> (Vec<u32>, Vec<f32>) {
    let mut rng = Rng::new(30);
    let data = (0..n).map(|_| rng.next_u31() & 0xF).collect();
    let xs = (0..n)
        .map(|_| (rng.next_u31() % 1000) as f32 / 8.0)
        .collect();
    (data, xs)
}

/// What the kernels computed, as the host sees it.
struct Results {
    block_sums: Vec<u32>,
    total: u32,
    scaled: Vec<f32>,
}

/// Checks `got` against the CPU: block sums, the total, the scaling
/// (exact: one multiplication of a value with 3 fraction bits).
fn verify(data: &[u32], xs: &[f32], got: &Results) -> Result<(), Error> {
    let want_sums: Vec<u32> = data
        .chunks(THREADS as usize)
        .map(|c| c.iter().sum())
        .collect();
    ensure(got.block_sums == want_sums, || {
        let b = (0..want_sums.len())
            .find(|&b| got.block_sums.get(b) != Some(&want_sums[b]))
            .unwrap_or(0);
        format!(
            "block {b}: sum {:?}, expected {}",
            got.block_sums.get(b),
            want_sums[b]
        )
    })?;
    let total: u32 = data.iter().sum();
    ensure(got.total == total, || {
        format!("grid_sum: {} (expected {total})", got.total)
    })?;
    ensure(got.scaled.len() == xs.len(), || {
        format!("scale: {} values (expected {})", got.scaled.len(), xs.len())
    })?;
    for (i, (&y, &x)) in got.scaled.iter().zip(xs).enumerate() {
        ensure(y == FACTOR * x, || {
            format!("scale: y[{i}] = {y} (expected {})", FACTOR * x)
        })?;
    }
    println!(
        "verified: {} block sums, the total {total}, {} scaled values",
        want_sums.len(),
        xs.len()
    );
    Ok(())
}

fn main() -> Result<(), Error> {
    let forced = std::env::var("CG_SIM").is_ok_and(|v| v == "1");
    let ctx = if forced {
        Err("CG_SIM=1".to_string())
    } else {
        cuda_context(0).map_err(|e| e.to_string())
    };
    match ctx {
        Ok(ctx) => on_cudarc(ctx),
        Err(why) => {
            println!(
                "running on the simulator ({why}); the cudarc part needs a GPU and is skipped"
            );
            on_simulator()
        }
    }?;
    println!("cudarc-interop: PASSED");
    Ok(())
}

/// The program's own cudarc context, stream and slices; this library's
/// kernels on that stream.
fn on_cudarc(ctx: Arc<CudaContext>) -> Result<(), Error> {
    let gpu = Gpu::from_context(ctx.clone(), &CUDARC_INTEROP_KERNELS)?;
    let n: usize = 1 << 24;
    let blocks = n as u32 / THREADS;
    // One block per SM at 256 threads is always co-resident.
    let coop_blocks = gpu.info().sm_count;
    println!(
        "running on {} (PTX sm_{}) in the program's cudarc context ({} context, shared: {})",
        gpu.info().name,
        gpu.ptx_sm(),
        if ctx.is_primary() { "primary" } else { "own" },
        gpu.shares_context(&ctx) && Arc::ptr_eq(gpu.context(), &ctx)
    );
    let (data, xs) = inputs(n);

    // cudarc: the program's stream and slices.
    let stream = ctx.new_stream()?;
    let d_data = stream.clone_htod(&data)?;
    let d_x = stream.clone_htod(&xs)?;
    let mut d_sums = stream.alloc_zeros::<u32>(blocks as usize)?;
    let mut d_partial = stream.alloc_zeros::<u32>(coop_blocks as usize)?;
    let mut d_total: CudaSlice<u32> = stream.alloc_zeros(1)?;
    // cg-runtime: a buffer of the same context.
    let mut scaled = gpu.alloc::<f32>(n)?;
    println!(
        "{n} values; {blocks} blocks of {THREADS} for block_sums and scale, \
         {coop_blocks} cooperative blocks for grid_sum; stream {:?}",
        stream.cu_stream()
    );

    let mut times = Vec::new();
    for round in 0..3 {
        let start = stream.record_event(Some(CUevent_flags::CU_EVENT_DEFAULT))?;
        // The kernels, queued on the program's stream with its slices.
        gpu.launch_on(
            &stream,
            &BLOCK_SUMS,
            &LaunchConfig::linear(blocks, THREADS),
            (&d_data, &mut d_sums),
        )?;
        gpu.launch_on(
            &stream,
            &GRID_SUM,
            &LaunchConfig::linear(coop_blocks, THREADS).with_cooperative(true),
            (&d_data, &mut d_partial),
        )?;
        // cudarc's own work on the same stream: the total out of the
        // partial sums (the view is an input, `d_total` the output).
        stream.memcpy_dtod(&d_partial.slice(0..1), &mut d_total)?;
        // A cg-runtime buffer as the output of a launch on the stream.
        gpu.launch_on(
            &stream,
            &SCALE,
            &LaunchConfig::linear(blocks, THREADS),
            (&d_x, &mut scaled, FACTOR),
        )?;
        let stop = stream.record_event(Some(CUevent_flags::CU_EVENT_DEFAULT))?;
        let returned_early = !stop.try_is_complete()?;

        // Read back on a second stream: cudarc makes it wait for the writes
        // the launches recorded on `stream` (nothing here synchronises
        // `stream` first).
        let reader = ctx.new_stream()?;
        let block_sums = reader.clone_dtoh(&d_sums)?;
        let total = reader.clone_dtoh(&d_total)?[0];
        // The cg-runtime buffer lent to cudarc, read as a `CudaSlice`.
        let scaled_host = {
            let loan = scaled.as_cuda_slice(&reader)?;
            reader.clone_dtoh(&*loan)?
        };
        reader.synchronize()?;
        gpu.wait_event(&stop)?;
        let ms = start.elapsed_ms(&stop)?;
        if round == 0 {
            println!("launch_on returned before the GPU finished the sequence: {returned_early}");
        }
        verify(
            &data,
            &xs,
            &Results {
                block_sums,
                total,
                scaled: scaled_host,
            },
        )?;
        times.push(ms);
    }
    // The buffer's own copy (default stream) agrees.
    ensure(scaled.to_vec()?[n - 1] == FACTOR * xs[n - 1], || {
        "scaled.to_vec() disagrees".into()
    })?;
    times.sort_by(f32::total_cmp);
    println!(
        "block_sums + grid_sum (cooperative) + cudarc memcpy_dtod + scale on the program's stream: \
         {:.3} ms (median of {} rounds, CUDA events on the stream)",
        times[times.len() / 2],
        times.len()
    );
    Ok(())
}

/// The same kernels on the simulator, on smaller inputs.
fn on_simulator() -> Result<(), Error> {
    let sim = Backend::sim();
    let n: usize = 1 << 12;
    let blocks = n as u32 / THREADS;
    let coop_blocks = 4;
    let (data, xs) = inputs(n);
    println!(
        "{n} values; {blocks} blocks of {THREADS}, {coop_blocks} cooperative blocks (simulated; no timing)"
    );
    let d_data = sim.upload(&data)?;
    let d_x = sim.upload(&xs)?;
    let mut d_sums = sim.alloc::<u32>(blocks as usize)?;
    let mut d_partial = sim.alloc::<u32>(coop_blocks as usize)?;
    let mut scaled = sim.alloc::<f32>(n)?;
    sim.launch(
        &BLOCK_SUMS,
        &LaunchConfig::linear(blocks, THREADS),
        (&d_data, &mut d_sums),
    )?;
    sim.launch(
        &GRID_SUM,
        &LaunchConfig::linear(coop_blocks, THREADS).with_cooperative(true),
        (&d_data, &mut d_partial),
    )?;
    sim.launch(
        &SCALE,
        &LaunchConfig::linear(blocks, THREADS),
        (&d_x, &mut scaled, FACTOR),
    )?;
    verify(
        &data,
        &xs,
        &Results {
            block_sums: d_sums.to_vec()?,
            total: d_partial.to_vec()?[0],
            scaled: scaled.to_vec()?,
        },
    )
}
