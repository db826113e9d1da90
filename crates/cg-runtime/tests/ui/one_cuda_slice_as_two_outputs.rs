// A launch on a cudarc stream borrows cudarc's slices as it borrows this
// crate's buffers: one `CudaSlice` (or view) cannot be two writable
// parameters of a launch, nor a written and a read one.
use cg_runtime::cudarc::driver::{CudaSlice, CudaStream};
use cg_runtime::{Gpu, LaunchConfig, RuntimeError};
use cooperative_groups::prelude::*;
use cooperative_groups::{GlobalSlice, OwnedSlice};

#[cooperative_groups::kernel]
pub fn two_outputs(a: OwnedSlice<u32>, b: OwnedSlice<u32>) {
    let grid = this_grid();
    if let (Some(x), Some(y)) = (a.at(&grid), b.at(&grid)) {
        x.store(1);
        y.store(2);
    }
}

#[cooperative_groups::kernel]
pub fn in_and_out(x: GlobalSlice<u32>, y: OwnedSlice<u32>) {
    if let Some(e) = y.at(&this_grid()) {
        e.store(x.load(e.index()));
    }
}

fn launches(gpu: &Gpu, stream: &CudaStream, mut buf: CudaSlice<u32>) -> Result<(), RuntimeError> {
    let cfg = LaunchConfig::linear(1, 32);
    gpu.launch_on(stream, &TWO_OUTPUTS, &cfg, (&mut buf, &mut buf))?;
    gpu.launch_on(stream, &IN_AND_OUT, &cfg, (&buf, &mut buf))?;
    let mut view = buf.as_view_mut();
    gpu.launch_on(stream, &TWO_OUTPUTS, &cfg, (&mut view, &mut view))?;
    gpu.launch_on(stream, &IN_AND_OUT, &cfg, (buf.as_view(), &mut view))?;
    Ok(())
}

fn main() {
    let _ = launches;
}
