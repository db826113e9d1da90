//! `#[kernel(block_dim(X, Y, Z))]`: the one block shape a kernel runs
//! with. The descriptor records it, a launch of another shape is refused
//! with the kernel's name before it runs (the GPU refuses it too: cg-build
//! declares `.reqntid`, which the lab's PTX tests check), and the kernel's
//! body, run by hand in another block, stops at its first line.

use cg_sim::{LaunchConfig, SimError};
use cooperative_groups::host::run;
use cooperative_groups::prelude::*;
use cooperative_groups::{OwnedSlice, kernel};

/// Each thread writes its rank in the block at its rank in the grid.
#[kernel(block_dim(64))]
pub fn ranks(out: OwnedSlice<u32>) {
    let block = this_thread_block().with_threads::<64>();
    let r = block.thread_rank();
    if let Some(e) = out.at(&this_grid()) {
        e.store(r);
    }
}

/// The same in a 2-D block of 8 × 4: ranks run x fastest.
#[kernel(block_dim(8, 4))]
pub fn ranks_2d(out: OwnedSlice<u32>) {
    let block = this_thread_block().with_threads::<32>();
    let t = block.thread_index();
    if let Some(e) = out.at(&this_grid()) {
        e.store(block.thread_rank() * 100 + t.y * 8 + t.x);
    }
}

/// On generic instances, beside `launch_bounds` (which then only adds its
/// block count) and `max_registers`.
#[kernel(
    instances(u32, u64),
    block_dim(32),
    launch_bounds(32, 4),
    max_registers(32)
)]
pub fn ones<T: cooperative_groups::Pod + From<u8>>(out: OwnedSlice<T>) {
    if let Some(e) = out.at(&this_grid()) {
        e.store(T::from(1));
    }
}

#[test]
fn the_descriptor_records_the_shape() {
    assert_eq!(RANKS.block_dim(), Some([64, 1, 1]));
    assert_eq!(RANKS.launch_bounds(), None);
    assert_eq!(RANKS_2D.block_dim(), Some([8, 4, 1]));
    assert_eq!(ONES_U32.block_dim(), Some([32, 1, 1]));
    assert_eq!(ONES_U64.launch_bounds(), Some((32, 4)));
}

#[test]
fn blocks_of_the_shape_run() {
    let mut out = vec![0u32; 192];
    run(&RANKS, &LaunchConfig::new(3, 64), (&mut out[..],)).unwrap();
    assert!(out.iter().enumerate().all(|(i, &x)| x == i as u32 % 64));
    let mut out = vec![0u32; 64];
    let cfg = LaunchConfig {
        block: cg_sim::Dim3::new(8, 4, 1),
        ..LaunchConfig::new(2, 32)
    };
    run(&RANKS_2D, &cfg, (&mut out[..],)).unwrap();
    // Rank r is (x, y) = (r % 8, r / 8): 100 r + r.
    assert!(
        out.iter()
            .enumerate()
            .all(|(i, &v)| v == 101 * (i as u32 % 32))
    );
    let mut ones = vec![0u64; 64];
    run(&ONES_U64, &LaunchConfig::new(2, 32), (&mut ones[..],)).unwrap();
    assert!(ones.iter().all(|&x| x == 1));
}

#[test]
fn another_shape_is_refused_before_it_runs() {
    // Fewer threads, more threads, and as many threads in another shape.
    for (block, shown) in [
        (cg_sim::Dim3::new(32, 1, 1), "(32, 1, 1)"),
        (cg_sim::Dim3::new(128, 1, 1), "(128, 1, 1)"),
        (cg_sim::Dim3::new(32, 2, 1), "(32, 2, 1)"),
    ] {
        let mut out = vec![7u32; 256];
        let cfg = LaunchConfig {
            block,
            ..LaunchConfig::new(1, 1)
        };
        let e = run(&RANKS, &cfg, (&mut out[..],)).unwrap_err();
        let msg = e.to_string();
        assert!(
            msg.contains("`ranks` is declared with block_dim(64, 1, 1)")
                && msg.contains(&format!("a block of {shown} threads")),
            "{msg}"
        );
        assert!(out.iter().all(|&x| x == 7), "nothing ran");
    }
}

#[test]
fn the_body_run_in_another_block_stops_at_its_first_line() {
    // Past the launchers' check, as a hand-made launch of the host body.
    use cooperative_groups::host::{HostArgs, Target};
    let mut out = [0u32; 32];
    let mut to = Target::sim();
    let params = (&mut out[..],)
        .into_params(RANKS.param_names(), &mut to)
        .unwrap();
    let body = RANKS.host_fn();
    let cfg = LaunchConfig::new(1, 32);
    // SAFETY: the regions and views of `out`, borrowed until the launch
    // returns.
    let e: SimError = unsafe {
        cg_sim::launch_with(&cg_sim::SimDevice::default(), &cfg, &to.regions, &|| {
            body(params)
        })
    }
    .expect_err("a 32-thread block is not the kernel's");
    let msg = e.to_string();
    assert!(
        msg.contains("declared with block_dim(64, 1, 1) and runs in a block of [32, 1, 1]"),
        "{msg}"
    );
    assert!(out.iter().all(|&x| x == 0), "nothing was written");
}
