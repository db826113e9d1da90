// A raw pointer hidden behind an alias does not make a safe kernel.
use cooperative_groups::kernel;

type Out = *mut u32;

#[kernel]
pub fn hidden(out: Out) {
    let _ = out;
}

fn main() {}
