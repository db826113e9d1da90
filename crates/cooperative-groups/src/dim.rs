//! `Dim3`: CUDA's three-dimensional extent and index type.

/// A 3-D extent or index, as CUDA's `dim3`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub struct Dim3 {
    /// x component.
    pub x: u32,
    /// y component.
    pub y: u32,
    /// z component.
    pub z: u32,
}

impl Dim3 {
    /// `(x, y, z)`.
    pub const fn new(x: u32, y: u32, z: u32) -> Self {
        Dim3 { x, y, z }
    }

    /// `(x, 1, 1)`: the usual one-dimensional launch.
    pub const fn x(x: u32) -> Self {
        Dim3 { x, y: 1, z: 1 }
    }

    /// `x * y * z`, without overflow.
    pub const fn volume(&self) -> u64 {
        self.x as u64 * self.y as u64 * self.z as u64
    }

    /// The row-major linear index of `idx` inside an extent `self` (x fastest).
    #[inline(always)]
    pub const fn linear(&self, idx: Dim3) -> u32 {
        (idx.z * self.y + idx.y) * self.x + idx.x
    }

    #[inline(always)]
    pub(crate) const fn from_raw(r: [u32; 3]) -> Self {
        Dim3 {
            x: r[0],
            y: r[1],
            z: r[2],
        }
    }
}

impl From<u32> for Dim3 {
    fn from(x: u32) -> Self {
        Dim3::x(x)
    }
}

impl From<(u32, u32)> for Dim3 {
    fn from((x, y): (u32, u32)) -> Self {
        Dim3::new(x, y, 1)
    }
}

impl From<(u32, u32, u32)> for Dim3 {
    fn from((x, y, z): (u32, u32, u32)) -> Self {
        Dim3::new(x, y, z)
    }
}

impl core::fmt::Display for Dim3 {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        write!(f, "({}, {}, {})", self.x, self.y, self.z)
    }
}
