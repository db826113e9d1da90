// Shared memory holds `Pod` only: an element nobody wrote must be a valid value.
use cooperative_groups::shared_array;

fn main() {
    let a = shared_array!(&'static u32; 1);
    let _ = a.load(0);
}
