//! `#[kernel(launch_bounds(MAX_THREADS, MIN_BLOCKS))]`, CUDA's
//! `__launch_bounds__`: the descriptor records the bounds, and a launch of
//! a larger block is refused with the kernel's name before it runs (the
//! GPU refuses it too; cg-build declares the bounds in the PTX entry, which
//! the lab's PTX tests check).

use cooperative_groups::host::run;
use cooperative_groups::prelude::*;
use cooperative_groups::{OwnedSlice, kernel};

/// Each thread writes its rank; at most 128 threads per block, four
/// blocks per SM asked for.
#[kernel(launch_bounds(128, 4))]
pub fn ranks(out: OwnedSlice<u32>) {
    let r = this_grid().thread_rank() as u32;
    if let Some(e) = out.at(&this_grid()) {
        e.store(r);
    }
}

/// The same bound without a block count, on generic instances.
#[kernel(instances(u32, u64), launch_bounds(64))]
pub fn ones<T: cooperative_groups::Pod + From<u8>>(out: OwnedSlice<T>) {
    if let Some(e) = out.at(&this_grid()) {
        e.store(T::from(1));
    }
}

#[test]
fn the_descriptor_records_the_bounds() {
    assert_eq!(RANKS.launch_bounds(), Some((128, 4)));
    assert_eq!(ONES_U32.launch_bounds(), Some((64, 0)));
    assert_eq!(ONES_U64.launch_bounds(), Some((64, 0)));
}

#[test]
fn blocks_within_the_bound_run() {
    let mut out = vec![0u32; 256];
    run(&RANKS, &cg_sim::LaunchConfig::new(2, 128), (&mut out[..],)).unwrap();
    assert!(out.iter().enumerate().all(|(i, &x)| x == i as u32));
    let mut ones = vec![0u64; 64];
    run(
        &ONES_U64,
        &cg_sim::LaunchConfig::new(1, 64),
        (&mut ones[..],),
    )
    .unwrap();
    assert!(ones.iter().all(|&x| x == 1));
}

#[test]
fn a_larger_block_is_refused_before_it_runs() {
    let mut out = vec![7u32; 256];
    let e = run(&RANKS, &cg_sim::LaunchConfig::new(1, 256), (&mut out[..],)).unwrap_err();
    let msg = e.to_string();
    assert!(
        msg.contains("`ranks` is declared with launch_bounds(128)")
            && msg.contains("a block of 256 threads"),
        "{msg}"
    );
    assert!(out.iter().all(|&x| x == 7), "nothing ran");
    let mut ones = vec![0u32; 128];
    let e = run(
        &ONES_U32,
        &cg_sim::LaunchConfig::new(1, 128),
        (&mut ones[..],),
    )
    .unwrap_err();
    assert!(e.to_string().contains("launch_bounds(64)"), "{e}");
}
