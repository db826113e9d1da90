//! Using this library from a program that already uses
//! [cudarc](https://crates.io/crates/cudarc) (re-exported as
//! [`cg_runtime::cudarc`](crate::cudarc)): its `CudaContext`, its streams,
//! its `CudaSlice`s.
//!
//! * **One context.** [`Gpu::from_context`] loads a kernel crate's PTX into
//!   the caller's `Arc<CudaContext>`; no second context is made.
//!   ([`Gpu::open`] uses the device's primary context, which is the one
//!   `CudaContext::new` retains, so it shares that one too.)
//!   [`cuda_context`] opens a primary context the way cudarc does, after
//!   checking that there is a driver and a GPU (cudarc's dynamic loading
//!   panics where there is no driver; this is an error to fall back on).
//! * **The caller's stream, asynchronously.** [`Gpu::launch_on`] queues a
//!   launch — plain, cooperative (`grid.sync()`) or in clusters — on a
//!   `CudaStream` and returns; time and wait with cudarc's `CudaEvent`s
//!   recorded on that stream ([`Gpu::wait_event`] waits under the
//!   watchdog).
//! * **cudarc's buffers as kernel arguments, typed.** `&CudaSlice<T>`,
//!   `&CudaView<T>` and `CudaView<T>` are the argument of a
//!   [`GlobalSlice<T>`] parameter; `&mut CudaSlice<T>`,
//!   `&mut CudaViewMut<T>` and `CudaViewMut<T>` of an [`OwnedSlice<T>`] or
//!   [`AtomicSlice<T>`] ([`StreamArg`]). A written buffer is borrowed
//!   exclusively for the launch call, so it cannot be two arguments of one
//!   launch.
//! * **cudarc's stream ordering holds.** cudarc tracks, per `CudaSlice`,
//!   the last read and the last write as events, and each of its
//!   operations first makes its stream wait for them. A launch here does
//!   the same through cudarc's own API (`DevicePtr::device_ptr` for an
//!   input, `DevicePtrMut::device_ptr_mut` for an output, whose guards are
//!   dropped after the launch is queued): the stream waits for the
//!   argument's earlier writes (an output: and reads) on any stream, and
//!   the launch is then recorded as the argument's read or write, so that
//!   a later copy on another stream, or the slice's free, waits for the
//!   kernel.
//! * **This crate's buffers as cudarc slices.** A [`DeviceBuffer`] is an
//!   argument of [`Gpu::launch_on`] as it is, and
//!   [`DeviceBuffer::as_cuda_slice`] lends it to cudarc as a `CudaSlice`
//!   on a stream ([`BorrowedCudaSlice`]), ordered with the default stream
//!   that the buffer's own copies use.
//!
//! A program in a cudarc project (it falls back to the simulator where
//! there is no GPU; in a real project `KERNELS` is the table `cg-build`
//! generates, here it is empty, so on a GPU too this example stops at
//! [`Gpu::from_context`]):
//!
//! ```
//! use cg_runtime::{Backend, EmbeddedPtx, Gpu, LaunchConfig, PtxModule, interop};
//! use cooperative_groups::prelude::*;
//! use cooperative_groups::{GlobalSlice, OwnedSlice, PerBlock};
//!
//! #[cooperative_groups::kernel]
//! pub fn block_sums(input: GlobalSlice<u32>, sums: OwnedSlice<u32, PerBlock>) {
//!     let block = this_thread_block();
//!     let s = reduce(&block, input.load(this_grid().thread_rank() as usize), Plus);
//!     if let Some(e) = sums.leader(&block) {
//!         e.store(s);
//!     }
//! }
//!
//! static KERNELS: PtxModule = PtxModule::new("doctest_kernels", &[] as &[EmbeddedPtx]);
//!
//! # fn main() -> Result<(), Box<dyn std::error::Error>> {
//! let data: Vec<u32> = (0..512).collect();
//! let cfg = LaunchConfig::linear(4, 128);
//! let gpu = interop::cuda_context(0).and_then(|ctx| Ok((Gpu::from_context(ctx.clone(), &KERNELS)?, ctx)));
//! let sums = match gpu {
//!     Ok((gpu, ctx)) => {
//!         // The caller's context, stream and slices.
//!         let stream = ctx.new_stream()?;
//!         let input = stream.clone_htod(&data)?;
//!         let mut sums = stream.alloc_zeros::<u32>(4)?;
//!         gpu.launch_on(&stream, &BLOCK_SUMS, &cfg, (&input, &mut sums))?; // queued
//!         stream.clone_dtoh(&sums)? // cudarc: waits for the kernel's write
//!     }
//!     Err(e) => {
//!         println!("on the simulator: {e}");
//!         let sim = Backend::sim();
//!         let input = sim.upload(&data)?;
//!         let mut sums = sim.alloc::<u32>(4)?;
//!         sim.launch(&BLOCK_SUMS, &cfg, (&input, &mut sums))?;
//!         sums.to_vec()?
//!     }
//! };
//! assert_eq!(sums[1], (128..256).sum::<u32>());
//! # Ok(())
//! # }
//! ```
//!
//! cudarc is one crate for both sides only if both name the same version
//! with compatible features: depend on cudarc 0.19 with
//! `default-features = false, features = ["std", "driver",
//! "dynamic-loading", "cuda-12080"]` (what `cg-runtime` enables), or use
//! `cg_runtime::cudarc` itself. cudarc's `cuda-XXXXX` features pick the
//! bindings' CUDA version and do not mix: another one besides `cuda-12080`
//! does not build.

use std::marker::PhantomData;
use std::mem::ManuallyDrop;
use std::ops::Deref;
use std::sync::Arc;

use cooperative_groups::atomic::{AtomicValue, Scope};
use cooperative_groups::global::Partition;
use cooperative_groups::{AtomicSlice, GlobalSlice, KernelParam, OwnedSlice, Pod};
use cudarc::driver::{
    CudaContext, CudaSlice, CudaStream, CudaView, CudaViewMut, DevicePtr, DevicePtrMut, DeviceSlice,
};

use crate::device;
use crate::driver::cudarc_error;
use crate::error::{Result, RuntimeError};
use crate::gpu::{DeviceBuffer, Gpu};
use crate::launch::{HostArg, Target};
pub use crate::stream::{StreamArg, StreamArgs, StreamLaunch};

/// GPU `ordinal`'s primary context as a cudarc `CudaContext`
/// (`CudaContext::new`), after checking that the driver loads and the GPU
/// exists: an error ([`RuntimeError::NoDriver`], [`RuntimeError::NoDevice`],
/// [`RuntimeError::BadDevice`]) where cudarc would panic or fail, so that a
/// program can fall back to the simulator.
pub fn cuda_context(ordinal: u32) -> Result<Arc<CudaContext>> {
    device::device_handle(ordinal)?;
    CudaContext::new(ordinal as usize).map_err(cudarc_error("cuDevicePrimaryCtxRetain"))
}

/// A read-only kernel view of `len` elements at device address `ptr`.
///
/// # Safety
/// `ptr` must address `len` elements of `T` of device memory that nothing
/// writes while the kernel runs (ordered on the launch's stream).
unsafe fn global<'p, T: Pod>(ptr: u64, len: usize) -> GlobalSlice<'p, T> {
    // SAFETY: forwarded contract.
    unsafe { GlobalSlice::from_raw_parts(ptr as *const T, len) }
}

/// A kernel output of `len` elements at device address `ptr`.
///
/// # Safety
/// `ptr` must address `len` elements of `T` of device memory that nothing
/// else reaches while the kernel runs (ordered on the launch's stream).
unsafe fn owned<'p, T: Pod, P: Partition>(ptr: u64, len: usize) -> OwnedSlice<'p, T, P> {
    // SAFETY: forwarded contract.
    unsafe { OwnedSlice::from_raw_parts(ptr as *mut T, len) }
}

/// Kernel atomics over `len` elements at device address `ptr`.
///
/// # Safety
/// As [`owned`]; the kernel reaches the elements only atomically.
unsafe fn atomic<'p, T: Pod + AtomicValue, S: Scope + 'static>(
    ptr: u64,
    len: usize,
) -> AtomicSlice<'p, T, S> {
    // SAFETY: forwarded contract.
    unsafe { AtomicSlice::from_raw_parts(ptr as *mut T, len) }
}

impl<'p, 's, 'b: 's, T: Pod> StreamArg<'s, GlobalSlice<'p, T>> for &'b CudaSlice<T> {
    fn into_stream_param(
        self,
        name: &'static str,
        launch: &mut StreamLaunch<'s>,
    ) -> Result<GlobalSlice<'p, T>, String> {
        launch.same_context(name, self.context())?;
        let len = self.len();
        // cudarc's read: the stream waits for the slice's last write; the
        // guard records this launch as its last read.
        let (ptr, guard) = self.device_ptr(launch.stream());
        launch.keep(guard);
        // SAFETY: `len` elements of the slice's allocation, borrowed shared
        // for the launch call and, on the device, ordered after its writes
        // and before its next ones (the write waits for the recorded read).
        Ok(unsafe { global(ptr, len) })
    }
}

impl<'p, 's, 'b: 's, 'c: 'b, T: Pod> StreamArg<'s, GlobalSlice<'p, T>> for &'b CudaView<'c, T> {
    fn into_stream_param(
        self,
        name: &'static str,
        launch: &mut StreamLaunch<'s>,
    ) -> Result<GlobalSlice<'p, T>, String> {
        launch.same_context(name, DeviceSlice::stream(self).context())?;
        let len = self.len();
        let (ptr, guard) = self.device_ptr(launch.stream());
        launch.keep(guard);
        // SAFETY: as for `&CudaSlice`: the view's elements, ordered as a read.
        Ok(unsafe { global(ptr, len) })
    }
}

impl<'p, 's, 'c: 's, T: Pod> StreamArg<'s, GlobalSlice<'p, T>> for CudaView<'c, T> {
    fn into_stream_param(
        self,
        name: &'static str,
        launch: &mut StreamLaunch<'s>,
    ) -> Result<GlobalSlice<'p, T>, String> {
        launch.same_context(name, DeviceSlice::stream(&self).context())?;
        let len = self.len();
        // The view borrows its slice for 'c, which outlives the launch.
        let view: CudaView<'s, T> = self;
        let (ptr, guard) = view.view_ptr(launch.stream());
        launch.keep(guard);
        // SAFETY: as for `&CudaSlice`: the view's elements, ordered as a read.
        Ok(unsafe { global(ptr, len) })
    }
}

impl<'p, 's, 'b: 's, T: Pod, P: Partition> StreamArg<'s, OwnedSlice<'p, T, P>>
    for &'b mut CudaSlice<T>
{
    fn into_stream_param(
        self,
        name: &'static str,
        launch: &mut StreamLaunch<'s>,
    ) -> Result<OwnedSlice<'p, T, P>, String> {
        launch.same_context(name, self.context())?;
        let len = self.len();
        // cudarc's write: the stream waits for the slice's last read and
        // write; the guard records this launch as its last write.
        let (ptr, guard) = self.device_ptr_mut(launch.stream());
        launch.keep(guard);
        // SAFETY: the slice's elements, borrowed exclusively for the launch
        // call (no other argument reaches them) and, on the device, ordered
        // after every earlier use and before every later one.
        Ok(unsafe { owned(ptr, len) })
    }
}

impl<'p, 's, 'b: 's, 'c: 'b, T: Pod, P: Partition> StreamArg<'s, OwnedSlice<'p, T, P>>
    for &'b mut CudaViewMut<'c, T>
{
    fn into_stream_param(
        self,
        name: &'static str,
        launch: &mut StreamLaunch<'s>,
    ) -> Result<OwnedSlice<'p, T, P>, String> {
        launch.same_context(name, DeviceSlice::stream(self).context())?;
        let len = self.len();
        let (ptr, guard) = self.device_ptr_mut(launch.stream());
        launch.keep(guard);
        // SAFETY: as for `&mut CudaSlice`: the view's elements, exclusive,
        // ordered as a write.
        Ok(unsafe { owned(ptr, len) })
    }
}

impl<'p, 's, 'c: 's, T: Pod, P: Partition> StreamArg<'s, OwnedSlice<'p, T, P>>
    for CudaViewMut<'c, T>
{
    fn into_stream_param(
        self,
        name: &'static str,
        launch: &mut StreamLaunch<'s>,
    ) -> Result<OwnedSlice<'p, T, P>, String> {
        launch.same_context(name, DeviceSlice::stream(&self).context())?;
        let len = self.len();
        let view: CudaViewMut<'s, T> = self;
        let (ptr, guard) = view.view_ptr_mut(launch.stream());
        launch.keep(guard);
        // SAFETY: as for `&mut CudaSlice`: the view's elements, exclusive
        // (the view borrows its slice mutably), ordered as a write.
        Ok(unsafe { owned(ptr, len) })
    }
}

impl<'p, 's, 'b: 's, T: Pod + AtomicValue, S: Scope + 'static> StreamArg<'s, AtomicSlice<'p, T, S>>
    for &'b mut CudaSlice<T>
{
    fn into_stream_param(
        self,
        name: &'static str,
        launch: &mut StreamLaunch<'s>,
    ) -> Result<AtomicSlice<'p, T, S>, String> {
        launch.same_context(name, self.context())?;
        let len = self.len();
        let (ptr, guard) = self.device_ptr_mut(launch.stream());
        launch.keep(guard);
        // SAFETY: as for an `OwnedSlice`; the kernel reaches it only atomically.
        Ok(unsafe { atomic(ptr, len) })
    }
}

impl<'p, 's, 'b: 's, 'c: 'b, T: Pod + AtomicValue, S: Scope + 'static>
    StreamArg<'s, AtomicSlice<'p, T, S>> for &'b mut CudaViewMut<'c, T>
{
    fn into_stream_param(
        self,
        name: &'static str,
        launch: &mut StreamLaunch<'s>,
    ) -> Result<AtomicSlice<'p, T, S>, String> {
        launch.same_context(name, DeviceSlice::stream(self).context())?;
        let len = self.len();
        let (ptr, guard) = self.device_ptr_mut(launch.stream());
        launch.keep(guard);
        // SAFETY: as for an `OwnedSlice`; the kernel reaches it only atomically.
        Ok(unsafe { atomic(ptr, len) })
    }
}

impl<'p, 's, 'c: 's, T: Pod + AtomicValue, S: Scope + 'static> StreamArg<'s, AtomicSlice<'p, T, S>>
    for CudaViewMut<'c, T>
{
    fn into_stream_param(
        self,
        name: &'static str,
        launch: &mut StreamLaunch<'s>,
    ) -> Result<AtomicSlice<'p, T, S>, String> {
        launch.same_context(name, DeviceSlice::stream(&self).context())?;
        let len = self.len();
        let view: CudaViewMut<'s, T> = self;
        let (ptr, guard) = view.view_ptr_mut(launch.stream());
        launch.keep(guard);
        // SAFETY: as for an `OwnedSlice`; the kernel reaches it only atomically.
        Ok(unsafe { atomic(ptr, len) })
    }
}

// This crate's device buffers: the `HostArg` conversion of a GPU launch,
// ordered with the default stream that their copies use.

impl<'p, 's, 'b: 's, T: Pod> StreamArg<'s, GlobalSlice<'p, T>> for &'b DeviceBuffer<T> {
    fn into_stream_param(
        self,
        name: &'static str,
        launch: &mut StreamLaunch<'s>,
    ) -> Result<GlobalSlice<'p, T>, String> {
        launch.same_context(name, self.context())?;
        launch.order_with_default_stream();
        HostArg::into_param(self, name, &mut Target::gpu())
    }
}

impl<'p, 's, 'b: 's, T: Pod, P: Partition> StreamArg<'s, OwnedSlice<'p, T, P>>
    for &'b mut DeviceBuffer<T>
{
    fn into_stream_param(
        self,
        name: &'static str,
        launch: &mut StreamLaunch<'s>,
    ) -> Result<OwnedSlice<'p, T, P>, String> {
        launch.same_context(name, self.context())?;
        launch.order_with_default_stream();
        HostArg::into_param(self, name, &mut Target::gpu())
    }
}

impl<'p, 's, 'b: 's, T: Pod + AtomicValue, S: Scope + 'static> StreamArg<'s, AtomicSlice<'p, T, S>>
    for &'b mut DeviceBuffer<T>
{
    fn into_stream_param(
        self,
        name: &'static str,
        launch: &mut StreamLaunch<'s>,
    ) -> Result<AtomicSlice<'p, T, S>, String> {
        launch.same_context(name, self.context())?;
        launch.order_with_default_stream();
        HostArg::into_param(self, name, &mut Target::gpu())
    }
}

/// A [`DeviceBuffer`] lent to cudarc as a `CudaSlice` on a stream
/// ([`DeviceBuffer::as_cuda_slice`]), borrowing the buffer exclusively
/// while it lives: it dereferences to `&CudaSlice<T>`, which every cudarc
/// operation that reads a slice takes (`clone_dtoh`, `memcpy_dtod`'s
/// source, an input of [`Gpu::launch_on`]), and
/// [`view_mut`](Self::view_mut) gives the `CudaViewMut<T>` that writes
/// (`memcpy_htod`'s destination, `memset_zeros`, an output of
/// [`Gpu::launch_on`]).
///
/// The memory stays the buffer's: cudarc never frees it. Made, the loan
/// orders the stream after the default stream's work (the buffer's copies
/// and default-stream launches); dropped, it gives the memory back with
/// cudarc's `CudaSlice::leak` (which orders the slice's stream after its
/// recorded uses) and makes the default stream wait for that stream, so
/// the buffer's own copies come after the cudarc work. The loan is
/// exclusive because the buffer's copies take `&self`: a shared loan would
/// let a default-stream copy race with cudarc work still queued. It hands
/// out no `&mut CudaSlice<T>` (which could be swapped for another slice,
/// and so freed by cudarc).
pub struct BorrowedCudaSlice<'b, T> {
    slice: ManuallyDrop<CudaSlice<T>>,
    _buf: PhantomData<&'b mut DeviceBuffer<T>>,
}

impl<T> std::fmt::Debug for BorrowedCudaSlice<'_, T> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("BorrowedCudaSlice")
            .field("len", &self.slice.len())
            .finish()
    }
}

impl<T> Deref for BorrowedCudaSlice<'_, T> {
    type Target = CudaSlice<T>;
    fn deref(&self) -> &CudaSlice<T> {
        &self.slice
    }
}

impl<T> BorrowedCudaSlice<'_, T> {
    /// The whole buffer as a cudarc `CudaViewMut`, for what writes it.
    pub fn view_mut(&mut self) -> CudaViewMut<'_, T> {
        self.slice.as_view_mut()
    }
}

impl<T> Drop for BorrowedCudaSlice<'_, T> {
    fn drop(&mut self) {
        // SAFETY: taken once, here; the field is not used again.
        give_back(unsafe { ManuallyDrop::take(&mut self.slice) });
    }
}

/// The memory of `buf` as a cudarc slice on `stream`, after the default
/// stream's work.
fn lend<T>(buf: &DeviceBuffer<T>, stream: &Arc<CudaStream>) -> Result<CudaSlice<T>> {
    if buf.ctx.cu_ctx() != stream.context().cu_ctx() {
        return Err(RuntimeError::InvalidArgument(format!(
            "as_cuda_slice: a buffer of device {} lent to a stream of another context (device {})",
            buf.ctx.ordinal(),
            stream.context().ordinal()
        )));
    }
    if !stream.cu_stream().is_null() {
        let ev = stream
            .context()
            .default_stream()
            .record_event(None)
            .map_err(cudarc_error("cuEventRecord"))?;
        stream
            .wait(&ev)
            .map_err(cudarc_error("cuStreamWaitEvent"))?;
    }
    // SAFETY: `ptr` is a live allocation of `len` elements of `T` (at least
    // one byte, so also for `len == 0`), every byte initialised (zeroed at
    // allocation) and any bytes a `T` (`Pod`); the slice is never dropped
    // as a `CudaSlice` (held in `ManuallyDrop`, then leaked), so cudarc
    // never frees it, and the buffer is borrowed for as long as it lives.
    Ok(unsafe { stream.upgrade_device_ptr(buf.ptr, buf.len) })
}

/// Ends a loan: the slice's stream waits for the slice's recorded uses
/// (`leak`), and the default stream for that stream.
fn give_back<T>(slice: CudaSlice<T>) {
    let stream = slice.stream().clone();
    let ctx = stream.context().clone();
    let _ = slice.leak();
    if !stream.cu_stream().is_null() {
        match stream.record_event(None) {
            Ok(ev) => ctx.record_err(ctx.default_stream().wait(&ev)),
            Err(e) => ctx.record_err::<()>(Err(e)),
        }
    }
}

impl<T: Pod> DeviceBuffer<T> {
    /// The buffer as a cudarc `CudaSlice` on `stream` (a stream of the
    /// buffer's context; an error otherwise) for as long as the returned
    /// loan lives: cudarc's copies, its kernels and the libraries built on
    /// it use the buffer as one of their own slices, and a launch on the
    /// stream takes it as a cudarc argument. Ordered with the default
    /// stream both ways ([`BorrowedCudaSlice`]).
    pub fn as_cuda_slice(&mut self, stream: &Arc<CudaStream>) -> Result<BorrowedCudaSlice<'_, T>> {
        Ok(BorrowedCudaSlice {
            slice: ManuallyDrop::new(lend(self, stream)?),
            _buf: PhantomData,
        })
    }
}

impl Gpu {
    /// Whether `self` runs in the context `ctx` (no second context: a `Gpu`
    /// of [`Gpu::from_context`], or of [`Gpu::open`] beside cudarc's
    /// `CudaContext::new` on the same device, shares the caller's).
    pub fn shares_context(&self, ctx: &CudaContext) -> bool {
        self.context().cu_ctx() == ctx.cu_ctx()
    }
}

/// A parameter passed as it is: a raw pointer, or a `Pod` struct holding
/// one, for [`Gpu::launch_on_unchecked`] (whose contract then covers it:
/// its memory is not ordered on the stream). Also a scalar, where a value
/// would do.
#[derive(Clone, Copy, Debug)]
pub struct Raw<T>(pub T);

impl<'s, T: KernelParam> StreamArg<'s, T> for Raw<T> {
    fn into_stream_param(self, _: &'static str, _: &mut StreamLaunch<'s>) -> Result<T, String> {
        Ok(self.0)
    }
}
