//! Plain old data: the types a host may copy to and from device memory as
//! bytes (and zero), because every bit pattern is one of their values.

/// A type whose every bit pattern of `size_of::<Self>()` bytes, padding
/// included, is a valid value: integers, floats (the 16-bit
/// [`f16`](struct@crate::f16) and [`bf16`](crate::bf16) and their pairs too), raw pointers, and arrays
/// and `#[repr(C)]` structs of them. The host runtime's buffers hold only
/// such types, so safe code can neither read a forged value back from
/// device memory nor zero-fill a type that has no zero (`alloc::<&u8>` does
/// not compile).
///
/// ```
/// # use cooperative_groups::Pod;
/// /// A kernel's parameter block, shared by host and device.
/// #[derive(Clone, Copy)]
/// #[repr(C)]
/// struct Params {
///     n: u32,
///     scale: f32,
/// }
/// // SAFETY: `repr(C)`, two 4-byte fields, no padding: any 8 bytes are a `Params`.
/// unsafe impl Pod for Params {}
/// ```
///
/// # Safety
///
/// Implement it only where any bytes make a valid value: never for
/// references, `bool`, `char`, enums, `NonZero*`, `Option` of a reference,
/// or a type with an invariant of its own.
#[diagnostic::on_unimplemented(
    message = "`{Self}` is not `Pod` (plain old data)",
    label = "shared memory, kernel memory and runtime buffers hold only types whose every bit pattern is a value",
    note = "references, `bool`, `char`, enums and types with invariants are not `Pod`: any bytes read back would have to be a valid value"
)]
pub unsafe trait Pod: Copy + 'static {
    /// Every byte of a value is part of it (no padding), so a value may
    /// pass through integer registers as it is: typed global stores then
    /// lower to `st.global` of its size. `false` unless the implementation
    /// says otherwise (an implementation that says `true` promises it).
    const PADDING_FREE: bool = false;
}

macro_rules! pod {
    ($($t:ty),*) => { $(
        // SAFETY: every bit pattern is a value of a primitive integer or
        // float, and every byte is part of it.
        unsafe impl Pod for $t {
            const PADDING_FREE: bool = true;
        }
    )* };
}
pod!(
    u8, u16, u32, u64, u128, usize, i8, i16, i32, i64, i128, isize, f32, f64
);

// SAFETY: the `half` crate's floats are `repr(transparent)` over `u16`:
// every bit pattern is a value, and both bytes are part of it.
unsafe impl Pod for half::f16 {
    const PADDING_FREE: bool = true;
}
// SAFETY: as for `f16`.
unsafe impl Pod for half::bf16 {
    const PADDING_FREE: bool = true;
}

// SAFETY: an array of `Pod` elements has no padding between them, and every
// element accepts any bytes.
unsafe impl<T: Pod, const N: usize> Pod for [T; N] {
    const PADDING_FREE: bool = T::PADDING_FREE;
}
// SAFETY: any address is a valid raw pointer value (using it is unsafe).
unsafe impl<T: 'static> Pod for *const T {}
// SAFETY: as for `*const T`.
unsafe impl<T: 'static> Pod for *mut T {}
