//! Timing launches: [`Backend::time`] (and [`Gpu::time`] for launches of
//! a [`Gpu`]) runs a launch sequence with its
//! launches queued (not waited for, as [`Backend::launch`] does), between
//! two CUDA events, after warm-ups, in repeats, and returns the median and
//! spread of the time one sequence takes. The simulator runs the sequence
//! once, so its results can still be checked, and answers
//! [`Timed::NotTimed`]: its times say nothing about a GPU.
//!
//! ```
//! use cg_runtime::{Backend, EmbeddedPtx, LaunchConfig, PtxModule, Timed, Timing};
//! use cooperative_groups::prelude::*;
//! use cooperative_groups::{GlobalSlice, OwnedSlice};
//!
//! #[cooperative_groups::kernel]
//! pub fn scale(x: GlobalSlice<f32>, y: OwnedSlice<f32>) {
//!     for e in y.grid_stride(&this_grid()) {
//!         e.store(2.0 * x.load(e.index()));
//!     }
//! }
//!
//! static KERNELS: PtxModule = PtxModule::new("doctest_kernels", &[] as &[EmbeddedPtx]);
//!
//! # fn main() -> Result<(), cg_runtime::RuntimeError> {
//! let backend = Backend::gpu(0, &KERNELS).unwrap_or_else(|_| Backend::sim());
//! let x = backend.upload(&vec![1.5f32; 1 << 16])?;
//! let mut y = backend.alloc::<f32>(1 << 16)?;
//! let cfg = LaunchConfig::linear(256, 256);
//! let timed = backend.time(&Timing::default(), |q| q.launch(&SCALE, &cfg, (&x, &mut y)))?;
//! match timed {
//!     Timed::Gpu(t) => println!("scale: {:.4} ms (p10 {:.4}, p90 {:.4})", t.median_ms, t.p10_ms, t.p90_ms),
//!     Timed::NotTimed => println!("scale: not timed (simulator)"),
//! }
//! // Every launch ran: the outputs are there to check.
//! assert!(y.to_vec()?.iter().all(|&v| v == 3.0));
//! # Ok(())
//! # }
//! ```

use std::fmt;

use cooperative_groups::Kernel;

use crate::backend::Backend;
use crate::error::{Result, RuntimeError};
use crate::gpu::Gpu;
use crate::launch::{HostArgs, KernelArgs, LaunchConfig, SafeArgs};

/// How [`Backend::time`] and [`Gpu::time`] time a launch sequence.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Timing {
    /// Untimed runs of the sequence first (module load, caches, clocks).
    pub warmups: u32,
    /// Timed samples; the result is their median, 10th and 90th
    /// percentiles.
    pub repeats: u32,
    /// How many runs of the sequence, back to back, one sample times (it
    /// reports the mean per run).
    pub runs: Runs,
}

/// The runs of a launch sequence in one sample of [`Timing`].
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Runs {
    /// Enough runs to last at least this many milliseconds, estimated from
    /// one run after the warm-ups: a single run of a short kernel between
    /// two events measures the events as much as the kernel.
    AtLeastMs(f64),
    /// Exactly this many (at least one).
    Exactly(u32),
}

impl Default for Timing {
    /// One warm-up, 11 samples, samples of at least 1 ms.
    fn default() -> Timing {
        Timing {
            warmups: 1,
            repeats: 11,
            runs: Runs::AtLeastMs(1.0),
        }
    }
}

/// What [`Backend::time`] measured.
#[derive(Clone, Debug, PartialEq)]
pub enum Timed {
    /// Times on a GPU, per run of the sequence.
    Gpu(Times),
    /// The simulator ran the sequence once, untimed.
    NotTimed,
}

impl Timed {
    /// The median milliseconds per run, on a GPU.
    pub fn median_ms(&self) -> Option<f64> {
        match self {
            Timed::Gpu(t) => Some(t.median_ms),
            Timed::NotTimed => None,
        }
    }
}

impl fmt::Display for Timed {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Timed::Gpu(t) => write!(
                f,
                "{:.4} ms (p10 {:.4}, p90 {:.4}; {} samples of {} run(s))",
                t.median_ms,
                t.p10_ms,
                t.p90_ms,
                t.samples_ms.len(),
                t.runs_per_sample
            ),
            Timed::NotTimed => f.write_str("not timed (simulator)"),
        }
    }
}

/// Milliseconds per run of a launch sequence on a GPU.
#[derive(Clone, Debug, PartialEq)]
pub struct Times {
    /// The median sample.
    pub median_ms: f64,
    /// The 10th percentile.
    pub p10_ms: f64,
    /// The 90th percentile.
    pub p90_ms: f64,
    /// Every sample, in the order taken.
    pub samples_ms: Vec<f64>,
    /// Runs of the sequence in each sample.
    pub runs_per_sample: u32,
}

impl Times {
    /// The statistics of `samples_ms` (not empty).
    fn of(samples_ms: Vec<f64>, runs_per_sample: u32) -> Times {
        let mut sorted = samples_ms.clone();
        sorted.sort_by(f64::total_cmp);
        Times {
            median_ms: percentile(&sorted, 0.5),
            p10_ms: percentile(&sorted, 0.1),
            p90_ms: percentile(&sorted, 0.9),
            samples_ms,
            runs_per_sample,
        }
    }
}

/// The `q`-quantile of sorted, non-empty `v`, interpolated linearly (the
/// median of an even count is the mean of the middle two).
fn percentile(v: &[f64], q: f64) -> f64 {
    let pos = q * (v.len() - 1) as f64;
    let (lo, hi) = (pos.floor() as usize, pos.ceil() as usize);
    v[lo] + (v[hi] - v[lo]) * (pos - lo as f64)
}

/// The launcher a timed sequence gets: on a GPU its launches are queued,
/// not waited for; on the simulator they run as [`Backend::launch`] runs
/// them.
pub struct Queue<'b> {
    backend: &'b Backend,
}

impl Queue<'_> {
    /// [`Backend::launch`], queued on a GPU: the sequence's launches run
    /// back to back, and the events around them time the GPU's work, not
    /// the host's waits.
    pub fn launch<A: SafeArgs + KernelArgs, H: HostArgs<A>>(
        &self,
        kernel: &Kernel<A>,
        cfg: &LaunchConfig,
        args: H,
    ) -> Result<()> {
        self.backend.launch_queued(kernel, cfg, args)
    }

    /// The backend, for what else the sequence does (a copy, a zeroed
    /// buffer); on a GPU those are ordered after the queued launches.
    pub fn backend(&self) -> &Backend {
        self.backend
    }
}

impl Backend {
    /// Times the launch sequence `run` (see [`Timing`]) on a GPU: its
    /// launches queued ([`Queue::launch`]), as [`Gpu::time`] does. On the
    /// simulator `run` runs once and the answer is [`Timed::NotTimed`]. An
    /// error of `run` ends the timing with it; a kernel that never
    /// finishes ends it at the GPU's watchdog limit
    /// ([`Gpu::set_timeout`]), naming the kernel.
    #[doc(alias = "cudaEventElapsedTime")]
    pub fn time<E: From<RuntimeError>>(
        &self,
        timing: &Timing,
        mut run: impl FnMut(&Queue<'_>) -> std::result::Result<(), E>,
    ) -> std::result::Result<Timed, E> {
        let q = Queue { backend: self };
        match self {
            Backend::Gpu(g) => Ok(Timed::Gpu(g.time(timing, || run(&q))?)),
            Backend::Sim(_) => {
                run(&q)?;
                Ok(Timed::NotTimed)
            }
        }
    }
}

impl Gpu {
    /// Times the launch sequence `run` (see [`Timing`]): the warm-ups,
    /// then each sample's runs between two CUDA events on the default
    /// stream, so `run` must queue its work there without waiting for it
    /// ([`Gpu::launch`] does; a [`Backend::launch`] would time the host's
    /// waits too). Milliseconds per run of `run`.
    #[doc(alias = "cudaEventElapsedTime")]
    pub fn time<E: From<RuntimeError>>(
        &self,
        timing: &Timing,
        mut run: impl FnMut() -> std::result::Result<(), E>,
    ) -> std::result::Result<Times, E> {
        for _ in 0..timing.warmups {
            run()?;
        }
        let (start, stop) = (self.event()?, self.event()?);
        let mut sample = |runs: u32| -> std::result::Result<f64, E> {
            start.record()?;
            for _ in 0..runs {
                run()?;
            }
            stop.record()?;
            Ok(stop.elapsed_since(&start)? as f64 / runs as f64)
        };
        let runs = match timing.runs {
            Runs::Exactly(n) => n.max(1),
            Runs::AtLeastMs(ms) => {
                let once = sample(1)?.max(1e-4);
                (ms / once).ceil().clamp(1.0, 1e6) as u32
            }
        };
        let samples = (0..timing.repeats.max(1))
            .map(|_| sample(runs))
            .collect::<std::result::Result<Vec<f64>, E>>()?;
        Ok(Times::of(samples, runs))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn statistics_of_samples() {
        let t = Times::of(vec![5.0, 1.0, 3.0, 2.0, 4.0], 3);
        assert_eq!((t.median_ms, t.p10_ms, t.p90_ms), (3.0, 1.4, 4.6));
        assert_eq!(t.samples_ms, [5.0, 1.0, 3.0, 2.0, 4.0]);
        let even = Times::of(vec![4.0, 1.0], 1);
        assert_eq!(even.median_ms, 2.5);
        assert_eq!(Timed::Gpu(even).median_ms(), Some(2.5));
        assert_eq!(Timed::NotTimed.median_ms(), None);
        assert_eq!(Timed::NotTimed.to_string(), "not timed (simulator)");
    }
}
