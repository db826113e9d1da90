//! Holes in "safe Rust never causes undefined behaviour" around the
//! primitives and the launch checks, each re-created through the public
//! safe API (issue 55).
//!
//! * A grid of more blocks than a 32-bit block rank numbers is refused.

use cg_sim::{LaunchConfig, SimError};
use cooperative_groups::host::run;
use cooperative_groups::prelude::*;
use cooperative_groups::{OwnedSlice, PerBlock, kernel};

// ---- block ranks that would wrap ---------------------------------------------

#[kernel]
pub fn one_per_block(out: OwnedSlice<u32, PerBlock>) {
    if let Some(e) = out.leader(&this_thread_block()) {
        e.store(1);
    }
}

#[test]
fn a_grid_of_more_blocks_than_u32_ranks_is_refused() {
    // (2^31 − 1) · 4 blocks, each dimension legal: block (0, 3, 0)'s rank
    // 3 · (2^31 − 1) wraps in 32 bits to 2^31 − 3, block (2^31 − 3, 0, 0)'s
    // rank: both blocks would own one window of `out`.
    let mut out = [0u32; 4];
    let e = run(
        &ONE_PER_BLOCK,
        &LaunchConfig::new((i32::MAX as u32, 4, 1), 1),
        (&mut out[..],),
    );
    match e {
        Err(SimError::InvalidLaunch(msg)) => {
            assert!(msg.contains("8589934588 blocks"), "{msg}");
            assert!(msg.contains("4294967295"), "{msg}");
        }
        other => panic!("expected a refused launch, got {other:?}"),
    }
    let shape = LaunchConfig::new((i32::MAX as u32, 4, 1), 1).validate_shape();
    assert!(shape.unwrap_err().to_string().contains("8589934588 blocks"));
    assert!(
        LaunchConfig::new((i32::MAX as u32, 2, 1), 1)
            .validate_shape()
            .is_ok()
    );
}
