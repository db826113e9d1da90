//! Holes in "safe Rust never causes undefined behaviour" around the
//! primitives and the launch checks, each re-created through the public
//! safe API (issue 55).
//!
//! * An image whose pitch makes its span overflow is refused, not wrapped.
//! * A grid of more blocks than a 32-bit block rank numbers is refused.

use cg_sim::{LaunchConfig, SimError};
use cooperative_groups::host::{Image, run};
use cooperative_groups::prelude::*;
use cooperative_groups::{OwnedPitched, OwnedSlice, PerBlock, kernel};

// ---- pitches whose span overflows -------------------------------------------

#[kernel]
pub fn fill_rows(img: OwnedPitched<u32>) {
    if let Some(e) = img.at(&this_grid()) {
        e.store(e.y() as u32);
    }
}

#[test]
fn an_image_whose_span_overflows_is_refused() {
    // Rows 2^62 elements apart: row 4 starts at 2^64, which wraps to 0 —
    // thread (0, 0) and thread (0, 4) would own one element.
    let mut data = [0u32; 4];
    let e = run(
        &FILL_ROWS,
        &LaunchConfig::new(1, (1, 5)),
        (Image::new(&mut data[..], 1, 5, 1 << 62),),
    );
    match e {
        Err(SimError::InvalidLaunch(msg)) => {
            assert!(msg.starts_with("`img`: "), "{msg}");
            assert!(msg.contains("overflows"), "{msg}");
        }
        other => panic!("expected a refused launch, got {other:?}"),
    }
    assert_eq!(data, [0; 4]);
    // A pitch that fits is accepted.
    let mut data = [9u32; 10];
    run(
        &FILL_ROWS,
        &LaunchConfig::new(1, (1, 5)),
        (Image::new(&mut data[..], 1, 5, 2),),
    )
    .unwrap();
    assert_eq!(data, [0, 9, 1, 9, 2, 9, 3, 9, 4, 9]);
}

#[test]
fn spans_of_images_and_tensor_maps_never_wrap() {
    use cooperative_groups::host::{
        image_span, tensor_map_span, tensor_map_span_3d, tensor_map_span_nd,
    };
    use cooperative_groups::tma::Dense;
    let huge = 1usize << 62;
    let err = |r: Result<usize, String>| r.expect_err("the span overflows");
    assert!(err(image_span(1, 5, huge, 4)).contains("overflows"));
    assert!(err(image_span(usize::MAX, 2, usize::MAX, 4)).contains("overflows"));
    assert_eq!(image_span(3, 4, 5, 18), Ok(18));
    // Pitch × element size wraps to a multiple of 16 below 2^40.
    assert!(err(tensor_map_span::<u32, 8, 8, Dense>(0, 4, 4, huge, 64)).contains("overflows"));
    assert!(
        err(tensor_map_span_3d::<u32, 8, 8, 8, Dense>(
            0,
            (4, 4, 4),
            4,
            huge,
            64
        ))
        .contains("overflows")
    );
    assert!(
        err(tensor_map_span_3d::<u32, 8, 8, 8, Dense>(
            0,
            (4, 5, 4),
            huge,
            1 << 20,
            64
        ))
        .contains("overflows")
    );
    assert!(err(tensor_map_span_nd(0, 4, &[4, 4], &[huge], 64)).contains("overflows"));
    // Strides below 2^40 bytes, each at least the span below it, whose
    // span over 2^32 indices passes 2^64.
    let d = 1usize << 32;
    assert!(err(tensor_map_span_nd(0, 1, &[16, d, d], &[16, 1 << 36], 64)).contains("overflows"));
    assert!(
        err(tensor_map_span_3d::<u8, 16, 8, 8, Dense>(
            0,
            (16, 1, d),
            16,
            1 << 36,
            64
        ))
        .contains("overflows")
    );
}

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
