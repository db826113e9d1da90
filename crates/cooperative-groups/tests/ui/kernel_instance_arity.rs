// A generic kernel's instance must give one argument per generic parameter.
use cooperative_groups::kernel;

#[kernel(instances(8, 16))]
pub fn two_params<const N: u32, const M: u32>(out: *mut u32) {
    unsafe { *out = N + M };
}

fn main() {}
