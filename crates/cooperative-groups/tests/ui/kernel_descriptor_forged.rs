// A launch descriptor names a PTX entry and types its parameters: making one
// by hand is `unsafe` (it could type a raw-pointer kernel's parameters as safe).
use cooperative_groups::{GlobalSlice, Kernel};

const FORGED: Kernel<(GlobalSlice<'static, u64>,)> = Kernel::new("cg_kernels", "copy_k", |_| {});

fn main() {
    let _ = FORGED;
}
