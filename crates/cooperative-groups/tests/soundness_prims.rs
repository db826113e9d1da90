//! Holes in "safe Rust never causes undefined behaviour" around the
//! primitives and the launch checks, each re-created through the public
//! safe API (issue 55): what the types now reject is under `tests/ui/`
//! (`store_window_*`, `store_chunk_*`); what the simulator or the launcher
//! must refuse is here.
//!
//! * A block store's writes go through the race detector: another block's
//!   read of `store_window`'s (or `store_chunk`'s) output without a grid
//!   barrier is a race naming both lines, as it is for `Elem::store`.
//! * A striped window store and the window's own witnesses agree on who
//!   writes what: a thread that also writes its `mine(k)` elements races
//!   with no one.
//! * An image whose pitch makes its span overflow is refused, not wrapped.
//! * A grid of more blocks than a 32-bit block rank numbers is refused.

use cg_sim::{LaunchConfig, SimError};
use cooperative_groups::host::{Image, run, run_on};
use cooperative_groups::prelude::*;
use cooperative_groups::primitives::{BlockStore, Striped, Transpose, Vectorize};
use cooperative_groups::{Chunked, OwnedPitched, OwnedSlice, PerBlock, kernel, temp_storage};

/// The line of this file that ends with `marker`.
fn marked(marker: &str) -> u32 {
    let src = include_str!("soundness_prims.rs");
    let i = src
        .lines()
        .position(|l| l.trim_end().ends_with(marker))
        .expect("marker");
    i as u32 + 1
}

/// The data race of `r`, with the lines of its two accesses (sorted),
/// both in this file.
fn race(r: Result<cg_sim::LaunchStats, SimError>) -> (String, Vec<u32>) {
    let rep = match r {
        Err(SimError::DataRace(rep)) => rep,
        other => panic!("expected a data race, got {other:?}"),
    };
    let mut lines: Vec<u32> = rep
        .race_accesses()
        .iter()
        .map(|a| a.location.line)
        .collect();
    lines.sort_unstable();
    assert!(
        rep.race_accesses()
            .iter()
            .all(|a| a.location.file.ends_with("soundness_prims.rs")),
        "the report names the user's lines, not the library's: {rep}"
    );
    (rep.to_string(), lines)
}

/// A device whose blocks run on two worker threads: the stores of one
/// block and the loads of another then run at the same time on the host.
fn two_workers() -> cg_sim::SimDevice {
    cg_sim::SimDevice {
        workers: 2,
        ..cg_sim::SimDevice::default()
    }
}

// ---- block stores are seen by the race detector -----------------------------

/// How the block orders its store before block 1's read of block 0's
/// window: not at all (0), a block barrier (1), a grid barrier (2).
#[kernel]
pub fn store_then_peek(
    sync: u32,
    out: OwnedSlice<u32, PerBlock<128>>,
    seen: OwnedSlice<u32, PerBlock>,
) {
    let block = this_thread_block().with_threads::<32>();
    let grid = this_grid();
    let (b, r) = (grid.block_rank(), block.thread_rank());
    // Striped: thread r holds items r, r + 32, r + 64, r + 96 of its tile.
    let items = [0, 1, 2, 3].map(|i| 128 * b + r + 32 * i);
    let store = BlockStore::<u32, 32, 4, Striped>::without_storage(&block);
    store.store_window(out.window(&block), items); // the striped store
    if sync == 1 {
        block.sync();
    } else if sync == 2 {
        grid.sync();
    }
    let v = if b == 1 { out.load(5) } else { 0 }; // the read
    if let Some(e) = seen.leader(&block) {
        e.store(v);
    }
}

#[test]
fn a_read_of_another_blocks_store_window_output_needs_a_grid_barrier() {
    let cfg = LaunchConfig::new(2, 32).with_cooperative(true);
    let want = [marked("// the striped store"), marked("// the read")];
    for sync in [0u32, 1] {
        for device in [cg_sim::SimDevice::default(), two_workers()] {
            let (mut out, mut seen) = ([0u32; 256], [0u32; 2]);
            let (text, lines) = race(run_on(
                &device,
                &STORE_THEN_PEEK,
                &cfg,
                (sync, &mut out[..], &mut seen[..]),
            ));
            assert_eq!(lines, want, "sync {sync}: {text}");
            assert!(text.contains("`out`[5]"), "{text}");
            assert!(text.contains("different blocks"), "{text}");
        }
    }
    // The grid barrier orders them: block 1 reads what block 0 stored.
    let (mut out, mut seen) = ([0u32; 256], [0u32; 2]);
    run(&STORE_THEN_PEEK, &cfg, (2u32, &mut out[..], &mut seen[..])).unwrap();
    assert_eq!(out, core::array::from_fn(|i| i as u32));
    assert_eq!(seen, [0, 5]);
}

/// As [`store_then_peek`] with the exchanging store (`Transpose`: the
/// registers hold the blocked arrangement) and no barrier.
#[kernel]
pub fn transpose_then_peek(out: OwnedSlice<u32, PerBlock<128>>, seen: OwnedSlice<u32, PerBlock>) {
    let block = this_thread_block().with_threads::<32>();
    let temp = temp_storage!(BlockStore<u32, 32, 4, Transpose>);
    let b = this_grid().block_rank();
    let r = block.thread_rank();
    let items = [0, 1, 2, 3].map(|i| 128 * b + 4 * r + i);
    let store = BlockStore::<u32, 32, 4, Transpose>::new(&block, &temp);
    store.store_window(out.window(&block), items); // the exchanging store
    let v = if b == 0 { out.load(130) } else { 0 }; // block 0 reads block 1's
    if let Some(e) = seen.leader(&block) {
        e.store(v);
    }
}

#[test]
fn a_transpose_store_window_is_seen_by_the_race_detector() {
    let (mut out, mut seen) = ([0u32; 256], [0u32; 2]);
    let (text, lines) = race(run(
        &TRANSPOSE_THEN_PEEK,
        &LaunchConfig::new(2, 32),
        (&mut out[..], &mut seen[..]),
    ));
    assert_eq!(
        lines,
        [
            marked("// the exchanging store"),
            marked("// block 0 reads block 1's")
        ],
        "{text}"
    );
    assert!(text.contains("`out`[130]"), "{text}");
}

/// Each thread's `ITEMS = 4` contiguous elements (`Chunked<4>`), stored
/// blocked with 16-byte vectors (`Vectorize`); block 1 reads element 5 of
/// block 0's, ordered by `sync` as in [`store_then_peek`].
#[kernel]
pub fn chunk_then_peek(
    sync: u32,
    out: OwnedSlice<u32, Chunked<4>>,
    seen: OwnedSlice<u32, PerBlock>,
) {
    let block = this_thread_block().with_threads::<32>();
    let grid = this_grid();
    let (b, r) = (grid.block_rank(), block.thread_rank());
    let items = [0, 1, 2, 3].map(|i| 128 * b + 4 * r + i);
    let store = BlockStore::<u32, 32, 4, Vectorize>::without_storage(&block);
    store.store_chunk(out.chunk(&grid), items); // the vector store
    if sync == 2 {
        grid.sync();
    }
    let v = if b == 1 { out.load(5) } else { 0 }; // the chunk's read
    if let Some(e) = seen.leader(&block) {
        e.store(v);
    }
}

#[test]
fn a_read_of_another_blocks_store_chunk_output_needs_a_grid_barrier() {
    let cfg = LaunchConfig::new(2, 32).with_cooperative(true);
    let (mut out, mut seen) = ([0u32; 256], [0u32; 2]);
    let (text, lines) = race(run_on(
        &two_workers(),
        &CHUNK_THEN_PEEK,
        &cfg,
        (0u32, &mut out[..], &mut seen[..]),
    ));
    assert_eq!(
        lines,
        [marked("// the vector store"), marked("// the chunk's read")],
        "{text}"
    );
    assert!(text.contains("`out`[5]"), "{text}");
    run(&CHUNK_THEN_PEEK, &cfg, (2u32, &mut out[..], &mut seen[..])).unwrap();
    assert_eq!(out, core::array::from_fn(|i| i as u32));
    assert_eq!(seen, [0, 5]);
}

#[test]
fn a_raw_block_store_is_seen_by_the_race_detector() {
    // Two blocks store one tile through the raw, `unsafe` store (the
    // caller's promise broken): the detector sees the writes.
    let mut out = vec![0u32; 128];
    let p = out.as_mut_ptr() as usize;
    let device = cg_sim::SimDevice {
        stack_size: 4 << 20,
        ..cg_sim::SimDevice::default()
    };
    let r = cg_sim::launch_on(&device, &LaunchConfig::new(2, 32), &|| {
        let block = this_thread_block().with_threads::<32>();
        let store = BlockStore::<u32, 32, 4, Striped>::without_storage(&block);
        // SAFETY: not kept, for the test: both blocks write the tile.
        unsafe { store.store(p as *mut u32, [1; 4]) }; // the raw store
    });
    let line = marked("// the raw store");
    let (_, lines) = race(r);
    assert_eq!(lines, [line, line]);
}

// ---- a striped window store and the window's witnesses agree ---------------

/// Thread `r` writes its window element `r` through its witness
/// (`mine(0)`), then the block stores the whole window (striped): every
/// element is written by one thread only, the last write the store's.
#[kernel]
pub fn mine_then_store(out: OwnedSlice<u32, PerBlock<128>>) {
    let block = this_thread_block().with_threads::<32>();
    let temp = temp_storage!(BlockStore<u32, 32, 4, Transpose>);
    let (b, r) = (this_grid().block_rank(), block.thread_rank());
    if let Some(e) = out.window(&block).mine(0) {
        e.store(u32::MAX);
    }
    let striped = [0, 1, 2, 3].map(|i| 128 * b + r + 32 * i);
    BlockStore::<u32, 32, 4, Striped>::without_storage(&block)
        .store_window(out.window(&block), striped);
    let blocked = [0, 1, 2, 3].map(|i| 1000 + 128 * b + 4 * r + i);
    BlockStore::<u32, 32, 4, Transpose>::new(&block, &temp)
        .store_window(out.window(&block), blocked);
}

#[test]
fn the_window_witnesses_and_the_striped_stores_have_one_owner_per_element() {
    // The slice's last window is short (a partial store).
    let mut out = vec![0u32; 300];
    for device in [cg_sim::SimDevice::default(), two_workers()] {
        run_on(
            &device,
            &MINE_THEN_STORE,
            &LaunchConfig::new(3, 32),
            (&mut out[..],),
        )
        .unwrap();
        assert!(
            out.iter().enumerate().all(|(i, &v)| v == 1000 + i as u32),
            "{out:?}"
        );
    }
}

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
