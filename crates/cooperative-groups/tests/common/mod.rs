//! Launching the collective kernels of `cg-kernels` on the simulator.

#![allow(dead_code)]

use cg_kernels::collectives::model::{Inputs, Launch, ModelElem, check};
use cg_kernels::collectives::{NOT_WRITTEN, Params, SLOTS};
use cooperative_groups::Kernel;

/// The argument tuple of a collective kernel over `T`.
pub type Args<T> = (
    *const Params,
    *const T,
    *const u32,
    *const u32,
    *mut u64,
    *mut u32,
);

/// Runs `kernel` on the simulator and checks it against the model.
pub fn run<T: ModelElem>(
    kernel: Kernel<Args<T>>,
    launch: Launch,
    p: Params,
    inputs: &Inputs<T>,
) -> Result<(), String> {
    let n = launch.threads();
    assert_eq!(inputs.values.len(), n);
    let mut out = vec![NOT_WRITTEN; n * SLOTS];
    let mut counters = vec![0u32; n];
    let args: Args<T> = (
        &p,
        inputs.values.as_ptr(),
        inputs.preds.as_ptr(),
        inputs.labels.as_ptr(),
        out.as_mut_ptr(),
        counters.as_mut_ptr(),
    );
    let cfg = cg_sim::LaunchConfig::new(launch.blocks, launch.block);
    cg_sim::launch(&cfg, &|| (kernel.host_fn())(args)).map_err(|e| format!("simulator: {e}"))?;
    check(launch, &p, inputs, &out, &counters)
        .map_err(|e| format!("{e}\n  launch {launch:?}, {p:?}"))
}
