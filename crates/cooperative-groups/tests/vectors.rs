//! Aligned vectors (`cooperative_groups::vector`) on the simulator: a
//! read-only slice split by `align_to` at every start and length covers
//! each element exactly once, in order; vectors through shared memory, an
//! owned output and a shuffle keep every lane.

use cooperative_groups::host::run;
use cooperative_groups::prelude::*;
use cooperative_groups::vector::{F32x4, U16x8, Vector};
use cooperative_groups::{GlobalSlice, OwnedSlice, kernel, shared_array};

/// Each thread `t` copies element `t` of the concatenation head ++ body
/// (lane by lane) ++ tail of `x.align_to::<4>()` to `out[t]`, and writes the
/// three lengths into `lens` (thread 0).
#[kernel]
fn split_u32(x: GlobalSlice<u32>, out: OwnedSlice<u32>, lens: OwnedSlice<u32>) {
    let (head, body, tail) = x.align_to::<4>();
    let Some(e) = out.at(&this_grid()) else {
        return;
    };
    let i = e.index();
    let v = if i < head.len() {
        head.load(i)
    } else if i < head.len() + 4 * body.len() {
        let k = i - head.len();
        body.load(k / 4)[k % 4]
    } else {
        tail.load(i - head.len() - 4 * body.len())
    };
    e.store(v);
    if i < 3 {
        let l = [head.len(), body.len(), tail.len()][i];
        if let Some(l_e) = lens.at(&this_grid()) {
            l_e.store(l as u32);
        }
    }
}

#[test]
fn align_to_covers_every_element_once_at_every_start_and_length() {
    let data: Vec<u32> = (0..80).map(|i| i * 7 + 1).collect();
    // The buffer's own alignment, in elements past a 16-byte boundary.
    let skew = (data.as_ptr() as usize % 16) / 4;
    for start in 0..8 {
        for len in 3..40 {
            let x = &data[start..start + len];
            let mut out = vec![0u32; len];
            let mut lens = vec![0u32; 3];
            let cfg = cg_sim::LaunchConfig::new(1, len as u32);
            run(&SPLIT_U32, &cfg, (x, &mut out[..], &mut lens[..])).unwrap();
            assert_eq!(out, x, "start {start}, len {len}");
            let head = ((4 - (skew + start) % 4) % 4).min(len);
            let body = (len - head) / 4;
            assert_eq!(
                lens,
                [head as u32, body as u32, (len - head - 4 * body) as u32],
                "start {start}, len {len}"
            );
        }
    }
}

/// Vectors staged in shared memory, exchanged between neighbours, shuffled
/// across a tile of 8 and stored to owned vector elements.
#[kernel]
fn exchange(x: GlobalSlice<F32x4>, out: OwnedSlice<F32x4>, halves: OwnedSlice<U16x8>) {
    let block = this_thread_block();
    let tile = tiled_partition::<8>(&block);
    let stage = shared_array!(F32x4; 64);
    let t = block.thread_rank() as usize;
    let v = x.load(t);
    stage.store(t, v);
    block.sync();
    let neighbour = stage.load(t ^ 1);
    let from_next = tile.shfl(v, (tile.thread_rank() + 1) % 8);
    if let Some(e) = out.at(&this_grid()) {
        e.store(neighbour + from_next);
    }
    if let Some(e) = halves.at(&this_grid()) {
        let h = t as u16;
        e.store(U16x8::new([
            h,
            h + 1,
            h + 2,
            h + 3,
            h + 4,
            h + 5,
            h + 6,
            h + 7,
        ]));
    }
}

#[test]
fn vectors_through_shared_memory_shuffles_and_owned_elements() {
    let x: Vec<F32x4> = (0..64)
        .map(|i| {
            let f = i as f32;
            Vector::new([f, f + 0.25, f + 0.5, f + 0.75])
        })
        .collect();
    let mut out = vec![F32x4::default(); 64];
    let mut halves = vec![U16x8::default(); 64];
    let cfg = cg_sim::LaunchConfig::new(1, 64);
    run(&EXCHANGE, &cfg, (&x[..], &mut out[..], &mut halves[..])).unwrap();
    for t in 0..64 {
        let next = (t / 8) * 8 + (t % 8 + 1) % 8;
        assert_eq!(out[t], x[t ^ 1] + x[next], "thread {t}");
        assert_eq!(halves[t][7], t as u16 + 7);
    }
}
