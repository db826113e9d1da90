//! How [`WarpLoad`](super::WarpLoad), [`WarpStore`](super::WarpStore),
//! [`BlockLoad`](super::BlockLoad) and [`BlockStore`](super::BlockStore)
//! move a tile (CUB's `BlockLoadAlgorithm` / `WarpLoadAlgorithm`), as
//! types: the choice is made when the kernel is compiled.
//!
//! | algorithm | global accesses | registers hold | shared memory | a block store's safe target |
//! | --- | --- | --- | --- | --- |
//! | [`Direct`] | blocked (each thread `ITEMS` consecutive items) | blocked | none | the thread's chunk ([`BlockedGlobal`]) |
//! | [`Striped`] | striped (coalesced) | striped | none | the block's window ([`StripedGlobal`]) |
//! | [`Vectorize`] | blocked, 16- or 8-byte vectors where aligned (element accesses otherwise, and for partial tiles) | blocked | none | the thread's chunk ([`BlockedGlobal`]) |
//! | [`Transpose`] | striped (coalesced) | blocked, through an exchange of the group | the exchange's | the block's window ([`StripedGlobal`]) |
//! | [`WarpTranspose`] (block only) | warp-striped (coalesced per warp) | blocked, through one exchange per warp (`bar.warp.sync`, no block barrier) | the exchange's | none (`unsafe` raw stores only) |
//!
//! The last column is ownership: a store into an
//! [`OwnedSlice`](crate::OwnedSlice) writes each element from the thread
//! the slice's partition gives it to, so the algorithm's arrangement must
//! be the partition's. A [`PerBlock<W>`](crate::PerBlock) window belongs to
//! the block striped (thread `r` owns `r, r + BLOCK, …`):
//! [`BlockStore::store_window`](super::BlockStore::store_window) takes the
//! striped algorithms. A [`Chunked<ITEMS>`](crate::Chunked) chunk belongs
//! to one thread (its `ITEMS` contiguous elements):
//! [`BlockStore::store_chunk`](super::BlockStore::store_chunk) takes the
//! blocked ones. Any other pairing would let two threads write one element,
//! and does not compile.

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

/// The algorithms whose global accesses are striped over the block,
/// [`Striped`] and [`Transpose`] (sealed): thread `r` of a block of `BLOCK`
/// accesses items `r, r + BLOCK, r + 2·BLOCK, …` of the tile — the
/// ownership of a [`PerBlock`](crate::PerBlock) window, so
/// [`BlockStore::store_window`](super::BlockStore::store_window) takes
/// these only.
#[diagnostic::on_unimplemented(
    message = "`{Self}` does not write the tile striped over the block, as a `PerBlock` window is owned",
    label = "the window's element `j` belongs to thread `j mod BLOCK`: store it with `Striped` or `Transpose`",
    note = "a blocked store (`Direct`, `Vectorize`) writes each thread's own `Chunked<ITEMS>` chunk: `store_chunk(out.chunk(&grid), items)`"
)]
pub trait StripedGlobal: BlockAlgorithm {}

/// The algorithms whose global accesses are blocked, [`Direct`] and
/// [`Vectorize`] (sealed): thread `r` accesses its `ITEMS` contiguous items
/// `r·ITEMS .. r·ITEMS + ITEMS` — the ownership of a
/// [`Chunked<ITEMS>`](crate::Chunked) chunk, so
/// [`BlockStore::store_chunk`](super::BlockStore::store_chunk) takes these
/// only.
#[diagnostic::on_unimplemented(
    message = "`{Self}` does not write each thread's items contiguously, as a `Chunked` chunk is owned",
    label = "the chunk's elements are its thread's `ITEMS` contiguous ones: store it with `Direct` or `Vectorize`",
    note = "a striped store (`Striped`, `Transpose`) writes the block's `PerBlock<W>` window: `store_window(out.window(&block), items)`"
)]
pub trait BlockedGlobal: BlockAlgorithm {}

impl StripedGlobal for Striped {}
impl StripedGlobal for Transpose {}
impl BlockedGlobal for Direct {}
impl BlockedGlobal for Vectorize {}

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
