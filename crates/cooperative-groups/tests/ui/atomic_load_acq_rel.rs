// A load cannot be acq_rel either.
use cooperative_groups::atomic::{AcqRel, AtomicRef, Device};

fn main() {
    let mut x = 0u64;
    let a = AtomicRef::<u64, Device>::from_mut(&mut x);
    let _v = a.load(AcqRel);
}
