//! What a kernel parameter may be, and which parameters make a kernel safe
//! to launch.

use crate::Pod;
use crate::atomic::{AtomicValue, Scope};

use super::{AtomicSlice, GlobalSlice, OwnedPitched, OwnedSlice, Partition, Partition2d, Pitched};

/// The scope of one launch of a kernel's body: `#[kernel]` makes one per
/// call of the body and lends it to [`KernelParam::scoped`], so the views
/// a body sees live no longer than that call. It cannot be made outside
/// this crate's macros' expansions (its field is private).
#[doc(hidden)]
#[derive(Debug)]
pub struct LaunchScope(());

impl LaunchScope {
    /// A scope for one call of a kernel's body (`#[kernel]`'s expansion).
    #[doc(hidden)]
    #[inline(always)]
    pub const fn new() -> LaunchScope {
        LaunchScope(())
    }
}

/// A value a kernel takes as a parameter: the same bytes on the host and on
/// the device (the launcher hands the driver a pointer to it). Every [`Pod`]
/// type (scalars, `#[repr(C)]` structs, raw pointers) and the typed views of
/// global memory ([`GlobalSlice`], [`OwnedSlice`], [`AtomicSlice`],
/// [`Pitched`], [`OwnedPitched`]).
///
/// # Safety
/// `Copy` plain data whose bytes the kernel reads as they are, with the same
/// layout on the host and on `nvptx64`.
pub unsafe trait KernelParam: Copy {
    /// The same parameter living in the launch scope `'s` (a view's
    /// lifetime shortened to it; a scalar itself). `#[kernel]` hands the
    /// body its parameters through [`scoped`](Self::scoped) with `'s` a
    /// borrow of a local of the launch, so a kernel cannot keep a view past
    /// its launch even if its signature says `'static`.
    #[doc(hidden)]
    type Scoped<'s>: Copy
    where
        Self: 's;

    /// The parameter in the launch scope `'s` (a lifetime's shortening:
    /// the same bytes).
    #[doc(hidden)]
    fn scoped<'s>(self, scope: &'s LaunchScope) -> Self::Scoped<'s>
    where
        Self: 's;

    /// The parameter as the kernel's body sees it, given `param` (the
    /// generic address of its bytes in the kernel's parameter space, on the
    /// GPU): itself, for every type but the tensor maps, which keep the
    /// address to be read in place (`__grid_constant__`). `#[kernel]`
    /// calls it at the kernel's entry.
    #[doc(hidden)]
    #[inline(always)]
    fn at_entry(self, param: impl FnOnce() -> u64) -> Self {
        let _ = param;
        self
    }
}

/// The body of a [`KernelParam`] implementation's scoping: the same value
/// as `$scoped` (the type with its lifetime shortened to the launch scope
/// `'s`; the type itself for plain data).
macro_rules! scoped_as {
    ($scoped:ty) => {
        type Scoped<'s>
            = $scoped
        where
            Self: 's;
        #[inline(always)]
        fn scoped<'s>(self, _: &'s LaunchScope) -> Self::Scoped<'s>
        where
            Self: 's,
        {
            self
        }
    };
}

// SAFETY: `Pod` is plain data of the same layout on both targets.
unsafe impl<T: Pod> KernelParam for T {
    scoped_as!(T);
}
// SAFETY: the views are `#[repr(C)]` structs of a pointer and `usize`s,
// the same layout on the host and on `nvptx64` (both 64-bit).
unsafe impl<T: Pod> KernelParam for GlobalSlice<'_, T> {
    scoped_as!(GlobalSlice<'s, T>);
}
// SAFETY: as above.
unsafe impl<T: Pod, P: Partition> KernelParam for OwnedSlice<'_, T, P> {
    scoped_as!(OwnedSlice<'s, T, P>);
}
// SAFETY: as above.
unsafe impl<T: AtomicValue + Pod, S: Scope + 'static> KernelParam for AtomicSlice<'_, T, S> {
    scoped_as!(AtomicSlice<'s, T, S>);
}
// SAFETY: as above.
unsafe impl<T: Pod> KernelParam for Pitched<'_, T> {
    scoped_as!(Pitched<'s, T>);
}
// SAFETY: as above.
unsafe impl<T: Pod, P: Partition2d> KernelParam for OwnedPitched<'_, T, P> {
    scoped_as!(OwnedPitched<'s, T, P>);
}
// SAFETY: `#[repr(C)]` descriptors of `u64`s and `u32`s, the same layout
// on both targets; read in place in parameter space (`at_entry`).
unsafe impl<T: Pod, const BW: u32, const BH: u32, L: crate::tma::TileLayout> KernelParam
    for crate::tma::TensorMap2d<'_, T, BW, BH, L>
{
    scoped_as!(crate::tma::TensorMap2d<'s, T, BW, BH, L>);
    #[inline(always)]
    fn at_entry(self, param: impl FnOnce() -> u64) -> Self {
        self.in_place(param)
    }
}
// SAFETY: as above.
unsafe impl<T: Pod, const BW: u32, const BH: u32, L: crate::tma::TileLayout> KernelParam
    for crate::tma::TensorMap2dMut<'_, T, BW, BH, L>
{
    scoped_as!(crate::tma::TensorMap2dMut<'s, T, BW, BH, L>);
    #[inline(always)]
    fn at_entry(self, param: impl FnOnce() -> u64) -> Self {
        self.in_place(param)
    }
}

// SAFETY: as the 2-D maps.
unsafe impl<T: Pod, const BW: u32, const BH: u32, const BD: u32, L: crate::tma::TileLayout>
    KernelParam for crate::tma::TensorMap3d<'_, T, BW, BH, BD, L>
{
    scoped_as!(crate::tma::TensorMap3d<'s, T, BW, BH, BD, L>);
    #[inline(always)]
    fn at_entry(self, param: impl FnOnce() -> u64) -> Self {
        self.in_place(param)
    }
}
// SAFETY: as above.
unsafe impl<T: Pod, const BW: u32, const BH: u32, const BD: u32, L: crate::tma::TileLayout>
    KernelParam for crate::tma::TensorMap3dMut<'_, T, BW, BH, BD, L>
{
    scoped_as!(crate::tma::TensorMap3dMut<'s, T, BW, BH, BD, L>);
    #[inline(always)]
    fn at_entry(self, param: impl FnOnce() -> u64) -> Self {
        self.in_place(param)
    }
}

/// A parameter with which a kernel needs no promise from its launcher: a
/// kernel whose parameters are all `SafeParam` is a safe function, and
/// `cg-runtime` launches it with a safe call that takes the runtime's
/// buffers. Scalars, arrays of them, and the typed views of global memory
/// (whose accesses are bounds-checked and whose writes follow the groups);
/// **not** raw pointers, which make the kernel `unsafe` and its launch
/// `unsafe`.
///
/// # Safety
/// For a `#[repr(C)]` struct of your own: the kernel must be sound for any
/// value of it — it holds no pointer the kernel dereferences, no index the
/// kernel uses unchecked.
#[diagnostic::on_unimplemented(
    message = "`{Self}` is not a safe kernel parameter",
    label = "a raw pointer (or a type holding one) makes the kernel `unsafe`",
    note = "take global memory as `GlobalSlice<T>` (read-only), `OwnedSlice<T>` (written through ownership witnesses) or `AtomicSlice<T>`; a raw pointer parameter must be written `*const T` / `*mut T` in the signature, which makes the kernel an `unsafe fn` launched with `launch_unchecked`"
)]
pub unsafe trait SafeParam: KernelParam {
    /// Whether a launch with this parameter runs its blocks on one thread
    /// of the simulator. The simulator runs a safe launch's blocks on its
    /// worker threads (`CG_SIM_THREADS`) when every parameter says `false`:
    /// its blocks then cannot depend on each other's order, and every
    /// access they make to global memory is a relaxed atomic access of its
    /// bytes on the host (`cg_sim::global_mem`), so even a race the
    /// detector reports is not one on the host. `true` for
    /// [`AtomicSlice`] (its atomics are the one safe channel between
    /// blocks, and they are word-sized on the host) and for views of
    /// element types with padding (`Pod::PADDING_FREE == false`: their
    /// padding bytes may be uninitialised, which a byte access cannot
    /// read).
    #[doc(hidden)]
    const SERIAL: bool = false;
}

macro_rules! safe_scalars {
    ($($t:ty),*) => { $(
        // SAFETY: a number: any value is sound for a kernel to take.
        unsafe impl SafeParam for $t {}
    )* };
}
safe_scalars!(
    u8, u16, u32, u64, u128, usize, i8, i16, i32, i64, i128, isize, f32, f64
);

// SAFETY: an array of safe parameters is as safe as its elements.
unsafe impl<T: SafeParam + Pod, const N: usize> SafeParam for [T; N] {
    const SERIAL: bool = T::SERIAL;
}
// SAFETY: every access is bounds-checked (or `unsafe`); nothing writes it.
unsafe impl<T: Pod> SafeParam for GlobalSlice<'_, T> {
    const SERIAL: bool = !T::PADDING_FREE;
}
// SAFETY: bounds-checked, and every safe write goes through a witness of
// the element's owner.
unsafe impl<T: Pod, P: Partition> SafeParam for OwnedSlice<'_, T, P> {
    const SERIAL: bool = !T::PADDING_FREE;
}
// SAFETY: bounds-checked, every access atomic.
unsafe impl<T: AtomicValue + Pod, S: Scope + 'static> SafeParam for AtomicSlice<'_, T, S> {
    const SERIAL: bool = true;
}
// SAFETY: as `GlobalSlice`, in two dimensions.
unsafe impl<T: Pod> SafeParam for Pitched<'_, T> {
    const SERIAL: bool = !T::PADDING_FREE;
}
// SAFETY: as `OwnedSlice`, in two dimensions.
unsafe impl<T: Pod, P: Partition2d> SafeParam for OwnedPitched<'_, T, P> {
    const SERIAL: bool = !T::PADDING_FREE;
}
// SAFETY: loads only, bounds-checked by the copy engine (elements outside
// the tensor arrive as zeros); nothing writes the tensor during the launch.
unsafe impl<T: Pod, const BW: u32, const BH: u32, L: crate::tma::TileLayout> SafeParam
    for crate::tma::TensorMap2d<'_, T, BW, BH, L>
{
    const SERIAL: bool = !T::PADDING_FREE;
}
// SAFETY: its loads as above; its stores are `unsafe`, their contract
// keeping each box to one block.
unsafe impl<T: Pod, const BW: u32, const BH: u32, L: crate::tma::TileLayout> SafeParam
    for crate::tma::TensorMap2dMut<'_, T, BW, BH, L>
{
    const SERIAL: bool = !T::PADDING_FREE;
}
// SAFETY: as the 2-D read-only map: loads bounds-checked by the copy engine.
unsafe impl<T: Pod, const BW: u32, const BH: u32, const BD: u32, L: crate::tma::TileLayout>
    SafeParam for crate::tma::TensorMap3d<'_, T, BW, BH, BD, L>
{
    const SERIAL: bool = !T::PADDING_FREE;
}
// SAFETY: as the 2-D writable map: its stores are `unsafe`.
unsafe impl<T: Pod, const BW: u32, const BH: u32, const BD: u32, L: crate::tma::TileLayout>
    SafeParam for crate::tma::TensorMap3dMut<'_, T, BW, BH, BD, L>
{
    const SERIAL: bool = !T::PADDING_FREE;
}

/// The 1-D, 4-D and 5-D maps' `KernelParam`s and `SafeParam`s.
macro_rules! ranked_map_params {
    ($($map:ident [$($b:ident),+]),*) => {$(
        // SAFETY: as the 2-D maps: `#[repr(C)]` descriptors, the same
        // layout on both targets, read in place (`at_entry`).
        unsafe impl<T: Pod, $(const $b: u32,)+ L: crate::tma::TileLayout> KernelParam
            for crate::tma::$map<'_, T, $($b,)+ L>
        {
    scoped_as!(crate::tma::$map<'s, T, $($b,)+ L>);
            #[inline(always)]
            fn at_entry(self, param: impl FnOnce() -> u64) -> Self {
                self.in_place(param)
            }
        }
        // SAFETY: as the 2-D maps: loads bounds-checked by the copy
        // engine, stores `unsafe`.
        unsafe impl<T: Pod, $(const $b: u32,)+ L: crate::tma::TileLayout> SafeParam
            for crate::tma::$map<'_, T, $($b,)+ L>
        {
            const SERIAL: bool = !T::PADDING_FREE;
        }
    )*};
}
ranked_map_params!(
    TensorMap1d [B0],
    TensorMap1dMut [B0],
    TensorMap4d [B0, B1, B2, B3],
    TensorMap4dMut [B0, B1, B2, B3],
    TensorMap5d [B0, B1, B2, B3, B4],
    TensorMap5dMut [B0, B1, B2, B3, B4]
);
