//! Interleaved timing with CUDA events: warm-ups, then rounds in which every
//! variant is launched once, alternating direction (A B C, C B A, A B C …),
//! so slow drifts of clock or temperature, and any effect of a launch on the
//! one after it, hit all variants alike; ratios are taken inside one run.

use anyhow::Result;

use crate::progress::Progress;

/// Something whose variants can be launched asynchronously on a GPU.
pub trait Timed {
    /// One configuration.
    type Variant: Copy;
    /// The GPU the launches go to.
    fn gpu(&self) -> &cg_runtime::Gpu;
    /// Enqueues the timed region of `v` (what [`describe`]'s `launch`
    /// says it is) without waiting.
    fn launch_async(&mut self, v: Self::Variant, reps: u32) -> Result<()>;
}

/// What one timed launch of the lab's and `compare`'s C-02 kernels is.
pub const MEMSET_AND_KERNEL: &str = "output memset + kernel";

/// How [`time_interleaved`] orders launches, for reports; `launch` says
/// what one timed launch is (e.g. [`MEMSET_AND_KERNEL`]).
pub fn describe(launch: &str, warmup: u32, runs: u32, min_sample_ms: f64) -> String {
    let each = if min_sample_ms > 0.0 {
        format!(
            "CUDA events around back-to-back launches of one variant (each: {launch}), \
             as many as make a sample last at least {min_sample_ms} ms (counted per variant from a \
             timed warm-up launch; one for longer kernels), divided by their number"
        )
    } else {
        format!("CUDA events around each launch ({launch})")
    };
    format!(
        "{each}; {warmup} warm-up launch(es) of every variant, then {runs} rounds in which every \
         variant is sampled once, alternating direction (A B C, C B A, …); median, p10 and p90 of \
         the {runs} samples"
    )
}

/// Milliseconds per launch: `samples[i]` has `runs` values for `variants[i]`.
///
/// With `min_sample_ms > 0`, a sample of a variant is the mean over `k`
/// back-to-back launches, `k` chosen once per variant so that a sample
/// lasts at least that long: launch jitter (a few µs) otherwise dominates
/// kernels of ten or twenty microseconds.
pub fn time_interleaved<T: Timed>(
    t: &mut T,
    variants: &[T::Variant],
    warmup: u32,
    runs: u32,
    reps: u32,
    min_sample_ms: f64,
    progress: &Progress,
) -> Result<Vec<Vec<f64>>> {
    let start = t.gpu().event()?;
    let stop = t.gpu().event()?;
    for _ in 0..warmup {
        for &v in variants {
            t.launch_async(v, reps)?;
        }
    }
    t.gpu().synchronize()?;
    let mut batch = vec![1u32; variants.len()];
    if min_sample_ms > 0.0 {
        for (i, &v) in variants.iter().enumerate() {
            start.record()?;
            t.launch_async(v, reps)?;
            stop.record()?;
            let ms = (stop.elapsed_since(&start)? as f64).max(1e-3);
            batch[i] = ((min_sample_ms / ms).ceil() as u32).clamp(1, 1000);
        }
    }
    let mut samples = vec![Vec::with_capacity(runs as usize); variants.len()];
    for round in 0..runs {
        progress.set_message(format!("timing round {}/{runs}", round + 1));
        let order: Vec<usize> = if round % 2 == 0 {
            (0..variants.len()).collect()
        } else {
            (0..variants.len()).rev().collect()
        };
        for i in order {
            let v = variants[i];
            start.record()?;
            for _ in 0..batch[i] {
                t.launch_async(v, reps)?;
            }
            stop.record()?;
            samples[i].push(stop.elapsed_since(&start)? as f64 / batch[i] as f64);
            progress.inc(1);
        }
    }
    Ok(samples)
}
