// A thread tile comes only from the thread's identity: its fields are
// private, so no kernel can aim one at another thread's elements.
use cooperative_groups::global::ThreadTile;

fn forge<'a>() -> ThreadTile<'a, f32, 8, 8> {
    ThreadTile { s: todo!(), _owner: core::marker::PhantomData }
}

fn main() {}
