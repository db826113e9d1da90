//! Vector ownership and cache hints on the simulator (race detector on):
//! rows under `TileRows<32, 4>` and `BlockRows<2>` written through
//! `Row::striped_vec` and `Row::tail` at every width and pitch (aligned
//! rows, rows a pitch that is not a multiple of the vector makes
//! misaligned, a buffer that starts between two vectors), each element
//! written exactly once and nothing outside the image; `load_vec` at
//! aligned and misaligned starts and past the end; the eviction hints and
//! cache policies leave every value as it is; a `SharedSlice` of vectors.

use cg_sim::{LaunchConfig, SimError};
use cooperative_groups::cache::{
    CachePolicy, Evict, L1NoAllocate, L2EvictFirst, L2EvictLast, Streaming,
};
use cooperative_groups::host::{Image, run};
use cooperative_groups::prelude::*;
use cooperative_groups::vector::{F32x4, U32x2};
use cooperative_groups::{
    BlockRows, GlobalSlice, OwnedPitched, OwnedSlice, Pitched, TileRows, kernel, shared_array,
};

/// `y += 2·x` along each row, a warp per row (grid-stride), four floats
/// per access; the tail by scalars.
#[kernel]
pub fn axpy_rows_vec(x: Pitched<f32>, y: OwnedPitched<f32, TileRows<32, 4>>) {
    let warp = tiled_partition::<32>(&this_thread_block());
    for row in y.row_stride(&warp) {
        let xr = x.row(row.y()).prefix(row.len());
        for v in row.striped_vec() {
            let a = xr.load_vec::<4>(v.x());
            v.update(|old| old + a + a);
        }
        for e in row.tail() {
            e.store(e.load() + 2.0 * xr.load(e.x()));
        }
    }
}

/// Runs [`axpy_rows_vec`] on a `c × rows` image of pitch `pitch`, the
/// output starting `skew` elements into its buffer, and checks every
/// element: inside the image `1 + 2·x`, outside it untouched.
fn check_tile_rows(c: usize, rows: usize, pitch: usize, skew: usize) {
    let x: Vec<f32> = (0..rows * pitch + 1).map(|i| (i % 97) as f32).collect();
    let mut y = vec![1.0f32; skew + rows * pitch];
    let xs = &x[skew % 2..];
    run(
        &AXPY_ROWS_VEC,
        &LaunchConfig::new(2, 64),
        (
            Image::new(&xs[..rows * pitch], c, rows, pitch),
            Image::new(&mut y[skew..], c, rows, pitch),
        ),
    )
    .unwrap_or_else(|e| panic!("c {c}, pitch {pitch}, skew {skew}: {e}"));
    for (i, &v) in y.iter().enumerate() {
        let want = match i.checked_sub(skew) {
            Some(j) if j % pitch < c && j / pitch < rows => 1.0 + 2.0 * xs[j],
            _ => 1.0,
        };
        assert_eq!(v, want, "c {c}, pitch {pitch}, skew {skew}: element {i}");
    }
}

#[test]
fn tile_rows_of_vectors_at_every_width_pitch_and_start() {
    for c in [1usize, 3, 4, 5, 31, 32, 100, 130, 257] {
        for extra in 0..5 {
            for skew in [0usize, 1, 2] {
                check_tile_rows(c, 7, c + extra, skew);
            }
        }
    }
}

/// Block rows of `u32` pairs: each block's threads own the pairs
/// `rank, rank + size, …` of its rows; they store `(x, y)` indices, and
/// record through `elems` whether the pair was one aligned access.
#[kernel]
pub fn block_rows_pairs(y: OwnedPitched<u32, BlockRows<2>>, aligned: OwnedSlice<u32>) {
    let block = this_thread_block();
    for row in y.row_stride(&block) {
        for v in row.striped_vec() {
            let (x, r) = (v.x() as u32, v.y() as u32);
            v.store(U32x2::new([1000 * r + x, 1000 * r + x + 1]));
            assert_eq!(v.elems().count(), 2);
            assert!(v.elems().enumerate().all(|(i, e)| e.x() == v.x() + i));
            if v.x() == 0
                && row.y() == 0
                && let Some(e) = aligned.at(&this_grid())
            {
                e.store(v.is_aligned() as u32);
            }
        }
        for e in row.tail() {
            e.store(1000 * e.y() as u32 + e.x() as u32);
        }
    }
}

#[test]
fn block_rows_of_pairs_aligned_and_not() {
    for (c, pitch, skew, want_aligned) in [
        (9usize, 10usize, 0usize, true),
        (9, 9, 0, true), // row 0 aligned, odd rows not
        (8, 8, 1, false),
        (1, 3, 0, true),
    ] {
        let rows = 5;
        let mut y = vec![u32::MAX; skew + rows * pitch];
        // Thread 0 of the grid owns element 0 of `aligned`: it writes
        // whether row 0's first pair was one access.
        let mut aligned = vec![u32::MAX; 2 * 32];
        run(
            &BLOCK_ROWS_PAIRS,
            &LaunchConfig::new(2, 32),
            (Image::new(&mut y[skew..], c, rows, pitch), &mut aligned[..]),
        )
        .unwrap();
        for (i, &v) in y.iter().enumerate() {
            let want = match i.checked_sub(skew) {
                Some(j) if j % pitch < c => 1000 * (j / pitch) as u32 + (j % pitch) as u32,
                _ => u32::MAX,
            };
            assert_eq!(v, want, "c {c}, pitch {pitch}, skew {skew}: element {i}");
        }
        if c >= 2 {
            // Whichever thread owns row 0's pair 0 (thread 0 of block 0)
            // wrote the flag as its grid element.
            assert_eq!(
                aligned[0], want_aligned as u32,
                "c {c}, pitch {pitch}, skew {skew}"
            );
        }
    }
}

/// `load_vec` at every start of a slice: the lanes are the elements.
#[kernel]
pub fn load_vec_everywhere(x: GlobalSlice<f32>, out: OwnedSlice<F32x4>) {
    for e in out.grid_stride(&this_grid()) {
        let i = e.index();
        let a = x.load_vec::<4>(i);
        let b = x.load_vec_hint::<4, _>(i, Streaming);
        let c = x.load_vec_hint::<4, _>(i, CachePolicy::evict_last());
        assert_eq!(a, b);
        assert_eq!(a, c);
        e.store(a);
    }
}

#[test]
fn load_vec_at_aligned_and_misaligned_starts() {
    let x: Vec<f32> = (0..64).map(|i| i as f32 * 0.5).collect();
    for skew in 0..4 {
        let xs = &x[skew..];
        let n = xs.len() - 3;
        let mut out = vec![F32x4::default(); n];
        run(
            &LOAD_VEC_EVERYWHERE,
            &LaunchConfig::new(1, 32),
            (xs, &mut out[..]),
        )
        .unwrap();
        for (i, v) in out.iter().enumerate() {
            assert_eq!(
                v.to_array(),
                [xs[i], xs[i + 1], xs[i + 2], xs[i + 3]],
                "skew {skew}"
            );
        }
    }
}

/// Reads the vector that starts at the slice's last element.
#[kernel]
pub fn load_vec_past_the_end(x: GlobalSlice<f32>, out: OwnedSlice<F32x4>) {
    if let Some(e) = out.at(&this_grid()) {
        e.store(x.load_vec::<4>(x.len() - 1)); // three lanes past the end
    }
}

#[test]
fn load_vec_past_the_end_is_reported() {
    let x = [1.0f32; 8];
    let mut out = [F32x4::default(); 1];
    match run(
        &LOAD_VEC_PAST_THE_END,
        &LaunchConfig::new(1, 1),
        (&x[..], &mut out[..]),
    ) {
        Err(SimError::OutOfBounds(rep)) => {
            let s = rep.to_string();
            assert!(s.contains("vector_rows.rs"), "{s}");
        }
        other => panic!("expected an out-of-bounds report, got {other:?}"),
    }
}

/// The same update with every hint and policy: `y = a·x + y`, the values
/// exactly those of the unhinted form (the simulator has no caches).
#[kernel]
pub fn hinted_axpy(a: f32, x: GlobalSlice<f32>, y: OwnedSlice<f32>) {
    let x = x.prefix(y.len());
    let keep = CachePolicy::evict_last();
    let once = CachePolicy::fractional(Evict::First, 0.5);
    let normal = CachePolicy::evict_normal();
    let first = CachePolicy::evict_first();
    for e in y.grid_stride(&this_grid()) {
        let i = e.index();
        let v = match i % 4 {
            0 => a * x.load_hint(i, L2EvictLast) + e.load_hint(L1NoAllocate),
            1 => a * x.load_hint(i, L1NoAllocate) + e.load_hint(L2EvictFirst),
            2 => a * x.load_hint(i, keep) + e.load_hint(once),
            _ => a * x.load_hint(i, L2EvictFirst) + e.load_hint(normal),
        };
        match i % 5 {
            0 => e.store_hint(v, L2EvictFirst),
            1 => e.store_hint(v, L2EvictLast),
            2 => e.store_hint(v, L1NoAllocate),
            3 => e.store_hint(v, first),
            _ => e.store_hint(v, keep),
        }
    }
}

#[test]
fn eviction_hints_and_policies_change_no_value() {
    let x: Vec<f32> = (0..1000).map(|i| i as f32).collect();
    let mut y: Vec<f32> = (0..1000).map(|i| (i % 7) as f32).collect();
    run(
        &HINTED_AXPY,
        &LaunchConfig::new(3, 64),
        (3.0f32, &x[..], &mut y[..]),
    )
    .unwrap();
    for (i, &v) in y.iter().enumerate() {
        assert_eq!(v, 3.0 * i as f32 + (i % 7) as f32, "element {i}");
    }
}

/// A `SharedSlice<F32x4>` (a slice of a shared array, and a sub-slice of
/// it): each thread stores its vector, and reads its neighbour's after the
/// barrier.
#[kernel]
pub fn shared_slice_vectors(x: GlobalSlice<F32x4>, out: OwnedSlice<F32x4>) {
    let block = this_thread_block();
    let arr = shared_array!(F32x4; 80);
    let s = arr.slice(8, 64);
    let t = block.thread_rank() as usize;
    let Some(e) = out.at(&this_grid()) else {
        return;
    };
    s.store(t, x.load(e.index()));
    block.sync();
    let n = s.slice(32, 32);
    let other = if t < 32 { n.load(t) } else { s.load(t - 32) };
    e.store(other + arr.load(8 + t));
}

#[test]
fn shared_slices_of_vectors_keep_every_lane() {
    let x: Vec<F32x4> = (0..64)
        .map(|i| F32x4::new([i as f32, 1.0, -(i as f32), 0.25]))
        .collect();
    let mut out = vec![F32x4::default(); 64];
    run(
        &SHARED_SLICE_VECTORS,
        &LaunchConfig::new(1, 64),
        (&x[..], &mut out[..]),
    )
    .unwrap();
    for (t, v) in out.iter().enumerate() {
        let o = if t < 32 { t + 32 } else { t - 32 };
        assert_eq!(*v, x[o] + x[t], "thread {t}");
    }
}
