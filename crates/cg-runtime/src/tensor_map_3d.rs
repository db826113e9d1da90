//! 3-D tensor maps (`cooperative_groups::tma::TensorMap3d`): the driver
//! encodes a rank-3 map, a launch passes its 128 bytes as the kernel
//! parameter; on the simulator the map is the tensor itself.
//!
//! ```
//! # use cg_runtime::{Backend, TensorMap3};
//! # fn main() -> cg_runtime::Result<()> {
//! let backend = Backend::sim();
//! let v = backend.upload(&vec![0u32; 32 * 8 * 3])?;
//! // 32 × 8 × 3 words, rows 32 and planes 256 apart, 16 × 4 × 2 boxes.
//! let map: TensorMap3<'_, u32, 16, 4, 2> = backend.tensor_map_3d(&v, (32, 8, 3), 32, 256)?;
//! assert_eq!(map.tiles(), (2, 2, 2));
//! // Planes closer than a plane's elements are refused.
//! let r: cg_runtime::Result<TensorMap3<'_, u32, 16, 4, 2>> = backend.tensor_map_3d(&v, (32, 8, 3), 32, 128);
//! assert!(r.is_err());
//! # Ok(())
//! # }
//! ```

use std::marker::PhantomData;

use cooperative_groups::Pod;
use cooperative_groups::host::tensor_map_span_3d;
use cooperative_groups::tma::{Dense, TensorMap3d, TensorMap3dMut, TileLayout};

use crate::backend::{Backend, Buffer};
use crate::error::Result;
use crate::launch::{HostArg, Target};
use crate::tensor_map::{Encoded, RawTensorMap};

/// A read-only 3-D tensor of a [`Buffer`] with a `BW × BH × BD` box laid
/// out by `L`, for a kernel's [`TensorMap3d<T, BW, BH, BD, L>`] parameter
/// (passed as `&map`): made by [`Backend::tensor_map_3d`].
pub struct TensorMap3<'a, T, const BW: u32, const BH: u32, const BD: u32, L: TileLayout = Dense> {
    buf: &'a Buffer<T>,
    enc: Encoded,
    _layout: PhantomData<L>,
}

/// A 3-D tensor of a [`Buffer`] that kernels may also store tiles to, for
/// a [`TensorMap3dMut<T, BW, BH, BD, L>`] parameter (passed as `&mut
/// map`): made by [`Backend::tensor_map_3d_mut`].
pub struct TensorMap3Mut<'a, T, const BW: u32, const BH: u32, const BD: u32, L: TileLayout = Dense>
{
    buf: &'a mut Buffer<T>,
    enc: Encoded,
    _layout: PhantomData<L>,
}

impl Backend {
    /// A 3-D tensor map of `buf`: `dims = (width, height, depth)` elements,
    /// rows `pitch` and planes `plane` elements apart, `BW × BH × BD` boxes
    /// laid out by `L`. An error naming the rule when the shape breaks the
    /// driver's (as [`tensor_map`](Self::tensor_map), and planes a multiple
    /// of 16 bytes apart that do not overlap) — the same on the simulator.
    pub fn tensor_map_3d<'a, T: Pod, const BW: u32, const BH: u32, const BD: u32, L: TileLayout>(
        &self,
        buf: &'a Buffer<T>,
        dims: (usize, usize, usize),
        pitch: usize,
        plane: usize,
    ) -> Result<TensorMap3<'a, T, BW, BH, BD, L>> {
        let enc = self.encode_3d::<T, BW, BH, BD, L>(buf, dims, pitch, plane)?;
        Ok(TensorMap3 {
            buf,
            enc,
            _layout: PhantomData,
        })
    }

    /// A 3-D tensor map as [`tensor_map_3d`](Self::tensor_map_3d), whose
    /// kernels may store tiles into it.
    pub fn tensor_map_3d_mut<
        'a,
        T: Pod,
        const BW: u32,
        const BH: u32,
        const BD: u32,
        L: TileLayout,
    >(
        &self,
        buf: &'a mut Buffer<T>,
        dims: (usize, usize, usize),
        pitch: usize,
        plane: usize,
    ) -> Result<TensorMap3Mut<'a, T, BW, BH, BD, L>> {
        let enc = self.encode_3d::<T, BW, BH, BD, L>(buf, dims, pitch, plane)?;
        Ok(TensorMap3Mut {
            buf,
            enc,
            _layout: PhantomData,
        })
    }

    fn encode_3d<T: Pod, const BW: u32, const BH: u32, const BD: u32, L: TileLayout>(
        &self,
        buf: &Buffer<T>,
        (w, h, d): (usize, usize, usize),
        pitch: usize,
        plane: usize,
    ) -> Result<Encoded> {
        self.encode_map::<TensorMap3d<T, BW, BH, BD, L>>(
            buf,
            &[w, h, d],
            &[pitch, plane],
            &|base, len| tensor_map_span_3d::<T, BW, BH, BD, L>(base, (w, h, d), pitch, plane, len),
        )
    }
}

/// The 3-D rules for the tensor of `e`.
fn span_3d<T: Pod, const BW: u32, const BH: u32, const BD: u32, L: TileLayout>(
    e: &Encoded,
) -> impl Fn(usize, usize) -> std::result::Result<usize, String> + '_ {
    move |base, len| {
        let dims = (e.dim(0), e.dim(1), e.dim(2));
        tensor_map_span_3d::<T, BW, BH, BD, L>(base, dims, e.strides[0], e.strides[1], len)
    }
}

macro_rules! map3_accessors {
    ($ty:ident) => {
        impl<T: Pod, const BW: u32, const BH: u32, const BD: u32, L: TileLayout>
            $ty<'_, T, BW, BH, BD, L>
        {
            /// Boxes across, down and through the tensor (the last ones
            /// may stick out).
            pub fn tiles(&self) -> (u32, u32, u32) {
                let d = &self.enc.dims;
                (d[0].div_ceil(BW), d[1].div_ceil(BH), d[2].div_ceil(BD))
            }

            /// The driver's encoding (GPU; `None` on the simulator): the
            /// argument of a C++ twin's `const __grid_constant__
            /// CUtensorMap` parameter.
            pub fn raw(&self) -> Option<RawTensorMap> {
                self.enc.gpu
            }

            /// The buffer the map reads.
            pub fn buffer(&self) -> &Buffer<T> {
                self.buf
            }
        }
    };
}
map3_accessors!(TensorMap3);
map3_accessors!(TensorMap3Mut);

impl<T: Pod, const BW: u32, const BH: u32, const BD: u32, L: TileLayout>
    TensorMap3Mut<'_, T, BW, BH, BD, L>
{
    /// The buffer, writable between launches (to reset it).
    pub fn buffer_mut(&mut self) -> &mut Buffer<T> {
        self.buf
    }
}

impl<'p, T: Pod, const BW: u32, const BH: u32, const BD: u32, L: TileLayout>
    HostArg<TensorMap3d<'p, T, BW, BH, BD, L>> for &TensorMap3<'_, T, BW, BH, BD, L>
{
    fn into_param(
        self,
        name: &'static str,
        to: &mut Target,
    ) -> std::result::Result<TensorMap3d<'p, T, BW, BH, BD, L>, String> {
        self.enc
            .param(self.buf, name, to, &span_3d::<T, BW, BH, BD, L>(&self.enc))
    }
}

impl<'p, T: Pod, const BW: u32, const BH: u32, const BD: u32, L: TileLayout>
    HostArg<TensorMap3dMut<'p, T, BW, BH, BD, L>> for &mut TensorMap3Mut<'_, T, BW, BH, BD, L>
{
    fn into_param(
        self,
        name: &'static str,
        to: &mut Target,
    ) -> std::result::Result<TensorMap3dMut<'p, T, BW, BH, BD, L>, String> {
        self.enc
            .param(self.buf, name, to, &span_3d::<T, BW, BH, BD, L>(&self.enc))
    }
}
