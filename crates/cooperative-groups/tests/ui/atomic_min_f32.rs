// PTX has no float `atom.min`: fetch_min on f32 does not exist.
use cooperative_groups::atomic::{AtomicRef, Relaxed};

fn main() {
    let mut x = 0.0f32;
    let a = AtomicRef::<f32>::from_mut(&mut x);
    let _old = a.fetch_min(1.0, Relaxed);
}
