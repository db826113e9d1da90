// No safe write by index: a thread writes through the witness of its own element.
use cooperative_groups::{OwnedSlice, kernel};

#[kernel]
pub fn scatter(out: OwnedSlice<u32>) {
    out.store(5, 1);
}

fn main() {}
