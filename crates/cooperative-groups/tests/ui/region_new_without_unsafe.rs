// `Region::new` vouches for the memory for every launch the region is
// passed to: an `unsafe` promise.
fn main() {
    let data = vec![0u32; 16];
    let _region = cg_sim::Region::new("data", data.as_ptr() as usize, 64, 4, true);
    let _host = cooperative_groups::host::region("data", data.as_ptr(), data.len(), false);
}
