//! `#[kernel(instances(…))]` on kernels whose parameter types name the
//! generic parameters: each instance's parameters are the instance's types
//! (`*mut T` of the `f32` instance is `*mut f32`, `[u32; N]` of the `4`
//! instance is `[u32; 4]`).

use cooperative_groups::intrinsics::thread_idx;
use cooperative_groups::{Pod, kernel};

/// `out[t] = v` for every thread `t`.
#[kernel(instances(u32, f32, (i64)))]
pub fn fill<T: Pod>(out: *mut T, v: T) {
    // SAFETY: one output per thread.
    unsafe { *out.add(thread_idx().x as usize) = v };
}

/// Each thread writes the `N` words of a chunk: a const parameter in a type.
#[kernel(instances(2, 4))]
pub fn chunks<const N: usize>(out: *mut [u32; N]) {
    let t = thread_idx().x;
    // SAFETY: one chunk per thread.
    unsafe { *out.add(t as usize) = [t; N] };
}

fn run<A: Copy>(k: &cooperative_groups::Kernel<A>, threads: u32, a: A) {
    // SAFETY: the callers pass one element (or chunk) per thread.
    let body = unsafe { k.host_fn_unchecked() };
    cg_sim::launch(&cg_sim::LaunchConfig::new(1, threads), &|| body(a)).unwrap();
}

#[test]
fn type_instances_take_their_types() {
    let mut f = vec![0f32; 32];
    run(&FILL_F32, 32, (f.as_mut_ptr(), 2.5f32));
    assert!(f.iter().all(|&x| x == 2.5));
    let mut i = vec![0i64; 32];
    run(&FILL_I64, 32, (i.as_mut_ptr(), -7i64));
    assert!(i.iter().all(|&x| x == -7));
    assert_eq!(FILL_U32.name(), "fill_u32");
}

#[test]
fn const_instances_take_their_lengths() {
    let mut c = vec![[0u32; 4]; 8];
    run(&CHUNKS_4, 8, (c.as_mut_ptr(),));
    assert_eq!(c[5], [5; 4]);
    let mut c = vec![[0u32; 2]; 8];
    run(&CHUNKS_2, 8, (c.as_mut_ptr(),));
    assert_eq!(c[7], [7; 2]);
}
