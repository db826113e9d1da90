//! The 16-bit float kernels on the simulator, through `cg-runtime`'s
//! simulator backend with host buffers of `half::bf16`:
//!
//! * `sem_half` (the semantic differential's case, pending a GPU run)
//!   against a model of what NVIDIA's C++ twin computes: `cg::reduce`'s
//!   butterfly (`op(own, partner)`), `cg::inclusive_scan`'s up-shuffles,
//!   and for the two-warp tile the partner warp's partial / total, with
//!   the `half` crate's `+` (an `f32` add rounded to nearest even: what
//!   `cuda_bf16.hpp`'s host `__hadd` computes) — no code of the library's
//!   arithmetic.
//! * `bf16_block_sums`: a `GlobalSlice<bf16>` and an `OwnedSlice<bf16,
//!   PerBlock>` launched with `Buffer<bf16>`s.

use cg_kernels::narrow::BF16_BLOCK_SUMS;
use cg_kernels::semantics::{SEM_HALF, SEM_WORDS};
use cg_runtime::{Backend, LaunchConfig};
use cooperative_groups::{bf16, f16};

/// The input of thread `g` (as `semantics.rs` and `semantics.cu`).
fn input(g: u32) -> f32 {
    let m = (g.wrapping_mul(2_654_435_761) >> 8) % 1000;
    let e = (g % 5) as i32 - 2;
    (m as f32 / 7.0 - 60.0) * 2f32.powi(e)
}

/// `cg::reduce` on tiles of `n` (≤ 32): the butterfly, `op(own, partner)`.
fn tile_reduce<T: Copy>(v: &[T], n: usize, op: impl Fn(T, T) -> T) -> Vec<T> {
    let mut v = v.to_vec();
    let mut d = n / 2;
    while d > 0 {
        v = (0..v.len()).map(|i| op(v[i], v[i ^ d])).collect();
        d /= 2;
    }
    v
}

/// `cg::inclusive_scan` on tiles of `n` (≤ 32): `op(own, lower)` for
/// ranks at least `d`.
fn tile_scan<T: Copy>(v: &[T], n: usize, op: impl Fn(T, T) -> T) -> Vec<T> {
    let mut v = v.to_vec();
    let mut d = 1;
    while d < n {
        v = (0..v.len())
            .map(|i| if i % n >= d { op(v[i], v[i - d]) } else { v[i] })
            .collect();
        d *= 2;
    }
    v
}

/// What `cpp_sem_half` writes, word by word, for a launch of `grid` blocks
/// of `block` threads.
fn model(grid: u32, block: u32) -> Vec<u32> {
    let n = (grid * block) as usize;
    let x: Vec<f32> = (0..n as u32).map(input).collect();
    let v: Vec<bf16> = x.iter().map(|&x| bf16::from_f32(x)).collect();
    let h: Vec<f16> = x.iter().map(|&x| f16::from_f32(x)).collect();
    let add = |a: bf16, b: bf16| a + b;
    let addh = |a: f16, b: f16| a + b;
    // The two-warp tile: each warp's butterfly, then the partner warp's
    // partial added (commutative, so either order); the scan: the second
    // warp adds the first warp's total.
    let w = tile_reduce(&v, 32, add);
    let ws = tile_scan(&v, 32, add);
    let wh = tile_reduce(&h, 32, addh);
    let t64 = |i: usize| {
        let first = i / 64 * 64;
        add(w[first], w[first + 32])
    };
    let t64h = |i: usize| {
        let first = i / 64 * 64;
        addh(wh[first], wh[first + 32])
    };
    let s64 = |i: usize| {
        if i % 64 < 32 {
            ws[i]
        } else {
            add(ws[i], ws[i / 64 * 64 + 31])
        }
    };
    // The pair: element y is -x · 0.75.
    let y: Vec<bf16> = x.iter().map(|&x| bf16::from_f32(-x * 0.75)).collect();
    let wy = tile_reduce(&y, 32, add);
    let r8 = tile_reduce(&v, 8, add);
    let s8 = tile_scan(&v, 8, add);
    let min = tile_reduce(&v, 32, |a, b| if b < a { b } else { a });
    let max = tile_reduce(&v, 32, |a, b| if a < b { b } else { a });
    let sh = tile_scan(&h, 32, addh);
    let b = |x: bf16| x.to_bits() as u32;
    let mut out = vec![0u32; n * SEM_WORDS];
    for i in 0..n {
        let exc = if i % 32 == 0 { 0 } else { b(ws[i - 1]) };
        let words = [
            b(r8[i]),
            b(s8[i]),
            b(w[i]),
            b(ws[i]),
            exc,
            b(min[i]),
            b(max[i]),
            b(t64(i)),
            b(s64(i)),
            wh[i].to_bits() as u32,
            sh[i].to_bits() as u32,
            t64h(i).to_bits() as u32,
            b(w[i]) | b(wy[i]) << 16,
            b(v[i]),
        ];
        out[i * SEM_WORDS..i * SEM_WORDS + words.len()].copy_from_slice(&words);
    }
    out
}

#[test]
fn sem_half_is_what_the_cpp_twin_computes() {
    let sim = Backend::sim();
    for block in [64u32, 128] {
        let grid = 2;
        let mut out = sim
            .alloc::<u32>((grid * block) as usize * SEM_WORDS)
            .unwrap();
        out.zero().unwrap();
        // SAFETY: the kernel writes SEM_WORDS words per thread of the grid.
        unsafe {
            sim.launch_unchecked(
                &SEM_HALF,
                &LaunchConfig::linear(grid, block),
                (out.as_ptr(),),
            )
        }
        .unwrap();
        let got = out.to_vec().unwrap();
        let want = model(grid, block);
        for (i, (g, w)) in got.iter().zip(&want).enumerate() {
            assert_eq!(
                g,
                w,
                "block {block}: thread {}, word {}",
                i / SEM_WORDS,
                i % SEM_WORDS
            );
        }
    }
}

/// The inputs round: the tile of 32's sum differs from a left-to-right
/// sum somewhere, so the model's order matters.
#[test]
fn sem_half_inputs_round() {
    let v: Vec<bf16> = (0..64).map(|g| bf16::from_f32(input(g))).collect();
    let tree = tile_reduce(&v, 32, |a, b| a + b);
    let seq = v[1..32].iter().fold(v[0], |a, &b| a + b);
    assert_ne!(tree[0].to_bits(), seq.to_bits());
}

#[test]
fn bf16_buffers_are_kernel_arguments() {
    let sim = Backend::sim();
    let data: Vec<bf16> = (0..384).map(|g| bf16::from_f32(input(g))).collect();
    let x = sim.upload(&data).unwrap();
    let mut sums = sim.alloc::<bf16>(3).unwrap();
    sim.launch(
        &BF16_BLOCK_SUMS,
        &LaunchConfig::linear(3, 128),
        (&x, &mut sums),
    )
    .unwrap();
    let got = sums.to_vec().unwrap();
    // Each warp's butterfly, then the four warp partials in warp order,
    // from the identity +0.
    let w = tile_reduce(&data, 32, |a, b| a + b);
    for (blk, s) in got.iter().enumerate() {
        let want = (0..4).fold(bf16::ZERO, |acc, k| acc + w[blk * 128 + k * 32]);
        assert_eq!(s.to_bits(), want.to_bits(), "block {blk}");
    }
}
