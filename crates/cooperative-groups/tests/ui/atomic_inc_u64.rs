// atomicInc / atomicDec exist for 32-bit words only (PTX has no `atom.inc.u64`).
use cooperative_groups::atomic::{AtomicRef, Relaxed};

fn main() {
    let mut x = 0u64;
    let a = AtomicRef::<u64>::from_mut(&mut x);
    let _old = a.fetch_inc(10, Relaxed);
}
