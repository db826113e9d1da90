//! Aligned vectors: `N` elements of a [`Pod`] type moved as one access of
//! `N × size_of::<T>()` bytes (at most 16), CUDA's `float4`, `int2`,
//! `uint4`, `double2`, … A [`Vector`] is aligned to its size, so a typed
//! load or store of one is a single vector instruction: `ld.global.nc.v4`
//! (SASS `LDG.E.128.CONSTANT`), `st.global.v4` (`STG.E.128`),
//! `ld.shared.v4`/`st.shared.v4` (`LDS.128`/`STS.128`).
//!
//! A read-only buffer of scalars is read as vectors through
//! [`GlobalSlice::align_to`](crate::GlobalSlice::align_to): its aligned
//! middle as a `GlobalSlice<Vector<T, N>>`, the elements before and after
//! it as scalars — the alignment and the tail handled once, by the API.
//!
//! ```
//! # use cooperative_groups::prelude::*;
//! # use cooperative_groups::{kernel, GlobalSlice, OwnedSlice, PerBlock};
//! use cooperative_groups::vector::F32x4;
//!
//! /// The sum of `x`, one block, reading four floats per load.
//! #[kernel]
//! pub fn sum4(x: GlobalSlice<f32>, out: OwnedSlice<f32, PerBlock>) {
//!     let block = this_thread_block();
//!     let (head, body, tail) = x.align_to::<4>();
//!     let (t, n) = (block.thread_rank() as usize, block.num_threads() as usize);
//!     let mut s = 0.0;
//!     for i in (t..body.len()).step_by(n) {
//!         let v: F32x4 = body.load(i); // one 16-byte load
//!         s += (v[0] + v[1]) + (v[2] + v[3]);
//!     }
//!     for i in (t..head.len()).step_by(n) {
//!         s += head.load(i);
//!     }
//!     for i in (t..tail.len()).step_by(n) {
//!         s += tail.load(i);
//!     }
//!     let total = reduce(&block, s, Plus);
//!     if let Some(e) = out.leader(&block) {
//!         e.store(total);
//!     }
//! }
//! let x: Vec<f32> = (0..1003).map(|i| i as f32).collect();
//! let mut out = [0.0f32];
//! // From element 1: the head is not empty wherever the buffer starts.
//! cooperative_groups::host::run(&SUM4, &cg_sim::LaunchConfig::new(1, 64), (&x[1..], &mut out[..])).unwrap();
//! assert_eq!(out[0], (1..1003).sum::<i32>() as f32);
//! ```

use core::ops::{Add, Index, IndexMut, Mul, Sub};

use crate::pod::Pod;
use crate::value::ShflValue;

/// An element type of a [`Vector`], with its size as a type ([`Width`]),
/// which picks the vector's alignment.
///
/// # Safety
/// `size_of::<Self>()` must equal `Self::Width::BYTES`, and its alignment
/// must divide it.
pub unsafe trait Element: Pod {
    /// The element's size.
    type Width: Width;
}

/// The size of an [`Element`] in bytes, as a type: [`B1`], [`B2`], [`B4`],
/// [`B8`].
pub trait Width: 'static {
    /// The size.
    const BYTES: usize;
}

macro_rules! widths {
    ($($w:ident = $n:literal),*) => { $(
        #[doc = concat!("Elements of ", $n, " byte(s).")]
        #[derive(Clone, Copy, Debug)]
        pub struct $w;
        impl Width for $w {
            const BYTES: usize = $n;
        }
    )* };
}
widths!(B1 = 1, B2 = 2, B4 = 4, B8 = 8);

macro_rules! elements {
    ($w:ident: $($t:ty),*) => { $(
        // SAFETY: a primitive of that size, aligned to a divisor of it.
        unsafe impl Element for $t {
            type Width = $w;
        }
    )* };
}
elements!(B1: u8, i8);
elements!(B2: u16, i16);
// The `half` crate's floats are `repr(transparent)` over `u16`: eight of
// them are one 16-byte vector (`Vector<bf16, 8>`, a row of bf16 moved by
// one `LDG.E.128`, as CUDA kernels move `__nv_bfloat16` through `uint4`).
elements!(B2: half::f16, half::bf16);
elements!(B4: u32, i32, f32);
elements!(B8: u64, i64, f64);

/// `N` lanes, as a type: the lane counts a [`Vector`] may have.
#[derive(Clone, Copy, Debug)]
pub struct Lanes<const N: usize>;

/// The alignment of `N` lanes of elements of width `W`: their whole size,
/// for every vector of at most 16 bytes (the widest access before sm_100).
pub trait AlignFor<W: Width> {
    /// A zero-sized type aligned to the vector's size.
    type Align: Copy + 'static;
}

macro_rules! aligners {
    ($($a:ident = $n:literal),*) => { $(
        #[doc = concat!("A zero-sized type aligned to ", $n, " bytes: what aligns a vector of that size.")]
        #[derive(Clone, Copy, Debug)]
        #[repr(align($n))]
        pub struct $a;
    )* };
}
aligners!(A2 = 2, A4 = 4, A8 = 8, A16 = 16);

macro_rules! align_for {
    ($($w:ident: $($n:literal => $a:ident),*;)*) => { $( $(
        impl AlignFor<$w> for Lanes<$n> {
            type Align = $a;
        }
    )* )* };
}
align_for! {
    B1: 2 => A2, 4 => A4, 8 => A8, 16 => A16;
    B2: 2 => A4, 4 => A8, 8 => A16;
    B4: 2 => A8, 4 => A16;
    B8: 2 => A16;
}

/// `N` elements of `T` aligned to their size (`N × size_of::<T>()`, 2 to
/// 16 bytes): moved by one vector instruction. Lanes are indexed
/// (`v[0]`), built from and turned into arrays, and added, subtracted and
/// multiplied lane by lane where `T` has those operators.
#[doc(alias = "float4")]
#[doc(alias = "float2")]
#[doc(alias = "int4")]
#[doc(alias = "uint4")]
#[doc(alias = "double2")]
#[repr(C)]
pub struct Vector<T: Element, const N: usize>
where
    Lanes<N>: AlignFor<T::Width>,
{
    _align: [<Lanes<N> as AlignFor<T::Width>>::Align; 0],
    lanes: [T; N],
}

impl<T: Element, const N: usize> Vector<T, N>
where
    Lanes<N>: AlignFor<T::Width>,
{
    /// The vector of these lanes (`make_float4(a, b, c, d)` is
    /// `Vector::new([a, b, c, d])`).
    #[doc(alias = "make_float4")]
    #[inline(always)]
    pub const fn new(lanes: [T; N]) -> Self {
        const {
            // The size the alignment table promises: no padding after the
            // lanes, so a vector is exactly its elements.
            assert!(core::mem::size_of::<Self>() == N * core::mem::size_of::<T>());
            assert!(core::mem::size_of::<T>() == T::Width::BYTES);
        }
        Vector { _align: [], lanes }
    }

    /// Every lane `v`.
    #[inline(always)]
    pub const fn splat(v: T) -> Self {
        Self::new([v; N])
    }

    /// The lanes.
    #[inline(always)]
    pub const fn to_array(self) -> [T; N] {
        self.lanes
    }

    /// The lanes, each through `f`.
    #[inline(always)]
    pub fn map<U: Element>(self, f: impl FnMut(T) -> U) -> Vector<U, N>
    where
        Lanes<N>: AlignFor<U::Width>,
    {
        Vector::new(self.lanes.map(f))
    }

    /// Lane by lane, `f(self[i], other[i])`.
    #[inline(always)]
    pub fn zip_with(self, other: Self, mut f: impl FnMut(T, T) -> T) -> Self {
        let mut out = self.lanes;
        let mut i = 0;
        while i < N {
            out[i] = f(self.lanes[i], other.lanes[i]);
            i += 1;
        }
        Vector::new(out)
    }
}

impl<T: Element, const N: usize> Clone for Vector<T, N>
where
    Lanes<N>: AlignFor<T::Width>,
{
    #[inline(always)]
    fn clone(&self) -> Self {
        *self
    }
}
impl<T: Element, const N: usize> Copy for Vector<T, N> where Lanes<N>: AlignFor<T::Width> {}

impl<T: Element + core::fmt::Debug, const N: usize> core::fmt::Debug for Vector<T, N>
where
    Lanes<N>: AlignFor<T::Width>,
{
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_tuple("Vector").field(&self.lanes).finish()
    }
}

impl<T: Element + PartialEq, const N: usize> PartialEq for Vector<T, N>
where
    Lanes<N>: AlignFor<T::Width>,
{
    #[inline(always)]
    fn eq(&self, other: &Self) -> bool {
        self.lanes == other.lanes
    }
}

impl<T: Element + Default, const N: usize> Default for Vector<T, N>
where
    Lanes<N>: AlignFor<T::Width>,
{
    #[inline(always)]
    fn default() -> Self {
        Self::splat(T::default())
    }
}

impl<T: Element, const N: usize> From<[T; N]> for Vector<T, N>
where
    Lanes<N>: AlignFor<T::Width>,
{
    #[inline(always)]
    fn from(lanes: [T; N]) -> Self {
        Self::new(lanes)
    }
}

impl<T: Element, const N: usize> From<Vector<T, N>> for [T; N]
where
    Lanes<N>: AlignFor<T::Width>,
{
    #[inline(always)]
    fn from(v: Vector<T, N>) -> Self {
        v.lanes
    }
}

impl<T: Element, const N: usize> Index<usize> for Vector<T, N>
where
    Lanes<N>: AlignFor<T::Width>,
{
    type Output = T;
    #[inline(always)]
    fn index(&self, i: usize) -> &T {
        &self.lanes[i]
    }
}

impl<T: Element, const N: usize> IndexMut<usize> for Vector<T, N>
where
    Lanes<N>: AlignFor<T::Width>,
{
    #[inline(always)]
    fn index_mut(&mut self, i: usize) -> &mut T {
        &mut self.lanes[i]
    }
}

macro_rules! lane_op {
    ($tr:ident, $f:ident) => {
        impl<T: Element + $tr<Output = T>, const N: usize> $tr for Vector<T, N>
        where
            Lanes<N>: AlignFor<T::Width>,
        {
            type Output = Self;
            /// Lane by lane.
            #[inline(always)]
            fn $f(self, rhs: Self) -> Self {
                self.zip_with(rhs, |a, b| a.$f(b))
            }
        }
    };
}
lane_op!(Add, add);
lane_op!(Sub, sub);
lane_op!(Mul, mul);

// SAFETY: the lanes are `Pod` and fill the vector exactly (`new`'s size
// check: the alignment equals the size), so any bytes are a vector, and it
// has padding exactly where its elements do.
unsafe impl<T: Element, const N: usize> Pod for Vector<T, N>
where
    Lanes<N>: AlignFor<T::Width>,
{
    const PADDING_FREE: bool = T::PADDING_FREE;
}

// SAFETY: plain data of at most 16 bytes without padding bytes where its
// lanes have none (a `ShflValue` lane has none).
unsafe impl<T: Element + ShflValue, const N: usize> ShflValue for Vector<T, N> where
    Lanes<N>: AlignFor<T::Width>
{
}

macro_rules! aliases {
    ($($name:ident = $t:ty, $n:literal, $cuda:literal;)*) => { $(
        #[doc = concat!("`", stringify!($n), "` lanes of `", stringify!($t), "`: CUDA's `", $cuda, "`.")]
        #[doc(alias = $cuda)]
        pub type $name = Vector<$t, $n>;
    )* };
}
aliases! {
    F32x2 = f32, 2, "float2";
    F32x4 = f32, 4, "float4";
    F64x2 = f64, 2, "double2";
    I32x2 = i32, 2, "int2";
    I32x4 = i32, 4, "int4";
    U32x2 = u32, 2, "uint2";
    U32x4 = u32, 4, "uint4";
    I64x2 = i64, 2, "longlong2";
    U64x2 = u64, 2, "ulonglong2";
    U16x8 = u16, 8, "ushort8";
    U8x16 = u8, 16, "uchar16";
}

/// `8` lanes of `bf16`: 16 bytes, what CUDA kernels move as a `uint4`
/// holding eight `__nv_bfloat16` (one `LDG.E.128`).
pub type Bf16x8 = Vector<half::bf16, 8>;

/// `8` lanes of `f16`: 16 bytes, CUDA's eight `__half` in a `uint4`.
pub type F16x8 = Vector<half::f16, 8>;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_vector_is_its_lanes_aligned_to_their_size() {
        assert_eq!(core::mem::size_of::<F32x4>(), 16);
        assert_eq!(core::mem::align_of::<F32x4>(), 16);
        assert_eq!(core::mem::align_of::<F32x2>(), 8);
        assert_eq!(core::mem::align_of::<U16x8>(), 16);
        assert_eq!(core::mem::align_of::<Vector<u8, 2>>(), 2);
        assert_eq!(core::mem::size_of::<F64x2>(), 16);
        assert_eq!(core::mem::size_of::<Bf16x8>(), 16);
        assert_eq!(core::mem::align_of::<F16x8>(), 16);
        const { assert!(<F32x4 as Pod>::PADDING_FREE) };
    }

    #[test]
    fn lanes_index_and_operators() {
        let a = F32x4::new([1.0, 2.0, 3.0, 4.0]);
        let b = F32x4::splat(2.0);
        assert_eq!((a + b).to_array(), [3.0, 4.0, 5.0, 6.0]);
        assert_eq!((a - b)[0], -1.0);
        assert_eq!((a * b)[3], 8.0);
        let mut c = a;
        c[1] = 9.0;
        assert_eq!(<[f32; 4]>::from(c), [1.0, 9.0, 3.0, 4.0]);
        assert_eq!(a.map(|x| x as i32).to_array(), [1, 2, 3, 4]);
        assert_eq!(U32x2::default(), U32x2::new([0, 0]));
    }
}
