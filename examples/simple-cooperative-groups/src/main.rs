//! simpleCooperativeGroups: a single block of 64 threads reduces the ranks
//! of the block, then of each tile of 32, 16 and 4 threads, with one
//! function written against `ThreadGroup`. The original prints each
//! group's sum next to the expected `(n − 1) · n / 2`; here the host checks
//! every thread's return value (the sum at rank 0, −1 elsewhere).

use cg_runtime::LaunchConfig;
use samples_support::{Error, backend, ensure};
use simple_cooperative_groups_kernels::CG_KERNEL;

include!(concat!(
    env!("OUT_DIR"),
    "/simple_cooperative_groups_kernels.rs"
));

fn main() -> Result<(), Error> {
    let backend = backend(&SIMPLE_COOPERATIVE_GROUPS_KERNELS);
    let threads = 64u32;
    let n = threads as usize;
    println!("launching a single block with {threads} threads");
    let mut out = backend.alloc::<i32>(4 * n)?;
    let cfg = LaunchConfig::linear(1, threads).with_dynamic_smem(threads * 4);
    backend.launch(&CG_KERNEL, &cfg, (&mut out,))?;
    let out = out.to_vec()?;
    for (k, size) in [(0, n), (1, 32), (2, 16), (3, 4)] {
        let want = ((size - 1) * size / 2) as i32;
        for r in 0..n {
            let expect = if r % size == 0 { want } else { -1 };
            ensure(out[k * n + r] == expect, || {
                format!(
                    "group of {size}: thread {r} returned {} (expected {expect})",
                    out[k * n + r]
                )
            })?;
        }
        let sums: Vec<i32> = (0..n).step_by(size).map(|r| out[k * n + r]).collect();
        let what = if size == n {
            "the thread block".to_string()
        } else {
            format!("{} tiles of {size}", n / size)
        };
        println!(
            "sum of ranks 0..{} in {what}: {sums:?} (expected {want} each)",
            size - 1
        );
    }
    println!("simpleCooperativeGroups: PASSED");
    Ok(())
}
