//! Device discovery: the facts a benchmark report needs.

use std::ffi::CStr;

use cudarc::driver::sys::{self, CUdevice_attribute as A};

use crate::driver::{self, cu};
use crate::error::{Result, RuntimeError};

/// What the driver says about one GPU.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DeviceInfo {
    /// Device ordinal.
    pub ordinal: u32,
    /// Marketing name, e.g. `NVIDIA H200`.
    pub name: String,
    /// Compute capability (major, minor).
    pub compute_capability: (u32, u32),
    /// Streaming multiprocessors.
    pub sm_count: u32,
    /// Peak SM clock, MHz.
    pub sm_clock_mhz: u32,
    /// Peak memory clock, MHz.
    pub mem_clock_mhz: u32,
    /// Memory bus width, bits.
    pub mem_bus_bits: u32,
    /// Total device memory, bytes.
    pub mem_bytes: u64,
    /// L2 cache, bytes.
    pub l2_bytes: u32,
    /// Shared memory a block may opt in to, bytes.
    pub max_smem_per_block_optin: u32,
    /// Shared memory per SM, bytes.
    pub smem_per_sm: u32,
    /// Resident threads per SM.
    pub max_threads_per_sm: u32,
    /// Whether cooperative launches are supported.
    pub cooperative_launch: bool,
    /// Whether cluster launches are supported (sm_90+).
    pub cluster_launch: bool,
    /// PCI bus id, e.g. `0000:1B:00.0`.
    pub pci_bus_id: String,
    /// CUDA version the driver supports, e.g. (13, 0).
    pub cuda_version: (u32, u32),
    /// Kernel-mode driver version, e.g. `580.159.03` (Linux only).
    pub driver_version: Option<String>,
}

impl DeviceInfo {
    /// `major * 10 + minor`, e.g. 90.
    pub fn sm(&self) -> u32 {
        self.compute_capability.0 * 10 + self.compute_capability.1
    }

    /// A file-name-safe lower-case name: `NVIDIA H200` → `h200`.
    pub fn slug(&self) -> String {
        slug(&self.name)
    }

    /// Theoretical DRAM bandwidth in bytes per second: two transfers per
    /// memory clock (double data rate) across the whole bus, as the CUDA
    /// samples' `bandwidthTest` computes it (H200: 2 × 3201 MHz × 6016
    /// bits ≈ 4.81 TB/s). `None` when the driver reports no memory clock
    /// or bus width (some virtualised or integrated GPUs report 0).
    pub fn dram_peak_bytes_per_s(&self) -> Option<f64> {
        (self.mem_clock_mhz > 0 && self.mem_bus_bits > 0)
            .then(|| 2.0 * self.mem_clock_mhz as f64 * 1e6 * self.mem_bus_bits as f64 / 8.0)
    }
}

/// `NVIDIA GeForce RTX 5090` → `rtx-5090`, `NVIDIA H200` → `h200`.
pub fn slug(name: &str) -> String {
    let lower = name.to_lowercase();
    let trimmed = lower
        .trim_start_matches("nvidia ")
        .trim_start_matches("geforce ");
    let mut out = String::new();
    for c in trimmed.chars() {
        if c.is_ascii_alphanumeric() {
            out.push(c);
        } else if !out.ends_with('-') && !out.is_empty() {
            out.push('-');
        }
    }
    out.trim_end_matches('-').to_string()
}

/// Number of GPUs the driver sees (initialises the driver).
pub fn device_count() -> Result<u32> {
    driver::init()?;
    let mut n = 0i32;
    // SAFETY: writes one int.
    unsafe { cu!(cuDeviceGetCount(&mut n)) }?;
    Ok(n as u32)
}

pub(crate) fn device_handle(ordinal: u32) -> Result<sys::CUdevice> {
    let count = device_count()?;
    if count == 0 {
        return Err(RuntimeError::NoDevice);
    }
    if ordinal >= count {
        return Err(RuntimeError::BadDevice {
            requested: ordinal,
            count,
        });
    }
    let mut dev: sys::CUdevice = 0;
    // SAFETY: the ordinal was checked against the count.
    unsafe { cu!(cuDeviceGet(&mut dev, ordinal as i32)) }?;
    Ok(dev)
}

fn attr(dev: sys::CUdevice, a: A) -> Result<u32> {
    let mut v = 0i32;
    // SAFETY: writes one int for a valid device handle.
    unsafe { cu!(cuDeviceGetAttribute(&mut v, a, dev)) }?;
    Ok(v as u32)
}

/// Queries every fact of [`DeviceInfo`] for GPU `ordinal`.
pub fn query(ordinal: u32) -> Result<DeviceInfo> {
    let dev = device_handle(ordinal)?;
    let mut name = [0 as std::ffi::c_char; 256];
    // SAFETY: the buffer is 256 bytes, as passed.
    unsafe { cu!(cuDeviceGetName(name.as_mut_ptr(), name.len() as i32, dev)) }?;
    // SAFETY: the driver NUL-terminates the name.
    let name = unsafe { CStr::from_ptr(name.as_ptr()) }
        .to_string_lossy()
        .into_owned();
    let mut mem = 0usize;
    // SAFETY: writes one size_t.
    unsafe { cu!(cuDeviceTotalMem_v2(&mut mem, dev)) }?;
    let mut bus = [0 as std::ffi::c_char; 64];
    // SAFETY: the buffer is 64 bytes, as passed.
    unsafe { cu!(cuDeviceGetPCIBusId(bus.as_mut_ptr(), bus.len() as i32, dev)) }?;
    // SAFETY: the driver NUL-terminates the id.
    let pci_bus_id = unsafe { CStr::from_ptr(bus.as_ptr()) }
        .to_string_lossy()
        .into_owned();
    Ok(DeviceInfo {
        ordinal,
        name,
        compute_capability: (
            attr(dev, A::CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR)?,
            attr(dev, A::CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR)?,
        ),
        sm_count: attr(dev, A::CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT)?,
        sm_clock_mhz: attr(dev, A::CU_DEVICE_ATTRIBUTE_CLOCK_RATE)? / 1000,
        mem_clock_mhz: attr(dev, A::CU_DEVICE_ATTRIBUTE_MEMORY_CLOCK_RATE)? / 1000,
        mem_bus_bits: attr(dev, A::CU_DEVICE_ATTRIBUTE_GLOBAL_MEMORY_BUS_WIDTH)?,
        mem_bytes: mem as u64,
        l2_bytes: attr(dev, A::CU_DEVICE_ATTRIBUTE_L2_CACHE_SIZE)?,
        max_smem_per_block_optin: attr(
            dev,
            A::CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN,
        )?,
        smem_per_sm: attr(
            dev,
            A::CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_MULTIPROCESSOR,
        )?,
        max_threads_per_sm: attr(dev, A::CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_MULTIPROCESSOR)?,
        cooperative_launch: attr(dev, A::CU_DEVICE_ATTRIBUTE_COOPERATIVE_LAUNCH)? != 0,
        cluster_launch: attr(dev, A::CU_DEVICE_ATTRIBUTE_CLUSTER_LAUNCH)? != 0,
        pci_bus_id,
        cuda_version: driver::cuda_version()?,
        driver_version: driver::kernel_driver_version(),
    })
}

#[cfg(test)]
mod tests {
    use super::{DeviceInfo, slug};

    #[test]
    fn slugs() {
        assert_eq!(slug("NVIDIA H200"), "h200");
        assert_eq!(slug("NVIDIA GeForce RTX 5090"), "rtx-5090");
        assert_eq!(slug("NVIDIA H100 80GB HBM3"), "h100-80gb-hbm3");
        assert_eq!(slug("Tesla V100-SXM2-16GB"), "tesla-v100-sxm2-16gb");
    }

    #[test]
    fn dram_peak_is_double_data_rate_over_the_bus() {
        // The H200's figures as its driver reports them.
        let mut h200 = DeviceInfo {
            ordinal: 0,
            name: "NVIDIA H200".into(),
            compute_capability: (9, 0),
            sm_count: 132,
            sm_clock_mhz: 1980,
            mem_clock_mhz: 3201,
            mem_bus_bits: 6016,
            mem_bytes: 150_000_000_000,
            l2_bytes: 50 << 20,
            max_smem_per_block_optin: 232_448,
            smem_per_sm: 233_472,
            max_threads_per_sm: 2048,
            cooperative_launch: true,
            cluster_launch: true,
            pci_bus_id: String::new(),
            cuda_version: (13, 0),
            driver_version: None,
        };
        assert_eq!(h200.dram_peak_bytes_per_s(), Some(4_814_304_000_000.0));
        h200.mem_clock_mhz = 0;
        assert_eq!(h200.dram_peak_bytes_per_s(), None);
    }
}
