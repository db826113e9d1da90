//! binaryPartitionCG: each warp splits into its odd and its even elements
//! with `binary_partition`, reduces each part, and one thread per part adds
//! the part's count and sum to the global totals.
#![no_std]
#![cfg_attr(
    target_arch = "nvptx64",
    feature(abi_gpu_kernel, asm_experimental_arch)
)]

use cooperative_groups::atomic::Relaxed;
use cooperative_groups::prelude::*;
use cooperative_groups::{AtomicSlice, GlobalSlice, kernel, sync};

/// Grid-stride over `input`: `num_odds[0]` counts the odd elements,
/// `sums[0]` sums them, `sums[1]` sums the even ones (atomics: every warp's
/// parts add into the same words). The input's length and the grid's thread
/// count are multiples of 32 (whole warps iterate together, as the
/// warp-wide partition needs).
#[kernel]
pub fn odd_even_count_and_sum(
    input: GlobalSlice<i32>,
    num_odds: AtomicSlice<i32>,
    sums: AtomicSlice<i32>,
) {
    let block = this_thread_block();
    let grid = this_grid();
    let tile32 = tiled_partition::<32>(&block);
    let mut i = grid.thread_rank() as usize;
    while i < input.len() {
        let elem = input.load(i);
        let odd = elem & 1 != 0;
        let part = binary_partition(&tile32, odd);
        let part_sum = reduce(&part, elem, Plus);
        if part.thread_rank() == 0 {
            if odd {
                num_odds.at(0).red_add(part.num_threads() as i32, Relaxed);
                sums.at(0).red_add(part_sum, Relaxed);
            } else {
                sums.at(1).red_add(part_sum, Relaxed);
            }
        }
        // The two parts meet again before the next coalesced load.
        sync(&tile32);
        i += grid.num_threads() as usize;
    }
}
