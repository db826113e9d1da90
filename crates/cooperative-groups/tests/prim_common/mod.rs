//! What the primitives' tests share: a launch on the simulator and an
//! output buffer the lanes write into.

#![allow(dead_code)]

/// A buffer the simulated lanes write through (each element by one lane).
pub struct Out<T> {
    data: Vec<T>,
}

/// The buffer's address, for the lanes.
#[derive(Clone, Copy)]
pub struct OutPtr<T>(*mut T);
// SAFETY: the simulator runs the lanes of a launch on the launching
// thread; each element is written by one lane.
unsafe impl<T> Sync for OutPtr<T> {}
// SAFETY: as above.
unsafe impl<T> Send for OutPtr<T> {}

impl<T> OutPtr<T> {
    /// Writes element `i`.
    pub fn set(&self, i: usize, v: T) {
        // SAFETY: the tests size their buffers for every index they write.
        unsafe { self.0.add(i).write(v) }
    }
    /// The raw pointer (a store's destination).
    pub fn ptr(&self) -> *mut T {
        self.0
    }
}

impl<T: Copy> Out<T> {
    pub fn new(n: usize, fill: T) -> Self {
        Out {
            data: vec![fill; n],
        }
    }
    pub fn ptr(&mut self) -> OutPtr<T> {
        OutPtr(self.data.as_mut_ptr())
    }
    pub fn into_vec(self) -> Vec<T> {
        self.data
    }
}

/// Runs `kernel` on `blocks` blocks of `block` threads.
pub fn launch(
    blocks: u32,
    block: u32,
    kernel: &dyn Fn(),
) -> Result<cg_sim::LaunchStats, cg_sim::SimError> {
    let dev = cg_sim::SimDevice {
        stack_size: 4 << 20,
        ..Default::default()
    };
    cg_sim::launch_on(&dev, &cg_sim::LaunchConfig::new(blocks, block), kernel)
}

/// Runs `kernel` and fails the test with the simulator's report if the
/// launch fails.
pub fn run(blocks: u32, block: u32, kernel: &dyn Fn()) {
    if let Err(e) = launch(blocks, block, kernel) {
        panic!("{e}");
    }
}

/// Element types of the tests, made from a random word.
pub trait Gen: cooperative_groups::ShflValue + PartialEq + core::fmt::Debug {
    fn make(x: u64) -> Self;
}
impl Gen for u8 {
    fn make(x: u64) -> Self {
        x as u8
    }
}
impl Gen for u16 {
    fn make(x: u64) -> Self {
        x as u16
    }
}
impl Gen for u32 {
    fn make(x: u64) -> Self {
        x as u32
    }
}
impl Gen for i32 {
    fn make(x: u64) -> Self {
        x as i32
    }
}
impl Gen for u64 {
    fn make(x: u64) -> Self {
        x.wrapping_mul(0x9e37_79b9_7f4a_7c15)
    }
}
impl Gen for i64 {
    fn make(x: u64) -> Self {
        x.wrapping_mul(0x9e37_79b9_7f4a_7c15) as i64
    }
}
impl Gen for [u32; 3] {
    fn make(x: u64) -> Self {
        [x as u32, (x >> 32) as u32, x as u32 ^ 0x5555_5555]
    }
}

/// `n` values of `T` from `seeds` (cycled).
pub fn values<T: Gen>(seeds: &[u64], n: usize) -> Vec<T> {
    (0..n)
        .map(|i| T::make(seeds[i % seeds.len()].wrapping_add(i as u64)))
        .collect()
}

/// Runs `kernel` with `smem` bytes of dynamic shared memory (the storage
/// of generic test kernels: `TempStorage::from_dynamic`).
pub fn run_smem(blocks: u32, block: u32, smem: usize, kernel: &dyn Fn()) {
    let dev = cg_sim::SimDevice {
        stack_size: 4 << 20,
        ..Default::default()
    };
    let cfg = cg_sim::LaunchConfig::new(blocks, block).with_dynamic_smem(smem.max(16) as u32);
    if let Err(e) = cg_sim::launch_on(&dev, &cfg, kernel) {
        panic!("{e}");
    }
}

/// `P`'s storage at byte `offset` of the dynamic shared memory.
pub fn dyn_temp<P: cooperative_groups::primitives::NeedsTempStorage>(
    offset: usize,
) -> cooperative_groups::primitives::TempStorage<P> {
    cooperative_groups::primitives::TempStorage::from_dynamic(
        &cooperative_groups::dynamic_shared::<u8>(),
        offset,
    )
}

/// `bytes` rounded up to 16.
pub fn align16(bytes: usize) -> usize {
    bytes.next_multiple_of(16)
}
