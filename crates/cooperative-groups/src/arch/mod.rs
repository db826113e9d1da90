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

/// The four shuffle modes of `shfl.sync`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ShflMode {
    /// Read from an absolute lane (`__shfl_sync`).
    Idx,
    /// Read from `lane - delta` (`__shfl_up_sync`).
    Up,
    /// Read from `lane + delta` (`__shfl_down_sync`).
    Down,
    /// Read from `lane ^ mask` (`__shfl_xor_sync`).
    Bfly,
}

/// The operations of `redux.sync` (sm_80+), 32-bit integers only.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ReduxOp {
    /// Wrapping sum.
    Add,
    /// Unsigned minimum.
    MinU,
    /// Unsigned maximum.
    MaxU,
    /// Signed minimum.
    MinS,
    /// Signed maximum.
    MaxS,
    /// Bitwise and.
    And,
    /// Bitwise or.
    Or,
    /// Bitwise xor.
    Xor,
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

#[cfg(target_arch = "nvptx64")]
pub mod ptx;
#[cfg(target_arch = "nvptx64")]
pub use ptx::*;

#[cfg(not(target_arch = "nvptx64"))]
mod sim;
#[cfg(not(target_arch = "nvptx64"))]
pub use sim::*;
