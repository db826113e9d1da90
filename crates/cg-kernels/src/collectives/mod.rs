//! Test kernels for every collective of `cooperative-groups`, on every group
//! shape, written once for the simulator (property tests in
//! `cooperative-groups/tests/`) and the GPU (the differential test).
//!
//! One kernel per element type ([`COLLECTIVES_U32`] …): the launch's
//! parameter block picks the group shape ([`Kind`]), the tile size, the
//! operator and the shuffle arguments; each thread writes [`SLOTS`] results
//! (as `u64` bit patterns) to its row of the output, and each group's chosen
//! `invoke_one` thread bumps one counter. [`model`] computes the same rows
//! sequentially on the host.

pub mod compose;
pub mod kernels;
#[cfg(not(target_arch = "nvptx64"))]
pub mod model;
pub mod probes;
pub mod wide;

pub use compose::*;
pub use kernels::*;
pub use wide::*;

/// Results per thread.
pub const SLOTS: usize = 18;

/// What the host pre-fills the output with: a slot a thread did not write
/// (not in the group, or an operator the type lacks) keeps it.
pub const NOT_WRITTEN: u64 = 0xDEAD_BEEF_DEAD_BEEF;

/// The meaning of each output slot.
pub mod slot {
    /// `thread_rank()`.
    pub const RANK: usize = 0;
    /// `num_threads()`.
    pub const SIZE: usize = 1;
    /// `meta_group_rank()` (0 for the block).
    pub const META_RANK: usize = 2;
    /// `meta_group_size()` (1 for the block).
    pub const META_SIZE: usize = 3;
    /// `reduce(v, op)`.
    pub const REDUCE: usize = 4;
    /// `inclusive_scan(v, op)`.
    pub const INCLUSIVE: usize = 5;
    /// `exclusive_scan(v, op)`.
    pub const EXCLUSIVE: usize = 6;
    /// `shfl(v, src)`: within a warp `src = (5 · rank + param.src) mod 64`;
    /// on a multi-warp tile `param.src` (uniform).
    pub const SHFL: usize = 7;
    /// `shfl_up(v, param.delta)`.
    pub const SHFL_UP: usize = 8;
    /// `shfl_down(v, param.delta)`.
    pub const SHFL_DOWN: usize = 9;
    /// `shfl_xor(v, param.xor)`.
    pub const SHFL_XOR: usize = 10;
    /// `any(pred)`.
    pub const ANY: usize = 11;
    /// `all(pred)`.
    pub const ALL: usize = 12;
    /// `ballot(pred)`.
    pub const BALLOT: usize = 13;
    /// `match_any(v)`.
    pub const MATCH_ANY: usize = 14;
    /// `match_all(v)`: `Some(m)` as `m | 1 << 32`, `None` as 0.
    pub const MATCH_ALL: usize = 15;
    /// `invoke_one_broadcast(|| v)`: some member's `v`, the same for all.
    pub const BROADCAST: usize = 16;
    /// `match_any_bits::<2>(label ^ v << 2)`: the members whose label has
    /// the same low 2 bits (the bits above, which differ, are ignored).
    pub const MATCH_BITS: usize = 17;
}

/// The group shape a launch tests (`param.kind`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(u32)]
pub enum Kind {
    /// `tiled_partition::<N>(&block)`, `N = param.size`.
    Tile = 0,
    /// `tiled_partition::<N>(&tiled_partition::<32>(&block))`.
    TileOfTile32 = 1,
    /// `tiled_partition::<N>(&tiled_partition::<256>(&block))`.
    TileOfTile256 = 2,
    /// `tiled_partition_dyn(&block, n)`.
    Dynamic = 3,
    /// `tiled_partition_dyn(&tiled_partition::<64>(&block), n)`.
    DynamicOfTile64 = 4,
    /// `coalesced_threads()` in the lanes whose `pred` is set.
    Coalesced = 5,
    /// `labeled_partition(&tiled_partition::<N>(&block), label)`.
    Labeled = 6,
    /// `binary_partition(&tiled_partition::<N>(&block), pred)`.
    Binary = 7,
    /// `labeled_partition(&coalesced_threads(), label)` in the lanes whose `pred` is set.
    LabeledOfCoalesced = 8,
    /// `tiled_partition_dyn(&coalesced_threads(), n)` in the lanes whose `pred` is set.
    DynamicOfCoalesced = 9,
    /// `this_thread_block()` itself.
    Block = 10,
}

impl Kind {
    /// Every kind.
    pub const ALL: [Kind; 11] = [
        Kind::Tile,
        Kind::TileOfTile32,
        Kind::TileOfTile256,
        Kind::Dynamic,
        Kind::DynamicOfTile64,
        Kind::Coalesced,
        Kind::Labeled,
        Kind::Binary,
        Kind::LabeledOfCoalesced,
        Kind::DynamicOfCoalesced,
        Kind::Block,
    ];

    /// The kind with this number.
    pub fn from_u32(k: u32) -> Option<Kind> {
        Kind::ALL.get(k as usize).copied()
    }
}

/// The operator a launch tests (`param.op`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(u32)]
pub enum OpId {
    /// `Plus`.
    Plus = 0,
    /// `Less`.
    Less = 1,
    /// `Greater`.
    Greater = 2,
    /// `BitAnd` (integers).
    BitAnd = 3,
    /// `BitOr` (integers).
    BitOr = 4,
    /// `BitXor` (integers).
    BitXor = 5,
}

/// A launch's parameters, passed as `[u32; 8]`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(C)]
pub struct Params {
    /// A [`Kind`].
    pub kind: u32,
    /// Tile size (`N` or `n`) where the kind has one.
    pub size: u32,
    /// An [`OpId`].
    pub op: u32,
    /// The `shfl` source parameter.
    pub src: u32,
    /// `shfl_up` / `shfl_down` distance.
    pub delta: u32,
    /// `shfl_xor` lane mask.
    pub xor: u32,
    /// Unused (keeps the block 8 words).
    pub pad: [u32; 2],
}

// SAFETY: `repr(C)`, eight `u32` words and no padding: any 32 bytes are a
// `Params`.
unsafe impl cooperative_groups::Pod for Params {}
