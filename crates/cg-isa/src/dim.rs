//! [`Dim3`]: CUDA's three-dimensional extent and index type.

use core::fmt;

/// A 3-D extent or index, as CUDA's `dim3` (x varies fastest).
///
/// Its [`Default`] is `(1, 1, 1)`, as CUDA's `dim3()`; it prints as
/// `(x,y,z)`, as `compute-sanitizer` names threads and blocks.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
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
    #[inline]
    pub const fn new(x: u32, y: u32, z: u32) -> Self {
        Dim3 { x, y, z }
    }

    /// `(x, 1, 1)`: the usual one-dimensional launch.
    #[inline]
    pub const fn x(x: u32) -> Self {
        Dim3 { x, y: 1, z: 1 }
    }

    /// `[x, y, z]` as a `Dim3` (the form the hardware's special registers
    /// come in).
    #[inline(always)]
    pub const fn from_array([x, y, z]: [u32; 3]) -> Self {
        Dim3 { x, y, z }
    }

    /// As a `[x, y, z]` array.
    #[inline]
    pub const fn to_array(self) -> [u32; 3] {
        [self.x, self.y, self.z]
    }

    /// `x * y * z`, without overflow.
    #[inline]
    pub const fn volume(&self) -> u64 {
        self.x as u64 * self.y as u64 * self.z as u64
    }

    /// The row-major linear index of `idx` inside an extent `self` (x
    /// fastest), in 32 bits, as CUDA's `thread_rank` and `block_rank`.
    ///
    /// Precondition: `idx` lies inside `self` and `self.volume() ≤
    /// u32::MAX`; then no intermediate wraps and distinct indices get
    /// distinct ranks. Every block has at most 1024 threads, and the
    /// launchers refuse a grid of more than
    /// [`MAX_GRID_BLOCKS`](crate::MAX_GRID_BLOCKS) blocks
    /// ([`LaunchConfig::validate_shape`](crate::LaunchConfig::validate_shape),
    /// the simulator's launch check), so the ranks of a launch's threads in
    /// their block and of its blocks in the grid hold it: the kernels pay
    /// no check. Checked in builds with debug assertions.
    #[inline(always)]
    pub const fn linear(&self, idx: Dim3) -> u32 {
        debug_assert!(
            self.volume() <= u32::MAX as u64,
            "Dim3::linear: the extent has more than u32::MAX indices"
        );
        (idx.z * self.y + idx.y) * self.x + idx.x
    }

    /// The index whose x-fastest linear index inside the extent `self` is
    /// `i`: the inverse of [`linear`](Self::linear). `self` has no zero
    /// component.
    #[inline]
    pub const fn delinearize(self, i: u64) -> Dim3 {
        let x = self.x as u64;
        let y = self.y as u64;
        Dim3 {
            x: (i % x) as u32,
            y: (i / x % y) as u32,
            z: (i / (x * y)) as u32,
        }
    }
}

/// `(1, 1, 1)`, as CUDA's `dim3()`.
impl Default for Dim3 {
    #[inline]
    fn default() -> Self {
        Dim3::new(1, 1, 1)
    }
}

/// `(x, 1, 1)`.
impl From<u32> for Dim3 {
    #[inline]
    fn from(x: u32) -> Self {
        Dim3::x(x)
    }
}

/// `(x, y, 1)`.
impl From<(u32, u32)> for Dim3 {
    #[inline]
    fn from((x, y): (u32, u32)) -> Self {
        Dim3::new(x, y, 1)
    }
}

/// `(x, y, z)`.
impl From<(u32, u32, u32)> for Dim3 {
    #[inline]
    fn from((x, y, z): (u32, u32, u32)) -> Self {
        Dim3::new(x, y, z)
    }
}

/// `[x, y, z]`.
impl From<[u32; 3]> for Dim3 {
    #[inline]
    fn from(a: [u32; 3]) -> Self {
        Dim3::from_array(a)
    }
}

impl fmt::Display for Dim3 {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "({},{},{})", self.x, self.y, self.z)
    }
}

#[cfg(test)]
mod tests {
    use super::Dim3;

    #[test]
    fn linear_and_delinearize_are_inverse() {
        let e = Dim3::new(3, 4, 5);
        for i in 0..e.volume() {
            let d = e.delinearize(i);
            assert!(d.x < 3 && d.y < 4 && d.z < 5);
            assert_eq!(e.linear(d) as u64, i);
        }
        assert_eq!(e.linear(Dim3::new(2, 1, 1)), 2 + 3 + 12);
    }

    #[test]
    fn conversions_and_defaults() {
        assert_eq!(Dim3::from(7), Dim3::new(7, 1, 1));
        assert_eq!(Dim3::from((2, 3)), Dim3::new(2, 3, 1));
        assert_eq!(Dim3::from([2, 3, 4]).to_array(), [2, 3, 4]);
        assert_eq!(Dim3::default(), Dim3::x(1));
        assert_eq!(Dim3::new(1, 0, 2).volume(), 0);
        assert_eq!(
            Dim3::new(u32::MAX, u32::MAX, 1).volume(),
            (u32::MAX as u64).pow(2)
        );
    }

    #[test]
    fn prints_as_compute_sanitizer_names_threads() {
        extern crate std;
        assert_eq!(std::format!("{}", Dim3::new(37, 0, 2)), "(37,0,2)");
    }
}
