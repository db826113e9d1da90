// Under `TileRows<32>` element `x` of a row belongs to lane `x mod 32`, so
// four consecutive elements belong to four lanes: a row of that partition
// has no vector view (`TileRows<32, 4>` makes a lane own four in a row).
use cooperative_groups::prelude::*;
use cooperative_groups::vector::F32x4;
use cooperative_groups::{OwnedPitched, TileRows, kernel};

#[kernel]
pub fn fill(out: OwnedPitched<f32, TileRows<32>>) {
    let warp = tiled_partition::<32>(&this_thread_block());
    if let Some(row) = out.row(&warp) {
        for v in row.striped_vec() {
            v.store(F32x4::splat(1.0));
        }
    }
}

fn main() {}
