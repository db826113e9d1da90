// One buffer cannot be two writable parameters of a launch (nor a read and
// a written one): the launch borrows it.
use cg_runtime::{Backend, LaunchConfig};
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

fn main() -> Result<(), cg_runtime::RuntimeError> {
    let backend = Backend::sim();
    let mut buf = backend.alloc::<u32>(32)?;
    let cfg = LaunchConfig::linear(1, 32);
    backend.launch(&TWO_OUTPUTS, &cfg, (&mut buf, &mut buf))?;
    backend.launch(&IN_AND_OUT, &cfg, (&buf, &mut buf))?;
    Ok(())
}
