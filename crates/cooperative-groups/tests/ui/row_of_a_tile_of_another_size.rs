// Rows under `TileRows<32>` belong to warps: a tile of 16 threads owns
// none of them (two half-warps would each take the warp's row).
use cooperative_groups::prelude::*;
use cooperative_groups::{OwnedPitched, TileRows, kernel};

#[kernel]
pub fn fill(out: OwnedPitched<u32, TileRows<32>>) {
    let half = tiled_partition::<16>(&this_thread_block());
    if let Some(row) = out.row(&half) {
        for e in row.striped() {
            e.store(1);
        }
    }
}

fn main() {}
