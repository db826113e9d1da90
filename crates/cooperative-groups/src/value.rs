//! What collectives can move between threads: [`ShflValue`] (any plain-data
//! type of at most 32 bytes, as 32-bit words) and [`MatchValue`] (the 32-
//! and 64-bit values `match.sync` compares), plus [`Label`] for
//! `labeled_partition`.

use core::mem::size_of;
use core::ptr;

use crate::arch::{self, SharedAddr};

/// Plain data that a shuffle moves between threads, one `shfl.sync` per
/// 32-bit word (a `u64` takes two, a `[f32; 8]` eight).
///
/// Implemented for the integer and float primitives, the 16-bit floats
/// ([`f16`](struct@crate::f16), [`bf16`](crate::bf16)) and their pairs, and for arrays of
/// `ShflValue`s; at most 32 bytes (a larger type is a compile error when the
/// collective is instantiated).
///
/// # Safety
/// The type must have **no padding bytes** and **no invalid bit patterns**:
/// the collectives copy a value's bytes as `u32` words (so padding would be
/// read uninitialised), and a thread may receive a zero-filled value or, on
/// misuse, another thread's stale bytes. Integers, floats and arrays of them
/// qualify; `bool`, `char`, references, enums and structs with padding do
/// not. A `#[repr(C)]` struct of such fields without padding may implement it.
#[diagnostic::on_unimplemented(
    message = "`{Self}` cannot be moved by a shuffle",
    label = "not plain data",
    note = "collectives move integers, floats and arrays of them (at most 32 bytes); a padding-free `#[repr(C)]` type of such fields may `unsafe impl ShflValue`"
)]
pub unsafe trait ShflValue: Copy + 'static {}

macro_rules! shfl_value {
    ($($t:ty),*) => { $(
        // SAFETY: a primitive integer or float has no padding and no invalid bit pattern.
        unsafe impl ShflValue for $t {}
    )* };
}
shfl_value!(
    u8, u16, u32, u64, u128, usize, i8, i16, i32, i64, i128, isize, f32, f64
);
// SAFETY: the `half` crate's floats are `repr(transparent)` over `u16`: no
// padding, and every bit pattern is a value. One travels in the low half
// of one 32-bit shuffle word.
unsafe impl ShflValue for half::f16 {}
// SAFETY: as for `f16`.
unsafe impl ShflValue for half::bf16 {}

// SAFETY: an array of padding-free, always-valid elements has neither padding
// nor invalid bit patterns.
unsafe impl<T: ShflValue, const N: usize> ShflValue for [T; N] {}

/// The largest [`ShflValue`] a collective moves.
pub const MAX_SHFL_BYTES: usize = 32;

/// Number of 32-bit words that carry a `T`.
#[inline(always)]
pub(crate) const fn words<T>() -> usize {
    size_of::<T>().div_ceil(4)
}

/// `T` as `[u32; 8]` (unused words zero), the form every transport uses.
#[inline(always)]
pub(crate) fn to_words<T: ShflValue>(v: T) -> [u32; 8] {
    const {
        assert!(
            size_of::<T>() <= MAX_SHFL_BYTES,
            "collectives move values of at most 32 bytes"
        )
    };
    let mut buf = [0u32; 8];
    // SAFETY: `T` is at most 32 bytes and has no padding (`ShflValue`), so all
    // `size_of::<T>()` source bytes are initialised; `buf` has room for them.
    unsafe {
        ptr::copy_nonoverlapping(
            (&raw const v).cast::<u8>(),
            buf.as_mut_ptr().cast::<u8>(),
            size_of::<T>(),
        )
    };
    buf
}

/// The `T` whose bytes start `buf`.
#[inline(always)]
pub(crate) fn from_words<T: ShflValue>(buf: [u32; 8]) -> T {
    // SAFETY: every bit pattern is a valid `T` (`ShflValue`), `buf` holds at
    // least `size_of::<T>()` bytes, and the read is unaligned-tolerant.
    unsafe { buf.as_ptr().cast::<T>().read_unaligned() }
}

/// `v`, word by word through [`arch::opaque`](crate::arch::opaque): the
/// kept arm of a choice whose other arm computes from `v`, so that the
/// choice stays one between the two results (a predicated instruction)
/// instead of becoming a choice of an operand.
#[inline(always)]
pub(crate) fn opaque<T: ShflValue>(v: T) -> T {
    let mut w = to_words(v);
    let mut i = 0;
    while i < words::<T>() {
        w[i] = crate::arch::opaque(w[i]);
        i += 1;
    }
    from_words(w)
}

/// A zero-filled `T` (valid for every `ShflValue`): what threads that do not
/// produce a value contribute to a broadcast.
#[inline(always)]
pub(crate) fn zeroed<T: ShflValue>() -> T {
    from_words([0; 8])
}

/// Stores `v` at the shared address `addr` (4-byte aligned) word by word.
///
/// # Safety
/// `addr` must be a valid shared address of this block with room for
/// `words::<T>()` words.
#[inline(always)]
#[track_caller]
pub(crate) unsafe fn store_shared<T: ShflValue>(addr: SharedAddr, v: T) {
    // SAFETY: forwarded contract (consecutive words).
    unsafe { store_shared_strided(addr, 4, v) }
}

/// Loads a `T` stored by [`store_shared`].
///
/// # Safety
/// As [`store_shared`].
#[inline(always)]
#[track_caller]
pub(crate) unsafe fn load_shared<T: ShflValue>(addr: SharedAddr) -> T {
    // SAFETY: forwarded contract (consecutive words).
    unsafe { load_shared_strided(addr, 4) }
}

/// Stores word `i` of `v` at `addr + i·stride`.
///
/// # Safety
/// Each of those `words::<T>()` addresses must be a valid, 4-byte aligned
/// shared address of this block.
#[inline(always)]
#[track_caller]
pub(crate) unsafe fn store_shared_strided<T: ShflValue>(addr: SharedAddr, stride: u32, v: T) {
    let buf = to_words(v);
    let mut i = 0;
    while i < words::<T>() {
        // SAFETY: forwarded contract.
        unsafe { arch::st_shared_u32(arch::shared_add(addr, stride * i as u32), buf[i]) };
        i += 1;
    }
}

/// Loads a `T` stored by [`store_shared_strided`] with the same `stride`.
///
/// # Safety
/// As [`store_shared_strided`].
#[inline(always)]
#[track_caller]
pub(crate) unsafe fn load_shared_strided<T: ShflValue>(addr: SharedAddr, stride: u32) -> T {
    let mut buf = [0u32; 8];
    let mut i = 0;
    while i < words::<T>() {
        // SAFETY: forwarded contract.
        buf[i] = unsafe { arch::ld_shared_u32(arch::shared_add(addr, stride * i as u32)) };
        i += 1;
    }
    from_words(buf)
}

pub(crate) mod sealed {
    pub trait Sealed {}
}

/// A value `match_any` / `match_all` compare: `match.sync.b32` for 8- to
/// 32-bit types, `match.sync.b64` for 64-bit ones. Floats compare by bits
/// (so `-0.0 != 0.0` and a NaN matches an identical NaN).
pub trait MatchValue: Copy + sealed::Sealed {
    /// The bits compared, and whether they need the 64-bit form.
    #[doc(hidden)]
    fn match_bits(self) -> (u64, bool);
}

macro_rules! match_value {
    ($($t:ty => $e:expr, $wide:expr);* $(;)?) => { $(
        impl sealed::Sealed for $t {}
        impl MatchValue for $t {
            #[inline(always)]
            fn match_bits(self) -> (u64, bool) {
                let f: fn($t) -> u64 = $e;
                (f(self), $wide)
            }
        }
    )* };
}
match_value! {
    u8 => |v| v as u64, false;
    u16 => |v| v as u64, false;
    u32 => |v| v as u64, false;
    i8 => |v| v as u8 as u64, false;
    i16 => |v| v as u16 as u64, false;
    i32 => |v| v as u32 as u64, false;
    f32 => |v| v.to_bits() as u64, false;
    u64 => |v| v, true;
    i64 => |v| v as u64, true;
    f64 => |v| v.to_bits(), true;
    half::f16 => |v| v.to_bits() as u64, false;
    half::bf16 => |v| v.to_bits() as u64, false;
    usize => |v| v as u64, true;
    isize => |v| v as u64, true;
}

/// A label of `labeled_partition`: any integer type (as in CUDA, where the
/// label is "any integral type").
pub trait Label: MatchValue {}
impl Label for u8 {}
impl Label for u16 {}
impl Label for u32 {}
impl Label for u64 {}
impl Label for usize {}
impl Label for i8 {}
impl Label for i16 {}
impl Label for i32 {}
impl Label for i64 {}
impl Label for isize {}
