//! The block layer of the primitives: the whole block of `BLOCK` threads
//! (CUB's `BLOCK_DIM_X`, a type parameter here too: a primitive takes the
//! [`ThreadBlock<BLOCK>`](crate::ThreadBlock) that
//! [`with_threads::<BLOCK>()`](crate::ThreadBlock::with_threads) makes).
//! Built on the warp layer (the warp-striped exchanges are
//! [`WarpExchange`](super::WarpExchange)s in each warp's part of the
//! block's storage, [`WarpTranspose`](super::WarpTranspose) loads are
//! [`WarpLoad`](super::WarpLoad)s, the block merge sort starts with the
//! warp merge sort's passes) and on the library's block collectives.

pub(crate) mod adjacent_difference;
pub(crate) mod discontinuity;
pub(crate) mod exchange;
pub(crate) mod histogram;
pub(crate) mod load;
pub(crate) mod merge_sort;
pub(crate) mod radix_rank;
pub(crate) mod radix_sort;
pub(crate) mod reduce;
pub(crate) mod run_length_decode;
pub(crate) mod scan;
pub(crate) mod shuffle;
pub(crate) mod store;

use crate::arch;
use crate::group::ThreadBlock;
use crate::group::violation;
use crate::primitives::warp::Lanes;

/// The caller's rank in a block that must have `BLOCK` threads: a
/// constant check for a block from `with_threads::<BLOCK>()`, one compare
/// for one from `with_max_threads::<BLOCK>()`.
#[inline(always)]
#[track_caller]
pub(crate) fn rank_of<const BLOCK: u32>(block: &ThreadBlock<BLOCK>) -> u32 {
    const { assert!(BLOCK >= 1 && BLOCK <= 1024, "a block has 1 to 1024 threads") };
    if block.num_threads() != BLOCK {
        violation!(
            "a primitive of a {BLOCK}-thread block runs in a block of {} threads",
            block.num_threads()
        );
    }
    block.thread_rank()
}

/// `__syncthreads()`: `bar.sync 0`.
#[inline(always)]
#[track_caller]
pub(crate) fn sync() {
    arch::sync_threads()
}

/// The caller's warp of a block whose size is a multiple of 32 (every
/// warp full, so its `bar.warp.sync` mask is the constant `-1`).
#[inline(always)]
pub(crate) fn full_warp(rank: u32) -> Lanes {
    Lanes {
        rank: rank & 31,
        mask: u32::MAX,
    }
}
