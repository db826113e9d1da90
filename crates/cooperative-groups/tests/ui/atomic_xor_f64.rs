// Bitwise atomics exist for the integer types only.
use cooperative_groups::atomic::atomic_xor;

fn main() {
    let mut x = 1.0f64;
    // SAFETY: (never compiled)
    let _old = unsafe { atomic_xor(&mut x, 2.0) };
}
