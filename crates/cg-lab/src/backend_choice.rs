//! `--backend gpu|sim|auto` and `--device N`: which backend runs the kernels.

use anyhow::{Result, bail};
use cg_runtime::{Backend, RuntimeError};
use clap::{Args, ValueEnum};

/// Where kernels run.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum BackendKind {
    /// The GPU if one is usable, otherwise the simulator (and say so).
    Auto,
    /// A GPU; fail if none is usable.
    Gpu,
    /// The CPU simulator: correctness only, timings are meaningless.
    Sim,
}

/// Backend flags shared by every command.
#[derive(Args, Debug, Clone)]
pub struct BackendArgs {
    /// Where to run: a GPU, the simulator, or the GPU when there is one.
    #[arg(long, value_enum, default_value_t = BackendKind::Auto)]
    pub backend: BackendKind,
    /// GPU ordinal.
    #[arg(long, default_value_t = 0)]
    pub device: u32,
    /// Seconds any wait for the GPU may take before the run stops with an
    /// error naming the kernel (a deadlocked kernel would hang forever).
    #[arg(long, default_value_t = 300.0, value_parser = timeout_secs)]
    pub timeout: f64,
}

fn timeout_secs(s: &str) -> Result<f64, String> {
    match s.trim().parse::<f64>() {
        Ok(v) if v > 0.0 && v <= 86_400.0 => Ok(v),
        _ => Err(format!(
            "must be a number of seconds in (0, 86400] (got `{s}`)"
        )),
    }
}

impl BackendArgs {
    /// Opens the chosen backend; `auto` falls back to the simulator only when
    /// there is no driver or no GPU, and prints why on stderr.
    pub fn open(&self) -> Result<Backend> {
        let (backend, why) = self.open_quietly()?;
        if let Some(e) = why {
            eprintln!("note: {e}");
            eprintln!(
                "note: running on the simulator (correctness only; no timings; --backend gpu insists on one)"
            );
        }
        Ok(backend)
    }

    /// As [`open`](Self::open), returning why `auto` fell back to the
    /// simulator instead of printing it.
    pub fn open_quietly(&self) -> Result<(Backend, Option<RuntimeError>)> {
        let gpu = || -> Result<Backend, RuntimeError> {
            let b = Backend::gpu(self.device, &crate::kernels::LAB_PTX)?;
            if let Backend::Gpu(g) = &b {
                g.set_timeout(std::time::Duration::from_secs_f64(self.timeout));
            }
            Ok(b)
        };
        match self.backend {
            BackendKind::Sim => Ok((Backend::sim(), None)),
            BackendKind::Gpu => match gpu() {
                Ok(b) => Ok((b, None)),
                // The runtime's error says what is missing; where to go
                // instead is a matter of this command line.
                Err(e @ (RuntimeError::NoDriver | RuntimeError::NoDevice)) => bail!(
                    "{e} (--backend gpu insists on one; --backend sim runs on the simulator, correctness only)"
                ),
                Err(e) => bail!(e),
            },
            BackendKind::Auto => match gpu() {
                Ok(b) => Ok((b, None)),
                Err(e @ (RuntimeError::NoDriver | RuntimeError::NoDevice)) => {
                    Ok((Backend::sim(), Some(e)))
                }
                Err(e) => bail!(e),
            },
        }
    }
}
