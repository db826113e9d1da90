// A load cannot have release semantics (PTX has no `ld.release`).
use cooperative_groups::atomic::{AtomicRef, Release};

fn main() {
    let mut x = 0u32;
    let a = AtomicRef::<u32>::from_mut(&mut x);
    let _v = a.load(Release);
}
