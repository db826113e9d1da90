// A thread's `Chunked<N>` chunk is its N contiguous elements (blocked): a
// `Striped` store writes element `r + 32 · i` instead, another thread's.
// Only the blocked stores (`Direct`, `Vectorize`) take a chunk.
use cooperative_groups::prelude::*;
use cooperative_groups::primitives::{BlockStore, Striped};
use cooperative_groups::{Chunked, OwnedSlice, kernel};

#[kernel]
pub fn striped_into_chunks(out: OwnedSlice<u32, Chunked<4>>) {
    let block = this_thread_block().with_threads::<32>();
    BlockStore::<u32, 32, 4, Striped>::without_storage(&block)
        .store_chunk(out.chunk(&this_grid()), [0; 4]);
}

fn main() {}
