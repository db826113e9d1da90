//! `cg-lab compare --only primitives`: the library's block and warp
//! primitives (`cg_kernels::primitives`: [`BlockLoad`]/[`BlockStore`] with
//! every algorithm, [`BlockExchange`], [`BlockRadixSort`],
//! [`BlockHistogram`], [`BlockMergeSort`], [`WarpMergeSort`],
//! [`BlockDiscontinuity`], [`BlockAdjacentDifference`], [`BlockShuffle`],
//! [`BlockRunLengthDecode`], [`BlockReduce`] and [`BlockScan`] over
//! several items per thread, [`WarpReduce`] and [`WarpScan`] likewise,
//! [`WarpLoad`]/[`WarpStore`] with every algorithm, [`WarpExchange`])
//! against CUB's, kernel for kernel (`reference/cuda/primitives.cu`,
//! embedded, built with nvcc for the device), at blocks of 128, 256 and
//! 512 threads, every (kernel, block size, side) verified against a host
//! model before timing, all timed interleaved in the same rounds. CUB's
//! warp reduce and scan take one item per thread: their twins do what a
//! CUB user writes (`ThreadReduce`, the warp collective, a shuffle from
//! lane 0 for the reduce's total, the thread's running sum from the
//! scan's prefix); CUB's block reduce gives its total to thread 0, whose
//! twin broadcasts it through shared memory.
//!
//! Writes `primitives.{csv,md,json,svg}`, `primitives_sass.md` (opcode
//! counts of both sides per kernel) and `primitives_sass.txt` (both
//! sides' SASS). Without a GPU the Rust kernels are verified on the
//! simulator at small sizes and nothing is timed. With
//! `CG_LAB_PRIMITIVES_SMALL=1` the GPU runs the simulator's small sizes
//! too (a few blocks per kernel: for `compute-sanitizer`).
//!
//! [`BlockLoad`]: cooperative_groups::primitives::BlockLoad
//! [`BlockStore`]: cooperative_groups::primitives::BlockStore
//! [`BlockExchange`]: cooperative_groups::primitives::BlockExchange
//! [`BlockRadixSort`]: cooperative_groups::primitives::BlockRadixSort
//! [`BlockHistogram`]: cooperative_groups::primitives::BlockHistogram
//! [`BlockMergeSort`]: cooperative_groups::primitives::BlockMergeSort
//! [`WarpMergeSort`]: cooperative_groups::primitives::WarpMergeSort
//! [`BlockDiscontinuity`]: cooperative_groups::primitives::BlockDiscontinuity
//! [`BlockAdjacentDifference`]: cooperative_groups::primitives::BlockAdjacentDifference
//! [`BlockShuffle`]: cooperative_groups::primitives::BlockShuffle
//! [`BlockRunLengthDecode`]: cooperative_groups::primitives::BlockRunLengthDecode
//! [`BlockReduce`]: cooperative_groups::primitives::BlockReduce
//! [`BlockScan`]: cooperative_groups::primitives::BlockScan
//! [`WarpReduce`]: cooperative_groups::primitives::WarpReduce
//! [`WarpScan`]: cooperative_groups::primitives::WarpScan
//! [`WarpLoad`]: cooperative_groups::primitives::WarpLoad
//! [`WarpStore`]: cooperative_groups::primitives::WarpStore
//! [`WarpExchange`]: cooperative_groups::primitives::WarpExchange

use std::fmt::Write as _;
use std::path::Path;

use anyhow::{Context, Result, bail};
use cg_kernels::primitives::{
    BINS, HISTO_ITEMS, ITEMS, MERGE_ITEMS, PrimArgs, RLD_DECODED, RLD_RUNS, kernel, rld_length,
    round_key,
};
use cg_runtime::{Backend, Buffer, Dim3, LaunchConfig, Module, tools};
use serde::Serialize;

use crate::cli::LabArgs;
use crate::output::write_atomic;
use crate::progress::Progress;
use crate::stats::Summary;
use crate::timing::{self, Timed};

/// Block sizes of the experiment.
pub const BLOCKS: [u32; 3] = [128, 256, 512];

/// What a kernel does, for its model.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
enum Kind {
    /// The output is the input (the block and warp loads and stores).
    Copy,
    /// `x = 3x + p` per round at each item's tile position `p`.
    Exchange,
    /// The keys xor-ed with the round constants, sorted in runs of the
    /// block's tile (`warp`: of each warp's `32 · items`); `pairs`: the
    /// keys' tile positions after the `n` keys.
    Sort { pairs: bool, warp: bool },
    /// 256 bins of the bytes of the whole tiles, `reps` times each.
    Histogram,
    /// Per round `x = 3x + head + 2 tail`, the flags of descents (`a > b`)
    /// in the tile.
    Discontinuity,
    /// Per round each item minus its left (`right`: its right) neighbour
    /// in the tile; the tile's first (last) item stays.
    Adjacent { right: bool },
    /// A block shuffle per round.
    Shuffle(Shift),
    /// The runs of the tile decoded per round, folded into `B · 4`
    /// accumulators per block.
    RunLengthDecode,
    /// Per round every item plus the sum of the tile (`warp`: of its
    /// warp's `32 · items`).
    Reduce { warp: bool },
    /// Per round the inclusive prefix sums of the tile (`warp`: of each
    /// warp's `32 · items`).
    Scan { warp: bool },
}

/// The block shuffles' moves, per round.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
enum Shift {
    /// Item `i` of thread `t` from thread `t - 1` (thread 0 keeps its own).
    Offset,
    /// Item `i` of thread `t` from thread `t + 1 mod B`.
    Rotate,
    /// The tile up by one item, the previous round's last item (0 at
    /// first) into position 0.
    Up,
    /// The tile down by one item, the previous round's first item (0 at
    /// first) into the last position.
    Down,
}

/// One kernel pair of the experiment.
#[derive(Clone, Copy, Debug)]
struct Exp {
    /// Name stem (`prim_<stem>_<B>`, `cub_<stem>_<B>`).
    stem: &'static str,
    /// What it is, on the Rust side and on CUB's.
    rust: &'static str,
    cub: &'static str,
    kind: Kind,
    /// Items per thread of a block's tile (runs for the run-length decode).
    items: u32,
    /// Elements (bytes for the histograms, runs for the run-length
    /// decode) on the GPU.
    n: u32,
    /// Rounds per launch.
    reps: u32,
}

const EXPS: [Exp; 30] = [
    Exp {
        stem: "copy_direct",
        rust: "BlockLoad/BlockStore<Direct>",
        cub: "BLOCK_LOAD_DIRECT / BLOCK_STORE_DIRECT",
        kind: Kind::Copy,
        items: ITEMS as u32,
        n: 1 << 24,
        reps: 1,
    },
    Exp {
        stem: "copy_striped",
        rust: "BlockLoad/BlockStore<Striped>",
        cub: "BLOCK_LOAD_STRIPED / BLOCK_STORE_STRIPED",
        kind: Kind::Copy,
        items: ITEMS as u32,
        n: 1 << 24,
        reps: 1,
    },
    Exp {
        stem: "copy_vectorize",
        rust: "BlockLoad/BlockStore<Vectorize>",
        cub: "BLOCK_LOAD_VECTORIZE / BLOCK_STORE_VECTORIZE",
        kind: Kind::Copy,
        items: ITEMS as u32,
        n: 1 << 24,
        reps: 1,
    },
    Exp {
        stem: "copy_transpose",
        rust: "BlockLoad/BlockStore<Transpose>",
        cub: "BLOCK_LOAD_TRANSPOSE / BLOCK_STORE_TRANSPOSE",
        kind: Kind::Copy,
        items: ITEMS as u32,
        n: 1 << 24,
        reps: 1,
    },
    Exp {
        stem: "copy_warp_transpose",
        rust: "BlockLoad/BlockStore<WarpTranspose>",
        cub: "BLOCK_LOAD_WARP_TRANSPOSE / BLOCK_STORE_WARP_TRANSPOSE",
        kind: Kind::Copy,
        items: ITEMS as u32,
        n: 1 << 24,
        reps: 1,
    },
    Exp {
        stem: "exchange",
        rust: "BlockExchange striped ↔ blocked",
        cub: "BlockExchange StripedToBlocked / BlockedToStriped",
        kind: Kind::Exchange,
        items: ITEMS as u32,
        n: 1 << 22,
        reps: 8,
    },
    Exp {
        stem: "exchange_warp",
        rust: "BlockExchange warp-striped ↔ blocked",
        cub: "BlockExchange WarpStripedToBlocked / BlockedToWarpStriped",
        kind: Kind::Exchange,
        items: ITEMS as u32,
        n: 1 << 22,
        reps: 8,
    },
    Exp {
        stem: "radix_keys",
        rust: "BlockRadixSort::sort (u32)",
        cub: "BlockRadixSort<unsigned>::Sort",
        kind: Kind::Sort {
            pairs: false,
            warp: false,
        },
        items: ITEMS as u32,
        n: 1 << 22,
        reps: 2,
    },
    Exp {
        stem: "radix_pairs",
        rust: "BlockRadixSort::sort_pairs (u32, u32)",
        cub: "BlockRadixSort<unsigned, …, unsigned>::Sort(keys, values)",
        kind: Kind::Sort {
            pairs: true,
            warp: false,
        },
        items: ITEMS as u32,
        n: 1 << 22,
        reps: 2,
    },
    Exp {
        stem: "histo_atomic",
        rust: "BlockHistogram<HistogramAtomic> (u8, 256 bins)",
        cub: "BlockHistogram<BLOCK_HISTO_ATOMIC>",
        kind: Kind::Histogram,
        items: HISTO_ITEMS as u32,
        n: 1 << 26,
        reps: 4,
    },
    Exp {
        stem: "histo_sort",
        rust: "BlockHistogram<HistogramSort> (u8, 256 bins)",
        cub: "BlockHistogram<BLOCK_HISTO_SORT>",
        kind: Kind::Histogram,
        items: HISTO_ITEMS as u32,
        n: 1 << 26,
        reps: 4,
    },
    // The rounds of the kernels below were chosen from each round's static
    // SASS (warp instructions, barriers) so that the rounds, not DRAM, take
    // most of the time on the H200: a few times the tile's load and store
    // at least (to be confirmed by a timed run).
    Exp {
        stem: "merge_sort",
        rust: "BlockMergeSort::sort (u32, a < b)",
        cub: "BlockMergeSort<unsigned>::Sort",
        kind: Kind::Sort {
            pairs: false,
            warp: false,
        },
        items: MERGE_ITEMS as u32,
        n: 1 << 22,
        reps: 4,
    },
    Exp {
        stem: "warp_merge_sort",
        rust: "WarpMergeSort::sort (u32, a < b), per warp",
        cub: "WarpMergeSort<unsigned>::Sort",
        kind: Kind::Sort {
            pairs: false,
            warp: true,
        },
        items: MERGE_ITEMS as u32,
        n: 1 << 22,
        reps: 4,
    },
    Exp {
        stem: "discontinuity",
        rust: "BlockDiscontinuity::flag_heads_and_tails",
        cub: "BlockDiscontinuity FlagHeadsAndTails",
        kind: Kind::Discontinuity,
        items: ITEMS as u32,
        n: 1 << 22,
        reps: 64,
    },
    Exp {
        stem: "adjacent_left",
        rust: "BlockAdjacentDifference::subtract_left",
        cub: "BlockAdjacentDifference SubtractLeft",
        kind: Kind::Adjacent { right: false },
        items: ITEMS as u32,
        n: 1 << 22,
        reps: 128,
    },
    Exp {
        stem: "adjacent_right",
        rust: "BlockAdjacentDifference::subtract_right",
        cub: "BlockAdjacentDifference SubtractRight",
        kind: Kind::Adjacent { right: true },
        items: ITEMS as u32,
        n: 1 << 22,
        reps: 128,
    },
    Exp {
        stem: "shuffle_offset",
        rust: "BlockShuffle::offset (-1), each item",
        cub: "BlockShuffle Offset (-1), each item",
        kind: Kind::Shuffle(Shift::Offset),
        items: ITEMS as u32,
        n: 1 << 22,
        reps: 64,
    },
    Exp {
        stem: "shuffle_rotate",
        rust: "BlockShuffle::rotate (1), each item",
        cub: "BlockShuffle Rotate (1), each item",
        kind: Kind::Shuffle(Shift::Rotate),
        items: ITEMS as u32,
        n: 1 << 22,
        reps: 64,
    },
    Exp {
        stem: "shuffle_up",
        rust: "BlockShuffle::up_with_suffix",
        cub: "BlockShuffle Up (with block_suffix)",
        kind: Kind::Shuffle(Shift::Up),
        items: ITEMS as u32,
        n: 1 << 22,
        reps: 128,
    },
    Exp {
        stem: "shuffle_down",
        rust: "BlockShuffle::down_with_prefix",
        cub: "BlockShuffle Down (with block_prefix)",
        kind: Kind::Shuffle(Shift::Down),
        items: ITEMS as u32,
        n: 1 << 22,
        reps: 128,
    },
    Exp {
        stem: "run_length_decode",
        rust: "BlockRunLengthDecode (2 runs, 4 decoded per thread)",
        cub: "BlockRunLengthDecode<unsigned, B, 2, 4>",
        kind: Kind::RunLengthDecode,
        items: RLD_RUNS as u32,
        n: 1 << 22,
        reps: 4,
    },
    Exp {
        stem: "block_reduce",
        rust: "BlockReduce::sum (8 items, every thread)",
        cub: "BlockReduce::Sum(items), broadcast",
        kind: Kind::Reduce { warp: false },
        items: ITEMS as u32,
        n: 1 << 22,
        reps: 64,
    },
    Exp {
        stem: "block_scan",
        rust: "BlockScan::inclusive_sum (8 items)",
        cub: "BlockScan::InclusiveSum(items)",
        kind: Kind::Scan { warp: false },
        items: ITEMS as u32,
        n: 1 << 22,
        reps: 32,
    },
    Exp {
        stem: "warp_reduce",
        rust: "WarpReduce::sum (8 items, every lane)",
        cub: "ThreadReduce + WarpReduce::Sum + shfl",
        kind: Kind::Reduce { warp: true },
        items: ITEMS as u32,
        n: 1 << 22,
        reps: 128,
    },
    Exp {
        stem: "warp_scan",
        rust: "WarpScan::inclusive_sum (8 items)",
        cub: "ThreadReduce + WarpScan::ExclusiveSum + thread scan",
        kind: Kind::Scan { warp: true },
        items: ITEMS as u32,
        n: 1 << 22,
        reps: 64,
    },
    Exp {
        stem: "warp_copy_direct",
        rust: "WarpLoad/WarpStore<Direct>",
        cub: "WARP_LOAD_DIRECT / WARP_STORE_DIRECT",
        kind: Kind::Copy,
        items: ITEMS as u32,
        n: 1 << 24,
        reps: 1,
    },
    Exp {
        stem: "warp_copy_striped",
        rust: "WarpLoad/WarpStore<Striped>",
        cub: "WARP_LOAD_STRIPED / WARP_STORE_STRIPED",
        kind: Kind::Copy,
        items: ITEMS as u32,
        n: 1 << 24,
        reps: 1,
    },
    Exp {
        stem: "warp_copy_vectorize",
        rust: "WarpLoad/WarpStore<Vectorize>",
        cub: "WARP_LOAD_VECTORIZE / WARP_STORE_VECTORIZE",
        kind: Kind::Copy,
        items: ITEMS as u32,
        n: 1 << 24,
        reps: 1,
    },
    Exp {
        stem: "warp_copy_transpose",
        rust: "WarpLoad/WarpStore<Transpose>",
        cub: "WARP_LOAD_TRANSPOSE / WARP_STORE_TRANSPOSE",
        kind: Kind::Copy,
        items: ITEMS as u32,
        n: 1 << 24,
        reps: 1,
    },
    Exp {
        stem: "warp_exchange",
        rust: "WarpExchange striped ↔ blocked",
        cub: "WarpExchange StripedToBlocked / BlockedToStriped",
        kind: Kind::Exchange,
        items: ITEMS as u32,
        n: 1 << 22,
        reps: 8,
    },
];

impl Exp {
    /// Items per block tile.
    fn tile(&self, block: u32) -> u32 {
        block * self.items
    }
    /// Blocks of a launch on `n` elements.
    fn grid(&self, block: u32, n: u32) -> u32 {
        let tiles = n.div_ceil(self.tile(block));
        match self.kind {
            // Eight tiles per block in turn.
            Kind::Histogram => (n / self.tile(block) / 8).max(1),
            _ => tiles,
        }
    }
    /// Bytes the kernel reads and writes once (for a bandwidth column).
    fn bytes(&self, n: u32) -> f64 {
        match self.kind {
            Kind::Sort { pairs: true, .. } => 12.0 * n as f64,
            Kind::Histogram => n as f64,
            // The runs read, twice as many accumulators written.
            Kind::RunLengthDecode => 12.0 * n as f64,
            _ => 8.0 * n as f64,
        }
    }
}

/// Input word `i`: a mixed hash (keys and bytes spread over every value).
fn input_word(i: u32) -> u32 {
    let mut x = i.wrapping_mul(0x9e37_79b9) ^ 0x5bd1_e995;
    x ^= x >> 15;
    x = x.wrapping_mul(0x2c1b_3c6d);
    x ^= x >> 12;
    x
}

/// What the kernel writes (the first `n` outputs, or `2n` for pairs, or
/// the 256 bins, or the run-length decode's accumulators), from the input.
fn model(e: &Exp, block: u32, input: &[u32], n: u32, reps: u32) -> Vec<u32> {
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

/// One (kernel, block size, side).
#[derive(Clone, Copy, Debug)]
struct Var {
    exp: usize,
    block: u32,
    cub: bool,
}

impl Var {
    fn rust_name(&self) -> String {
        format!("prim_{}_{}", EXPS[self.exp].stem, self.block)
    }
    fn cub_name(&self) -> String {
        format!("cub_{}_{}", EXPS[self.exp].stem, self.block)
    }
    fn name(&self) -> String {
        if self.cub {
            self.cub_name()
        } else {
            self.rust_name()
        }
    }
}

struct Bench<'a> {
    backend: &'a Backend,
    module: Option<&'a Module>,
    input: Buffer<u32>,
    host_input: Vec<u32>,
    output: Buffer<u32>,
    /// Elements per experiment (smaller on the simulator).
    n: fn(&Exp) -> u32,
    /// The last model computed, by (experiment, block size, `n`): both
    /// sides of a kernel are verified one after the other.
    model: Option<((usize, u32, u32), Vec<u32>)>,
}

impl Bench<'_> {
    fn launch(&mut self, v: Var, sync: bool) -> Result<()> {
        let e = &EXPS[v.exp];
        let n = (self.n)(e);
        let cfg = LaunchConfig::linear(e.grid(v.block, n), v.block);
        let args: PrimArgs = (
            self.input.as_ptr().cast_const(),
            self.output.as_ptr(),
            n,
            e.reps,
        );
        if v.cub {
            let (Backend::Gpu(g), Some(m)) = (self.backend, self.module) else {
                bail!("CUB runs on a GPU only");
            };
            let name = v.cub_name();
            // SAFETY: as the Rust kernels below: the CUB twin takes the same
            // arguments and touches the same words.
            unsafe { g.launch_function(m.function(&name)?, &name, &cfg, args) }?;
            if sync {
                g.synchronize()?;
            }
            return Ok(());
        }
        let k = kernel(e.stem, v.block).context("no such primitive kernel")?;
        // SAFETY: every primitive kernel reads at most `n` words of `input`
        // (the buffer holds the run's largest `n`) and writes at most `2n` of
        // `output` (the pairs' keys then values; the histogram's 256 bins;
        // the buffer holds twice the largest `n`): this backend's buffers,
        // alive across the launch.
        unsafe {
            match self.backend {
                Backend::Gpu(g) if !sync => g.launch_unchecked(&k, &cfg, args)?,
                b => b.launch_unchecked(&k, &cfg, args)?,
            }
        }
        Ok(())
    }

    /// One launch of `v`, its output against the model; (ok, what).
    fn verify(&mut self, v: Var) -> Result<(bool, String)> {
        let e = &EXPS[v.exp];
        let n = (self.n)(e);
        self.output.zero()?;
        self.launch(v, true)?;
        let key = (v.exp, v.block, n);
        let want = match self.model.take() {
            Some((k, want)) if k == key => want,
            _ => model(e, v.block, &self.host_input, n, e.reps),
        };
        let got = self.output.to_vec()?;
        let got = &got[..want.len()];
        let r = match got.iter().zip(&want).position(|(a, b)| a != b) {
            None => (true, format!("{} outputs equal to the model", want.len())),
            Some(i) => (
                false,
                format!("output {i}: {} where the model has {}", got[i], want[i]),
            ),
        };
        self.model = Some((key, want));
        Ok(r)
    }
}

impl Timed for Bench<'_> {
    type Variant = Var;
    fn gpu(&self) -> &cg_runtime::Gpu {
        match self.backend {
            Backend::Gpu(g) => g,
            Backend::Sim(_) => unreachable!("timing runs on a GPU only"),
        }
    }
    fn launch_async(&mut self, v: Var, _reps: u32) -> Result<()> {
        self.launch(v, false)
    }
}

/// Refuses names in `--prims` that name no primitive kernel, listing the
/// valid names.
pub fn check_names(names: &[String]) -> Result<(), String> {
    let unknown: Vec<&str> = names
        .iter()
        .filter(|n| !EXPS.iter().any(|e| e.stem == n.as_str()))
        .map(String::as_str)
        .collect();
    if unknown.is_empty() {
        return Ok(());
    }
    let valid: Vec<&str> = EXPS.iter().map(|e| e.stem).collect();
    Err(format!(
        "--prims: no primitive kernel named {} (the names: {})",
        unknown.join(", "),
        valid.join(", ")
    ))
}

/// The experiments named in `names` (`--prims`, checked by
/// [`check_names`]; all of them for none), in the table's order.
fn chosen(names: &[String]) -> Vec<usize> {
    (0..EXPS.len())
        .filter(|&i| names.is_empty() || names.iter().any(|n| n == EXPS[i].stem))
        .collect()
}

/// Every variant of the experiments `exps`, Rust then CUB for each kernel
/// and block size.
fn variants(exps: &[usize], cub: bool) -> Vec<Var> {
    let mut v = Vec::new();
    for &exp in exps {
        for block in BLOCKS {
            v.push(Var {
                exp,
                block,
                cub: false,
            });
            if cub {
                v.push(Var {
                    exp,
                    block,
                    cub: true,
                });
            }
        }
    }
    v
}

/// Elements on the simulator: two tiles (the copies a partial third).
fn sim_n(e: &Exp) -> u32 {
    let tile = e.tile(512);
    match e.kind {
        Kind::Copy => 2 * tile + tile / 3,
        Kind::Histogram => 8 * tile,
        _ => 2 * tile,
    }
}

fn gpu_n(e: &Exp) -> u32 {
    e.n
}

/// One measured (kernel, block size): both sides.
#[derive(Clone, Debug, Serialize)]
struct Point {
    experiment: &'static str,
    rust_side: &'static str,
    cub_side: &'static str,
    block: u32,
    n: u32,
    reps: u32,
    rust_ms: Summary,
    cub_ms: Summary,
    rust_over_cub: f64,
    /// Bytes read and written once (the copies' bandwidth; a yardstick
    /// for the others) per median time, GB/s.
    rust_gb_per_s: f64,
    cub_gb_per_s: f64,
    rust_blocks_per_sm: Option<u32>,
    cub_blocks_per_sm: Option<u32>,
    rust_verified: bool,
    cub_verified: bool,
    check: String,
}

/// Runs the experiment into `a.out` (on a GPU), or verifies the Rust
/// kernels on the simulator (without one).
///
/// `prims` names the kernels to run (`--prims`, checked by
/// [`check_names`]; all of them when empty).
pub fn run(a: &LabArgs, prims: &[String], progress: &Progress) -> Result<()> {
    let exps = chosen(prims);
    let backend = a.backend.open()?;
    let max = EXPS.iter().map(|e| e.n).max().expect("experiments");
    let Backend::Gpu(gpu) = &backend else {
        let smax = EXPS.iter().map(sim_n).max().expect("experiments");
        let host_input: Vec<u32> = (0..smax).map(input_word).collect();
        let mut b = Bench {
            backend: &backend,
            module: None,
            input: backend.upload(&host_input)?,
            host_input,
            output: backend.alloc(2 * smax as usize)?,
            n: sim_n,
            model: None,
        };
        let mut bad = Vec::new();
        for v in variants(&exps, false) {
            let (ok, what) = b.verify(v)?;
            println!(
                "verified primitives {:<28} on the simulator: {} ({what})",
                v.rust_name(),
                if ok { "OK" } else { "FAILED" }
            );
            if !ok {
                bad.push(v.rust_name());
            }
        }
        println!(
            "primitives: no GPU, so CUB was not built and nothing was timed (simulator verification only)"
        );
        if !bad.is_empty() {
            bail!(
                "primitives verification FAILED on the simulator: {}",
                bad.join(", ")
            );
        }
        return Ok(());
    };
    let Some(nvcc) = tools::find_tool("nvcc") else {
        bail!(
            "the primitives experiment builds reference/cuda/primitives.cu with nvcc, which was not found"
        );
    };
    let sm = gpu.info().sm();
    let out = crate::results::out_dir(a.out.as_deref(), &gpu.info().slug());
    crate::preflight::check_out_dir(&out)?;
    let dir = std::env::temp_dir().join(format!("cg-lab-primitives-{}", std::process::id()));
    eprintln!(
        "building reference/cuda/primitives.cu (CUB) with {} for sm_{sm} …",
        nvcc.display()
    );
    let (cubin, _) =
        crate::reference::build_cubin(&nvcc, sm, &dir, crate::reference::PRIMITIVES_CU)?;
    let module = gpu.load_image(&std::fs::read(&cubin)?)?;
    let small = std::env::var("CG_LAB_PRIMITIVES_SMALL").is_ok_and(|v| v == "1");
    let host_input: Vec<u32> = (0..max).map(input_word).collect();
    let mut b = Bench {
        backend: &backend,
        module: Some(&module),
        input: backend.upload(&host_input)?,
        host_input,
        output: backend.alloc(2 * max as usize)?,
        n: if small { sim_n } else { gpu_n },
        model: None,
    };
    let vars = variants(&exps, true);
    let mut checks = Vec::new();
    for &v in &vars {
        progress.set_message(format!("verify {}", v.name()));
        let r = b
            .verify(v)
            .with_context(|| format!("verifying {}", v.name()))?;
        println!(
            "verified primitives {:<28} {} ({})",
            v.name(),
            if r.0 { "OK" } else { "FAILED" },
            r.1
        );
        checks.push(r);
    }
    let occupancy = |v: &Var| -> Option<u32> {
        let f = if v.cub {
            module.function(&v.cub_name()).ok()?
        } else {
            gpu.kernels()
                .kernel(&kernel(EXPS[v.exp].stem, v.block)?)
                .ok()?
        };
        gpu.max_coresident_blocks(f, Dim3::x(v.block), 0)
            .ok()
            .map(|total| total / gpu.info().sm_count.max(1))
    };
    let samples = timing::time_interleaved(
        &mut b,
        &vars,
        a.warmup,
        a.runs,
        1,
        a.min_sample_ms,
        progress,
    )
    .context("timing primitives")?;
    let platform = crate::results::platform(&backend);
    let mut points = Vec::new();
    for (i, pair) in vars.chunks(2).enumerate() {
        let (r, c) = (pair[0], pair[1]);
        let e = &EXPS[r.exp];
        let (rust_ms, cub_ms) = (
            Summary::of(&samples[2 * i]),
            Summary::of(&samples[2 * i + 1]),
        );
        let (rc, cc) = (&checks[2 * i], &checks[2 * i + 1]);
        points.push(Point {
            experiment: e.stem,
            rust_side: e.rust,
            cub_side: e.cub,
            block: r.block,
            n: (b.n)(e),
            reps: e.reps,
            rust_over_cub: rust_ms.median / cub_ms.median,
            rust_gb_per_s: e.bytes((b.n)(e)) / (rust_ms.median * 1e-3) / 1e9,
            cub_gb_per_s: e.bytes((b.n)(e)) / (cub_ms.median * 1e-3) / 1e9,
            rust_ms,
            cub_ms,
            rust_blocks_per_sm: occupancy(&r),
            cub_blocks_per_sm: occupancy(&c),
            rust_verified: rc.0,
            cub_verified: cc.0,
            check: format!("rust: {}; cub: {}", rc.1, cc.1),
        });
    }
    let timing_text = timing::describe("the kernel", a.warmup, a.runs, a.min_sample_ms);
    let files = [
        ("primitives.csv", csv(&points)),
        ("primitives.md", markdown(&points, &platform, &timing_text)),
        ("primitives.json", serde_json::to_string_pretty(&points)?),
        ("primitives.svg", svg(&points, &platform.device)),
    ];
    for (name, text) in files {
        write_atomic(&out.join(name), text.as_bytes())?;
        println!("wrote {}", out.join(name).display());
    }
    for p in &points {
        println!(
            "primitives {:<20} block={:<4} rust={:.4} ms  cub={:.4} ms  rust/cub={:.3}  blocks/SM {}/{}  verify rust {} cub {}",
            p.experiment,
            p.block,
            p.rust_ms.median,
            p.cub_ms.median,
            p.rust_over_cub,
            opt(p.rust_blocks_per_sm),
            opt(p.cub_blocks_per_sm),
            ok(p.rust_verified),
            ok(p.cub_verified)
        );
    }
    if let Err(e) = write_sass(gpu, &cubin, &dir, &out, &vars) {
        eprintln!("note: primitives SASS not written: {e}");
    }
    std::fs::remove_dir_all(&dir).ok();
    let bad: Vec<String> = points
        .iter()
        .filter(|p| !p.rust_verified || !p.cub_verified)
        .map(|p| format!("{} block {} ({})", p.experiment, p.block, p.check))
        .collect();
    if !bad.is_empty() {
        bail!("primitives verification FAILED: {}", bad.join("; "));
    }
    Ok(())
}

fn ok(b: bool) -> &'static str {
    if b { "OK" } else { "FAILED" }
}

fn opt(v: Option<u32>) -> String {
    v.map_or_else(|| "?".into(), |x| x.to_string())
}

fn csv(points: &[Point]) -> String {
    let mut s = String::from(
        "experiment,block,n,reps,rust_median_ms,rust_p10_ms,rust_p90_ms,cub_median_ms,cub_p10_ms,cub_p90_ms,rust_over_cub,rust_gb_per_s,cub_gb_per_s,rust_blocks_per_sm,cub_blocks_per_sm,rust_verified,cub_verified\n",
    );
    for p in points {
        let _ = writeln!(
            s,
            "{},{},{},{},{:.6},{:.6},{:.6},{:.6},{:.6},{:.6},{:.4},{:.1},{:.1},{},{},{},{}",
            p.experiment,
            p.block,
            p.n,
            p.reps,
            p.rust_ms.median,
            p.rust_ms.p10,
            p.rust_ms.p90,
            p.cub_ms.median,
            p.cub_ms.p10,
            p.cub_ms.p90,
            p.rust_over_cub,
            p.rust_gb_per_s,
            p.cub_gb_per_s,
            opt(p.rust_blocks_per_sm),
            opt(p.cub_blocks_per_sm),
            p.rust_verified,
            p.cub_verified
        );
    }
    s
}

fn markdown(points: &[Point], p: &crate::results::Platform, timing: &str) -> String {
    let mut s = format!(
        "# Block primitives: the library against CUB — {}\n\nPlatform: {}\n\nCommand: `{}`\n\n",
        p.device,
        p.line(),
        p.command
    );
    let _ = writeln!(
        s,
        "Each row is a Rust kernel of `cg_kernels::primitives` and its CUB twin of `reference/cuda/primitives.cu` \
         (same tiles, rounds, barriers and global accesses), {ITEMS} items per thread ({HISTO_ITEMS} bytes for the \
         histograms, {MERGE_ITEMS} keys for the merge sorts, {RLD_RUNS} runs and {RLD_DECODED} decoded items for the \
         run-length decode), at each block size. Every (kernel, block size, side) verified against a host model before \
         timing. Timing: {timing}; all kernels, block sizes and sides interleaved. Blocks/SM: the occupancy \
         calculator's resident blocks per SM (registers and shared memory).\n"
    );
    let _ = writeln!(
        s,
        "| experiment | Rust | CUB | n | rounds | block | Rust ms | CUB ms | **Rust ÷ CUB** | GB/s Rust / CUB | blocks/SM Rust / CUB | verified |"
    );
    let _ = writeln!(
        s,
        "| --- | --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | --- |"
    );
    for q in points {
        let _ = writeln!(
            s,
            "| {} | {} | {} | {} | {} | {} | {:.4} | {:.4} | **{:.3}** | {:.0} / {:.0} | {} / {} | {} |",
            q.experiment,
            q.rust_side,
            q.cub_side,
            q.n,
            q.reps,
            q.block,
            q.rust_ms.median,
            q.cub_ms.median,
            q.rust_over_cub,
            q.rust_gb_per_s,
            q.cub_gb_per_s,
            opt(q.rust_blocks_per_sm),
            opt(q.cub_blocks_per_sm),
            if q.rust_verified && q.cub_verified {
                "both"
            } else {
                "FAILED"
            }
        );
    }
    let worst = points
        .iter()
        .map(|q| q.rust_over_cub)
        .fold(f64::NAN, f64::max);
    let _ = writeln!(s, "\nLargest Rust ÷ CUB: {worst:.3}.");
    s
}

/// Rust ÷ CUB per experiment, one bar per block size.
fn svg(points: &[Point], device: &str) -> String {
    let groups = EXPS.len() as f64;
    // At least 36 px per experiment (three bars and a slanted label).
    let (h, l, t, b) = (420.0, 60.0, 40.0, 130.0);
    let w = (l + 20.0 + 36.0 * groups).max(900.0);
    let ymax = points
        .iter()
        .map(|p| p.rust_over_cub)
        .fold(1.2f64, f64::max)
        .ceil()
        .max(1.5);
    let gw = (w - l - 20.0) / groups;
    let bw = gw / 4.0;
    let py = |v: f64| h - b - v / ymax * (h - t - b);
    let colors = ["#1f77b4", "#ff7f0e", "#2ca02c"];
    let mut s = format!(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{w}\" height=\"{h}\" font-family=\"sans-serif\" font-size=\"11\">\n\
         <rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n\
         <text x=\"{l}\" y=\"22\" font-size=\"14\">Block primitives: Rust ÷ CUB time (below 1: faster) — {device}</text>\n"
    );
    let mut k = 0.0;
    while k <= ymax + 1e-9 {
        let y = py(k);
        let _ = writeln!(
            s,
            "<line x1=\"{l}\" y1=\"{y:.1}\" x2=\"{:.1}\" y2=\"{y:.1}\" stroke=\"{}\"/><text x=\"{:.1}\" y=\"{:.1}\" text-anchor=\"end\">{k:.1}</text>",
            w - 20.0,
            if (k - 1.0).abs() < 1e-9 {
                "#888"
            } else {
                "#ddd"
            },
            l - 6.0,
            y + 4.0
        );
        k += 0.25;
    }
    for (g, e) in EXPS.iter().enumerate() {
        let x0 = l + g as f64 * gw + bw / 2.0;
        for (j, block) in BLOCKS.iter().enumerate() {
            if let Some(p) = points
                .iter()
                .find(|p| p.experiment == e.stem && p.block == *block)
            {
                let y = py(p.rust_over_cub);
                let _ = writeln!(
                    s,
                    "<rect x=\"{:.1}\" y=\"{y:.1}\" width=\"{:.1}\" height=\"{:.1}\" fill=\"{}\"><title>{} {}: {:.3}</title></rect>",
                    x0 + j as f64 * bw,
                    bw * 0.9,
                    py(0.0) - y,
                    colors[j],
                    e.stem,
                    block,
                    p.rust_over_cub
                );
            }
        }
        let _ = writeln!(
            s,
            "<text transform=\"translate({:.1},{:.1}) rotate(-40)\" text-anchor=\"end\">{}</text>",
            x0 + 1.5 * bw,
            h - b + 14.0,
            e.stem
        );
    }
    for (j, block) in BLOCKS.iter().enumerate() {
        let x = w - 200.0 + j as f64 * 60.0;
        let _ = writeln!(
            s,
            "<rect x=\"{x:.1}\" y=\"30\" width=\"10\" height=\"10\" fill=\"{}\"/><text x=\"{:.1}\" y=\"39\">{block}</text>",
            colors[j],
            x + 14.0
        );
    }
    s.push_str("</svg>\n");
    s
}

/// Opcode counts per kernel pair, and both sides' full SASS.
fn write_sass(
    gpu: &cg_runtime::Gpu,
    cubin: &Path,
    dir: &Path,
    out: &Path,
    vars: &[Var],
) -> Result<()> {
    let l = crate::listings::listings(gpu, cubin, dir)?;
    let names: Vec<(String, String, String)> = vars
        .chunks(2)
        .map(|p| {
            (
                format!("{} {}", EXPS[p[0].exp].stem, p[0].block),
                p[0].rust_name(),
                p[1].cub_name(),
            )
        })
        .collect();
    let refs: Vec<(&str, &str, &str)> = names
        .iter()
        .map(|(a, b, c)| (a.as_str(), b.as_str(), c.as_str()))
        .collect();
    let md = crate::report::compare::sass(&l, &refs);
    let mut full = String::new();
    for (_, r, c) in &names {
        for (side, name) in [("rust", r), ("cub", c)] {
            let code = if side == "rust" {
                l.rust.get(name)
            } else {
                l.cpp.get(name)
            };
            if let Some(code) = code {
                let _ = writeln!(full, "// ===== {name} =====");
                for i in code {
                    let _ = writeln!(full, "{}", i.text);
                }
                full.push('\n');
            }
        }
    }
    write_atomic(&out.join("primitives_sass.md"), md.as_bytes())?;
    write_atomic(&out.join("primitives_sass.txt"), full.as_bytes())?;
    println!("wrote {}", out.join("primitives_sass.md").display());
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_kernel_exists_at_every_block_size() {
        for e in &EXPS {
            for b in BLOCKS {
                assert!(kernel(e.stem, b).is_some(), "{} {b}", e.stem);
            }
        }
    }

    #[test]
    fn models_are_what_the_kernels_compute_on_the_simulator() {
        // The same check as `compare --only primitives` without a GPU, on
        // one block size (the lab's CLI test runs them all).
        let backend = Backend::sim();
        let smax = EXPS.iter().map(sim_n).max().unwrap();
        let host_input: Vec<u32> = (0..smax).map(input_word).collect();
        let mut b = Bench {
            backend: &backend,
            module: None,
            input: backend.upload(&host_input).unwrap(),
            host_input,
            output: backend.alloc(2 * smax as usize).unwrap(),
            n: sim_n,
            model: None,
        };
        for (exp, e) in EXPS.iter().enumerate() {
            let (ok, what) = b
                .verify(Var {
                    exp,
                    block: 128,
                    cub: false,
                })
                .unwrap();
            assert!(ok, "{}: {what}", e.stem);
        }
    }
}
