//! One launch API over two backends: a real GPU, or the `cg-sim` simulator.
//!
//! The same `#[kernel]` descriptor, launch shape and arguments run on either;
//! buffers are device memory on the GPU and host memory on the simulator.

use cooperative_groups::Kernel;

use crate::error::Result;
use crate::gpu::{DeviceBuffer, Gpu};
use crate::launch::{KernelArgs, LaunchConfig, LaunchKind};

/// Where kernels run.
pub enum Backend {
    /// A GPU with the embedded PTX loaded.
    Gpu(Box<Gpu>),
    /// The CPU simulator (correctness only; its timings mean nothing).
    Sim(cg_sim::SimDevice),
}

/// A buffer on the backend that will read it.
pub enum Buffer<T> {
    /// Device memory.
    Device(DeviceBuffer<T>),
    /// Host memory the simulated kernel reads and writes through raw pointers.
    Host(Vec<T>),
}

impl<T: Copy> Buffer<T> {
    /// The pointer to pass to a kernel (a device address on the GPU).
    pub fn as_ptr(&mut self) -> *mut T {
        match self {
            Buffer::Device(d) => d.as_ptr(),
            Buffer::Host(v) => v.as_mut_ptr(),
        }
    }

    /// Element count.
    pub fn len(&self) -> usize {
        match self {
            Buffer::Device(d) => d.len(),
            Buffer::Host(v) => v.len(),
        }
    }

    /// Whether the buffer is empty.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The contents, copied to the host.
    pub fn to_vec(&self) -> Result<Vec<T>> {
        match self {
            Buffer::Device(d) => d.to_vec(),
            Buffer::Host(v) => Ok(v.clone()),
        }
    }

    /// Zeroes the contents: enqueued on the GPU's default stream (for timed
    /// regions), done at once on the host.
    pub fn zero_async(&mut self) -> Result<()> {
        match self {
            Buffer::Device(d) => d.zero_async(),
            Buffer::Host(_) => self.zero(),
        }
    }

    /// Overwrites the contents with zero bytes.
    pub fn zero(&mut self) -> Result<()> {
        match self {
            Buffer::Device(d) => d.zero(),
            Buffer::Host(v) => {
                // SAFETY: kernel buffers hold plain data (integers, floats) for
                // which all-zero bytes are a valid value.
                unsafe { std::ptr::write_bytes(v.as_mut_ptr(), 0, v.len()) };
                Ok(())
            }
        }
    }
}

impl Backend {
    /// GPU `ordinal`.
    pub fn gpu(ordinal: u32) -> Result<Backend> {
        Ok(Backend::Gpu(Box::new(Gpu::open(ordinal)?)))
    }

    /// The simulator with its default virtual device.
    pub fn sim() -> Backend {
        Backend::Sim(cg_sim::SimDevice::default())
    }

    /// `true` on the simulator.
    pub fn is_sim(&self) -> bool {
        matches!(self, Backend::Sim(_))
    }

    /// A buffer holding a copy of `data`.
    pub fn upload<T: Copy>(&self, data: &[T]) -> Result<Buffer<T>> {
        Ok(match self {
            Backend::Gpu(g) => Buffer::Device(g.upload(data)?),
            Backend::Sim(_) => Buffer::Host(data.to_vec()),
        })
    }

    /// A zeroed buffer of `len` elements.
    pub fn alloc<T: Copy + Default>(&self, len: usize) -> Result<Buffer<T>> {
        Ok(match self {
            Backend::Gpu(g) => Buffer::Device(g.alloc(len)?),
            Backend::Sim(_) => Buffer::Host(vec![T::default(); len]),
        })
    }

    /// Launches `kernel` and waits for it to finish.
    pub fn launch<A: KernelArgs>(
        &self,
        kernel: &Kernel<A>,
        cfg: &LaunchConfig,
        args: A,
    ) -> Result<()> {
        match self {
            Backend::Gpu(g) => {
                g.launch(kernel, cfg, args)?;
                g.synchronize()
            }
            Backend::Sim(dev) => {
                let body = kernel.host_fn();
                cg_sim::launch_on(dev, &sim_config(cfg), &|| body(args))?;
                Ok(())
            }
        }
    }
}

/// The simulator's form of a launch configuration.
pub fn sim_config(cfg: &LaunchConfig) -> cg_sim::LaunchConfig {
    let d = |d: cooperative_groups::Dim3| cg_sim::Dim3::new(d.x, d.y, d.z);
    cg_sim::LaunchConfig {
        grid: d(cfg.grid),
        block: d(cfg.block),
        cluster: match cfg.kind {
            LaunchKind::Cluster(c) => d(c),
            _ => cg_sim::Dim3::new(1, 1, 1),
        },
        dynamic_smem_bytes: cfg.dynamic_smem_bytes as usize,
        cooperative: cfg.kind == LaunchKind::Cooperative,
    }
}
