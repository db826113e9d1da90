// Under `TileRows<32, 4>` a lane owns four consecutive elements at a time,
// not every 32nd: the element-striped walk of `TileRows<32>` does not exist
// for it (its elements come from `striped_vec` and `tail`).
use cooperative_groups::prelude::*;
use cooperative_groups::{OwnedPitched, TileRows, kernel};

#[kernel]
pub fn fill(out: OwnedPitched<f32, TileRows<32, 4>>) {
    let warp = tiled_partition::<32>(&this_thread_block());
    if let Some(row) = out.row(&warp) {
        for e in row.striped() {
            e.store(1.0);
        }
    }
}

fn main() {}
