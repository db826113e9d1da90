/// How the Tensor Memory Accelerator lays a box out in shared memory
/// (`CUtensorMapSwizzle`): the 16-byte chunks of each 128-byte line of the
/// tile trade places by XOR with the line's index, so that a column of
/// chunks spreads over the banks instead of hitting one.
///
/// With a swizzle of `S` bytes (32, 64 or 128) a box row is `S` bytes, and
/// byte offset `o` of the dense (row-major) box lands at
/// [`apply(o)`](Self::apply): bits 4.. of `o` (the chunk within a line)
/// XOR the low bits of `o >> 7` (the line), `log2(S / 16)` of them. The
/// pattern repeats every `8 · S` bytes, the alignment the tile needs
/// ([`align`](Self::align)). The map is its own inverse.
///
/// ```
/// use cg_isa::Swizzle;
///
/// // 128-byte swizzle: line 3's chunk 1 sits in chunk 1 ^ 3 = 2.
/// assert_eq!(Swizzle::B128.apply(3 * 128 + 16 + 5), 3 * 128 + 2 * 16 + 5);
/// // 32-byte swizzle: lines alternate their two chunks.
/// assert_eq!(Swizzle::B32.apply(128), 128 + 16);
/// assert_eq!(Swizzle::None.apply(200), 200);
/// for o in 0..2048 {
///     assert_eq!(Swizzle::B64.apply(Swizzle::B64.apply(o)), o);
/// }
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Swizzle {
    /// Dense rows (`CU_TENSOR_MAP_SWIZZLE_NONE`).
    None,
    /// 32-byte rows, two chunks (`CU_TENSOR_MAP_SWIZZLE_32B`).
    B32,
    /// 64-byte rows, four chunks (`CU_TENSOR_MAP_SWIZZLE_64B`).
    B64,
    /// 128-byte rows, eight chunks (`CU_TENSOR_MAP_SWIZZLE_128B`).
    B128,
}

impl Swizzle {
    /// Bytes of a swizzled box row (0: not swizzled).
    pub const fn bytes(self) -> usize {
        match self {
            Swizzle::None => 0,
            Swizzle::B32 => 32,
            Swizzle::B64 => 64,
            Swizzle::B128 => 128,
        }
    }

    /// The alignment a tile needs in shared memory, bytes: 128, or the
    /// pattern's period (`8 ·` [`bytes`](Self::bytes)) when swizzled.
    pub const fn align(self) -> usize {
        match self {
            Swizzle::None => 128,
            s => 8 * s.bytes(),
        }
    }

    /// Where byte `offset` of the dense box lies in the tile (offsets from
    /// a tile aligned to [`align`](Self::align)).
    #[inline(always)]
    pub const fn apply(self, offset: usize) -> usize {
        let lines = match self {
            Swizzle::None => 0,
            Swizzle::B32 => 1,
            Swizzle::B64 => 3,
            Swizzle::B128 => 7,
        };
        offset ^ (((offset >> 7) & lines) << 4)
    }
}

/// The most dimensions a tensor map has (`CUtensorMap`: 1 to 5); the tile
/// copies' descriptors carry this many, the unused ones 1.
pub const MAX_TENSOR_RANK: usize = 5;
