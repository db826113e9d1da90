//! Tensor maps of one, four and five dimensions
//! (`cooperative_groups::tma::TensorMap1d`, `TensorMap4d`, `TensorMap5d`
//! and their writable twins; the 2-D and 3-D map types work here too, and
//! have their named shapes in `TensorMap` and `TensorMap3`): the driver
//! encodes a map of the parameter's rank, a launch passes its 128 bytes as
//! the kernel parameter; on the simulator the map is the tensor itself.
//! One type serves every rank: it is named by the kernel's parameter type.
//!
//! ```
//! # use cg_runtime::{Backend, TensorMapNd};
//! # use cooperative_groups::tma::TensorMap4d;
//! # fn main() -> cg_runtime::Result<()> {
//! let backend = Backend::sim();
//! let t = backend.upload(&vec![0f32; 64 * 4 * 3 * 2])?;
//! // 64 × 4 × 3 × 2 floats, dense; 32 × 2 × 1 × 1 boxes.
//! let map: TensorMapNd<'_, TensorMap4d<f32, 32, 2, 1, 1>> =
//!     backend.tensor_map_nd(&t, [64, 4, 3, 2], [64, 256, 768])?;
//! assert_eq!(map.tiles(), [2, 2, 3, 2]);
//! // A 3-D shape for a 4-D map is refused.
//! let r: cg_runtime::Result<TensorMapNd<'_, TensorMap4d<f32, 32, 2, 1, 1>>> =
//!     backend.tensor_map_nd(&t, [64, 4, 6], [64, 256]);
//! assert!(r.is_err());
//! # Ok(())
//! # }
//! ```

use std::marker::PhantomData;

use cooperative_groups::KernelParam;
use cooperative_groups::host::tensor_map_span_nd;
use cooperative_groups::tma::RankedMap;

use crate::backend::{Backend, Buffer};
use crate::error::{Result, RuntimeError};
use crate::launch::{HostArg, Target};
use crate::tensor_map::{Encoded, RawTensorMap};

/// A read-only tensor of a [`Buffer`] for a kernel's tensor-map parameter
/// of type `M` (a `TensorMap1d`, `TensorMap4d` or `TensorMap5d`; passed as
/// `&map`): made by [`Backend::tensor_map_nd`].
pub struct TensorMapNd<'a, M: RankedMap> {
    buf: &'a Buffer<M::Elem>,
    enc: Encoded,
    _map: PhantomData<M>,
}

/// A tensor of a [`Buffer`] that kernels may also store tiles to, for a
/// parameter of type `M` (a `TensorMap1dMut`, `TensorMap4dMut` or `TensorMap5dMut`; passed as
/// `&mut map`): made by [`Backend::tensor_map_nd_mut`].
pub struct TensorMapNdMut<'a, M: RankedMap> {
    buf: &'a mut Buffer<M::Elem>,
    enc: Encoded,
    _map: PhantomData<M>,
}

impl Backend {
    /// A tensor map of `buf` for a read-only parameter of type `M`: `dims`
    /// elements along each dimension (innermost first, as many as `M`
    /// has), `strides` elements from one index to the next along each
    /// dimension past the first. An error naming the rule when the shape
    /// breaks the driver's ([`tensor_map_span_nd`]) — the same on the
    /// simulator.
    pub fn tensor_map_nd<'a, M: RankedMap, const N: usize, const S: usize>(
        &self,
        buf: &'a Buffer<M::Elem>,
        dims: [usize; N],
        strides: [usize; S],
    ) -> Result<TensorMapNd<'a, M>> {
        let enc = self.encode_nd::<M>(buf, &dims, &strides, false)?;
        Ok(TensorMapNd {
            buf,
            enc,
            _map: PhantomData,
        })
    }

    /// A tensor map as [`tensor_map_nd`](Self::tensor_map_nd) for a
    /// writable parameter of type `M`, whose kernels may store tiles.
    pub fn tensor_map_nd_mut<'a, M: RankedMap, const N: usize, const S: usize>(
        &self,
        buf: &'a mut Buffer<M::Elem>,
        dims: [usize; N],
        strides: [usize; S],
    ) -> Result<TensorMapNdMut<'a, M>> {
        let enc = self.encode_nd::<M>(buf, &dims, &strides, true)?;
        Ok(TensorMapNdMut {
            buf,
            enc,
            _map: PhantomData,
        })
    }

    /// The map of both constructors; `mutable`: which one was called (a
    /// writable `M` needs `tensor_map_nd_mut`, a read-only one
    /// `tensor_map_nd`).
    fn encode_nd<M: RankedMap>(
        &self,
        buf: &Buffer<M::Elem>,
        dims: &[usize],
        strides: &[usize],
        mutable: bool,
    ) -> Result<Encoded> {
        if M::WRITABLE != mutable {
            let need = if M::WRITABLE {
                "a writable tensor map needs `tensor_map_nd_mut`"
            } else {
                "a read-only tensor map needs `tensor_map_nd`"
            };
            return Err(RuntimeError::InvalidArgument(need.into()));
        }
        if dims.len() != M::RANK || strides.len() + 1 != M::RANK {
            return Err(RuntimeError::InvalidArgument(format!(
                "a {}-D tensor map needs {} sides and {} strides (got {} and {})",
                M::RANK,
                M::RANK,
                M::RANK - 1,
                dims.len(),
                strides.len()
            )));
        }
        let elem = std::mem::size_of::<M::Elem>();
        self.encode_map::<M>(buf, dims, strides, &|base, len| {
            tensor_map_span_nd(base, elem, dims, strides, len)
        })
    }
}

/// The rules of any rank for the tensor of `e`, of `elem`-byte elements.
fn span_nd(
    e: &Encoded,
    elem: usize,
) -> impl Fn(usize, usize) -> std::result::Result<usize, String> + '_ {
    move |base, len| {
        let dims: Vec<usize> = (0..e.dims.len()).map(|d| e.dim(d)).collect();
        tensor_map_span_nd(base, elem, &dims, &e.strides, len)
    }
}

/// The boxes along each dimension of the tensor of `e`.
fn tiles(e: &Encoded, boxdim: &[u32]) -> Vec<u32> {
    e.dims
        .iter()
        .zip(boxdim)
        .map(|(&d, &b)| d.div_ceil(b))
        .collect()
}

macro_rules! nd_accessors {
    ($ty:ident) => {
        impl<M: RankedMap> $ty<'_, M> {
            /// Boxes along each dimension, innermost first (the last ones
            /// may stick out).
            pub fn tiles(&self) -> Vec<u32> {
                tiles(&self.enc, &M::BOX_DIMS)
            }

            /// The driver's encoding (GPU; `None` on the simulator): the
            /// argument of a C++ twin's `const __grid_constant__
            /// CUtensorMap` parameter.
            pub fn raw(&self) -> Option<RawTensorMap> {
                self.enc.gpu
            }

            /// The buffer the map reads.
            pub fn buffer(&self) -> &Buffer<M::Elem> {
                self.buf
            }
        }
    };
}
nd_accessors!(TensorMapNd);
nd_accessors!(TensorMapNdMut);

impl<M: RankedMap> TensorMapNdMut<'_, M> {
    /// The buffer, writable between launches (to reset it).
    pub fn buffer_mut(&mut self) -> &mut Buffer<M::Elem> {
        self.buf
    }
}

impl<M: RankedMap + KernelParam> HostArg<M> for &TensorMapNd<'_, M> {
    fn into_param(self, name: &'static str, to: &mut Target) -> std::result::Result<M, String> {
        let elem = std::mem::size_of::<M::Elem>();
        self.enc
            .param(self.buf, name, to, &span_nd(&self.enc, elem))
    }
}

impl<M: RankedMap + KernelParam> HostArg<M> for &mut TensorMapNdMut<'_, M> {
    fn into_param(self, name: &'static str, to: &mut Target) -> std::result::Result<M, String> {
        let elem = std::mem::size_of::<M::Elem>();
        self.enc
            .param(self.buf, name, to, &span_nd(&self.enc, elem))
    }
}
