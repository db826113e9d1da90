//! How [`WarpLoad`](super::WarpLoad), [`WarpStore`](super::WarpStore),
//! [`BlockLoad`](super::BlockLoad) and [`BlockStore`](super::BlockStore)
//! move a tile (CUB's `BlockLoadAlgorithm` / `WarpLoadAlgorithm`), as
//! types: the choice is made when the kernel is compiled.
//!
//! | algorithm | global accesses | registers hold | shared memory |
//! | --- | --- | --- | --- |
//! | [`Direct`] | blocked (each thread `ITEMS` consecutive items) | blocked | none |
//! | [`Striped`] | striped (coalesced) | striped | none |
//! | [`Vectorize`] | blocked, 16- or 8-byte vectors where aligned (element accesses otherwise, and for partial tiles) | blocked | none |
//! | [`Transpose`] | striped (coalesced) | blocked, through an exchange of the group | the exchange's |
//! | [`WarpTranspose`] (block only) | warp-striped (coalesced per warp) | blocked, through one exchange per warp (`bar.warp.sync`, no block barrier) | the exchange's |

/// Blocked accesses straight to registers.
#[derive(Clone, Copy, Debug, Default)]
pub struct Direct;
/// Striped accesses straight to registers (the registers hold the striped
/// arrangement).
#[derive(Clone, Copy, Debug, Default)]
pub struct Striped;
/// Blocked accesses as 16- or 8-byte vectors where the tile and the
/// thread's run are aligned.
#[derive(Clone, Copy, Debug, Default)]
pub struct Vectorize;
/// Striped (coalesced) accesses, exchanged with the blocked arrangement
/// through shared memory.
#[derive(Clone, Copy, Debug, Default)]
pub struct Transpose;
/// Warp-striped (coalesced per warp) accesses, exchanged with the blocked
/// arrangement by each warp in its part of the storage: no block barrier.
/// The block's size must be a multiple of 32 (checked when compiled).
#[derive(Clone, Copy, Debug, Default)]
pub struct WarpTranspose;

/// Which algorithm (not part of the API).
#[doc(hidden)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    Direct,
    Striped,
    Vectorize,
    Transpose,
    WarpTranspose,
}

mod sealed {
    pub trait Sealed {}
}

/// An algorithm of the block loads and stores (sealed).
pub trait BlockAlgorithm: sealed::Sealed {
    /// Which one (not part of the API).
    #[doc(hidden)]
    const KIND: Kind;
}

/// An algorithm of the warp loads and stores (sealed): all but
/// [`WarpTranspose`].
#[diagnostic::on_unimplemented(
    message = "`{Self}` is not an algorithm of the warp loads and stores",
    label = "use Direct, Striped, Vectorize or Transpose",
    note = "WarpTranspose is the block's algorithm whose exchange is per warp; a warp's own is Transpose"
)]
pub trait WarpAlgorithm: BlockAlgorithm {}

/// The algorithms that need no shared memory: [`Direct`], [`Striped`],
/// [`Vectorize`] (their loads and stores have a constructor without
/// storage, `without_storage`).
#[diagnostic::on_unimplemented(
    message = "`{Self}` exchanges through shared memory",
    label = "this algorithm needs a TempStorage",
    note = "construct it with `new(&group, &temp)`, `temp` from `temp_storage!`"
)]
pub trait NoStorage: BlockAlgorithm {}

macro_rules! algorithm {
    ($($t:ident: $($tr:ident)*;)*) => { $(
        impl sealed::Sealed for $t {}
        impl BlockAlgorithm for $t {
            const KIND: Kind = Kind::$t;
        }
        $( impl $tr for $t {} )*
    )* };
}
algorithm! {
    Direct: WarpAlgorithm NoStorage;
    Striped: WarpAlgorithm NoStorage;
    Vectorize: WarpAlgorithm NoStorage;
    Transpose: WarpAlgorithm;
    WarpTranspose: ;
}
