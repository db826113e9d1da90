//! A device-wide segmented sum written with the library: the
//! `device_wide` experiment's segmented rows in `cg-lab compare`, against
//! CUB's `DeviceSegmentedReduce::Sum`.
//!
//! [`device_segmented_reduce`] (instances `_i32` and `_f32`) sums
//! each segment `input[offsets[s] .. offsets[s + 1]]` into `out[s]`, for
//! the `offsets.len() − 1` segments (empty segments give zero, as CUB's
//! sum with its initial value 0). One block of [`SEG_BLOCK`] threads per
//! segment, as CUB's segmented reduce: each thread sums its elements of
//! the segment in a block-stride loop with four independent sums in
//! flight, the block reduces the threads' sums
//! ([`reduce`] on the sized block), and its
//! leader (thread 0) stores the block's one element of `out`, the window
//! of [`OwnedSlice`] it owns. Typed parameters: the launch is safe;
//! offsets that decrease or pass the input's end stop the kernel with a
//! bounds failure, not a wild read.

use cooperative_groups::prelude::*;
use cooperative_groups::{GlobalSlice, OwnedSlice, PerBlock, Pod, kernel};

use crate::device_wide::Elem;

/// Threads per block (one block per segment).
pub const SEG_BLOCK: u32 = 256;

/// Sums each segment `input[offsets[s] .. offsets[s + 1]]` into `out[s]`
/// (`i32` wrapping): launch one block of [`SEG_BLOCK`] threads per
/// segment (`out.len()` = `offsets.len() − 1` blocks). Instances
/// `device_segmented_reduce_i32` and `device_segmented_reduce_f32`,
/// declared with `launch_bounds(256)` (`SEG_BLOCK`): a larger block is
/// refused at launch.
#[kernel(instances(i32, f32), launch_bounds(256))]
pub fn device_segmented_reduce<T: Elem + Pod>(
    input: GlobalSlice<T>,
    offsets: GlobalSlice<u32>,
    out: OwnedSlice<T, PerBlock<1>>,
) {
    let block = this_thread_block().with_threads::<SEG_BLOCK>();
    if out.window(&block).is_empty() {
        // A block past the last segment (none in a launch of one block
        // per segment): the whole block returns.
        return;
    }
    let s = block.group_index().x as usize;
    let (begin, end) = (offsets.load(s) as usize, offsets.load(s + 1) as usize);
    let seg = &input.as_slice()[begin..end];
    const B: usize = SEG_BLOCK as usize;
    let mut acc = [T::default(); 4];
    let mut i = block.thread_rank() as usize;
    while i + 3 * B < seg.len() {
        acc[0] = acc[0].add(seg[i]);
        acc[1] = acc[1].add(seg[i + B]);
        acc[2] = acc[2].add(seg[i + 2 * B]);
        acc[3] = acc[3].add(seg[i + 3 * B]);
        i += 4 * B;
    }
    while i < seg.len() {
        acc[0] = acc[0].add(seg[i]);
        i += B;
    }
    let part = (acc[0].add(acc[1])).add(acc[2].add(acc[3]));
    let total = reduce(&block, part, |a: T, b: T| a.add(b));
    if let Some(mine) = out.leader(&block) {
        mine.store(total);
    }
}

/// The host model: each segment's sum (`add` in index order) into
/// `out[s]`, for the tests and the lab's checks.
pub fn segmented_model<T: Elem>(input: &[T], offsets: &[u32], out: &mut [T]) {
    for (o, w) in out.iter_mut().zip(offsets.windows(2)) {
        *o = input[w[0] as usize..w[1] as usize]
            .iter()
            .fold(T::default(), |a, &x| a.add(x));
    }
}
