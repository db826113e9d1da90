//! The thirty kernel pairs of the primitives experiment: what each one
//! computes (for its host model), its tile, its size and its rounds.

use cg_kernels::primitives::{HISTO_ITEMS, ITEMS, MERGE_ITEMS, RLD_RUNS};
use serde::Serialize;

/// Block sizes of the experiment.
pub const BLOCKS: [u32; 3] = [128, 256, 512];

/// What a kernel does, for its model.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub enum Kind {
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
pub enum Shift {
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
pub struct Exp {
    /// Name stem (`prim_<stem>_<B>`, `cub_<stem>_<B>`).
    pub stem: &'static str,
    /// What it is, on the Rust side and on CUB's.
    pub rust: &'static str,
    pub cub: &'static str,
    pub kind: Kind,
    /// Items per thread of a block's tile (runs for the run-length decode).
    pub items: u32,
    /// Elements (bytes for the histograms, runs for the run-length
    /// decode) on the GPU.
    pub n: u32,
    /// Rounds per launch.
    pub reps: u32,
}

pub const EXPS: [Exp; 30] = [
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
    pub fn tile(&self, block: u32) -> u32 {
        block * self.items
    }
    /// Blocks of a launch on `n` elements.
    pub fn grid(&self, block: u32, n: u32) -> u32 {
        let tiles = n.div_ceil(self.tile(block));
        match self.kind {
            // Eight tiles per block in turn.
            Kind::Histogram => (n / self.tile(block) / 8).max(1),
            _ => tiles,
        }
    }
    /// Bytes the kernel reads and writes once (for a bandwidth column).
    pub fn bytes(&self, n: u32) -> f64 {
        match self.kind {
            Kind::Sort { pairs: true, .. } => 12.0 * n as f64,
            Kind::Histogram => n as f64,
            // The runs read, twice as many accumulators written.
            Kind::RunLengthDecode => 12.0 * n as f64,
            _ => 8.0 * n as f64,
        }
    }
}
