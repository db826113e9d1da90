//! One GPU: its context, the embedded kernels' module, memory, launches and
//! CUDA-event timing.

use std::cell::RefCell;
use std::collections::HashMap;
use std::ffi::{CString, c_void};
use std::marker::PhantomData;

use cooperative_groups::Kernel;
use cudarc::driver::sys::{self, CUfunction_attribute as FA};

use crate::device::{self, DeviceInfo};
use crate::driver::cu;
use crate::error::{Result, RuntimeError};
use crate::launch::{Dim3, KernelArgs, LaunchConfig, LaunchKind};
use crate::ptx::{EMBEDDED_PTX, EmbeddedPtx, select_for_device};

/// A kernel function of a loaded [`Module`] (valid while the module lives).
#[derive(Clone, Copy, Debug)]
pub struct Function(sys::CUfunction);

/// A loaded module (the embedded PTX, or a cubin/fatbin loaded later).
pub struct Module {
    module: sys::CUmodule,
    functions: RefCell<HashMap<String, Function>>,
}

impl Module {
    /// The function named `name` (cached).
    pub fn function(&self, name: &str) -> Result<Function> {
        if let Some(f) = self.functions.borrow().get(name) {
            return Ok(*f);
        }
        let cname = CString::new(name).map_err(|_| RuntimeError::NoSuchKernel(name.into()))?;
        let mut f: sys::CUfunction = std::ptr::null_mut();
        // SAFETY: `module` is loaded; `cname` is NUL-terminated.
        let r = unsafe { sys::cuModuleGetFunction(&mut f, self.module, cname.as_ptr()) };
        if r == sys::CUresult::CUDA_ERROR_NOT_FOUND {
            return Err(RuntimeError::NoSuchKernel(name.into()));
        }
        crate::driver::check("cuModuleGetFunction", r)?;
        self.functions
            .borrow_mut()
            .insert(name.to_string(), Function(f));
        Ok(Function(f))
    }
}

impl Drop for Module {
    fn drop(&mut self) {
        // SAFETY: the module was loaded by us and is unloaded once.
        unsafe { sys::cuModuleUnload(self.module) };
    }
}

/// An open GPU with the kernels of `cg-kernels` loaded.
pub struct Gpu {
    info: DeviceInfo,
    ptx_sm: u32,
    kernels: Module,
    _ctx: sys::CUcontext,
}

impl Gpu {
    /// Opens GPU `ordinal`: checks the driver and the compute capability,
    /// makes its primary context current and JIT-loads the newest embedded
    /// PTX the device supports, or the one `CG_PTX_SM` names (a JIT failure
    /// returns the JIT log).
    pub fn open(ordinal: u32) -> Result<Gpu> {
        let info = device::query(ordinal)?;
        let (major, minor) = info.compute_capability;
        let Some(ptx) = select_for_device(EMBEDDED_PTX, major, minor)? else {
            return Err(RuntimeError::UnsupportedGpu {
                name: info.name.clone(),
                major,
                minor,
            });
        };
        let dev = device::device_handle(ordinal)?;
        let mut ctx: sys::CUcontext = std::ptr::null_mut();
        // SAFETY: `dev` is a valid device handle; the primary context is retained for the process.
        unsafe {
            cu!(cuDevicePrimaryCtxRetain(&mut ctx, dev))?;
            cu!(cuCtxSetCurrent(ctx))?;
        }
        let kernels = load_ptx(ptx, None)?;
        Ok(Gpu {
            info,
            ptx_sm: ptx.sm,
            kernels,
            _ctx: ctx,
        })
    }

    /// The device's facts.
    pub fn info(&self) -> &DeviceInfo {
        &self.info
    }

    /// The SM of the embedded PTX that was loaded (e.g. 90).
    pub fn ptx_sm(&self) -> u32 {
        self.ptx_sm
    }

    /// Whether cluster launches work with the loaded kernels: the device is
    /// sm_90+ and so is the PTX (`CG_PTX_SM=80` on an H200 loads kernels
    /// built without clusters). `Err` says why not.
    pub fn cluster_support(&self) -> std::result::Result<(), String> {
        let (ma, mi) = self.info.compute_capability;
        if !self.info.cluster_launch || self.info.sm() < 90 {
            Err(format!(
                "cluster launches need compute capability 9.0 or newer; {} is {ma}.{mi}",
                self.info.name
            ))
        } else if self.ptx_sm < 90 {
            Err(format!(
                "cluster launches need kernels built for sm_90 or newer; the loaded PTX is sm_{} ({}={})",
                self.ptx_sm,
                crate::ptx::PTX_CAP_VAR,
                self.ptx_sm
            ))
        } else {
            Ok(())
        }
    }

    /// The module of the embedded kernels.
    pub fn kernels(&self) -> &Module {
        &self.kernels
    }

    /// JIT-loads the newest PTX of another embedded set (e.g.
    /// [`EMBEDDED_TEST_PTX`](crate::ptx::EMBEDDED_TEST_PTX)) for this device.
    pub fn load_embedded(&self, set: &'static [EmbeddedPtx]) -> Result<Module> {
        load_ptx(self.newest_for_device(set)?, None)
    }

    /// As [`load_embedded`](Self::load_embedded), compiling every kernel to
    /// run blocks of up to `block_threads` threads (the JIT limits registers
    /// per thread accordingly, as `__launch_bounds__(block_threads)` does in
    /// CUDA C++).
    pub fn load_embedded_for_block(
        &self,
        set: &'static [EmbeddedPtx],
        block_threads: u32,
    ) -> Result<Module> {
        load_ptx(self.newest_for_device(set)?, Some(block_threads))
    }

    /// The newest PTX of `set` this device can JIT.
    fn newest_for_device(&self, set: &'static [EmbeddedPtx]) -> Result<&'static EmbeddedPtx> {
        let (major, minor) = self.info.compute_capability;
        select_for_device(set, major, minor)?.ok_or_else(|| RuntimeError::UnsupportedGpu {
            name: self.info.name.clone(),
            major,
            minor,
        })
    }

    /// Loads a cubin or fatbin image (e.g. the C++ reference kernels).
    pub fn load_image(&self, image: &[u8]) -> Result<Module> {
        let mut module: sys::CUmodule = std::ptr::null_mut();
        // SAFETY: the driver copies the image; it is a complete cubin/fatbin.
        unsafe {
            cu!(cuModuleLoadData(
                &mut module,
                image.as_ptr() as *const c_void
            ))
        }?;
        Ok(Module {
            module,
            functions: RefCell::new(HashMap::new()),
        })
    }

    /// Launches a `#[kernel]` of `cg-kernels` by its descriptor.
    pub fn launch<A: KernelArgs>(
        &self,
        kernel: &Kernel<A>,
        cfg: &LaunchConfig,
        args: A,
    ) -> Result<()> {
        let f = self.kernels.function(kernel.name())?;
        self.launch_function(f, kernel.name(), cfg, args)
    }

    /// Launches any loaded function (e.g. of a C++ module) with `args`, after
    /// checking the shape against the device (and, for cooperative launches,
    /// that the whole grid can be co-resident). `args` must match the
    /// function's parameters, as for a `#[kernel]`.
    pub fn launch_function<A: KernelArgs>(
        &self,
        f: Function,
        name: &str,
        cfg: &LaunchConfig,
        args: A,
    ) -> Result<()> {
        args.with_params(|params| self.launch_params(f.0, name, cfg, params))
    }

    fn launch_params(
        &self,
        f: sys::CUfunction,
        name: &str,
        cfg: &LaunchConfig,
        params: &mut [*mut c_void],
    ) -> Result<()> {
        let invalid = |reason: String| RuntimeError::InvalidLaunch {
            kernel: name.to_string(),
            reason,
        };
        cfg.validate_shape().map_err(invalid)?;
        check_threads_per_block(f, cfg).map_err(invalid)?;
        self.prepare_smem(f, name, cfg.dynamic_smem_bytes)?;
        let (g, b) = (cfg.grid, cfg.block);
        let smem = cfg.dynamic_smem_bytes;
        let p = params.as_mut_ptr();
        match cfg.kind {
            LaunchKind::Plain => {
                // SAFETY: `f` is a loaded function; `params` matches its signature (KernelArgs).
                unsafe {
                    cu!(cuLaunchKernel(
                        f,
                        g.x,
                        g.y,
                        g.z,
                        b.x,
                        b.y,
                        b.z,
                        smem,
                        std::ptr::null_mut(),
                        p,
                        std::ptr::null_mut()
                    ))
                }
            }
            LaunchKind::Cooperative => {
                if !self.info.cooperative_launch {
                    return Err(invalid(format!(
                        "{} does not support cooperative launches",
                        self.info.name
                    )));
                }
                let limit = self.max_coresident_blocks(Function(f), b, smem)?;
                if g.volume() > limit as u64 {
                    return Err(invalid(format!(
                        "cooperative launch of {} blocks exceeds the {limit} blocks that can be co-resident \
                         ({} per SM × {} SMs at {} threads and {smem} B dynamic shared memory per block)",
                        g.volume(),
                        limit / self.info.sm_count,
                        self.info.sm_count,
                        b.volume()
                    )));
                }
                // SAFETY: as above; co-residency was checked.
                unsafe {
                    cu!(cuLaunchCooperativeKernel(
                        f,
                        g.x,
                        g.y,
                        g.z,
                        b.x,
                        b.y,
                        b.z,
                        smem,
                        std::ptr::null_mut(),
                        p
                    ))
                }
            }
            LaunchKind::Cluster(c) => {
                self.cluster_support().map_err(invalid)?;
                let mut attr = sys::CUlaunchAttribute {
                    id: sys::CUlaunchAttributeID::CU_LAUNCH_ATTRIBUTE_CLUSTER_DIMENSION,
                    pad: [0; 4],
                    // SAFETY: an all-zero union is a valid value; clusterDim is set below.
                    value: unsafe { std::mem::zeroed() },
                };
                attr.value.clusterDim.x = c.x;
                attr.value.clusterDim.y = c.y;
                attr.value.clusterDim.z = c.z;
                let lc = sys::CUlaunchConfig {
                    gridDimX: g.x,
                    gridDimY: g.y,
                    gridDimZ: g.z,
                    blockDimX: b.x,
                    blockDimY: b.y,
                    blockDimZ: b.z,
                    sharedMemBytes: smem,
                    hStream: std::ptr::null_mut(),
                    attrs: &mut attr,
                    numAttrs: 1,
                };
                // SAFETY: the config and attribute outlive the call; params as above.
                unsafe { cu!(cuLaunchKernelEx(&lc, f, p, std::ptr::null_mut())) }
            }
        }
    }

    /// Raises the function's dynamic shared-memory limit when a launch asks
    /// for more than the default 48 KiB; refuses more than the device allows.
    fn prepare_smem(&self, f: sys::CUfunction, name: &str, bytes: u32) -> Result<()> {
        if bytes <= 48 * 1024 {
            return Ok(());
        }
        let max = self.info.max_smem_per_block_optin;
        let mut static_bytes = 0i32;
        // SAFETY: reads one attribute of a loaded function.
        unsafe {
            cu!(cuFuncGetAttribute(
                &mut static_bytes,
                FA::CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES,
                f
            ))
        }?;
        if bytes as u64 + static_bytes as u64 > max as u64 {
            return Err(RuntimeError::InvalidLaunch {
                kernel: name.to_string(),
                reason: format!(
                    "{bytes} B of dynamic shared memory plus {static_bytes} B static exceed the {max} B a block may use on {}",
                    self.info.name
                ),
            });
        }
        // SAFETY: sets an attribute of a loaded function within the device limit.
        unsafe {
            cu!(cuFuncSetAttribute(
                f,
                FA::CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES,
                bytes as i32
            ))
        }
    }

    /// Blocks that can be resident at once for this function and shape
    /// (occupancy per SM × SM count): the cooperative-launch limit.
    pub fn max_coresident_blocks(&self, f: Function, block: Dim3, smem: u32) -> Result<u32> {
        let f = f.0;
        let mut per_sm = 0i32;
        // SAFETY: writes one int for a loaded function.
        unsafe {
            cu!(cuOccupancyMaxActiveBlocksPerMultiprocessor(
                &mut per_sm,
                f,
                block.volume() as i32,
                smem as usize
            ))
        }?;
        Ok(per_sm as u32 * self.info.sm_count)
    }

    /// Waits for all work on the device.
    pub fn synchronize(&self) -> Result<()> {
        // SAFETY: no arguments; the context is current.
        unsafe { cu!(cuCtxSynchronize()) }
    }

    /// Allocates `len` elements of device memory (zeroed).
    pub fn alloc<T: Copy>(&self, len: usize) -> Result<DeviceBuffer<T>> {
        let bytes = (len * std::mem::size_of::<T>()).max(1);
        let mut ptr: sys::CUdeviceptr = 0;
        // SAFETY: writes one device pointer.
        unsafe { cu!(cuMemAlloc_v2(&mut ptr, bytes)) }?;
        let buf = DeviceBuffer {
            ptr,
            len,
            _t: PhantomData,
        };
        buf.zero()?;
        Ok(buf)
    }

    /// Allocates device memory holding a copy of `data`.
    pub fn upload<T: Copy>(&self, data: &[T]) -> Result<DeviceBuffer<T>> {
        let buf = self.alloc(data.len())?;
        buf.copy_from(data)?;
        Ok(buf)
    }

    /// A new CUDA event for timing.
    pub fn event(&self) -> Result<Event> {
        let mut ev: sys::CUevent = std::ptr::null_mut();
        // SAFETY: writes one event handle.
        unsafe { cu!(cuEventCreate(&mut ev, 0)) }?;
        Ok(Event { ev })
    }
}

/// A function's own limit on threads per block (its registers per thread
/// and shared memory decide it) against the launch's block, so that a
/// too-large block is an error naming both numbers rather than the driver's
/// `CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES`.
fn check_threads_per_block(
    f: sys::CUfunction,
    cfg: &LaunchConfig,
) -> std::result::Result<(), String> {
    let attr = |a: FA| -> std::result::Result<i32, String> {
        let mut v = 0i32;
        // SAFETY: reads one attribute of a loaded function.
        unsafe { cu!(cuFuncGetAttribute(&mut v, a, f)) }.map_err(|e| e.to_string())?;
        Ok(v)
    };
    let max = attr(FA::CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK)?;
    let threads = cfg.block.x * cfg.block.y * cfg.block.z;
    if threads as i64 > max as i64 {
        let regs = attr(FA::CU_FUNC_ATTRIBUTE_NUM_REGS)?;
        return Err(format!(
            "blocks of {threads} threads, but this kernel can run at most {max} per block \
             ({regs} registers per thread); load its PTX with a target block size \
             (Gpu::load_embedded_for_block) or launch smaller blocks"
        ));
    }
    Ok(())
}

/// JIT-loads one embedded PTX, capturing the JIT's error log; with
/// `block_threads`, the JIT keeps every kernel's registers low enough for
/// blocks of that many threads (`CU_JIT_THREADS_PER_BLOCK`, the PTX-side
/// counterpart of `__launch_bounds__`).
fn load_ptx(ptx: &EmbeddedPtx, block_threads: Option<u32>) -> Result<Module> {
    let text = CString::new(ptx.ptx).expect("PTX has no NUL bytes");
    let mut log = vec![0u8; 16 * 1024];
    let mut opts = vec![
        sys::CUjit_option::CU_JIT_ERROR_LOG_BUFFER,
        sys::CUjit_option::CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES,
    ];
    let mut vals = vec![log.as_mut_ptr() as *mut c_void, log.len() as *mut c_void];
    if let Some(t) = block_threads {
        opts.push(sys::CUjit_option::CU_JIT_THREADS_PER_BLOCK);
        vals.push(t as usize as *mut c_void);
    }
    let mut module: sys::CUmodule = std::ptr::null_mut();
    // SAFETY: the option and value arrays have the same length; the log
    // buffer outlives the call.
    let r = unsafe {
        cu!(cuModuleLoadDataEx(
            &mut module,
            text.as_ptr() as *const c_void,
            opts.len() as u32,
            opts.as_mut_ptr(),
            vals.as_mut_ptr()
        ))
    };
    if let Err(e) = r {
        let end = log.iter().position(|&b| b == 0).unwrap_or(log.len());
        return Err(RuntimeError::Jit {
            sm: ptx.sm,
            source: Box::new(e),
            log: String::from_utf8_lossy(&log[..end]).into_owned(),
        });
    }
    Ok(Module {
        module,
        functions: RefCell::new(HashMap::new()),
    })
}

/// Device memory for `len` values of `T`, freed on drop.
pub struct DeviceBuffer<T> {
    ptr: sys::CUdeviceptr,
    len: usize,
    _t: PhantomData<T>,
}

impl<T: Copy> DeviceBuffer<T> {
    /// The device address, typed for a kernel parameter.
    pub fn as_ptr(&self) -> *mut T {
        self.ptr as *mut T
    }

    /// Element count.
    pub fn len(&self) -> usize {
        self.len
    }

    /// Whether the buffer holds no elements.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    fn bytes(&self) -> usize {
        self.len * std::mem::size_of::<T>()
    }

    /// Copies `data` (exactly `len` elements) to the device.
    pub fn copy_from(&self, data: &[T]) -> Result<()> {
        assert_eq!(data.len(), self.len, "copy_from: length mismatch");
        // SAFETY: both sides hold `bytes()` bytes.
        unsafe {
            cu!(cuMemcpyHtoD_v2(
                self.ptr,
                data.as_ptr() as *const c_void,
                self.bytes()
            ))
        }
    }

    /// Copies the buffer back to the host.
    pub fn to_vec(&self) -> Result<Vec<T>> {
        let mut out = Vec::<T>::with_capacity(self.len);
        // SAFETY: the destination has capacity for `bytes()` bytes; set_len after the copy fills them.
        unsafe {
            cu!(cuMemcpyDtoH_v2(
                out.as_mut_ptr() as *mut c_void,
                self.ptr,
                self.bytes()
            ))?;
            out.set_len(self.len);
        }
        Ok(out)
    }

    /// Sets every byte to zero (synchronous).
    pub fn zero(&self) -> Result<()> {
        // SAFETY: the range lies inside the allocation.
        unsafe { cu!(cuMemsetD8_v2(self.ptr, 0, self.bytes().max(1))) }
    }

    /// Enqueues a zeroing memset on the default stream (for timed regions).
    pub fn zero_async(&self) -> Result<()> {
        // SAFETY: the range lies inside the allocation.
        unsafe {
            cu!(cuMemsetD8Async(
                self.ptr,
                0,
                self.bytes().max(1),
                std::ptr::null_mut()
            ))
        }
    }
}

impl<T> Drop for DeviceBuffer<T> {
    fn drop(&mut self) {
        // SAFETY: allocated by cuMemAlloc and freed once.
        unsafe { sys::cuMemFree_v2(self.ptr) };
    }
}

/// A CUDA event on the default stream.
pub struct Event {
    ev: sys::CUevent,
}

impl Event {
    /// Records the event on the default stream.
    pub fn record(&self) -> Result<()> {
        // SAFETY: a live event on the null stream.
        unsafe { cu!(cuEventRecord(self.ev, std::ptr::null_mut())) }
    }

    /// Milliseconds from `start` to `self` (waits for `self`).
    pub fn elapsed_since(&self, start: &Event) -> Result<f32> {
        let mut ms = 0f32;
        // SAFETY: both events are live and recorded.
        unsafe {
            cu!(cuEventSynchronize(self.ev))?;
            cu!(cuEventElapsedTime(&mut ms, start.ev, self.ev))?;
        }
        Ok(ms)
    }
}

impl Drop for Event {
    fn drop(&mut self) {
        // SAFETY: created by cuEventCreate and destroyed once.
        unsafe { sys::cuEventDestroy_v2(self.ev) };
    }
}
