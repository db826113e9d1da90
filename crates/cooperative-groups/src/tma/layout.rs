//! How a tile lies in shared memory: dense rows, or the copy engine's
//! swizzles, as a type parameter of the tensor maps (CUDA's
//! `CUtensorMapSwizzle`, chosen when the map is encoded).
//!
//! A swizzle permutes the 16-byte chunks of each 128-byte line of the tile
//! by XOR with the line's index ([`cg_isa::Swizzle`] defines it, for the
//! simulator too), so that threads reading a column of a tile hit
//! different banks. Kernels find element `(x, y)` of a box at
//! [`TensorMap2d::tile_index`](super::TensorMap2d::tile_index), which
//! knows the layout from the map's type — no index arithmetic to get
//! wrong, and the same code for every layout.
//!
//! The rules, checked when a kernel using the map is built (errors from
//! `cargo build`, not `cargo check`: they are constant evaluations): a
//! swizzled box row is exactly the swizzle's width (`BW ·
//! size_of::<T>()` = 32, 64 or 128 bytes); the tile is aligned to the
//! pattern's period (256, 512 or 1024 bytes: `shared_array!(T; N, align
//! 1024)`), checked at the copy (a panic on the simulator, a trap on the
//! GPU).

/// A tile layout: [`Dense`], [`Swizzle32B`], [`Swizzle64B`] or
/// [`Swizzle128B`]. Sealed.
pub trait TileLayout: sealed::Sealed + Copy + Send + Sync + 'static {
    /// The copy engine's swizzle.
    const SWIZZLE: cg_isa::Swizzle;
}

mod sealed {
    pub trait Sealed {}
}

macro_rules! layouts {
    ($($(#[$doc:meta])* $name:ident = $mode:ident;)*) => {$(
        $(#[$doc])*
        #[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
        pub struct $name;
        impl sealed::Sealed for $name {}
        impl TileLayout for $name {
            const SWIZZLE: cg_isa::Swizzle = cg_isa::Swizzle::$mode;
        }
    )*};
}

layouts! {
    /// Dense rows: element `(x, y)` of a `BW`-wide box at `y · BW + x`
    /// (`CU_TENSOR_MAP_SWIZZLE_NONE`); the tile 128-byte aligned.
    Dense = None;
    /// 32-byte rows whose two 16-byte chunks swap on odd 128-byte lines
    /// (`CU_TENSOR_MAP_SWIZZLE_32B`); the tile 256-byte aligned.
    Swizzle32B = B32;
    /// 64-byte rows, chunks XOR the line index mod 4
    /// (`CU_TENSOR_MAP_SWIZZLE_64B`); the tile 512-byte aligned.
    Swizzle64B = B64;
    /// 128-byte rows, chunks XOR the line index mod 8
    /// (`CU_TENSOR_MAP_SWIZZLE_128B`); the tile 1024-byte aligned.
    Swizzle128B = B128;
}
