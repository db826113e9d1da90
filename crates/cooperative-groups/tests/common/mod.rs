//! Launching the collective kernels of `cg-kernels` on the simulator.

#![allow(dead_code)]

pub use cg_kernels::collectives::model::Args;
use cg_kernels::collectives::model::{Inputs, Launch, ModelElem, check, run_on_sim};
use cg_kernels::collectives::{Kind, Params};
use cooperative_groups::Kernel;

/// Runs `kernel` on the simulator and checks it against the model.
pub fn run<T: ModelElem>(
    kernel: Kernel<Args<T>>,
    launch: Launch,
    p: Params,
    inputs: &Inputs<T>,
) -> Result<(), String> {
    let (out, counters) =
        run_on_sim(&kernel, launch, &p, inputs).map_err(|e| format!("simulator: {e}"))?;
    check(launch, &p, inputs, &out, &counters)
        .map_err(|e| format!("{e}\n  launch {launch:?}, {p:?}"))
}

/// A launch's parameters; `[src, delta, xor]` are the shuffle arguments.
pub fn params(kind: Kind, size: u32, op: u32, [src, delta, xor]: [u32; 3]) -> Params {
    Params {
        kind: kind as u32,
        size,
        op,
        src,
        delta,
        xor,
        pad: [0; 2],
    }
}
