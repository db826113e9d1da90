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
    /// Enqueues the timed region of `v` (output reset + kernel) without waiting.
    fn launch_async(&mut self, v: Self::Variant, reps: u32) -> Result<()>;
}

/// How [`time_interleaved`] orders launches, for reports.
pub fn describe(warmup: u32, runs: u32) -> String {
    format!(
        "CUDA events around each launch (output memset + kernel); {warmup} warm-up launch(es) of every \
         variant, then {runs} rounds in which every variant is launched once, alternating direction \
         (A B C, C B A, …); median, p10 and p90 of the {runs} samples"
    )
}

/// Milliseconds per launch: `samples[i]` has `runs` values for `variants[i]`.
pub fn time_interleaved<T: Timed>(
    t: &mut T,
    variants: &[T::Variant],
    warmup: u32,
    runs: u32,
    reps: u32,
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
            t.launch_async(v, reps)?;
            stop.record()?;
            samples[i].push(stop.elapsed_since(&start)? as f64);
            progress.inc(1);
        }
    }
    Ok(samples)
}
