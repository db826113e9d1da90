// 16-bit atomics are not offered (nvcc emulates them with a 32-bit CAS).
use cooperative_groups::atomic::AtomicRef;

fn main() {
    let mut x = 0u16;
    let _a = AtomicRef::<u16>::from_mut(&mut x);
}
