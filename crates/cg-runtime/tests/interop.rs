//! cudarc interop: launches on a user's `CudaStream` with cudarc's slices
//! as typed arguments, a `DeviceBuffer` lent to cudarc, one context.
//!
//! Everything here compiles everywhere (the argument conversions are
//! type-checked by the build); the tests that need a GPU say so and return
//! where there is none. On a GPU they launch a hand-written PTX kernel
//! (`copy_plus`, below: the layout of `GlobalSlice`/`OwnedSlice` is
//! `#[repr(C)] { ptr, len }`) that spins for a while before it writes, so
//! that cudarc work on another stream that did not wait for it would see
//! the old contents.

use std::sync::Arc;

use cg_runtime::cudarc::driver::{CudaContext, CudaSlice, CudaStream, sys};
use cg_runtime::{
    DeviceBuffer, EmbeddedPtx, Gpu, LaunchConfig, PtxModule, Raw, RuntimeError, cuda_context,
};
use cooperative_groups::prelude::*;
use cooperative_groups::{AtomicSlice, GlobalSlice, OwnedSlice};

/// `out[i] = input[i] + add` after spinning `spin` cycles.
#[cooperative_groups::kernel]
pub fn copy_plus(input: GlobalSlice<u32>, out: OwnedSlice<u32>, add: u32, spin: u64) {
    let _ = spin;
    if let Some(e) = out.at(&this_grid()) {
        e.store(input.load(e.index()) + add);
    }
}

/// An atomic output and a raw pointer, for the other argument forms
/// (compiled, never launched: the PTX below has no such entry).
#[cooperative_groups::kernel]
pub fn count(input: GlobalSlice<u32>, hits: AtomicSlice<u32>) {
    let i = this_grid().thread_rank() as usize;
    if i < input.len() {
        hits.at(0)
            .red_add(input.load(i), cooperative_groups::atomic::Relaxed);
    }
}

/// A kernel with a raw pointer (an `unsafe` launch).
#[cooperative_groups::kernel]
pub fn poke(p: *mut u32) {
    // SAFETY: the launcher's contract: `p` is a device address of a `u32`.
    unsafe { *p = 1 };
}

const COPY_PLUS_PTX: &str = r#"
.version 7.0
.target sm_70
.address_size 64

.visible .entry copy_plus(
    .param .align 8 .b8 copy_plus_param_0[16],
    .param .align 8 .b8 copy_plus_param_1[16],
    .param .u32 copy_plus_param_2,
    .param .u64 copy_plus_param_3
)
{
    .reg .pred %p<3>;
    .reg .b32 %r<8>;
    .reg .b64 %rd<12>;
    ld.param.u64 %rd1, [copy_plus_param_0];
    ld.param.u64 %rd2, [copy_plus_param_0+8];
    ld.param.u64 %rd3, [copy_plus_param_1];
    ld.param.u64 %rd4, [copy_plus_param_1+8];
    ld.param.u32 %r1, [copy_plus_param_2];
    ld.param.u64 %rd5, [copy_plus_param_3];
    mov.u64 %rd6, %clock64;
SPIN:
    mov.u64 %rd7, %clock64;
    sub.s64 %rd8, %rd7, %rd6;
    setp.lt.u64 %p1, %rd8, %rd5;
    @%p1 bra SPIN;
    mov.u32 %r2, %ctaid.x;
    mov.u32 %r3, %ntid.x;
    mov.u32 %r4, %tid.x;
    mad.lo.s32 %r5, %r2, %r3, %r4;
    cvt.u64.u32 %rd9, %r5;
    setp.ge.u64 %p2, %rd9, %rd4;
    @%p2 bra DONE;
    setp.ge.u64 %p1, %rd9, %rd2;
    @%p1 bra DONE;
    shl.b64 %rd10, %rd9, 2;
    add.s64 %rd11, %rd1, %rd10;
    ld.global.u32 %r6, [%rd11];
    add.s32 %r7, %r6, %r1;
    add.s64 %rd11, %rd3, %rd10;
    st.global.u32 [%rd11], %r7;
DONE:
    ret;
}
"#;

/// The table `cg-build` would generate for this crate (the test crate is
/// `interop`, the crate of the descriptors above).
static KERNELS: PtxModule = PtxModule::new(
    "interop",
    &[EmbeddedPtx {
        sm: 70,
        arch_specific: false,
        ptx: COPY_PLUS_PTX,
    }],
);

const N: usize = 4096;
/// About 50 ms at the H200's 1.98 GHz.
const SPIN: u64 = 100_000_000;

/// The GPU's context, or `None` (printing why) where there is none.
fn context() -> Option<Arc<CudaContext>> {
    match cuda_context(0) {
        Ok(ctx) => Some(ctx),
        Err(e) => {
            println!("no GPU, test skipped: {e}");
            None
        }
    }
}

fn cfg() -> LaunchConfig {
    LaunchConfig::linear((N / 256) as u32, 256)
}

fn data() -> Vec<u32> {
    (0..N as u32).map(|i| i * 3 + 1).collect()
}

/// Every argument form a launch on a stream takes, type-checked here (run
/// only on a GPU; `poke`'s and `count`'s launches fail there, the module
/// has no such entries, and are only compiled).
fn every_argument_form(
    gpu: &Gpu,
    stream: &Arc<CudaStream>,
    input: &CudaSlice<u32>,
    out: &mut CudaSlice<u32>,
    buf: &mut DeviceBuffer<u32>,
) -> Result<(), RuntimeError> {
    let cfg = cfg();
    // Slices.
    gpu.launch_on(stream, &COPY_PLUS, &cfg, (input, &mut *out, 1u32, 0u64))?;
    // Views, by reference and by value.
    let view = input.slice(..);
    let mut view_mut = out.slice_mut(..);
    gpu.launch_on(stream, &COPY_PLUS, &cfg, (&view, &mut view_mut, 1u32, 0u64))?;
    gpu.launch_on(stream, &COPY_PLUS, &cfg, (view, view_mut, 1u32, 0u64))?;
    // A cg-runtime buffer, as an output and as an input.
    gpu.launch_on(stream, &COPY_PLUS, &cfg, (input, &mut *buf, 1u32, 0u64))?;
    gpu.launch_on(stream, &COPY_PLUS, &cfg, (&*buf, &mut *out, 1u32, 0u64))?;
    // A lent buffer: `&*loan` reads, `loan.view_mut()` writes.
    let mut loan = buf.as_cuda_slice(stream)?;
    gpu.launch_on(stream, &COPY_PLUS, &cfg, (&*loan, &mut *out, 1u32, 0u64))?;
    gpu.launch_on(
        stream,
        &COPY_PLUS,
        &cfg,
        (input, loan.view_mut(), 1u32, 0u64),
    )?;
    drop(loan);
    // An atomic output; a raw pointer (unsafe). Both refused: no such
    // entry in this module.
    let e = gpu
        .launch_on(stream, &COUNT, &cfg, (input, &mut *out))
        .unwrap_err();
    assert!(matches!(e, RuntimeError::NoSuchKernel(_)), "{e}");
    // SAFETY: refused before launch (no such kernel); the pointer is
    // device memory of one `u32` anyway.
    let e = unsafe { gpu.launch_on_unchecked(stream, &POKE, &cfg, (Raw(buf.as_ptr()),)) };
    assert!(matches!(e, Err(RuntimeError::NoSuchKernel(_))));
    stream
        .synchronize()
        .map_err(|e| RuntimeError::InvalidArgument(e.to_string()))
}

/// `y[i] = x[i] · 2 + 1` in bf16 (`fma.rn.bf16`): buffers of the `half`
/// crate's `bf16`, on either side.
#[cooperative_groups::kernel]
pub fn bf16_affine(
    x: GlobalSlice<cooperative_groups::bf16>,
    y: OwnedSlice<cooperative_groups::bf16>,
) {
    use cooperative_groups::{Float16, bf16};
    if let Some(e) = y.at(&this_grid()) {
        let two = bf16::from_f32_rn(2.0);
        e.store(x.load(e.index()).fma_rn(two, bf16::from_f32_rn(1.0)));
    }
}

/// cudarc's slices of `half::bf16` are the arguments of `GlobalSlice<bf16>`
/// and `OwnedSlice<bf16>` (the bridges take any `Pod` element; making a
/// `CudaSlice<bf16>` from host data takes cudarc's own `f16` feature).
/// Type-checked only.
#[allow(dead_code)]
fn bf16_slices_are_arguments(
    gpu: &Gpu,
    stream: &Arc<CudaStream>,
    x: &CudaSlice<cooperative_groups::bf16>,
    y: &mut CudaSlice<cooperative_groups::bf16>,
) -> Result<(), RuntimeError> {
    gpu.launch_on(stream, &BF16_AFFINE, &cfg(), (x, &mut *y))?;
    gpu.launch_on(stream, &BF16_AFFINE, &cfg(), (x.slice(..), y.slice_mut(..)))
}

/// The same kernel on the simulator backend, with `Buffer<bf16>`s.
#[test]
fn bf16_buffers_on_the_simulator() {
    use cooperative_groups::bf16;
    let sim = cg_runtime::Backend::sim();
    let data: Vec<bf16> = (0..256).map(|i| bf16::from_f32(i as f32 * 0.37)).collect();
    let x = sim.upload(&data).unwrap();
    let mut y = sim.alloc::<bf16>(256).unwrap();
    sim.launch(&BF16_AFFINE, &LaunchConfig::linear(2, 128), (&x, &mut y))
        .unwrap();
    for (i, (a, r)) in data.iter().zip(y.to_vec().unwrap()).enumerate() {
        // 2a + 1 is exact in f32 (a has 8 bits), so rounding it once is
        // the fma's one rounding.
        assert_eq!(r, bf16::from_f32(a.to_f32() * 2.0 + 1.0), "element {i}");
    }
}

#[test]
fn no_driver_is_an_error_to_fall_back_on() {
    // cudarc's dynamic loading panics without libcuda; `cuda_context`
    // checks first.
    match cuda_context(0) {
        Ok(ctx) => println!("a GPU: {}", ctx.name().unwrap()),
        Err(e) => assert!(
            matches!(
                e,
                RuntimeError::NoDriver | RuntimeError::NoDevice | RuntimeError::DriverInit(_)
            ),
            "{e}"
        ),
    }
    // The same error from `Gpu::open`, whose context is cudarc's too.
    if let Err(e) = Gpu::open(0, &KERNELS) {
        println!("Gpu::open: {e}");
    }
}

#[test]
fn the_kernel_table_names_this_crate() {
    assert_eq!(COPY_PLUS.crate_name(), KERNELS.crate_name());
}

#[test]
fn one_context() {
    let Some(ctx) = context() else { return };
    let gpu = Gpu::from_context(ctx.clone(), &KERNELS).unwrap();
    assert!(Arc::ptr_eq(gpu.context(), &ctx));
    assert!(gpu.shares_context(&ctx));
    // `Gpu::open` retains the primary context, which is cudarc's.
    let opened = Gpu::open(0, &KERNELS).unwrap();
    assert!(opened.shares_context(&ctx));
    // A buffer of the Gpu lives in the caller's context.
    let buf = gpu.alloc::<u32>(16).unwrap();
    let mut owner: sys::CUcontext = std::ptr::null_mut();
    // SAFETY: writes one context handle for a live allocation.
    let r = unsafe {
        sys::cuPointerGetAttribute(
            (&mut owner as *mut sys::CUcontext).cast(),
            sys::CUpointer_attribute::CU_POINTER_ATTRIBUTE_CONTEXT,
            buf.as_ptr() as sys::CUdeviceptr,
        )
    };
    assert_eq!(r, sys::CUresult::CUDA_SUCCESS);
    assert_eq!(owner, ctx.cu_ctx());
    assert_eq!(buf.context().cu_ctx(), ctx.cu_ctx());
}

#[test]
fn arguments_of_every_form() {
    let Some(ctx) = context() else { return };
    let gpu = Gpu::from_context(ctx.clone(), &KERNELS).unwrap();
    let stream = ctx.new_stream().unwrap();
    let input = stream.clone_htod(&data()).unwrap();
    let mut out = stream.alloc_zeros::<u32>(N).unwrap();
    let mut buf = gpu.alloc::<u32>(N).unwrap();
    every_argument_form(&gpu, &stream, &input, &mut out, &mut buf).unwrap();
    // The last writes of `out` copy `buf` plus one, and `buf` holds the
    // input plus one: the input plus two, if every launch ran in stream
    // order after the one before it.
    let want: Vec<u32> = data().iter().map(|x| x + 2).collect();
    assert_eq!(stream.clone_dtoh(&out).unwrap(), want);
}

#[test]
fn a_launch_is_asynchronous_and_cudarc_work_on_another_stream_waits_for_it() {
    let Some(ctx) = context() else { return };
    let gpu = Gpu::from_context(ctx.clone(), &KERNELS).unwrap();
    let (a, b) = (ctx.new_stream().unwrap(), ctx.new_stream().unwrap());
    let mut input = a.clone_htod(&data()).unwrap();
    let mut out = a.alloc_zeros::<u32>(N).unwrap();
    gpu.launch_on(&a, &COPY_PLUS, &cfg(), (&input, &mut out, 1u32, SPIN))
        .unwrap();
    let queued = a.record_event(None).unwrap();
    // The kernel spins for ~50 ms: the call has returned long before.
    assert!(!queued.try_is_complete().unwrap(), "launch_on waited");
    // On stream b: overwrite the input (must wait for the kernel's read)
    // and read the output (must wait for its write).
    b.memcpy_htod(&vec![0u32; N], &mut input).unwrap();
    let got = b.clone_dtoh(&out).unwrap();
    b.synchronize().unwrap();
    let want: Vec<u32> = data().iter().map(|x| x + 1).collect();
    assert_eq!(got, want);
    assert_eq!(b.clone_dtoh(&input).unwrap(), vec![0u32; N]);
}

#[test]
fn cooperative_launch_on_a_stream() {
    let Some(ctx) = context() else { return };
    let gpu = Gpu::from_context(ctx.clone(), &KERNELS).unwrap();
    let stream = ctx.new_stream().unwrap();
    let input = stream.clone_htod(&data()).unwrap();
    let mut out = stream.alloc_zeros::<u32>(N).unwrap();
    let cfg = LaunchConfig::linear(4, 1024).with_cooperative(true);
    gpu.launch_on(&stream, &COPY_PLUS, &cfg, (&input, &mut out, 5u32, 0u64))
        .unwrap();
    let want: Vec<u32> = data().iter().map(|x| x + 5).collect();
    assert_eq!(stream.clone_dtoh(&out).unwrap(), want);
    // Too large a cooperative grid is refused before launch.
    let e = gpu
        .launch_on(
            &stream,
            &COPY_PLUS,
            &LaunchConfig::linear(100_000, 1024).with_cooperative(true),
            (&input, &mut out, 5u32, 0u64),
        )
        .unwrap_err();
    assert!(e.to_string().contains("co-resident"), "{e}");
}

#[test]
fn a_device_buffer_is_ordered_with_the_default_stream_and_lent_to_cudarc() {
    let Some(ctx) = context() else { return };
    let gpu = Gpu::from_context(ctx.clone(), &KERNELS).unwrap();
    let stream = ctx.new_stream().unwrap();
    let input = stream.clone_htod(&data()).unwrap();
    let mut buf = gpu.alloc::<u32>(N).unwrap();
    // A launch on the stream writes it; its own copy (default stream)
    // comes after.
    gpu.launch_on(&stream, &COPY_PLUS, &cfg(), (&input, &mut buf, 2u32, SPIN))
        .unwrap();
    let want: Vec<u32> = data().iter().map(|x| x + 2).collect();
    assert_eq!(buf.to_vec().unwrap(), want);
    // Lent to cudarc: written on the stream, read back by the buffer.
    {
        let mut loan = buf.as_cuda_slice(&stream).unwrap();
        stream
            .memcpy_htod(&vec![7u32; N], &mut loan.view_mut())
            .unwrap();
        assert_eq!(stream.clone_dtoh(&*loan).unwrap(), vec![7u32; N]);
        gpu.launch_on(
            &stream,
            &COPY_PLUS,
            &cfg(),
            (&input, loan.view_mut(), 3u32, SPIN),
        )
        .unwrap();
    }
    let want: Vec<u32> = data().iter().map(|x| x + 3).collect();
    assert_eq!(buf.to_vec().unwrap(), want);
    // The loan's memory is still the buffer's: it was not freed.
    buf.copy_from(&data()).unwrap();
    assert_eq!(buf.to_vec().unwrap(), data());
}

#[test]
fn another_context_is_refused() {
    let Some(ctx) = context() else { return };
    let gpu = Gpu::from_context(ctx.clone(), &KERNELS).unwrap();
    let other = CudaContext::new_non_primary(0, 0).unwrap();
    let theirs = other.new_stream().unwrap();
    let their_input = theirs.clone_htod(&data()).unwrap();
    let mut their_out = theirs.alloc_zeros::<u32>(N).unwrap();
    let e = gpu
        .launch_on(
            &theirs,
            &COPY_PLUS,
            &cfg(),
            (&their_input, &mut their_out, 1u32, 0u64),
        )
        .unwrap_err();
    assert!(e.to_string().contains("another CUDA context"), "{e}");
    // Memory of the other context on a stream of ours.
    let ours = ctx.new_stream().unwrap();
    let mut out = ours.alloc_zeros::<u32>(N).unwrap();
    let e = gpu
        .launch_on(
            &ours,
            &COPY_PLUS,
            &cfg(),
            (&their_input, &mut out, 1u32, 0u64),
        )
        .unwrap_err();
    assert!(
        e.to_string()
            .contains("`input`: memory of another CUDA context"),
        "{e}"
    );
    let mut buf = gpu.alloc::<u32>(N).unwrap();
    assert!(buf.as_cuda_slice(&theirs).is_err());
}

#[test]
fn the_watchdog_bounds_a_wait_on_a_stream() {
    let Some(ctx) = context() else { return };
    let gpu = Gpu::from_context(ctx.clone(), &KERNELS).unwrap();
    let stream = ctx.new_stream().unwrap();
    let input = stream.clone_htod(&data()).unwrap();
    let mut out = stream.alloc_zeros::<u32>(N).unwrap();
    gpu.set_timeout(std::time::Duration::from_millis(5));
    gpu.launch_on(
        &stream,
        &COPY_PLUS,
        &cfg(),
        (&input, &mut out, 1u32, SPIN * 4),
    )
    .unwrap();
    let e = gpu.synchronize_stream(&stream).unwrap_err();
    assert!(
        matches!(&e, RuntimeError::Timeout { kernel, .. } if kernel == "copy_plus"),
        "{e}"
    );
    gpu.set_timeout(cg_runtime::gpu::DEFAULT_TIMEOUT);
    gpu.synchronize_stream(&stream).unwrap();
}
