//! `GridGroup::reduce`, `inclusive_scan` and `exclusive_scan` on the
//! simulator against a sequential model: random grid shapes (1–2
//! dimensions) and block sizes (1 thread to 8 warps, partial warps
//! included), every operator, `i32`, `u32`, `i64`, `u64`, `f32`, `f64`.
//! Each launch runs the three collectives back to back (and a second
//! reduction), so the global scratch's two halves alternate and the race
//! detector checks every store and load of the scratch against the grid
//! barriers. A launch that is not cooperative is reported.

use cg_sim::{Dim3, LaunchConfig, SimDevice};
use cooperative_groups::prelude::*;
use cooperative_groups::this_grid;
use cooperative_groups::{ReduceOp, ShflValue};

/// A small deterministic generator (xorshift64*).
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }
    fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
}

/// Test values: integers from random bits, floats from small integers
/// (sums of a few thousand of them are exact, so the model's order and the
/// grid's agree bit for bit).
trait Elem: ShflValue + PartialEq + std::fmt::Debug + Send + Sync + 'static {
    fn random(r: &mut Rng) -> Self;
}

macro_rules! int_elem {
    ($($t:ty),*) => {$(
        impl Elem for $t {
            fn random(r: &mut Rng) -> Self {
                r.next() as $t
            }
        }
    )*};
}
int_elem!(i32, u32, i64, u64);

impl Elem for f32 {
    fn random(r: &mut Rng) -> Self {
        r.below(17) as f32 - 8.0
    }
}

impl Elem for f64 {
    fn random(r: &mut Rng) -> Self {
        r.below(17) as f64 - 8.0
    }
}

/// A random launch shape: (grid, block threads).
fn shape(r: &mut Rng) -> (Dim3, u32) {
    const BLOCKS: [u32; 8] = [1, 7, 32, 33, 64, 96, 128, 256];
    let block = BLOCKS[r.below(BLOCKS.len() as u64) as usize];
    let gx = 1 + r.below(4) as u32;
    let gy = 1 + r.below(2) as u32;
    (Dim3 { x: gx, y: gy, z: 1 }, block)
}

fn device() -> SimDevice {
    SimDevice {
        stack_size: 4 << 20,
        ..Default::default()
    }
}

/// Runs the collectives over `inputs` (one per thread, in grid rank order);
/// returns per thread (reduce, inclusive, exclusive, reduce of the
/// inclusive results).
fn run<T: Elem, Op: ReduceOp<T> + 'static>(
    cfg: &LaunchConfig,
    inputs: &[T],
    op: Op,
) -> Result<Vec<[T; 4]>, cg_sim::SimError> {
    let mut out: Vec<[T; 4]> = vec![[inputs[0]; 4]; inputs.len()];
    let p = out.as_mut_ptr() as usize;
    cg_sim::launch_on(&device(), cfg, &|| {
        let grid = this_grid();
        let r = grid.thread_rank() as usize;
        let v = inputs[r];
        let red = grid.reduce(v, op);
        let inc = grid.inclusive_scan(v, op);
        let exc = grid.exclusive_scan(v, op);
        let red2 = grid.reduce(inc, op);
        // SAFETY: one slot per thread of the grid, written by that thread only.
        unsafe { *(p as *mut [T; 4]).add(r) = [red, inc, exc, red2] };
    })?;
    Ok(out)
}

/// The sequential model of `run`.
fn model<T: Elem, Op: ReduceOp<T>>(inputs: &[T], op: Op) -> Vec<[T; 4]> {
    let total = inputs[1..].iter().fold(inputs[0], |a, &b| op.combine(a, b));
    let mut inc = Vec::with_capacity(inputs.len());
    let mut acc: Option<T> = None;
    for &x in inputs {
        let next = acc.map_or(x, |a| op.combine(a, x));
        inc.push(next);
        acc = Some(next);
    }
    let total2 = inc[1..].iter().fold(inc[0], |a, &b| op.combine(a, b));
    (0..inputs.len())
        .map(|i| {
            let exc = if i == 0 { op.identity() } else { inc[i - 1] };
            [total, inc[i], exc, total2]
        })
        .collect()
}

/// `cases` random launches of `op` over `T`, each against the model.
fn check<T: Elem, Op: ReduceOp<T> + std::fmt::Debug + 'static>(seed: u64, cases: u32, op: Op) {
    let mut r = Rng(seed);
    for _ in 0..cases {
        let (grid, block) = shape(&mut r);
        let n = (grid.volume() * block as u64) as usize;
        let inputs: Vec<T> = (0..n).map(|_| T::random(&mut r)).collect();
        let cfg = LaunchConfig::new(grid, block).with_cooperative(true);
        let got =
            run(&cfg, &inputs, op).unwrap_or_else(|e| panic!("grid {grid} block {block}: {e}"));
        let want = model(&inputs, op);
        for (i, (g, w)) in got.iter().zip(&want).enumerate() {
            assert_eq!(
                g,
                w,
                "{op:?} on {}: grid {grid}, block {block}, thread {i}: [reduce, inclusive, exclusive, reduce of inclusive]",
                std::any::type_name::<T>()
            );
        }
    }
}

macro_rules! int_tests {
    ($($name:ident: $t:ty, $seed:expr;)*) => {$(
        #[test]
        fn $name() {
            check::<$t, _>($seed, 2, Plus);
            check::<$t, _>($seed + 1, 1, Less);
            check::<$t, _>($seed + 2, 1, Greater);
            check::<$t, _>($seed + 3, 1, BitAnd);
            check::<$t, _>($seed + 4, 1, BitOr);
            check::<$t, _>($seed + 5, 1, BitXor);
        }
    )*};
}

int_tests! {
    every_op_on_i32: i32, 0x1001;
    every_op_on_u32: u32, 0x2002;
    every_op_on_i64: i64, 0x3003;
    every_op_on_u64: u64, 0x4004;
}

#[test]
fn every_op_on_f32() {
    check::<f32, _>(0x5005, 2, Plus);
    check::<f32, _>(0x5006, 1, Less);
    check::<f32, _>(0x5007, 1, Greater);
}

#[test]
fn every_op_on_f64() {
    check::<f64, _>(0x6006, 2, Plus);
    check::<f64, _>(0x6007, 1, Less);
    check::<f64, _>(0x6008, 1, Greater);
}

/// A float sum in an order that is not left to right is still the same
/// bits in every thread (all blocks fold the block totals in one order).
#[test]
fn float_sums_agree_in_every_thread() {
    let mut r = Rng(0x7007);
    let (grid, block) = (Dim3 { x: 5, y: 1, z: 1 }, 96);
    let n = 5 * 96;
    let inputs: Vec<f32> = (0..n)
        .map(|_| (r.next() >> 40) as f32 * 1e-3 + 0.1)
        .collect();
    let cfg = LaunchConfig::new(grid, block).with_cooperative(true);
    let got = run(&cfg, &inputs, Plus).unwrap();
    let exact: f64 = inputs.iter().map(|&x| x as f64).sum();
    for g in &got {
        assert_eq!(g[0].to_bits(), got[0][0].to_bits());
    }
    assert!(((got[0][0] as f64) - exact).abs() <= 1e-5 * exact);
}

#[test]
fn a_launch_that_is_not_cooperative_is_reported() {
    let cfg = LaunchConfig::new(3, 64);
    let err = run(&cfg, &[1u32; 192], Plus).unwrap_err().to_string();
    assert!(err.contains("cooperative"), "{err}");
}
