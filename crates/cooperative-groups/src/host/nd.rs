//! Tensors of any rank on the host: [`TensorNd`] for a simulator launch's
//! [`TensorMap1d`](crate::tma::TensorMap1d),
//! [`TensorMap4d`](crate::tma::TensorMap4d) and
//! [`TensorMap5d`](crate::tma::TensorMap5d) parameters and their writable
//! twins (the 2-D and 3-D maps take it too, beside
//! [`Image`](super::Image) and [`Volume`](super::Volume)), and the driver's
//! rules for a map of any rank ([`tensor_map_span_nd`]), which `cg-runtime`
//! checks the same way.

extern crate std;

use std::format;
use std::string::String;

use super::{HostArg, KernelParam, Target, host_memory, map_param, stride_bytes};
use crate::tma::RankedMap;

/// A host slice seen as an `N`-D tensor: `dims[d]` elements along
/// dimension `d` (0 innermost, dense), `strides[d - 1]` elements from one
/// index to the next along dimension `d ≥ 1` (`S = N - 1` strides).
pub struct TensorNd<R, const N: usize, const S: usize> {
    data: R,
    dims: [usize; N],
    strides: [usize; S],
}

impl<R, const N: usize, const S: usize> TensorNd<R, N, S> {
    /// `data` as a tensor of `dims` elements (innermost first) with
    /// `strides` (elements; one per dimension past the first).
    pub fn new(data: R, dims: [usize; N], strides: [usize; S]) -> TensorNd<R, N, S> {
        const { assert!(S + 1 == N, "one stride per dimension past the first") };
        TensorNd {
            data,
            dims,
            strides,
        }
    }
}

/// The elements a tensor of `elem`-byte elements spans from address
/// `base` in a buffer of `len` elements — `dims[d]` elements along
/// dimension `d`, `strides[d - 1]` elements apart along dimension `d ≥ 1`
/// — or why it cannot have a tensor map: the driver's rules for
/// `cuTensorMapEncodeTiled` (a 16-byte aligned start, sides in
/// `1..=2^32`, strides multiples of 16 bytes below 2^40), and each stride
/// at least the span of the dimensions below it (no two indices overlap),
/// checked the same on the simulator.
pub fn tensor_map_span_nd(
    base: usize,
    elem: usize,
    dims: &[usize],
    strides: &[usize],
    len: usize,
) -> Result<usize, String> {
    if let Some(&d) = dims.iter().find(|&&d| d == 0 || d > 1 << 32) {
        return Err(format!(
            "a tensor map's sides are 1..=2^32 elements (got {d} in {dims:?})"
        ));
    }
    if !base.is_multiple_of(16) {
        return Err(format!(
            "a tensor map's first element must be 16-byte aligned (it is at {base:#x})"
        ));
    }
    // The span of the dimensions below `d`, as `d` grows; checked, since
    // a wrapped span would let indices overlap (two owners of an element).
    let mut span = dims[0];
    for (d, (&n, &stride)) in dims[1..].iter().zip(strides).enumerate() {
        let bytes = stride_bytes(stride, elem, "dimension's")?;
        if !bytes.is_multiple_of(16) || bytes as u64 >= 1 << 40 {
            return Err(format!(
                "a tensor map's strides must be multiples of 16 bytes, below 2^40 (dimension {} \
                 is {stride} elements, {bytes} bytes, apart)",
                d + 1
            ));
        }
        if stride < span {
            return Err(format!(
                "a stride of {stride} elements along dimension {} is less than the {span} \
                 elements of one index of it",
                d + 1
            ));
        }
        span = stride
            .checked_mul(n - 1)
            .and_then(|s| s.checked_add(span))
            .ok_or_else(|| {
                format!(
                    "a {dims:?} tensor with strides {strides:?} overflows: its span is past \
                     usize::MAX elements"
                )
            })?;
    }
    if span > len {
        return Err(format!(
            "a {dims:?} tensor with strides {strides:?} spans {span} elements; the buffer has {len}"
        ));
    }
    Ok(span)
}

impl<R, const N: usize, const S: usize> TensorNd<R, N, S> {
    /// The parameter `M` of the tensor at `p` (of `len` elements; from an
    /// exclusive borrow where `writable`), after the rank and the borrow
    /// are checked against `M`.
    fn param<M: RankedMap>(
        &self,
        name: &'static str,
        to: &mut Target,
        (p, len): (*const M::Elem, usize),
        writable: bool,
    ) -> Result<M, String> {
        host_memory(name, to)?;
        if N != M::RANK {
            return Err(format!(
                "`{name}`: a {N}-D tensor for a {}-D tensor map",
                M::RANK
            ));
        }
        if M::WRITABLE && !writable {
            return Err(format!(
                "`{name}`: a writable tensor map needs the tensor borrowed mutably (`&mut [T]`)"
            ));
        }
        let elem = core::mem::size_of::<M::Elem>();
        let (dims, strides) = (&self.dims, &self.strides);
        map_param(name, to, (p, len), (dims, strides), |base, len| {
            tensor_map_span_nd(base, elem, dims, strides, len)
        })
    }
}

impl<M: RankedMap + KernelParam, const N: usize, const S: usize> HostArg<M>
    for TensorNd<&[M::Elem], N, S>
{
    fn into_param(self, name: &'static str, to: &mut Target) -> Result<M, String> {
        self.param(name, to, (self.data.as_ptr(), self.data.len()), false)
    }
}

impl<M: RankedMap + KernelParam, const N: usize, const S: usize> HostArg<M>
    for TensorNd<&mut [M::Elem], N, S>
{
    fn into_param(self, name: &'static str, to: &mut Target) -> Result<M, String> {
        let (p, len) = (self.data.as_mut_ptr(), self.data.len());
        self.param(name, to, (p, len), true)
    }
}

/// A tensor map `M` (a [`TensorMap1d`](crate::tma::TensorMap1d),
/// [`TensorMap4d`](crate::tma::TensorMap4d),
/// [`TensorMap5d`](crate::tma::TensorMap5d) or a writable twin) of the
/// host tensor `t`, for a kernel run on the simulator with
/// `cg_sim::launch` (the tensor must outlive the launch).
/// [`run`](super::run) takes a [`TensorNd`] for such a parameter itself.
pub fn tensor_map_nd<M: RankedMap + KernelParam, A: HostArg<M>>(t: A) -> Result<M, String> {
    let mut to = Target::sim();
    t.into_param("", &mut to)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn spans_and_the_drivers_rules() {
        // 8 × 3 × 2 × 2 of u32, rows 8, planes 32, cubes 64 apart.
        assert_eq!(
            tensor_map_span_nd(0, 4, &[8, 3, 2, 2], &[8, 32, 64], 128),
            Ok(64 + 32 + 16 + 8)
        );
        assert!(tensor_map_span_nd(0, 4, &[8, 3, 2, 2], &[8, 32, 64], 119).is_err());
        // Planes closer than a plane's 24 elements overlap.
        let e = tensor_map_span_nd(0, 4, &[8, 3, 2, 2], &[8, 20, 64], 1 << 10).unwrap_err();
        assert!(e.contains("dimension 2"), "{e}");
        // A stride of 6 u32 is 24 bytes: not a multiple of 16.
        let e = tensor_map_span_nd(0, 4, &[4, 3, 2, 2], &[6, 32, 64], 1 << 10).unwrap_err();
        assert!(e.contains("multiples of 16 bytes"), "{e}");
        assert!(tensor_map_span_nd(8, 4, &[4, 1, 1, 1], &[4, 4, 4], 64).is_err());
        assert!(tensor_map_span_nd(0, 4, &[4, 0, 1, 1], &[4, 4, 4], 64).is_err());
    }
}
