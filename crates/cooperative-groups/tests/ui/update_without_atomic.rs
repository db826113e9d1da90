// reduce_update_async needs an operator with a hardware atomic on the type:
// there is no atomic min on f32.
use cooperative_groups::atomic::AtomicRef;
use cooperative_groups::prelude::*;
use cooperative_groups::reduce_update_async;

fn update(tile: &ThreadBlockTile<32>, dst: &mut f32, v: f32) {
    let dst = AtomicRef::<f32>::from_mut(dst);
    reduce_update_async(tile, &dst, v, Less);
}

fn main() {}
