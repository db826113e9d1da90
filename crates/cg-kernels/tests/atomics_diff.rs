//! The atomics differential kernels on the simulator: the contended words
//! against their closed forms (which the GPU and the C++ twin must also
//! produce), and the private words' compare-and-swap outcomes and wraps.

use cg_kernels::atomics::{ATOMIC_CONTENDED, ATOMIC_PRIVATE, ATOMIC_WORDS};

fn run(k: cooperative_groups::Kernel<(*mut u32,)>, grid: u32, block: u32) -> Vec<u32> {
    let mut out = vec![0u32; (grid * block) as usize * ATOMIC_WORDS];
    let p = out.as_mut_ptr();
    // SAFETY: `ATOMIC_WORDS` words per thread of `out`.
    let body = unsafe { k.host_fn_unchecked() };
    cg_sim::launch(&cg_sim::LaunchConfig::new(grid, block), &|| body((p,))).unwrap();
    out
}

#[test]
fn contended_words_have_their_closed_forms() {
    for (grid, block) in [(8u32, 256u32), (5, 100)] {
        let out = run(ATOMIC_CONTENDED, grid, block);
        let n = grid * block;
        let xs = 0..n;
        assert_eq!(out[0], xs.clone().fold(0u32, |a, x| a.wrapping_add(x)));
        assert_eq!(out[1], xs.clone().fold(0, |a, x| a | 1 << (x % 32)));
        assert_eq!(
            out[2],
            xs.clone().fold(0, |a, x| a ^ x.wrapping_mul(0x9E37_79B9))
        );
        assert_eq!(out[3], xs.clone().map(|x| x * 7919 % 10007).max().unwrap());
        assert_eq!(out[4] as i32, -500);
        assert_eq!(out[5], n % 101, "inc wraps every 101 draws");
        let dec = xs
            .clone()
            .fold(0u32, |a, _| if a == 0 || a > 50 { 50 } else { a - 1 });
        assert_eq!(out[6], dec);
        assert_eq!(f32::from_bits(out[7]), n as f32);
        let sum64: u64 = xs.clone().map(|x| (x as u64) << 20).sum();
        assert_eq!(out[8] as u64 | (out[9] as u64) << 32, sum64);
        let f = f64::from_bits(out[10] as u64 | (out[11] as u64) << 32);
        assert_eq!(f, n as f64 * 0.5);
        assert_eq!(out[12], n, "the CAS loop counts every thread once");
        assert_eq!(out[13], 0u32.wrapping_sub(3 * n));
        let min64 = out[14] as u64 | (out[15] as u64) << 32;
        assert_eq!(min64 as i64, -(((n - 1) as i64) << 30));
        for b in 0..grid {
            let w = &out[(b * block) as usize * ATOMIC_WORDS + 16..][..8];
            let rs = 0..block;
            assert_eq!(w[0], rs.clone().map(|r| r + 1).sum::<u32>());
            assert_eq!(w[1], rs.clone().fold(0, |a, r| a | 1 << (r % 31)));
            assert_eq!(w[2], rs.clone().map(|r| r * 37 % 101).max().unwrap());
            assert_eq!(w[3], rs.clone().map(|r| r * 37 % 101 + 5).min().unwrap());
            assert_eq!(w[4], block % 64);
            let dec = rs
                .clone()
                .fold(0u32, |a, _| if a == 0 || a > 40 { 40 } else { a - 1 });
            assert_eq!(w[5], dec);
            assert_eq!(w[6], rs.clone().fold(0, |a, r| a ^ (r * 3)));
            assert_eq!(w[7], 2 * block);
        }
    }
}

#[test]
fn private_words_follow_each_operation() {
    let out = run(ATOMIC_PRIVATE, 3, 96);
    for x in 0..3 * 96u32 {
        let w = &out[x as usize * ATOMIC_WORDS..][..ATOMIC_WORDS];
        assert_eq!(
            w[0],
            x * 3 + 1,
            "thread {x}: the first fetch_add sees the store"
        );
        assert_eq!(w[1], x * 3 + 6);
        assert_eq!((w[8], w[9]), (x ^ 0x55, 1), "thread {x}: the CAS succeeds");
        assert_eq!(
            (w[10], w[11]),
            (77, 0),
            "thread {x}: the CAS fails, returns the value"
        );
        let limit = x % 5 + 75;
        assert_eq!(w[12], 77);
        let after_inc = if 77 >= limit { 0 } else { 78 };
        assert_eq!(w[13], after_inc, "thread {x}: inc with limit {limit}");
        assert_eq!(
            w[18] as i32,
            -(x as i32),
            "signed min sees the negative store"
        );
        assert_eq!(w[19] as i32, (-(x as i32)).min(-5));
        assert_eq!(f32::from_bits(w[23]), x as f32 * 0.5);
        assert_eq!(f32::from_bits(w[26]), -3.5, "the float CAS compares bits");
        assert_eq!(f32::from_bits(w[27]), 8.0);
    }
}
