//! warpAggregatedAtomicsCG: stream compaction with one atomic per coalesced
//! group, then bucketing and a per-bucket maximum with one atomic per
//! labeled partition. The original checks the compacted count, the bucket
//! counters and the maxima; here the host also checks that the compacted
//! elements and every bucket's indices are exactly the right ones.

use cg_runtime::LaunchConfig;
use samples_support::{Error, Rng, backend, ensure};
use warp_aggregated_atomics_cg_kernels::{
    CALCULATE_MAX_IN_EACH_BUCKET, FILTER_ARR, MAP_TO_BUCKETS,
};

include!(concat!(
    env!("OUT_DIR"),
    "/warp_aggregated_atomics_cg_kernels.rs"
));

const THREADS: u32 = 512;
const BUCKETS: i32 = 5;

fn main() -> Result<(), Error> {
    let backend = backend(&WARP_AGGREGATED_ATOMICS_CG_KERNELS);
    // The original's 10 M elements; fewer on the simulator.
    let n: u32 = if backend.is_sim() { 6000 } else { 10_000_000 };
    let mut rng = Rng::new(7);
    let data: Vec<i32> = (0..n)
        .map(|_| (rng.next_u31() % BUCKETS as u32) as i32)
        .collect();
    let src = backend.upload(&data)?;

    // Compaction of the positive elements.
    let mut dst = backend.alloc::<i32>(n as usize)?;
    let mut nres = backend.alloc::<i32>(1)?;
    backend.launch(
        &FILTER_ARR,
        &LaunchConfig::linear(n / THREADS + 1, THREADS),
        (&mut dst, &mut nres, &src),
    )?;
    let nres = nres.to_vec()?[0] as usize;
    let host: Vec<i32> = data.iter().copied().filter(|&v| v > 0).collect();
    ensure(nres == host.len(), || {
        format!("filter: {nres} elements, host {}", host.len())
    })?;
    let mut got = dst.to_vec()?[..nres].to_vec();
    got.sort_unstable();
    let mut want = host.clone();
    want.sort_unstable();
    ensure(got == want, || {
        "filter: the compacted elements are not the host's".into()
    })?;
    println!("filter_arr: {nres} positive elements of {n}, the host's multiset");

    // Buckets: counter b starts at b · n and each index lands in its bucket's region.
    let grid = (n / THREADS).max(1);
    let start: Vec<i32> = (0..BUCKETS).map(|b| b * n as i32).collect();
    let mut counters = backend.upload(&start)?;
    let mut indices = backend.alloc::<i32>(n as usize * BUCKETS as usize)?;
    backend.launch(
        &MAP_TO_BUCKETS,
        &LaunchConfig::linear(grid, THREADS),
        (&src, &mut indices, &mut counters, BUCKETS),
    )?;
    let (counters, indices) = (counters.to_vec()?, indices.to_vec()?);
    for (b, &counter) in counters.iter().enumerate() {
        let want: Vec<i32> = (0..n as i32)
            .filter(|&i| data[i as usize] == b as i32)
            .collect();
        let count = counter - b as i32 * n as i32;
        ensure(count as usize == want.len(), || {
            format!("bucket {b}: counter says {count}, host {}", want.len())
        })?;
        let base = b * n as usize;
        let mut got = indices[base..base + count as usize].to_vec();
        got.sort_unstable();
        ensure(got == want, || {
            format!("bucket {b}: the indices are not the host's")
        })?;
    }
    println!("map_to_buckets: {BUCKETS} bucket counts and index sets equal the host's");

    // Per-bucket maximum.
    let values: Vec<i32> = (0..n).map(|_| rng.next_u31() as i32).collect();
    let d_values = backend.upload(&values)?;
    let mut max = backend.alloc::<i32>(BUCKETS as usize)?;
    backend.launch(
        &CALCULATE_MAX_IN_EACH_BUCKET,
        &LaunchConfig::linear(grid, THREADS),
        (&src, &d_values, &mut max, BUCKETS),
    )?;
    let max = max.to_vec()?;
    let mut want = vec![0i32; BUCKETS as usize];
    for (&b, &v) in data.iter().zip(&values) {
        want[b as usize] = want[b as usize].max(v);
    }
    ensure(max == want, || {
        format!("bucket maxima {max:?}, host {want:?}")
    })?;
    println!("calculate_max_in_each_bucket: maxima {max:?} equal the host's");
    println!("warpAggregatedAtomicsCG: PASSED");
    Ok(())
}
