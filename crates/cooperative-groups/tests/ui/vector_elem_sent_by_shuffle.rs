// A vector witness names the calling lane's own `V` elements: it cannot
// travel to another lane through a shuffle (it is no `ShflValue`).
use cooperative_groups::prelude::*;
use cooperative_groups::vector::F32x4;
use cooperative_groups::{OwnedPitched, TileRows, kernel};

#[kernel]
pub fn fill(out: OwnedPitched<f32, TileRows<32, 4>>) {
    let warp = tiled_partition::<32>(&this_thread_block());
    if let Some(row) = out.row(&warp) {
        for v in row.striped_vec() {
            let other = warp.shfl(v, 0);
            other.store(F32x4::splat(1.0));
        }
    }
}

fn main() {}
