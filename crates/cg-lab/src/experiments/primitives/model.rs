//! The host models of the primitives experiment: the input, and what each
//! kernel writes from it.

use cg_kernels::primitives::{BINS, RLD_DECODED, rld_length, round_key};

use super::table::{Exp, Kind, Shift};

/// Input word `i`: a mixed hash (keys and bytes spread over every value).
pub fn input_word(i: u32) -> u32 {
    let mut x = i.wrapping_mul(0x9e37_79b9) ^ 0x5bd1_e995;
    x ^= x >> 15;
    x = x.wrapping_mul(0x2c1b_3c6d);
    x ^= x >> 12;
    x
}

/// What the kernel writes (the first `n` outputs, or `2n` for pairs, or
/// the 256 bins, or the run-length decode's accumulators), from the input.
pub fn model(e: &Exp, block: u32, input: &[u32], n: u32, reps: u32) -> Vec<u32> {
    let tile = e.tile(block) as usize;
    let n = n as usize;
    // Each whole tile's outputs by `f(tile's input, its outputs)`.
    let tiles = |out_per_tile: usize, f: &mut dyn FnMut(&[u32], &mut [u32])| {
        let mut out = vec![0u32; n / tile * out_per_tile];
        for (t, o) in out.chunks_exact_mut(out_per_tile).enumerate() {
            f(&input[t * tile..(t + 1) * tile], o);
        }
        out
    };
    // `reps` rounds of `round` on each whole tile, the result stored.
    let rounds = |round: &mut dyn FnMut(&mut [u32])| {
        tiles(tile, &mut |src, out| {
            out.copy_from_slice(src);
            for _ in 0..reps {
                round(out);
            }
        })
    };
    let warp_run = 32 * e.items as usize;
    match e.kind {
        Kind::Copy => input[..n].to_vec(),
        Kind::Exchange => tiles(tile, &mut |src, out| {
            for (p, (o, &v)) in out.iter_mut().zip(src).enumerate() {
                *o = (0..reps).fold(v, |v, _| v.wrapping_mul(3).wrapping_add(p as u32));
            }
        }),
        Kind::Sort { pairs, warp } => {
            let k = (1..reps).fold(0u32, |a, r| a ^ round_key(r));
            let run = if warp { warp_run } else { tile };
            let mut out = vec![0u32; if pairs { 2 * n } else { n }];
            for t in 0..n / tile {
                for s in (0..tile).step_by(run) {
                    let first = t * tile + s;
                    let mut v: Vec<(u32, u32)> = (0..run)
                        .map(|p| (input[first + p] ^ k, (s + p) as u32))
                        .collect();
                    v.sort_by_key(|x| x.0);
                    for (p, (key, pos)) in v.into_iter().enumerate() {
                        out[first + p] = key;
                        if pairs {
                            out[n + first + p] = pos;
                        }
                    }
                }
            }
            out
        }
        Kind::Histogram => {
            let mut bins = vec![0u32; BINS];
            let whole = n / tile * tile;
            for i in 0..whole {
                let byte = (input[i / 4] >> (8 * (i % 4))) as u8;
                bins[byte as usize] += reps;
            }
            bins
        }
        Kind::Discontinuity => rounds(&mut |x| {
            let last = x.len() - 1;
            let flags: Vec<u32> = (0..x.len())
                .map(|k| {
                    let head = k == 0 || x[k - 1] > x[k];
                    let tail = k == last || x[k] > x[k + 1];
                    head as u32 + 2 * tail as u32
                })
                .collect();
            for (v, f) in x.iter_mut().zip(flags) {
                *v = v.wrapping_mul(3).wrapping_add(f);
            }
        }),
        Kind::Adjacent { right } => rounds(&mut |x| {
            let old = x.to_vec();
            for k in 0..x.len() {
                if right && k + 1 < x.len() {
                    x[k] = old[k].wrapping_sub(old[k + 1]);
                } else if !right && k > 0 {
                    x[k] = old[k].wrapping_sub(old[k - 1]);
                }
            }
        }),
        Kind::Shuffle(shift) => {
            let (b, items) = (block as usize, e.items as usize);
            let mut fill = 0u32;
            tiles(tile, &mut |src, x| {
                x.copy_from_slice(src);
                fill = 0;
                for _ in 0..reps {
                    let old = x.to_vec();
                    let last = x.len() - 1;
                    match shift {
                        // Item `i` of thread `t` is at `t · items + i`.
                        Shift::Offset => {
                            x[items..].copy_from_slice(&old[..=last - items]);
                        }
                        Shift::Rotate => {
                            for (p, v) in x.iter_mut().enumerate() {
                                *v = old[(p + items) % (b * items)];
                            }
                        }
                        Shift::Up => {
                            x[1..].copy_from_slice(&old[..last]);
                            x[0] = fill;
                            fill = old[last];
                        }
                        Shift::Down => {
                            x[..last].copy_from_slice(&old[1..]);
                            x[last] = fill;
                            fill = old[0];
                        }
                    }
                }
            })
        }
        Kind::RunLengthDecode => {
            let window = block as usize * RLD_DECODED;
            tiles(window, &mut |words, acc| {
                for k in 0..reps {
                    let mut pos = 0;
                    for &w in words {
                        for offset in 0..rld_length(w, k) {
                            let a = &mut acc[pos % window];
                            *a = a
                                .wrapping_mul(3)
                                .wrapping_add(w ^ round_key(k))
                                .wrapping_add(offset);
                            pos += 1;
                        }
                    }
                }
            })
        }
        Kind::Reduce { warp } => rounds(&mut |x| {
            let run = if warp { warp_run } else { x.len() };
            for r in x.chunks_mut(run) {
                let total = r.iter().fold(0u32, |a, &v| a.wrapping_add(v));
                r.iter_mut().for_each(|v| *v = v.wrapping_add(total));
            }
        }),
        Kind::Scan { warp } => rounds(&mut |x| {
            let run = if warp { warp_run } else { x.len() };
            for r in x.chunks_mut(run) {
                let mut acc = 0u32;
                for v in r.iter_mut() {
                    acc = acc.wrapping_add(*v);
                    *v = acc;
                }
            }
        }),
    }
}
