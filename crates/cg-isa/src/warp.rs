//! Operands of the warp-level instructions: [`ShflMode`] (`shfl.sync`) and
//! [`ReduxOp`] (`redux.sync`).

/// The four modes of `shfl.sync`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ShflMode {
    /// `.idx`: read from an absolute lane (`__shfl_sync`).
    Idx,
    /// `.up`: read from `lane - delta` (`__shfl_up_sync`).
    Up,
    /// `.down`: read from `lane + delta` (`__shfl_down_sync`).
    Down,
    /// `.bfly`: read from `lane ^ mask` (`__shfl_xor_sync`).
    Bfly,
}

/// The operations of `redux.sync` (sm_80+), on 32-bit integers.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ReduxOp {
    /// `redux.sync.add.u32`: wrapping sum (also the signed sum).
    Add,
    /// `redux.sync.min.u32`: unsigned minimum.
    MinU,
    /// `redux.sync.max.u32`: unsigned maximum.
    MaxU,
    /// `redux.sync.min.s32`: signed minimum.
    MinS,
    /// `redux.sync.max.s32`: signed maximum.
    MaxS,
    /// `redux.sync.and.b32`: bitwise and.
    And,
    /// `redux.sync.or.b32`: bitwise or.
    Or,
    /// `redux.sync.xor.b32`: bitwise xor.
    Xor,
}
