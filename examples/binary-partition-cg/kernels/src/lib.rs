//! binaryPartitionCG: each warp splits into its odd and its even elements
//! with `binary_partition`, reduces each part, and one thread per part adds
//! the part's count and sum to the global totals.
#![no_std]
#![cfg_attr(
    target_arch = "nvptx64",
    feature(abi_gpu_kernel, asm_experimental_arch)
)]

use cooperative_groups::atomic::atomic_add;
use cooperative_groups::prelude::*;
use cooperative_groups::{kernel, sync};

/// Grid-stride over `input[..size]`: `num_odds[0]` counts the odd
/// elements, `sums[0]` sums them, `sums[1]` sums the even ones. `size` and
/// the grid's thread count are multiples of 32 (whole warps iterate
/// together, as the warp-wide partition needs).
#[kernel]
pub fn odd_even_count_and_sum(input: *const i32, num_odds: *mut i32, sums: *mut i32, size: u32) {
    let block = this_thread_block();
    let grid = this_grid();
    let tile32 = tiled_partition::<32>(&block);
    let mut i = grid.thread_rank();
    while i < size as u64 {
        // SAFETY: i < size, the length of `input`.
        let elem = unsafe { *input.add(i as usize) };
        let odd = elem & 1 != 0;
        let part = binary_partition(&tile32, odd);
        let part_sum = reduce(&part, elem, Plus);
        if part.thread_rank() == 0 {
            // SAFETY: `num_odds` has one word and `sums` two.
            unsafe {
                if odd {
                    atomic_add(num_odds, part.num_threads() as i32);
                    atomic_add(sums, part_sum);
                } else {
                    atomic_add(sums.add(1), part_sum);
                }
            }
        }
        // The two parts meet again before the next coalesced load.
        sync(&tile32);
        i += grid.num_threads();
    }
}
