//! The host's side of typed parameters (not on `nvptx64`): what a launcher
//! passes for each parameter type ([`HostArg`]), and [`run`], which runs a
//! safe kernel on the simulator with host slices as its memory — what this
//! crate's examples use; `cg-runtime` implements [`HostArg`] for its
//! buffers and launches on either backend the same way.

extern crate std;

mod nd;
mod volume;
pub use nd::{TensorNd, tensor_map_nd, tensor_map_span_nd};
pub use volume::{Volume, tensor_map_3d, tensor_map_3d_mut, tensor_map_span_3d};

use std::format;
use std::string::String;
use std::vec::Vec;

pub use cg_sim::Region;

use crate::atomic::{AtomicValue, Scope};
use crate::{Kernel, Pod};

use crate::global::{
    AtomicSlice, GlobalSlice, KernelParam, OwnedPitched, OwnedSlice, Partition, Partition2d,
    Pitched, SafeParam,
};
use crate::tma::{RankedMap, TensorMap2d, TensorMap2dMut, TileLayout};

/// Where a launch runs, as its arguments become parameters: on the
/// simulator (`sim`) the memory of each typed parameter is added to
/// `regions` (the simulator checks every typed access against them and
/// names them in its reports); on a GPU, memory must be the device's.
#[derive(Debug, Default)]
pub struct Target {
    /// The launch runs on the simulator.
    pub sim: bool,
    /// The typed parameters' memory (simulator launches).
    pub regions: Vec<Region>,
}

impl Target {
    /// A simulator launch's target.
    pub fn sim() -> Target {
        Target {
            sim: true,
            regions: Vec::new(),
        }
    }

    /// A GPU launch's target.
    pub fn gpu() -> Target {
        Target::default()
    }
}

/// What a launcher passes for a kernel parameter of type `P`: the value
/// itself for a scalar, a shared borrow of host or device memory for a
/// [`GlobalSlice`], an exclusive one for an [`OwnedSlice`] or an
/// [`AtomicSlice`] — so the borrow checker keeps one launch's parameters
/// from aliasing a written buffer.
///
/// A view made here may name a longer lifetime than the borrow it was
/// made from (a kernel's descriptor types its views `'static`): the
/// launchers hold the borrow for the whole launch, which waits for the
/// kernel, and the kernel's body sees each view only in the scope of its
/// launch ([`KernelParam::scoped`]). Used outside a launch a view reaches
/// nothing: the simulator checks each access against the running launch's
/// regions (and a write against a writable one).
pub trait HostArg<P: KernelParam> {
    /// The parameter named `name`, for a launch on `to` (an error if this
    /// memory cannot serve there: host memory on a GPU, say).
    fn into_param(self, name: &'static str, to: &mut Target) -> Result<P, String>;
}

/// The argument tuple of a launch: one [`HostArg`] per parameter.
pub trait HostArgs<A> {
    /// The parameters, named `names` (in order; fewer names than
    /// parameters leave the rest unnamed).
    fn into_params(self, names: &[&'static str], to: &mut Target) -> Result<A, String>;
}

/// A tuple of [`SafeParam`]s: the parameters of a kernel that launches
/// with a safe call.
#[diagnostic::on_unimplemented(
    message = "this kernel takes a raw pointer (or another parameter that is not `SafeParam`)",
    label = "its launch needs `unsafe`: `launch_unchecked`",
    note = "typed parameters (`GlobalSlice<T>`, `OwnedSlice<T>`, `AtomicSlice<T>`, scalars) make a kernel safe to launch"
)]
pub trait SafeArgs {
    /// Whether the launch runs its blocks on one thread of the simulator
    /// (any parameter's [`SafeParam`] `SERIAL`: an `AtomicSlice`, or a view
    /// of an element type with padding).
    #[doc(hidden)]
    const SERIAL: bool;
}

impl<A: SafeArgs> Kernel<A> {
    /// The body of a kernel whose parameters are all
    /// [`SafeParam`](crate::SafeParam), as a host function for the
    /// simulator (calling it outside a simulated launch panics at its first
    /// primitive).
    pub const fn host_fn(&self) -> fn(A) {
        self.host
    }
}

/// The parameters of a safe launch, shared by the simulator's worker
/// threads (see [`launch_safe`]).
struct Shared<A>(A);

// SAFETY: `A` is a tuple of `SafeParam`s (plain data and typed views of
// memory, `Copy`); the workers read it and run the kernel's blocks with
// it as a GPU's SMs do. Only launches with `SafeArgs::SERIAL == false`
// are shared: no `AtomicSlice`, and views of padding-free elements only,
// whose every access from a lane is a relaxed atomic access of its bytes
// on the host (`arch::sim`'s global loads and stores, the simulator's
// copies while `concurrent`), so blocks that race on an element (a race
// the detector reports) do not race on the host.
unsafe impl<A> Sync for Shared<A> {}

/// Runs the safe kernel `body` with `params`: on the simulator's worker
/// threads ([`cg_sim::launch_parallel`]) when no parameter is
/// [`SafeArgs::SERIAL`] — its blocks then have no safe way to wait for
/// each other, so outputs and reports are the same whatever the worker
/// count — otherwise on the calling thread ([`cg_sim::launch_with`]).
///
/// A cooperative launch too: `launch_parallel` runs it in phases between
/// its grid barriers, the blocks of a phase on the workers (and with one
/// worker, one after another on the calling thread: the same schedule).
/// Without an `AtomicSlice` its blocks can pass values only through
/// global memory, which a grid barrier orders; a read of what another
/// block writes in the same phase is a race the detector reports. With
/// one, its blocks may wait for each other's flags (their co-residency is
/// what a cooperative launch promises), which needs every block of the
/// grid interleaved on one thread: `launch_with`.
///
/// # Safety
/// `regions` and `params` are one launch's: every region meets
/// [`Region::new`]'s contract for this launch (what [`HostArg::into_param`]
/// registers does while the arguments it borrowed stay borrowed: keep
/// them across the call, as [`run_on`] and cg-runtime's `Backend::launch`
/// do), and every view in `params` names memory inside them.
pub unsafe fn launch_safe<A: SafeArgs + Copy>(
    device: &cg_sim::SimDevice,
    cfg: &cg_sim::LaunchConfig,
    regions: &[cg_sim::Region],
    body: fn(A),
    params: A,
) -> Result<cg_sim::LaunchStats, cg_sim::SimError> {
    if A::SERIAL {
        // SAFETY: the caller's contract.
        return unsafe { cg_sim::launch_with(device, cfg, regions, &|| body(params)) };
    }
    let shared = Shared(params);
    let shared = &shared;
    // SAFETY: the caller's contract for the regions; the kernel is safe
    // and its parameters `SafeParam`s none of which is `SERIAL`: its
    // blocks reach the regions only through typed views of padding-free
    // elements, whose every access is a byte-wise relaxed atomic (see
    // `Shared`).
    unsafe { cg_sim::launch_parallel(device, cfg, regions, &move || body(shared.0)) }
}

macro_rules! tuples {
    ($(($($n:tt $p:ident $h:ident),*))*) => {$(
        impl<$($p: SafeParam),*> SafeArgs for ($($p,)*) {
            const SERIAL: bool = false $(|| $p::SERIAL)*;
        }
        impl<$($p: KernelParam, $h: HostArg<$p>),*> HostArgs<($($p,)*)> for ($($h,)*) {
            #[allow(unused_variables)]
            fn into_params(self, names: &[&'static str], to: &mut Target) -> Result<($($p,)*), String> {
                Ok(($(self.$n.into_param(names.get($n).copied().unwrap_or(""), to)?,)*))
            }
        }
    )*};
}
tuples! {
    ()
    (0 A HA)
    (0 A HA, 1 B HB)
    (0 A HA, 1 B HB, 2 C HC)
    (0 A HA, 1 B HB, 2 C HC, 3 D HD)
    (0 A HA, 1 B HB, 2 C HC, 3 D HD, 4 E HE)
    (0 A HA, 1 B HB, 2 C HC, 3 D HD, 4 E HE, 5 F HF)
    (0 A HA, 1 B HB, 2 C HC, 3 D HD, 4 E HE, 5 F HF, 6 G HG)
    (0 A HA, 1 B HB, 2 C HC, 3 D HD, 4 E HE, 5 F HF, 6 G HG, 7 H HH)
    (0 A HA, 1 B HB, 2 C HC, 3 D HD, 4 E HE, 5 F HF, 6 G HG, 7 H HH, 8 I HI)
    (0 A HA, 1 B HB, 2 C HC, 3 D HD, 4 E HE, 5 F HF, 6 G HG, 7 H HH, 8 I HI, 9 J HJ)
    (0 A HA, 1 B HB, 2 C HC, 3 D HD, 4 E HE, 5 F HF, 6 G HG, 7 H HH, 8 I HI, 9 J HJ, 10 K HK)
    (0 A HA, 1 B HB, 2 C HC, 3 D HD, 4 E HE, 5 F HF, 6 G HG, 7 H HH, 8 I HI, 9 J HJ, 10 K HK, 11 L HL)
}

// Scalars (and safe `Pod` structs) by value.
impl<T: SafeParam + Pod> HostArg<T> for T {
    fn into_param(self, _: &'static str, _: &mut Target) -> Result<T, String> {
        Ok(self)
    }
}

// Raw pointers as they are (only an `unsafe` launch takes a kernel with one).
impl<T: 'static> HostArg<*const T> for *const T {
    fn into_param(self, _: &'static str, _: &mut Target) -> Result<*const T, String> {
        Ok(self)
    }
}
impl<T: 'static> HostArg<*mut T> for *mut T {
    fn into_param(self, _: &'static str, _: &mut Target) -> Result<*mut T, String> {
        Ok(self)
    }
}

/// The simulator's region of `len` elements of `T` at `ptr`, named `name`,
/// `writable` by the kernel or not (see [`Region`]).
///
/// # Safety
/// As [`Region::new`] for those `len · size_of::<T>()` bytes: for every
/// launch the region is passed to, valid for the whole launch (writable
/// memory that only the kernel accesses when `writable`; never `writable`
/// for a shared borrow).
pub unsafe fn region<T>(name: &'static str, ptr: *const T, len: usize, writable: bool) -> Region {
    let elem = core::mem::size_of::<T>();
    // SAFETY: the caller's contract.
    unsafe { Region::new(name, ptr as usize, len * elem, elem, writable) }
}

/// Host memory serves only simulator launches.
fn host_memory(name: &'static str, to: &Target) -> Result<(), String> {
    if to.sim {
        Ok(())
    } else {
        Err(format!(
            "`{name}`: host memory passed to a GPU launch (upload it to a device buffer)"
        ))
    }
}

impl<'p, T: Pod> HostArg<GlobalSlice<'p, T>> for &[T] {
    fn into_param(self, name: &'static str, to: &mut Target) -> Result<GlobalSlice<'p, T>, String> {
        host_memory(name, to)?;
        // SAFETY: the memory of a shared borrow, registered read-only; the
        // launch that gets the region keeps the borrow across it
        // (`launch_safe`'s contract).
        let r = unsafe { region(name, self.as_ptr(), self.len(), false) };
        to.regions.push(r);
        // SAFETY: the borrow holds for the launch (the caller keeps `self`'s
        // borrow alive across it), and it is shared: nothing writes it.
        Ok(unsafe { GlobalSlice::from_raw_parts(self.as_ptr(), self.len()) })
    }
}

impl<'p, T: Pod, P: Partition> HostArg<OwnedSlice<'p, T, P>> for &mut [T] {
    fn into_param(
        self,
        name: &'static str,
        to: &mut Target,
    ) -> Result<OwnedSlice<'p, T, P>, String> {
        host_memory(name, to)?;
        // SAFETY: the memory of an exclusive borrow, which the launch that
        // gets the region keeps across it (`launch_safe`'s contract).
        let r = unsafe { region(name, self.as_ptr(), self.len(), true) };
        to.regions.push(r);
        // SAFETY: an exclusive borrow for the launch: no other parameter
        // reaches it.
        Ok(unsafe { OwnedSlice::from_raw_parts(self.as_mut_ptr(), self.len()) })
    }
}

impl<'p, T: Pod + AtomicValue, S: Scope + 'static> HostArg<AtomicSlice<'p, T, S>> for &mut [T] {
    fn into_param(
        self,
        name: &'static str,
        to: &mut Target,
    ) -> Result<AtomicSlice<'p, T, S>, String> {
        host_memory(name, to)?;
        // SAFETY: as for an `OwnedSlice`: an exclusive borrow kept across
        // the launch.
        let r = unsafe { region(name, self.as_ptr(), self.len(), true) };
        to.regions.push(r);
        // SAFETY: an exclusive borrow for the launch; the kernel reaches it
        // only atomically.
        Ok(unsafe { AtomicSlice::from_raw_parts(self.as_mut_ptr(), self.len()) })
    }
}

/// A 2-D image of host memory for a [`Pitched`] (`Image<&[T]>`) or an
/// [`OwnedPitched`] (`Image<&mut [T]>`) parameter: rows of `width`
/// elements, `pitch` elements apart, `height` rows.
#[derive(Debug)]
pub struct Image<R> {
    data: R,
    width: usize,
    height: usize,
    pitch: usize,
}

impl<R> Image<R> {
    /// `data` as `height` rows of `width` elements, `pitch` apart.
    pub fn new(data: R, width: usize, height: usize, pitch: usize) -> Image<R> {
        Image {
            data,
            width,
            height,
            pitch,
        }
    }
}

/// The elements a `width × height` image with rows `pitch` apart spans
/// (`pitch · (height − 1) + width`), or why the shape does not fit `len`
/// elements: a pitch below the width (rows would overlap), or a span past
/// `usize::MAX` (computed checked: a wrapped span would pass the length
/// check, and rows far apart would land on one element — two owners).
pub fn image_span(width: usize, height: usize, pitch: usize, len: usize) -> Result<usize, String> {
    if pitch < width {
        return Err(format!(
            "a pitch of {pitch} elements is less than the width {width}"
        ));
    }
    let span = if height == 0 || width == 0 {
        0
    } else {
        pitch
            .checked_mul(height - 1)
            .and_then(|s| s.checked_add(width))
            .ok_or_else(|| {
                format!(
                    "a {width} × {height} image with rows {pitch} elements apart overflows: its \
                     span, pitch · (height − 1) + width, is past usize::MAX elements"
                )
            })?
    };
    if span > len {
        return Err(format!(
            "a {width} × {height} image with rows {pitch} elements apart spans {span} elements; the buffer has {len}"
        ));
    }
    Ok(span)
}

impl<'p, T: Pod> HostArg<Pitched<'p, T>> for Image<&[T]> {
    fn into_param(self, name: &'static str, to: &mut Target) -> Result<Pitched<'p, T>, String> {
        host_memory(name, to)?;
        let span = image_span(self.width, self.height, self.pitch, self.data.len())
            .map_err(|e| format!("`{name}`: {e}"))?;
        // SAFETY: the image's span of a shared borrow, registered
        // read-only, kept across the launch (`launch_safe`'s contract).
        let r = unsafe { region(name, self.data.as_ptr(), span, false) };
        to.regions.push(r);
        // SAFETY: a shared borrow for the launch, covering the image.
        Ok(unsafe {
            Pitched::from_raw_parts(self.data.as_ptr(), self.width, self.height, self.pitch)
        })
    }
}

impl<'p, T: Pod, P: Partition2d> HostArg<OwnedPitched<'p, T, P>> for Image<&mut [T]> {
    fn into_param(
        self,
        name: &'static str,
        to: &mut Target,
    ) -> Result<OwnedPitched<'p, T, P>, String> {
        host_memory(name, to)?;
        let span = image_span(self.width, self.height, self.pitch, self.data.len())
            .map_err(|e| format!("`{name}`: {e}"))?;
        // SAFETY: the image's span of an exclusive borrow, kept across the
        // launch (`launch_safe`'s contract).
        let r = unsafe { region(name, self.data.as_ptr(), span, true) };
        to.regions.push(r);
        // SAFETY: an exclusive borrow for the launch, covering the image.
        Ok(unsafe {
            OwnedPitched::from_raw_parts(
                self.data.as_mut_ptr(),
                self.width,
                self.height,
                self.pitch,
            )
        })
    }
}

/// Runs the safe kernel `kernel` on the default simulated device with
/// `args` (host slices for its global memory: `&[T]` for a `GlobalSlice`,
/// `&mut [T]` for an `OwnedSlice` or `AtomicSlice`, [`Image`] for the 2-D
/// views, values for scalars). The blocks run on the device's worker
/// threads (`CG_SIM_THREADS`) where [`launch_safe`] allows it, with the
/// outputs and reports of one thread.
pub fn run<A: SafeArgs + KernelParams, H: HostArgs<A>>(
    kernel: &Kernel<A>,
    cfg: &cg_sim::LaunchConfig,
    args: H,
) -> Result<cg_sim::LaunchStats, cg_sim::SimError> {
    run_on(&cg_sim::SimDevice::default(), kernel, cfg, args)
}

/// [`run`] on `device`.
pub fn run_on<A: SafeArgs + KernelParams, H: HostArgs<A>>(
    device: &cg_sim::SimDevice,
    kernel: &Kernel<A>,
    cfg: &cg_sim::LaunchConfig,
    args: H,
) -> Result<cg_sim::LaunchStats, cg_sim::SimError> {
    kernel
        .check_block(cfg.block)
        .map_err(cg_sim::SimError::InvalidLaunch)?;
    let mut to = Target::sim();
    let params = args
        .into_params(kernel.param_names(), &mut to)
        .map_err(cg_sim::SimError::InvalidLaunch)?;
    // SAFETY: the regions and views of `args`, whose borrows this call
    // holds until the launch returns.
    unsafe { launch_safe(device, cfg, &to.regions, kernel.host_fn(), params) }
}

/// A tuple of [`KernelParam`]s (every kernel's parameter list).
pub trait KernelParams: Copy + 'static {}

macro_rules! params_tuples {
    ($(($($p:ident),*))*) => {$(
        impl<$($p: KernelParam + 'static),*> KernelParams for ($($p,)*) {}
    )*};
}
params_tuples! {
    () (A) (A, B) (A, B, C) (A, B, C, D) (A, B, C, D, E) (A, B, C, D, E, F) (A, B, C, D, E, F, G)
    (A, B, C, D, E, F, G, H) (A, B, C, D, E, F, G, H, I) (A, B, C, D, E, F, G, H, I, J)
    (A, B, C, D, E, F, G, H, I, J, K) (A, B, C, D, E, F, G, H, I, J, K, L)
}

/// The elements a `width × height` tensor of `T` with rows `pitch` elements
/// apart, starting at address `base` in a buffer of `len` elements, spans —
/// or why it cannot have a tensor map with a `BW × BH` box: the driver's
/// rules for `cuTensorMapEncodeTiled` (a 16-byte aligned start, rows a
/// multiple of 16 bytes apart, sides in `1..=2^32`), checked the same on
/// the simulator.
pub fn tensor_map_span<T: Pod, const BW: u32, const BH: u32, L: TileLayout>(
    base: usize,
    width: usize,
    height: usize,
    pitch: usize,
    len: usize,
) -> Result<usize, String> {
    let _ = TensorMap2d::<T, BW, BH, L>::BOX_BYTES;
    let elem = core::mem::size_of::<T>();
    if width == 0 || height == 0 || width > 1 << 32 || height > 1 << 32 {
        return Err(format!(
            "a tensor map's sides are 1..=2^32 elements (got {width} × {height})"
        ));
    }
    if !base.is_multiple_of(16) {
        return Err(format!(
            "a tensor map's first element must be 16-byte aligned (it is at {base:#x})"
        ));
    }
    let row = stride_bytes(pitch, elem, "row")?;
    if !row.is_multiple_of(16) || row as u64 >= 1 << 40 {
        return Err(format!(
            "a tensor map's rows must be a multiple of 16 bytes apart, below 2^40 (the pitch is \
             {pitch} elements, {row} bytes)"
        ));
    }
    image_span(width, height, pitch, len)
}

/// The bytes of a stride of `stride` elements of `elem` bytes (a tensor
/// map's `what` stride), or the error that it overflows: a wrapped product
/// could pass the driver's rules (a multiple of 16 bytes below 2^40).
pub(crate) fn stride_bytes(stride: usize, elem: usize, what: &str) -> Result<usize, String> {
    stride.checked_mul(elem).ok_or_else(|| {
        format!(
            "a tensor map's {what} stride of {stride} elements of {elem} bytes overflows: past \
             usize::MAX bytes"
        )
    })
}

/// A tensor map of the host image `img` with a `BW × BH` box, for a
/// kernel run on the simulator with [`cg_sim::launch`] (which takes no
/// regions). The map borrows the image: it cannot outlive it. [`run`] takes
/// `Image<&[T]>` for a `TensorMap2d` parameter itself.
pub fn tensor_map<'a, T: Pod, const BW: u32, const BH: u32, L: TileLayout>(
    img: Image<&'a [T]>,
) -> Result<TensorMap2d<'a, T, BW, BH, L>, String> {
    let mut to = Target::sim();
    img.into_param("", &mut to)
}

/// A writable tensor map of the host image `img`, as [`tensor_map`].
pub fn tensor_map_mut<'a, T: Pod, const BW: u32, const BH: u32, L: TileLayout>(
    img: Image<&'a mut [T]>,
) -> Result<TensorMap2dMut<'a, T, BW, BH, L>, String> {
    let mut to = Target::sim();
    img.into_param("", &mut to)
}

/// A simulator launch's tensor-map parameter `M` of the host tensor at
/// `p` (in a slice of `len` elements; for a writable `M`, a pointer from
/// the slice's exclusive borrow): `dims` elements along each dimension,
/// `strides` elements apart along each past the first, checked by the
/// rank's driver rules `span` and registered as the launch's region
/// `name`. The one path of `Image`, `Volume` and `TensorNd`.
fn map_param<M: RankedMap>(
    name: &'static str,
    to: &mut Target,
    (p, len): (*const M::Elem, usize),
    (dims, strides): (&[usize], &[usize]),
    span: impl FnOnce(usize, usize) -> Result<usize, String>,
) -> Result<M, String> {
    host_memory(name, to)?;
    let span = span(p as usize, len).map_err(|e| format!("`{name}`: {e}"))?;
    // SAFETY: the tensor's span of the caller's slice, writable only for a
    // writable map (from an exclusive borrow), kept across the launch
    // that gets the region (`launch_safe`'s contract).
    let r = unsafe { region(name, p, span, M::WRITABLE) };
    to.regions.push(r);
    let dims: Vec<u32> = dims.iter().map(|&d| d as u32).collect();
    // SAFETY: the simulator's map (no device map) of a tensor checked to
    // lie inside the caller's slice, whose borrow (exclusive for a
    // writable map) the launch holds.
    Ok(unsafe { M::from_parts([0; 16], p, &dims, strides) })
}

impl<'p, T: Pod, const BW: u32, const BH: u32, L: TileLayout> HostArg<TensorMap2d<'p, T, BW, BH, L>>
    for Image<&[T]>
{
    fn into_param(
        self,
        name: &'static str,
        to: &mut Target,
    ) -> Result<TensorMap2d<'p, T, BW, BH, L>, String> {
        let (w, h, pitch) = (self.width, self.height, self.pitch);
        map_param(
            name,
            to,
            (self.data.as_ptr(), self.data.len()),
            (&[w, h], &[pitch]),
            |base, len| tensor_map_span::<T, BW, BH, L>(base, w, h, pitch, len),
        )
    }
}

impl<'p, T: Pod, const BW: u32, const BH: u32, L: TileLayout>
    HostArg<TensorMap2dMut<'p, T, BW, BH, L>> for Image<&mut [T]>
{
    fn into_param(
        self,
        name: &'static str,
        to: &mut Target,
    ) -> Result<TensorMap2dMut<'p, T, BW, BH, L>, String> {
        let (w, h, pitch) = (self.width, self.height, self.pitch);
        let len = self.data.len();
        map_param(
            name,
            to,
            (self.data.as_mut_ptr(), len),
            (&[w, h], &[pitch]),
            |base, len| tensor_map_span::<T, BW, BH, L>(base, w, h, pitch, len),
        )
    }
}
