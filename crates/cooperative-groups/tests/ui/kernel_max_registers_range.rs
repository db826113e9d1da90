use cooperative_groups::{OwnedSlice, kernel};

// A thread has at most 255 registers.
#[kernel(max_registers(300))]
pub fn k(out: OwnedSlice<u32>) {
    let _ = out;
}

fn main() {}
