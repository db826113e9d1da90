//! Launching the collective kernels of `cg-kernels` on the simulator.

#![allow(dead_code)]

use cg_kernels::collectives::Params;
pub use cg_kernels::collectives::model::Args;
use cg_kernels::collectives::model::{Inputs, Launch, ModelElem, check, run_on_sim};
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
