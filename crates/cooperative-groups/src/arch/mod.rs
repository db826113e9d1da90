//! The only layer that touches hardware: one set of primitives, two backends.
//!
//! * [`ptx`] (nvptx64 only): each primitive is inline PTX.
//! * `sim` (host only): each primitive forwards to the `cg-sim` simulator,
//!   which runs the same kernel on CPU lanes with real warp semantics.
//!
//! Everything above this module is backend-neutral Rust. On the host every
//! primitive is `#[track_caller]`, and so is every public function above it
//! that can block, so the simulator reports misuse at the user's source line.

/// A `(x, y, z)` triple as the hardware reports it.
pub type RawDim3 = [u32; 3];

pub use cg_isa::{MemOrder, MemScope, ReduxOp, ShflMode};

/// Where an atomic access happens: its scope, and whether its address is
/// known to be in global memory (the `.global` state space, as nvcc emits
/// for a global pointer) or only generic (global or shared).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct At {
    /// The scope (`.cta`, `.cluster`, `.gpu`, `.sys`).
    pub scope: MemScope,
    /// The address is global: `atom.global`, `red.global`, `ld.global`,
    /// `st.global` (after `cvta.to.global`).
    pub global: bool,
}

impl At {
    /// A generic address at scope `scope`.
    pub const fn generic(scope: MemScope) -> At {
        At {
            scope,
            global: false,
        }
    }
}

/// Orderings an atomic load can have (`ld.relaxed`, `ld.acquire`,
/// `fence.sc` + `ld.acquire`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LoadOrder {
    /// `ld.relaxed`.
    Relaxed,
    /// `ld.acquire`.
    Acquire,
    /// `fence.sc` + `ld.acquire`.
    SeqCst,
}

/// The cache operator of a global load (PTX `ld.global.{ca,cg,cs,lu,cv}`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LoadCache {
    /// `.ca`: cache in L1 and L2.
    All,
    /// `.cg`: cache in L2 only.
    Global,
    /// `.cs`: streaming, evict first.
    Streaming,
    /// `.lu`: last use.
    LastUse,
    /// `.cv`: fetch again, cache nothing.
    Volatile,
    /// `.L1::no_allocate`: do not allocate the line in L1 (sm_90 builds;
    /// `.cg` below).
    L1NoAllocate,
    /// First to be evicted from L2: an `evict_first` policy and
    /// `.L2::cache_hint` (sm_90 builds; `.cs` below).
    L2EvictFirst,
    /// Last to be evicted from L2: an `evict_last` policy and
    /// `.L2::cache_hint` (sm_90 builds; no qualifier below).
    L2EvictLast,
}

/// The cache operator of a global store (PTX `st.global.{wb,cg,cs,wt}`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum StoreCache {
    /// `.wb`: write back (the default).
    WriteBack,
    /// `.cg`: cache in L2 only.
    Global,
    /// `.cs`: streaming, evict first.
    Streaming,
    /// `.wt`: write through to system memory.
    WriteThrough,
    /// `.L1::no_allocate` (sm_90 builds; `.cg` below).
    L1NoAllocate,
    /// An `evict_first` policy and `.L2::cache_hint` (sm_90 builds; `.cs`
    /// below).
    L2EvictFirst,
    /// An `evict_last` policy and `.L2::cache_hint` (sm_90 builds; no
    /// qualifier below).
    L2EvictLast,
}

/// The primary L2 eviction priority of a cache policy
/// (`createpolicy.fractional.L2::{evict_last,evict_normal,evict_first}`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum L2Priority {
    /// `.L2::evict_last`.
    Last,
    /// `.L2::evict_normal`.
    Normal,
    /// `.L2::evict_first`.
    First,
}

/// Orderings an atomic store can have (`st.relaxed`, `st.release`,
/// `fence.sc` + `st.relaxed`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum StoreOrder {
    /// `st.relaxed`.
    Relaxed,
    /// `st.release`.
    Release,
    /// `fence.sc` + `st.relaxed`.
    SeqCst,
}

/// Orderings a `red` (an atomic without a result) can have: the PTX ISA
/// gives `red` only `.relaxed` and `.release`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RedOrder {
    /// `red.relaxed`.
    Relaxed,
    /// `red.release`.
    Release,
}

impl RedOrder {
    /// The same ordering as a read-modify-write's.
    pub const fn rmw(self) -> MemOrder {
        match self {
            RedOrder::Relaxed => MemOrder::Relaxed,
            RedOrder::Release => MemOrder::Release,
        }
    }
}

/// The two kinds of `fence` (acquire, release and acq_rel fences are all
/// `fence.acq_rel`, as in libcu++).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FenceOrder {
    /// `fence.acq_rel`.
    AcqRel,
    /// `fence.sc`.
    SeqCst,
}

/// The read-modify-write operations of `atom` on 32-bit words.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Rmw32 {
    /// `atom.add.u32` (also the signed add: two's complement).
    Add,
    /// `atom.add.f32` (the operands are `f32` bits).
    AddF,
    /// `atom.min.u32`.
    MinU,
    /// `atom.min.s32`.
    MinS,
    /// `atom.max.u32`.
    MaxU,
    /// `atom.max.s32`.
    MaxS,
    /// `atom.and.b32`.
    And,
    /// `atom.or.b32`.
    Or,
    /// `atom.xor.b32`.
    Xor,
    /// `atom.exch.b32`.
    Exch,
    /// `atom.inc.u32`: `old >= v ? 0 : old + 1`.
    Inc,
    /// `atom.dec.u32`: `old == 0 || old > v ? v : old - 1`.
    Dec,
    /// `atom.add.noftz.f16x2`: both halves of an `f16` pair, each rounded
    /// to nearest even (the operands are pair bits).
    AddF16x2,
    /// `atom.add.noftz.bf16x2` (sm_90; a compare-and-swap loop below, as
    /// `cuda_bf16.hpp`'s `atomicAdd` there).
    AddBf16x2,
}

/// The read-modify-write operations on 16-bit words: the half-precision
/// adds and the exchange (PTX has `atom.cas.b16` but no `atom.exch.b16`:
/// the exchange is a compare-and-swap loop on the GPU).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Rmw16 {
    /// `atom.add.noftz.f16` (sm_70+; the operands are `f16` bits).
    AddF16,
    /// `atom.add.noftz.bf16` (sm_90; a compare-and-swap loop below, as
    /// `cuda_bf16.hpp`'s `atomicAdd` there).
    AddBf16,
    /// The exchange.
    Exch,
}

/// The read-modify-write operations of `atom` on 64-bit words (PTX has no
/// 64-bit `inc`/`dec`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Rmw64 {
    /// `atom.add.u64`.
    Add,
    /// `atom.add.f64` (sm_60+; the operands are `f64` bits).
    AddF,
    /// `atom.min.u64`.
    MinU,
    /// `atom.min.s64`.
    MinS,
    /// `atom.max.u64`.
    MaxU,
    /// `atom.max.s64`.
    MaxS,
    /// `atom.and.b64`.
    And,
    /// `atom.or.b64`.
    Or,
    /// `atom.xor.b64`.
    Xor,
    /// `atom.exch.b64`.
    Exch,
}

/// The `c` operand of `shfl.sync` for a logical warp of `width` lanes
/// (a power of two ≤ 32): segment mask in bits 8..12, clamp in bits 0..4.
#[inline(always)]
pub const fn shfl_c(mode: ShflMode, width: u32) -> u32 {
    let seg = (32 - width) << 8;
    match mode {
        ShflMode::Up => seg,
        _ => seg | 0x1f,
    }
}

/// `redux.sync` exists: sm_80+ on the GPU; always on the simulator, which
/// models the newest GPU so that tests run the code the H200 runs.
pub const HAS_REDUX: bool = cfg!(any(not(target_arch = "nvptx64"), target_feature = "sm_80"));

/// `elect.sync` exists: sm_90+ on the GPU; always on the simulator.
pub const HAS_ELECT: bool = cfg!(any(not(target_arch = "nvptx64"), target_feature = "sm_90"));

/// `mbarrier` exists: sm_80+ on the GPU; always on the simulator. The
/// software barrier of 64-thread tiles past the named barriers is one
/// (`group::barrier`); below sm_80 it is a pair of flags.
pub const HAS_MBARRIER: bool = cfg!(any(not(target_arch = "nvptx64"), target_feature = "sm_80"));

/// A tensor of up to five dimensions as the tile copies see it
/// (`crate::tma`): on the GPU the generic address of its 128-byte tensor
/// map (read in place in parameter space); on the simulator, which has no
/// copy engine, the tensor itself. Both backends get the whole descriptor
/// and read what they need.
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct TensorDesc {
    /// Generic address of the tensor map (GPU).
    pub map: u64,
    /// Address of element `(0, 0, …)`.
    pub base: u64,
    /// Elements along each dimension, dimension 0 innermost (1 past the
    /// tensor's rank).
    pub dims: [u32; cg_isa::MAX_TENSOR_RANK],
    /// Bytes from one index to the next along dimensions 1, 2, … (0 past
    /// the tensor's rank).
    pub strides: [u64; cg_isa::MAX_TENSOR_RANK - 1],
}

impl TensorDesc {
    /// The descriptor of a tensor from `base` of `dims.len()` ≤ 5
    /// dimensions: `dims[d]` elements along dimension `d`, `strides[d - 1]`
    /// elements from one index to the next along dimension `d ≥ 1`
    /// (`strides.len() == dims.len() - 1`), elements of `elem` bytes; no
    /// map yet (the driver's is the parameter's own bytes,
    /// [`in_place`](Self::in_place)).
    #[inline(always)]
    pub const fn of(base: u64, dims: &[u32], strides: &[usize], elem: usize) -> Self {
        let mut d = TensorDesc {
            map: 0,
            base,
            dims: [1; cg_isa::MAX_TENSOR_RANK],
            strides: [0; cg_isa::MAX_TENSOR_RANK - 1],
        };
        let mut k = 0;
        while k < dims.len() {
            d.dims[k] = dims[k];
            k += 1;
        }
        let mut k = 0;
        while k < strides.len() {
            d.strides[k] = (strides[k] * elem) as u64;
            k += 1;
        }
        d
    }

    /// The descriptor of a map parameter at the kernel's entry: `param`
    /// gives the generic address of the parameter's bytes, where the copy
    /// engine reads the map (on sm_90; elsewhere there are no copies).
    #[inline(always)]
    pub fn in_place(self, param: impl FnOnce() -> u64) -> Self {
        TensorDesc {
            map: grid_constant_address(param),
            ..self
        }
    }
}

/// A tile copy's box as the simulator needs it (the GPU reads the same
/// from the map): `boxdim[0] × … × boxdim[4]` elements of `elem` bytes
/// (1 past the map's rank), laid out by `swizzle`.
#[derive(Clone, Copy, Debug)]
pub struct BoxShape {
    /// The box's extent along each dimension.
    pub boxdim: [u32; cg_isa::MAX_TENSOR_RANK],
    /// Bytes per element.
    pub elem: u32,
    /// The layout in shared memory.
    pub swizzle: cg_isa::Swizzle,
}

impl BoxShape {
    /// The box of a rank-`R` map: `boxdim` elements of `elem` bytes per
    /// dimension, laid out by `swizzle`.
    pub const fn of<const R: usize>(
        boxdim: [u32; R],
        elem: usize,
        swizzle: cg_isa::Swizzle,
    ) -> Self {
        let mut b = [1; cg_isa::MAX_TENSOR_RANK];
        let mut k = 0;
        while k < R {
            b[k] = boxdim[k];
            k += 1;
        }
        BoxShape {
            boxdim: b,
            elem: elem as u32,
            swizzle,
        }
    }

    /// Bytes of the box (the GPU's transaction count).
    #[cfg_attr(not(target_arch = "nvptx64"), allow(dead_code))]
    pub const fn bytes(&self) -> u32 {
        let b = &self.boxdim;
        b[0] * b[1] * b[2] * b[3] * b[4] * self.elem
    }
}

/// A box coordinate for the tile copies: its first element along each
/// dimension (0 past the map's rank).
pub type TensorAt = [i32; cg_isa::MAX_TENSOR_RANK];

/// `at` padded to a [`TensorAt`].
#[inline(always)]
pub const fn tensor_at<const R: usize>(at: [i32; R]) -> TensorAt {
    let mut a = [0; cg_isa::MAX_TENSOR_RANK];
    let mut k = 0;
    while k < R {
        a[k] = at[k];
        k += 1;
    }
    a
}

/// Bytes per warp in the library's per-block collective scratch
/// ([`collective_scratch`]): room for one 32-byte value per warp of the
/// largest block (32 warps), stored word-interleaved (word `i` of warp `w`
/// at word `32·i + w`, see `collective::block::exchange`).
pub const SCRATCH_SLOT_BYTES: u32 = 32;
/// Slots in the collective scratch: one per warp of a 1024-thread block.
pub const SCRATCH_SLOTS: u32 = 32;
/// Bytes of the collective scratch: two halves of [`SCRATCH_SLOTS`] slots,
/// the partials (written before a collective's first barrier, read between
/// its barriers) and the results (written between the barriers, read by
/// their own warp after the second), so that no lane's read of one
/// collective's result races with another lane's write of the next
/// collective's partial (see `collective::block::exchange`).
pub const SCRATCH_BYTES: u32 = 2 * SCRATCH_SLOTS * SCRATCH_SLOT_BYTES;
/// Bytes of the raking scratch of the block scan ([`rake_scratch`],
/// `collective::block::rake`): one 32-bit word per thread of a 256-thread block
/// (the largest it rakes), plus one padding word per 32 so that the raking
/// lanes' strided reads hit distinct banks (the last padding word carries
/// the block's total for the scans that return it).
pub const RAKE_BYTES: u32 = 4 * (256 + 256 / 32);
/// 64-thread tiles that can use the software barrier: those of a
/// 1024-thread block.
pub const SOFT_SLOTS: u32 = 16;
/// Bytes of each software-barrier slot: the tile's mbarrier, the swaps'
/// mbarrier and a `u32` per warp and phase parity (below sm_80: a `u32`
/// flag per warp, then two 8-byte swap words per warp; see
/// `group::barrier`).
pub const SOFT_SLOT_BYTES: u32 = 8 + 2 * 2 * 8;
/// Bytes of the software-barrier state ([`soft_barrier_scratch`]).
pub const SOFT_BARRIER_BYTES: u32 = SOFT_SLOTS * SOFT_SLOT_BYTES;

/// `fns.b32 d, mask, base, offset` as the PTX ISA defines it: the position
/// of the `|offset|`-th set bit of `mask` counting from bit `base` (upwards
/// for a positive offset, downwards for a negative one; `offset == 0` asks
/// whether bit `base` itself is set), or `0xffff_ffff` if there is none.
///
/// The simulator backend uses this model; the GPU backend emits `fns.b32`,
/// whose semantics it transcribes.
#[cfg(not(target_arch = "nvptx64"))]
#[inline(always)]
pub const fn fns_model(mask: u32, base: u32, offset: i32) -> u32 {
    let base = base & 31;
    if offset == 0 {
        return if mask >> base & 1 == 1 {
            base
        } else {
            u32::MAX
        };
    }
    let mut pos = base as i32;
    let mut count = offset.unsigned_abs() - 1;
    let inc = if offset > 0 { 1 } else { -1 };
    while pos >= 0 && pos < 32 {
        if mask >> pos & 1 == 1 {
            if count == 0 {
                return pos as u32;
            }
            count -= 1;
        }
        pos += inc;
    }
    u32::MAX
}

/// Bytes of one half of the grid collectives' global scratch (the module's
/// `cg_grid_scratch` array holds two halves, one per grid-barrier phase).
pub const GRID_SCRATCH_BYTES: usize = 1 << 16;

/// What `__private` exports for the macros' expansions and the simulator
/// tests: [`assume_block_dim`] (`#[kernel(block_dim(…))]`, both backends);
/// on the host, [`static_shared`] (`shared_array!`) and
/// [`set_soft_setup_first_sync`] (a test switch: leave out the first parent
/// sync of a software-barrier tile's set-up, see `tests/race.rs`).
pub mod hooks {
    pub use super::assume_block_dim;
    #[cfg(not(target_arch = "nvptx64"))]
    pub use super::sim::{set_soft_setup_first_sync, static_shared};
}

/// Software models of the 16-bit float instructions (both backends).
pub mod soft16;

/// The warp MMA's fragment layouts (both backends).
pub mod mma_layout;

/// The warpgroup MMA's descriptors and accumulator layout (both backends).
pub mod wgmma_layout;

/// A `wgmma` operand in shared memory: its start address and the
/// descriptor's layout bits ([`wgmma_layout::desc_layout`]). The GPU
/// backend packs them into the 64-bit descriptor at the instruction; the
/// simulator reads the elements through them.
#[derive(Clone, Copy, Debug)]
pub struct SmemDesc {
    /// The `.shared` address of the operand's first row.
    pub start: SharedAddr,
    /// The descriptor's bits other than the address.
    pub layout: u64,
}

// Both backends carry the primitives of the whole guide (grid, cluster,
// atomics, …); a kernel crate uses a subset, and later features the rest.
#[cfg(target_arch = "nvptx64")]
#[allow(dead_code)]
pub mod ptx;
#[cfg(target_arch = "nvptx64")]
pub use ptx::*;

#[cfg(not(target_arch = "nvptx64"))]
#[allow(dead_code)]
mod sim;
#[cfg(not(target_arch = "nvptx64"))]
pub use sim::*;

#[cfg(test)]
mod tests {
    use super::fns_model;

    /// The examples of the PTX ISA's `fns` section, and a brute-force model.
    #[test]
    fn fns_matches_the_isa() {
        assert_eq!(fns_model(0xaaaa_aaaa, 3, 1), 3);
        assert_eq!(fns_model(0xaaaa_aaaa, 3, -1), 3);
        assert_eq!(fns_model(0xaaaa_aaaa, 2, 1), 3);
        assert_eq!(fns_model(0xaaaa_aaaa, 2, -1), 1);
        assert_eq!(fns_model(0xaaaa_aaaa, 2, 0), u32::MAX);
        assert_eq!(fns_model(0, 0, 1), u32::MAX);
        for mask in [0u32, 1, 0x8000_0001, 0xffff_ffff, 0x1234_5678, 0xf0f0_0f0f] {
            for base in 0..32u32 {
                for offset in -33i32..=33 {
                    let nth = |n: usize| {
                        let bit = |b: &u32| mask >> b & 1 == 1;
                        if offset >= 0 {
                            (base..32).filter(bit).nth(n)
                        } else {
                            (0..=base).rev().filter(bit).nth(n)
                        }
                    };
                    let want = match offset {
                        0 if mask >> base & 1 == 1 => base,
                        0 => u32::MAX,
                        _ => nth(offset.unsigned_abs() as usize - 1).unwrap_or(u32::MAX),
                    };
                    assert_eq!(
                        fns_model(mask, base, offset),
                        want,
                        "mask {mask:#x} base {base} offset {offset}"
                    );
                }
            }
        }
    }
}
