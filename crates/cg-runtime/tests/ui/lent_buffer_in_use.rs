// A `DeviceBuffer` lent to cudarc (`as_cuda_slice`) is borrowed
// exclusively while the loan lives: the buffer cannot be read or written
// beside it (its own copies would race with cudarc work still queued), nor
// dropped under it (cudarc would use freed memory).
use std::sync::Arc;

use cg_runtime::cudarc::driver::CudaStream;
use cg_runtime::{DeviceBuffer, Gpu, LaunchConfig, RuntimeError};
use cooperative_groups::prelude::*;
use cooperative_groups::{GlobalSlice, OwnedSlice};

#[cooperative_groups::kernel]
pub fn in_and_out(x: GlobalSlice<u32>, y: OwnedSlice<u32>) {
    if let Some(e) = y.at(&this_grid()) {
        e.store(x.load(e.index()));
    }
}

fn lent(gpu: &Gpu, stream: &Arc<CudaStream>, mut buf: DeviceBuffer<u32>) -> Result<(), RuntimeError> {
    let cfg = LaunchConfig::linear(1, 32);
    let mut loan = buf.as_cuda_slice(stream)?;
    gpu.launch_on(stream, &IN_AND_OUT, &cfg, (&buf, loan.view_mut()))?;
    buf.copy_from(&[0; 32])?;
    drop(buf);
    stream.memset_zeros(&mut loan.view_mut()).unwrap();
    Ok(())
}

fn main() {
    let _ = lent;
}
