//! binaryPartitionCG: random elements in 0..50; the kernel counts the odd
//! ones and sums the odd and the even ones with one atomic per warp part.
//! The original prints the totals; here the host computes them too and
//! compares.

use binary_partition_cg_kernels::ODD_EVEN_COUNT_AND_SUM;
use cg_runtime::{Backend, LaunchConfig};
use samples_support::{Error, Rng, backend, ensure};

include!(concat!(env!("OUT_DIR"), "/binary_partition_cg_kernels.rs"));

fn main() -> Result<(), Error> {
    let backend = backend(&BINARY_PARTITION_CG_KERNELS);
    // The original's 100 Ki elements; fewer on the simulator.
    let (size, threads, blocks) = match &backend {
        Backend::Gpu(g) => (1024 * 100, 256u32, g.info().sm_count * 8),
        Backend::Sim(_) => (4096, 128, 4),
    };
    let mut rng = Rng::new(19);
    let input: Vec<i32> = (0..size).map(|_| (rng.next_u31() % 50) as i32).collect();
    let d_input = backend.upload(&input)?;
    let mut num_odds = backend.alloc::<i32>(1)?;
    let mut sums = backend.alloc::<i32>(2)?;
    println!("launching {blocks} blocks with {threads} threads");
    backend.launch(
        &ODD_EVEN_COUNT_AND_SUM,
        &LaunchConfig::linear(blocks, threads),
        (&d_input, &mut num_odds, &mut sums),
    )?;
    let (odds, sums) = (num_odds.to_vec()?[0], sums.to_vec()?);
    println!(
        "array size = {size}, num of odds = {odds}, sum of odds = {}, sum of evens = {}",
        sums[0], sums[1]
    );
    let want_odds = input.iter().filter(|&&x| x & 1 == 1).count() as i32;
    let want_odd_sum: i32 = input.iter().filter(|&&x| x & 1 == 1).sum();
    let want_even_sum: i32 = input.iter().filter(|&&x| x & 1 == 0).sum();
    ensure(odds == want_odds, || {
        format!("odd count {odds}, host {want_odds}")
    })?;
    ensure(sums[0] == want_odd_sum, || {
        format!("odd sum {}, host {want_odd_sum}", sums[0])
    })?;
    ensure(sums[1] == want_even_sum, || {
        format!("even sum {}, host {want_even_sum}", sums[1])
    })?;
    println!("binaryPartitionCG: PASSED (count and both sums equal the host's)");
    Ok(())
}
