// A relaxed fence orders nothing: it does not compile.
use cooperative_groups::atomic::{fence, Device, Relaxed};

fn main() {
    fence(Relaxed, Device);
}
