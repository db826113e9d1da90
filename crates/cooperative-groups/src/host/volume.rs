//! 3-D tensors on the host: [`Volume`] for a simulator launch's
//! [`TensorMap3d`](crate::tma::TensorMap3d) parameters, and the driver's
//! rules for 3-D maps ([`tensor_map_span_3d`]), which `cg-runtime` checks
//! the same way.

extern crate std;

use std::format;
use std::string::String;

use super::{HostArg, Target, map_param, stride_bytes, tensor_map_span};
use crate::Pod;
use crate::tma::{TensorMap3d, TensorMap3dMut, TileLayout};

/// A host slice seen as a 3-D tensor: `depth` planes of `height` rows of
/// `width` elements, rows `pitch` and planes `plane` elements apart.
pub struct Volume<R> {
    data: R,
    dims: (usize, usize, usize),
    pitch: usize,
    plane: usize,
}

impl<R> Volume<R> {
    /// `data` as `dims = (width, height, depth)`, rows `pitch` and planes
    /// `plane` elements apart.
    pub fn new(data: R, dims: (usize, usize, usize), pitch: usize, plane: usize) -> Volume<R> {
        Volume {
            data,
            dims,
            pitch,
            plane,
        }
    }
}

/// The elements a `width × height × depth` tensor of `T` (rows `pitch`,
/// planes `plane` elements apart) from address `base` in a buffer of
/// `len` elements spans — or why it cannot have a 3-D tensor map with a
/// `BW × BH × BD` box: the 2-D rules for each plane
/// ([`tensor_map_span`](super::tensor_map_span)), planes a multiple of 16
/// bytes apart (below 2^40) and not overlapping, the depth in `1..=2^32`.
pub fn tensor_map_span_3d<T: Pod, const BW: u32, const BH: u32, const BD: u32, L: TileLayout>(
    base: usize,
    (width, height, depth): (usize, usize, usize),
    pitch: usize,
    plane: usize,
    len: usize,
) -> Result<usize, String> {
    let _ = TensorMap3d::<T, BW, BH, BD, L>::BOX_BYTES;
    let elem = core::mem::size_of::<T>();
    if depth == 0 || depth > 1 << 32 {
        return Err(format!(
            "a tensor map's sides are 1..=2^32 elements (got a depth of {depth})"
        ));
    }
    let plane_bytes = stride_bytes(plane, elem, "plane")?;
    if !plane_bytes.is_multiple_of(16) || plane_bytes as u64 >= 1 << 40 {
        return Err(format!(
            "a tensor map's planes must be a multiple of 16 bytes apart, below 2^40 (the plane \
             stride is {plane} elements, {plane_bytes} bytes)"
        ));
    }
    // Checked: a wrapped span would let planes overlap (two owners of an
    // element).
    let overflows = || {
        format!(
            "a {width} × {height} × {depth} tensor with rows {pitch} and planes {plane} elements \
             apart overflows: its span is past usize::MAX elements"
        )
    };
    let plane_span = pitch
        .checked_mul(height.saturating_sub(1))
        .and_then(|s| s.checked_add(width))
        .ok_or_else(overflows)?;
    if plane < plane_span {
        return Err(format!(
            "a plane stride of {plane} elements is less than a plane's {plane_span} elements"
        ));
    }
    // The first plane, as a 2-D tensor in what the buffer holds past the
    // other planes.
    let rest = plane.checked_mul(depth - 1).ok_or_else(overflows)?;
    let first =
        tensor_map_span::<T, BW, BH, L>(base, width, height, pitch, len.saturating_sub(rest))
            .map_err(|e| {
                if len < rest {
                    format!(
                        "a {width} × {height} × {depth} tensor spans more than the {len} elements"
                    )
                } else {
                    e
                }
            })?;
    // `rest + first ≤ len`: `first` fits what the buffer holds past `rest`.
    Ok(rest + first)
}

/// A 3-D tensor map of the host volume `v` with a `BW × BH × BD` box, for
/// a kernel run on the simulator with `cg_sim::launch` (the volume must
/// outlive the launch). [`run`](super::run) takes `Volume<&[T]>` for a
/// `TensorMap3d` parameter itself.
pub fn tensor_map_3d<'a, T: Pod, const BW: u32, const BH: u32, const BD: u32, L: TileLayout>(
    v: Volume<&'a [T]>,
) -> Result<TensorMap3d<'a, T, BW, BH, BD, L>, String> {
    let mut to = Target::sim();
    v.into_param("", &mut to)
}

/// A writable 3-D tensor map of the host volume `v`, as [`tensor_map_3d`].
pub fn tensor_map_3d_mut<'a, T: Pod, const BW: u32, const BH: u32, const BD: u32, L: TileLayout>(
    v: Volume<&'a mut [T]>,
) -> Result<TensorMap3dMut<'a, T, BW, BH, BD, L>, String> {
    let mut to = Target::sim();
    v.into_param("", &mut to)
}

impl<'p, T: Pod, const BW: u32, const BH: u32, const BD: u32, L: TileLayout>
    HostArg<TensorMap3d<'p, T, BW, BH, BD, L>> for Volume<&[T]>
{
    fn into_param(
        self,
        name: &'static str,
        to: &mut Target,
    ) -> Result<TensorMap3d<'p, T, BW, BH, BD, L>, String> {
        let ((w, h, d), pitch, plane) = (self.dims, self.pitch, self.plane);
        map_param(
            name,
            to,
            (self.data.as_ptr(), self.data.len()),
            (&[w, h, d], &[pitch, plane]),
            |base, len| tensor_map_span_3d::<T, BW, BH, BD, L>(base, (w, h, d), pitch, plane, len),
        )
    }
}

impl<'p, T: Pod, const BW: u32, const BH: u32, const BD: u32, L: TileLayout>
    HostArg<TensorMap3dMut<'p, T, BW, BH, BD, L>> for Volume<&mut [T]>
{
    fn into_param(
        self,
        name: &'static str,
        to: &mut Target,
    ) -> Result<TensorMap3dMut<'p, T, BW, BH, BD, L>, String> {
        let ((w, h, d), pitch, plane) = (self.dims, self.pitch, self.plane);
        let len = self.data.len();
        map_param(
            name,
            to,
            (self.data.as_mut_ptr(), len),
            (&[w, h, d], &[pitch, plane]),
            |base, len| tensor_map_span_3d::<T, BW, BH, BD, L>(base, (w, h, d), pitch, plane, len),
        )
    }
}
