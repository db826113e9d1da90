// A simulator region is what the simulator trusts a launch's typed accesses
// to touch: safe code cannot forge one (its fields are private).
fn main() {
    let freed = vec![0u32; 16];
    let addr = freed.as_ptr() as usize;
    drop(freed);
    let _forged = cg_sim::Region {
        name: "freed",
        addr,
        bytes: 64,
        elem: 4,
        writable: true,
    };
}
