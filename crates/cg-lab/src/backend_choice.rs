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
}

impl BackendArgs {
    /// Opens the chosen backend; `auto` falls back to the simulator only when
    /// there is no driver or no GPU, and prints why on stderr.
    pub fn open(&self) -> Result<Backend> {
        match self.backend {
            BackendKind::Sim => Ok(Backend::sim()),
            BackendKind::Gpu => Ok(Backend::gpu(self.device, &crate::kernels::LAB_PTX)?),
            BackendKind::Auto => match Backend::gpu(self.device, &crate::kernels::LAB_PTX) {
                Ok(b) => Ok(b),
                Err(e @ (RuntimeError::NoDriver | RuntimeError::NoDevice)) => {
                    eprintln!("note: {e}");
                    eprintln!("note: running on the simulator (correctness only; no timings)");
                    Ok(Backend::sim())
                }
                Err(e) => bail!(e),
            },
        }
    }
}
