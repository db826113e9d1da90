// A thread tile comes only from the thread's identity: its fields are
// private, so no kernel can aim one at another thread's elements.
use cooperative_groups::global::ThreadTile;

fn forge<'a>(p: *mut f32) -> ThreadTile<'a, f32, 8, 8> {
    ThreadTile { ptr: p, pitch: 8, x0: 0, y0: 0, rows: 8, cols: 8, _owner: core::marker::PhantomData }
}

fn main() {}
