//! A launch on a cudarc stream while its arguments become kernel
//! parameters: [`StreamLaunch`] and the traits its arguments implement
//! ([`StreamArg`], [`StreamArgs`]). Below both the GPU backend
//! ([`Gpu::launch_on`](crate::gpu::Gpu::launch_on), which makes one) and
//! the cudarc interop ([`interop`](crate::interop), which implements the
//! traits for cudarc's buffers).

use cooperative_groups::{KernelParam, Pod, SafeParam};
use cudarc::driver::{CudaContext, CudaStream, SyncOnDrop};

use crate::driver::cudarc_error;
use crate::error::Result;

/// One launch on a cudarc stream while its arguments become parameters:
/// the stream, the guards that record each cudarc argument's use after the
/// launch is queued, and whether the default stream must be ordered with
/// it (a [`DeviceBuffer`](crate::gpu::DeviceBuffer) argument). Made by [`Gpu::launch_on`](crate::gpu::Gpu::launch_on); a
/// [`StreamArg`] implementation adds to it.
pub struct StreamLaunch<'s> {
    stream: &'s CudaStream,
    guards: Vec<SyncOnDrop<'s>>,
    default_stream: bool,
}

impl std::fmt::Debug for StreamLaunch<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("StreamLaunch")
            .field("stream", &self.stream.cu_stream())
            .field("guards", &self.guards.len())
            .field("default_stream", &self.default_stream)
            .finish()
    }
}

impl<'s> StreamLaunch<'s> {
    pub(crate) fn new(stream: &'s CudaStream) -> StreamLaunch<'s> {
        StreamLaunch {
            stream,
            guards: Vec::new(),
            default_stream: false,
        }
    }

    /// The stream the kernel is launched on.
    pub fn stream(&self) -> &'s CudaStream {
        self.stream
    }

    /// Keeps `guard` (what cudarc's `device_ptr` / `device_ptr_mut` return
    /// for this stream) until the launch is queued, then drops it: the
    /// argument's use is recorded after the kernel.
    pub fn keep(&mut self, guard: SyncOnDrop<'s>) {
        self.guards.push(guard);
    }

    /// Orders the launch with the default (null) stream both ways: the
    /// stream waits for the work queued there before the launch, and the
    /// default stream waits for the launch (for memory whose other uses run
    /// on the default stream, as a [`DeviceBuffer`](crate::gpu::DeviceBuffer)'s copies do).
    pub fn order_with_default_stream(&mut self) {
        self.default_stream = true;
    }

    /// An error unless memory of context `ctx` serves this launch.
    pub(crate) fn same_context(&self, name: &'static str, ctx: &CudaContext) -> Result<(), String> {
        if ctx.cu_ctx() == self.stream.context().cu_ctx() {
            Ok(())
        } else {
            Err(format!(
                "`{name}`: memory of another CUDA context (device {}) than the stream's (device {})",
                ctx.ordinal(),
                self.stream.context().ordinal()
            ))
        }
    }

    /// Before the launch: the stream waits for the default stream's work
    /// (if a buffer of the default stream is an argument).
    pub(crate) fn before(&self) -> Result<()> {
        if self.default_stream && !self.stream.cu_stream().is_null() {
            let legacy = self.stream.context().default_stream();
            let ev = legacy
                .record_event(None)
                .map_err(cudarc_error("cuEventRecord"))?;
            self.stream
                .wait(&ev)
                .map_err(cudarc_error("cuStreamWaitEvent"))?;
        }
        Ok(())
    }

    /// After the launch is queued: records every cudarc argument's use
    /// (the guards' drop) and makes the default stream wait for the launch
    /// (if a buffer of the default stream is an argument).
    pub(crate) fn after(self) -> Result<()> {
        let StreamLaunch {
            stream,
            guards,
            default_stream,
        } = self;
        drop(guards);
        if default_stream && !stream.cu_stream().is_null() {
            let ev = stream
                .record_event(None)
                .map_err(cudarc_error("cuEventRecord"))?;
            stream
                .context()
                .default_stream()
                .wait(&ev)
                .map_err(cudarc_error("cuStreamWaitEvent"))?;
        }
        Ok(())
    }
}

/// What a launch on a cudarc stream
/// ([`Gpu::launch_on`](crate::gpu::Gpu::launch_on)) passes for a kernel
/// parameter of type `P`: cudarc's slices and views and this crate's
/// device buffers for the typed parameters (a shared borrow for a
/// [`GlobalSlice`](cooperative_groups::GlobalSlice), an exclusive one for
/// an [`OwnedSlice`](cooperative_groups::OwnedSlice) or an
/// [`AtomicSlice`](cooperative_groups::AtomicSlice)), values for scalars.
#[diagnostic::on_unimplemented(
    message = "`{Self}` is not an argument of a `{P}` parameter in a launch on a cudarc stream",
    note = "a `GlobalSlice<T>` takes `&CudaSlice<T>`, `&CudaView<T>`, `CudaView<T>` or `&DeviceBuffer<T>`; an `OwnedSlice<T>` or `AtomicSlice<T>` takes `&mut CudaSlice<T>`, `&mut CudaViewMut<T>`, `CudaViewMut<T>` or `&mut DeviceBuffer<T>`; a scalar takes its value; a raw pointer takes `Raw(ptr)`"
)]
pub trait StreamArg<'s, P: KernelParam> {
    /// The parameter named `name` for `launch` (an error if this memory
    /// cannot serve there: memory of another context, say), after ordering
    /// the memory's earlier uses before the launch and arranging (through
    /// `launch`) for the launch to be recorded as its next use.
    fn into_stream_param(
        self,
        name: &'static str,
        launch: &mut StreamLaunch<'s>,
    ) -> Result<P, String>;
}

/// The argument tuple of a launch on a cudarc stream: one [`StreamArg`]
/// per parameter.
pub trait StreamArgs<'s, A> {
    /// The parameters, named `names` (in order).
    fn into_stream_params(
        self,
        names: &[&'static str],
        launch: &mut StreamLaunch<'s>,
    ) -> Result<A, String>;
}

macro_rules! tuples {
    ($(($($n:tt $p:ident $h:ident),*))*) => {$(
        impl<'s, $($p: KernelParam, $h: StreamArg<'s, $p>),*> StreamArgs<'s, ($($p,)*)> for ($($h,)*) {
            #[allow(unused_variables)]
            fn into_stream_params(
                self,
                names: &[&'static str],
                launch: &mut StreamLaunch<'s>,
            ) -> Result<($($p,)*), String> {
                Ok(($(self.$n.into_stream_param(names.get($n).copied().unwrap_or(""), launch)?,)*))
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
impl<'s, T: SafeParam + Pod> StreamArg<'s, T> for T {
    fn into_stream_param(self, _: &'static str, _: &mut StreamLaunch<'s>) -> Result<T, String> {
        Ok(self)
    }
}
