// A store cannot have acquire semantics (PTX has no `st.acquire`).
use cooperative_groups::atomic::{Acquire, AtomicRef, Block};

fn main() {
    let mut x = 0i32;
    let a = AtomicRef::<i32, Block>::from_mut(&mut x);
    a.store(1, Acquire);
}
