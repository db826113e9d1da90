//! Tensor maps for the Tensor Memory Accelerator's tile copies
//! (`cooperative_groups::tma`): the driver encodes the map
//! (`cuTensorMapEncodeTiled`), and a launch passes its 128 bytes as the
//! kernel parameter, read in place as nvcc's `const __grid_constant__
//! CUtensorMap`; on the simulator the map is the tensor itself.
//!
//! ```
//! # use cg_runtime::{Backend, tensor_map::TensorMap};
//! use cooperative_groups::tma::{Dense, Swizzle128B};
//! # fn main() -> cg_runtime::Result<()> {
//! let backend = Backend::sim();
//! let image = backend.upload(&vec![1.0f32; 100 * 64])?;
//! // 100 × 64 floats, rows 100 apart (400 bytes: a multiple of 16), 32 × 8 boxes.
//! let map: TensorMap<'_, f32, 32, 8> = backend.tensor_map(&image, 100, 64, 100)?;
//! assert_eq!(map.tiles(), (4, 8));
//! // The same boxes with the 128-byte swizzle in shared memory.
//! let swizzled: TensorMap<'_, f32, 32, 8, Swizzle128B> = backend.tensor_map(&image, 100, 64, 100)?;
//! assert_eq!(swizzled.tiles(), (4, 8));
//! // A pitch that is not a multiple of 16 bytes is refused, as the driver does.
//! assert!(backend.tensor_map::<f32, 32, 8, Dense>(&image, 99, 64, 99).is_err());
//! # Ok(())
//! # }
//! ```

use cooperative_groups::Pod;
use cooperative_groups::host::{region, tensor_map_span};
use cooperative_groups::tma::{Dense, RankedMap, TensorMap2d, TensorMap2dMut, TileLayout};
use cudarc::driver::sys;
use std::marker::PhantomData;

use cg_isa::Swizzle;

use crate::backend::{Backend, Buffer};
use crate::driver::cu;
use crate::error::{Result, RuntimeError};
use crate::gpu::Gpu;
use crate::launch::{HostArg, Target};

/// A tensor map's 128 bytes as the driver encoded them: what a C++
/// kernel's `const __grid_constant__ CUtensorMap` parameter takes.
pub type RawTensorMap = [u64; 16];

/// The tensor of a map of any rank — its elements along each dimension
/// (innermost first) and the elements from one index to the next along
/// each dimension past the first — and on a GPU the driver's encoding:
/// the state behind every map type of this crate.
pub(crate) struct Encoded {
    pub(crate) dims: Vec<u32>,
    pub(crate) strides: Vec<usize>,
    /// GPU: the map's bytes.
    pub(crate) gpu: Option<RawTensorMap>,
}

/// A rank's driver rules for a tensor in a buffer: `(address of its
/// first element, the buffer's elements)` → the elements it spans, or
/// why the driver refuses it (each rank's own messages:
/// `cooperative_groups::host::tensor_map_span` and its 3-D and N-D twins).
pub(crate) type SpanCheck<'c> = &'c dyn Fn(usize, usize) -> std::result::Result<usize, String>;

impl Backend {
    /// The map of `buf` for parameters like `M` (its box and layout):
    /// `dims` and `strides` (elements) checked by `span`, then encoded by
    /// the driver on a GPU.
    pub(crate) fn encode_map<M: RankedMap>(
        &self,
        buf: &Buffer<M::Elem>,
        dims: &[usize],
        strides: &[usize],
        span: SpanCheck<'_>,
    ) -> Result<Encoded> {
        let base = buf.as_ptr() as usize;
        span(base, buf.len()).map_err(RuntimeError::InvalidArgument)?;
        let elem = std::mem::size_of::<M::Elem>();
        // In bytes, checked: `span` refused a stride whose bytes overflow
        // (every rank's rules), and a wrapped stride must not reach the
        // driver whatever a rule forgets.
        let s = strides
            .iter()
            .map(|&s| s.checked_mul(elem).map(|b| b as u64))
            .collect::<Option<Vec<u64>>>()
            .ok_or_else(|| {
                RuntimeError::InvalidArgument(format!(
                    "a tensor map's strides {strides:?} of {elem}-byte elements overflow"
                ))
            })?;
        let gpu = self.device_map(buf, |g| {
            let d: Vec<u64> = dims.iter().map(|&d| d as u64).collect();
            g.encode_tensor_map(
                base as u64,
                elem,
                &d,
                &s,
                &M::BOX_DIMS[..M::RANK],
                M::SWIZZLE,
            )
        })?;
        Ok(Encoded {
            dims: dims.iter().map(|&d| d as u32).collect(),
            strides: strides.to_vec(),
            gpu,
        })
    }
}

impl Encoded {
    /// The parameter `M` of this tensor in `buf`: the driver's map on a
    /// GPU; on the simulator the tensor, checked again by `span` and
    /// registered as the launch's region `name` (writable if `M` is).
    pub(crate) fn param<M: RankedMap>(
        &self,
        buf: &Buffer<M::Elem>,
        name: &'static str,
        to: &mut Target,
        span: SpanCheck<'_>,
    ) -> std::result::Result<M, String> {
        let map = param_bytes(&self.gpu, name, to, |to| {
            let span = span(buf.as_ptr() as usize, buf.len())?;
            // SAFETY: the tensor's span of the buffer, which the argument
            // borrows (exclusively for a writable map) for the launch that
            // gets the region.
            let r = unsafe { region(name, buf.as_ptr(), span, M::WRITABLE) };
            to.regions.push(r);
            Ok(())
        })?;
        // SAFETY: the map was encoded from this tensor and box (GPU), which
        // lies inside the buffer; the map types borrow the buffer for their
        // life, exclusively for a writable map.
        Ok(unsafe { M::from_parts(map, buf.as_ptr(), &self.dims, &self.strides) })
    }

    /// The elements along dimension `d`.
    pub(crate) fn dim(&self, d: usize) -> usize {
        self.dims[d] as usize
    }
}

/// A read-only 2-D tensor of a [`Buffer`] with a `BW × BH` box laid out
/// in shared memory by `L` (dense, or a swizzle), for a kernel's
/// [`TensorMap2d<T, BW, BH, L>`] parameter (passed as `&map`): made by
/// [`Backend::tensor_map`]. It borrows the buffer, so nothing writes it
/// while the map exists.
pub struct TensorMap<'a, T, const BW: u32, const BH: u32, L: TileLayout = Dense> {
    buf: &'a Buffer<T>,
    enc: Encoded,
    _layout: PhantomData<L>,
}

/// A 2-D tensor of a [`Buffer`] that kernels may also store tiles to, for
/// a [`TensorMap2dMut<T, BW, BH, L>`] parameter (passed as `&mut map`):
/// made by [`Backend::tensor_map_mut`], holding the buffer's exclusive
/// borrow.
pub struct TensorMapMut<'a, T, const BW: u32, const BH: u32, L: TileLayout = Dense> {
    buf: &'a mut Buffer<T>,
    enc: Encoded,
    _layout: PhantomData<L>,
}

impl Backend {
    /// A tensor map of `buf` read as `height` rows of `width` elements,
    /// `pitch` elements apart, with `BW × BH` boxes laid out by `L` in
    /// shared memory (the result's type says which: `TensorMap<'_, T, BW,
    /// BH>` is [`Dense`]). An error, naming the rule, when the shape breaks
    /// the driver's rules (a 16-byte aligned start, rows a multiple of 16
    /// bytes apart, the image inside the buffer) — the same on the
    /// simulator.
    pub fn tensor_map<'a, T: Pod, const BW: u32, const BH: u32, L: TileLayout>(
        &self,
        buf: &'a Buffer<T>,
        width: usize,
        height: usize,
        pitch: usize,
    ) -> Result<TensorMap<'a, T, BW, BH, L>> {
        let enc = self.encode::<T, BW, BH, L>(buf, width, height, pitch)?;
        Ok(TensorMap {
            buf,
            enc,
            _layout: PhantomData,
        })
    }

    /// A tensor map of `buf` as [`tensor_map`](Self::tensor_map), whose
    /// kernels may store tiles into it.
    pub fn tensor_map_mut<'a, T: Pod, const BW: u32, const BH: u32, L: TileLayout>(
        &self,
        buf: &'a mut Buffer<T>,
        width: usize,
        height: usize,
        pitch: usize,
    ) -> Result<TensorMapMut<'a, T, BW, BH, L>> {
        let enc = self.encode::<T, BW, BH, L>(buf, width, height, pitch)?;
        Ok(TensorMapMut {
            buf,
            enc,
            _layout: PhantomData,
        })
    }

    fn encode<T: Pod, const BW: u32, const BH: u32, L: TileLayout>(
        &self,
        buf: &Buffer<T>,
        width: usize,
        height: usize,
        pitch: usize,
    ) -> Result<Encoded> {
        self.encode_map::<TensorMap2d<T, BW, BH, L>>(
            buf,
            &[width, height],
            &[pitch],
            &|base, len| tensor_map_span::<T, BW, BH, L>(base, width, height, pitch, len),
        )
    }
}

impl Backend {
    /// The device map `encode` makes of a GPU buffer (`None` for a
    /// simulator buffer, which is its own map); a buffer of the other
    /// backend is an error.
    pub(crate) fn device_map<T: Pod>(
        &self,
        buf: &Buffer<T>,
        encode: impl FnOnce(&Gpu) -> Result<RawTensorMap>,
    ) -> Result<Option<RawTensorMap>> {
        match (self, buf) {
            (Backend::Gpu(g), Buffer::Device(_)) => encode(g).map(Some),
            (Backend::Sim(_), Buffer::Host(_)) => Ok(None),
            _ => Err(RuntimeError::InvalidArgument(
                "a tensor map of a buffer of the other backend".into(),
            )),
        }
    }
}

/// The map's bytes for a kernel parameter (zeros on the simulator, where
/// `register` checks the tensor and registers it as the launch's region).
pub(crate) fn param_bytes(
    gpu: &Option<RawTensorMap>,
    name: &'static str,
    to: &mut Target,
    register: impl FnOnce(&mut Target) -> std::result::Result<(), String>,
) -> std::result::Result<RawTensorMap, String> {
    match (gpu, to.sim) {
        (Some(raw), false) => Ok(*raw),
        (None, true) => register(to).map(|()| [0; 16]),
        (Some(_), true) => Err(format!(
            "`{name}`: a GPU tensor map passed to a simulator launch"
        )),
        (None, false) => Err(format!(
            "`{name}`: a simulator tensor map passed to a GPU launch"
        )),
    }
}

impl Gpu {
    /// `cuTensorMapEncodeTiled` of a tensor of `elem`-byte elements at
    /// device address `base` of rank `dims.len()` (1 to 5): `dims`
    /// (elements, innermost first), `strides` (bytes, from the second
    /// dimension on), `boxd` boxes laid out by `swizzle` in shared memory;
    /// no interleave, L2 promotion of 128 bytes, zeros outside the tensor.
    /// Elements are moved as raw bits (unsigned integers of their size: a
    /// tile copy converts nothing).
    pub fn encode_tensor_map(
        &self,
        base: u64,
        elem: usize,
        dims: &[u64],
        strides: &[u64],
        boxd: &[u32],
        swizzle: Swizzle,
    ) -> Result<RawTensorMap> {
        let rank = dims.len();
        if !(1..=5).contains(&rank) || strides.len() + 1 != rank || boxd.len() != rank {
            return Err(RuntimeError::InvalidArgument(format!(
                "a tensor map of rank {rank} needs {rank} sides, {} strides and {rank} box sides \
                 (got {}, {} and {})",
                rank.saturating_sub(1),
                dims.len(),
                strides.len(),
                boxd.len()
            )));
        }
        use sys::CUtensorMapDataType as D;
        let dtype = match elem {
            1 => D::CU_TENSOR_MAP_DATA_TYPE_UINT8,
            2 => D::CU_TENSOR_MAP_DATA_TYPE_UINT16,
            4 => D::CU_TENSOR_MAP_DATA_TYPE_UINT32,
            8 => D::CU_TENSOR_MAP_DATA_TYPE_UINT64,
            _ => {
                return Err(RuntimeError::InvalidArgument(format!(
                    "a tensor map's elements are 1, 2, 4 or 8 bytes (got {elem})"
                )));
            }
        };
        self.bind()?;
        let mut map = sys::CUtensorMap { opaque: [0; 16] };
        let elem_strides = [1u32; 5];
        // SAFETY: every array has the rank's entries (strides one fewer);
        // the driver writes the 128-byte map and reads nothing else.
        unsafe {
            cu!(cuTensorMapEncodeTiled(
                &mut map,
                dtype,
                rank as u32,
                base as *mut std::ffi::c_void,
                dims.as_ptr(),
                strides.as_ptr(),
                boxd.as_ptr(),
                elem_strides.as_ptr(),
                sys::CUtensorMapInterleave::CU_TENSOR_MAP_INTERLEAVE_NONE,
                match swizzle {
                    Swizzle::None => sys::CUtensorMapSwizzle::CU_TENSOR_MAP_SWIZZLE_NONE,
                    Swizzle::B32 => sys::CUtensorMapSwizzle::CU_TENSOR_MAP_SWIZZLE_32B,
                    Swizzle::B64 => sys::CUtensorMapSwizzle::CU_TENSOR_MAP_SWIZZLE_64B,
                    Swizzle::B128 => sys::CUtensorMapSwizzle::CU_TENSOR_MAP_SWIZZLE_128B,
                },
                sys::CUtensorMapL2promotion::CU_TENSOR_MAP_L2_PROMOTION_L2_128B,
                sys::CUtensorMapFloatOOBfill::CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE,
            ))
        }?;
        Ok(map.opaque)
    }
}

macro_rules! map_accessors {
    ($ty:ident) => {
        impl<T: Pod, const BW: u32, const BH: u32, L: TileLayout> $ty<'_, T, BW, BH, L> {
            /// Boxes across and down the tensor (the last ones may stick
            /// out).
            pub fn tiles(&self) -> (u32, u32) {
                (self.enc.dims[0].div_ceil(BW), self.enc.dims[1].div_ceil(BH))
            }

            /// The driver's encoding (GPU; `None` on the simulator): the
            /// argument of a C++ twin's `const __grid_constant__
            /// CUtensorMap` parameter.
            pub fn raw(&self) -> Option<RawTensorMap> {
                self.enc.gpu
            }
        }
    };
}
map_accessors!(TensorMap);
map_accessors!(TensorMapMut);

impl<T: Pod, const BW: u32, const BH: u32, L: TileLayout> TensorMap<'_, T, BW, BH, L> {
    /// The buffer the map reads.
    pub fn buffer(&self) -> &Buffer<T> {
        self.buf
    }
}

impl<T: Pod, const BW: u32, const BH: u32, L: TileLayout> TensorMapMut<'_, T, BW, BH, L> {
    /// The buffer the map reads and writes, between launches (to read the
    /// results back).
    pub fn buffer(&self) -> &Buffer<T> {
        self.buf
    }

    /// The buffer, writable between launches (to reset it); the map keeps
    /// naming the same memory.
    pub fn buffer_mut(&mut self) -> &mut Buffer<T> {
        self.buf
    }
}

/// The 2-D rules for the tensor of `e`.
fn span_2d<T: Pod, const BW: u32, const BH: u32, L: TileLayout>(
    e: &Encoded,
) -> impl Fn(usize, usize) -> std::result::Result<usize, String> + '_ {
    move |base, len| tensor_map_span::<T, BW, BH, L>(base, e.dim(0), e.dim(1), e.strides[0], len)
}

impl<'p, T: Pod, const BW: u32, const BH: u32, L: TileLayout> HostArg<TensorMap2d<'p, T, BW, BH, L>>
    for &TensorMap<'_, T, BW, BH, L>
{
    fn into_param(
        self,
        name: &'static str,
        to: &mut Target,
    ) -> std::result::Result<TensorMap2d<'p, T, BW, BH, L>, String> {
        self.enc
            .param(self.buf, name, to, &span_2d::<T, BW, BH, L>(&self.enc))
    }
}

impl<'p, T: Pod, const BW: u32, const BH: u32, L: TileLayout>
    HostArg<TensorMap2dMut<'p, T, BW, BH, L>> for &mut TensorMapMut<'_, T, BW, BH, L>
{
    fn into_param(
        self,
        name: &'static str,
        to: &mut Target,
    ) -> std::result::Result<TensorMap2dMut<'p, T, BW, BH, L>, String> {
        self.enc
            .param(self.buf, name, to, &span_2d::<T, BW, BH, L>(&self.enc))
    }
}
