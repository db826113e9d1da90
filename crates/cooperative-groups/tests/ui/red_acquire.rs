use cooperative_groups::atomic::{Acquire, AtomicRef, Device};

fn main() {
    let mut x = 0u32;
    let a = AtomicRef::<u32, Device>::from_mut(&mut x);
    a.red_add(1, Acquire);
}
