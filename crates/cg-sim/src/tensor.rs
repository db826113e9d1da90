//! The Tensor Memory Accelerator's tile copies (1 to 5 dimensions) (sm_90's
//! `cp.async.bulk.tensor`), as a lane sees them.
//!
//! * A **tile load** is a bulk copy whose source is a box of a 2-D tensor:
//!   its in-tensor rows are read at issue, the elements outside the tensor
//!   are zeros (as the hardware fills them), the destination is poisoned
//!   and in flight, and the bytes land when the mbarrier phase that counts
//!   them completes — exactly a `cp.async.bulk` (see `crate::async_copy`).
//! * A **tile store** writes the box's in-tensor elements to global memory
//!   at issue and keeps its shared source *being read* until the issuing
//!   lane waits for its bulk group's reads (`cp.async.bulk.wait_group.read`):
//!   a checked write of those bytes before is a misuse, and so is a lane
//!   exiting with stores it never waited for (the hardware may still be
//!   reading the block's shared memory).
//!
//! For the race detector a tile copy is a weak read of its source and a
//! weak write of its destination by the issuing lane at issue; a store's
//! global writes are not delayed to its `wait_group`, so a reader ordered
//! after the issue but before that wait is not reported.

use crate::Dim3;
use crate::SimError;
use crate::async_copy::state::Reading;
use crate::report::Report;
use crate::types::{Loc, Step};
use crate::unit::Core;

/// A tensor of up to [`MAX_TENSOR_RANK`](cg_isa::MAX_TENSOR_RANK)
/// dimensions (dimension 0 innermost and dense; index `i` along dimension
/// `d ≥ 1` is `strides[d - 1] · i` bytes on; unused dimensions 1) and the
/// box its tile copies move: `boxdim[0] × … × boxdim[4]` elements of
/// `elem` bytes, laid out in shared memory by `swizzle` (the dense box's
/// 16-byte chunks permuted).
#[derive(Clone, Copy, Debug)]
pub struct TensorBox {
    /// Address of element `(0, 0, …)`.
    pub base: usize,
    /// Elements along each dimension (rows of `dims[0]` elements).
    pub dims: [u32; cg_isa::MAX_TENSOR_RANK],
    /// Bytes from one index to the next along dimensions 1, 2, ….
    pub strides: [usize; cg_isa::MAX_TENSOR_RANK - 1],
    /// Bytes per element.
    pub elem: usize,
    /// The box's extent along each dimension.
    pub boxdim: [u32; cg_isa::MAX_TENSOR_RANK],
    /// The box's layout in shared memory.
    pub swizzle: cg_isa::Swizzle,
}

/// A box coordinate: the box's first element along each dimension.
pub type TensorAt = [i32; cg_isa::MAX_TENSOR_RANK];

impl TensorBox {
    /// Bytes of the box in shared memory (dense, row-major).
    pub fn box_bytes(&self) -> usize {
        self.boxdim.iter().map(|&b| b as usize).product::<usize>() * self.elem
    }

    /// The box's bytes as they lie in shared memory, from the dense box
    /// (`dense`: row-major) — or back: the swizzle is its own inverse.
    fn swizzled(&self, dense: &[u8]) -> Vec<u8> {
        let mut out = dense.to_vec();
        if self.swizzle != cg_isa::Swizzle::None {
            for (i, chunk) in dense.chunks(16).enumerate() {
                let at = self.swizzle.apply(16 * i);
                out[at..at + chunk.len()].copy_from_slice(chunk);
            }
        }
        out
    }

    /// The box at `at` as it lands in shared memory: the tensor's elements
    /// inside it, zeros outside, laid out by the swizzle. The tensor must
    /// be readable (the tile copies' contract).
    fn read_box(&self, c: &mut Core, at: TensorAt) -> Vec<u8> {
        let mut data = vec![0u8; self.box_bytes()];
        for (off, src, n) in self.runs(at) {
            // SAFETY: the run lies inside the tensor (`runs`), readable by
            // the tile copies' contract; `data` has the box's bytes.
            unsafe { c.read_global(src as *const u8, &mut data[off..off + n]) };
        }
        self.swizzled(&data)
    }

    /// The parts of the box at `at` inside the tensor: per box row (the
    /// rows in row-major order over dimensions 1, 2, …), (byte offset in
    /// the box, global address, bytes).
    fn runs(&self, at: TensorAt) -> impl Iterator<Item = (usize, usize, usize)> + '_ {
        let x = at[0] as i64;
        let c0 = x.max(0);
        let c1 = (x + self.boxdim[0] as i64).min(self.dims[0] as i64);
        let rows: i64 = self.boxdim[1..].iter().map(|&b| b as i64).product();
        (0..rows).filter_map(move |k| {
            if c0 >= c1 {
                return None;
            }
            let mut addr = self.base + c0 as usize * self.elem;
            let mut rest = k;
            let dims = self.boxdim.iter().zip(&self.dims).zip(&at).skip(1);
            for (((&b, &n), &a), &stride) in dims.zip(&self.strides) {
                let i = a as i64 + rest % b as i64;
                rest /= b as i64;
                if i < 0 || i >= n as i64 {
                    return None;
                }
                addr += i as usize * stride;
            }
            let off = (k * self.boxdim[0] as i64 + (c0 - x)) as usize * self.elem;
            Some((off, addr, (c1 - c0) as usize * self.elem))
        })
    }
}

impl Core {
    /// The tile load of the box at `at` of `t` into shared `dst` by
    /// lane `me`, completing its bytes on the mbarrier at `bar`, then one
    /// arrival on it expecting them (`arrive.expect_tx`).
    ///
    /// # Safety
    /// `t` must describe readable memory and `dst` be writable for the
    /// box's bytes.
    pub unsafe fn tile_load(
        &mut self,
        me: u32,
        dst: *mut u8,
        t: TensorBox,
        at: TensorAt,
        bar: usize,
        loc: Loc,
    ) -> Step {
        let len = t.box_bytes();
        let fill = |c: &mut Core| {
            for (_, src, n) in t.runs(at) {
                if !c.tile_access(me, src, n, false, loc) {
                    return None;
                }
            }
            if !c.tile_access(me, dst as usize, len, true, loc) {
                return None;
            }
            Some((t.base, t.read_box(c, at)))
        };
        // SAFETY: forwarded from the caller.
        unsafe { self.bulk_arrive(me, dst, len, (bar, loc), "tensor tile load", fill) }
    }

    /// The tile load of the box at `at` of `t` into `dst`'s offset in
    /// the blocks of `me`'s cluster named by `mask`, each completing on the
    /// mbarrier at `bar`'s offset there, with no arrival
    /// (`.multicast::cluster`).
    ///
    /// # Safety
    /// `t` must describe readable memory and `dst` be writable for the
    /// box's bytes.
    pub unsafe fn tile_load_multicast(
        &mut self,
        me: u32,
        dst: *mut u8,
        t: TensorBox,
        at: TensorAt,
        (bar, mask): (usize, u16),
        loc: Loc,
    ) -> Step {
        let len = t.box_bytes();
        let fill = |c: &mut Core, dsts: &[usize]| {
            for (_, src, n) in t.runs(at) {
                if !c.tile_access(me, src, n, false, loc) {
                    return None;
                }
            }
            for &d in dsts {
                if !c.tile_access(me, d, len, true, loc) {
                    return None;
                }
            }
            Some((t.base, t.read_box(c, at)))
        };
        // SAFETY: forwarded from the caller.
        unsafe { self.bulk_multicast(me, dst, len, (bar, mask, loc), "tensor tile load", fill) }
    }

    /// The tile store of shared `src` into the box at `at` of `t` by
    /// lane `me`, in its open bulk group.
    ///
    /// # Safety
    /// `t` must describe writable memory and `src` be readable for the
    /// box's bytes.
    pub unsafe fn tile_store(
        &mut self,
        me: u32,
        t: TensorBox,
        at: TensorAt,
        src: *const u8,
        loc: Loc,
    ) -> Step {
        let len = t.box_bytes();
        let b = self.lanes[me as usize].block as usize;
        if let Some(c) = self.blocks[b].copies.overlapping(src as usize, len) {
            let msg = format!(
                "tensor tile store from shared memory that a copy ({}, at {}) is still filling: \
                 wait for the copy first",
                self.copy_owner(c.lane),
                crate::SourceLocation::from(c.loc)
            );
            return self.misuse(me, loc, msg);
        }
        if !self.tile_access(me, src as usize, len, false, loc) {
            return Step::Wait;
        }
        for (_, dst, n) in t.runs(at) {
            if !self.tile_access(me, dst, n, true, loc) {
                return Step::Wait;
            }
        }
        // SAFETY: `src` is readable for the box's bytes (the caller's
        // contract).
        let dense = t.swizzled(unsafe { std::slice::from_raw_parts(src, len) });
        for (off, dst, n) in t.runs(at) {
            // SAFETY: the run lies inside the tensor, writable by the
            // caller's contract.
            unsafe { self.write_global(dst as *mut u8, &dense[off..off + n]) };
        }
        self.blocks[b].copies.reading.push(Reading {
            start: src as usize,
            end: src as usize + len,
            lane: me,
            loc,
            committed: false,
        });
        Step::Done(0)
    }

    /// `cp.async.bulk.commit_group` by lane `me`.
    pub fn bulk_commit(&mut self, me: u32) -> Step {
        let b = self.lanes[me as usize].block as usize;
        for r in self.blocks[b].copies.reading.iter_mut() {
            if r.lane == me {
                r.committed = true;
            }
        }
        Step::Done(0)
    }

    /// `cp.async.bulk.wait_group[.read] 0` by lane `me`: its committed
    /// stores have read their sources.
    pub fn bulk_wait(&mut self, me: u32) -> Step {
        let b = self.lanes[me as usize].block as usize;
        self.blocks[b]
            .copies
            .reading
            .retain(|r| r.lane != me || !r.committed);
        Step::Done(0)
    }

    pub(crate) fn reading_overlap(&self, b: usize, p: usize, len: usize) -> Option<&Reading> {
        let end = p + len.max(1);
        self.blocks[b]
            .copies
            .reading
            .iter()
            .find(|r| r.start < end && p < r.end)
    }

    /// A checked write of `len` shared bytes at `p` by lane `me`: a
    /// misuse if a tile store still reads any of them.
    pub(crate) fn store_check_write(&mut self, me: u32, p: usize, len: usize, loc: Loc) -> Step {
        let b = self.lanes[me as usize].block as usize;
        let Some(r) = self.reading_overlap(b, p, len) else {
            return Step::Done(0);
        };
        let who = if r.lane == me {
            "this thread".to_string()
        } else {
            self.copy_owner(r.lane)
        };
        let msg = format!(
            "writes shared memory that a tensor tile store ({who}, at {}) is still reading: \
             wait for the store's reads (TileStore::wait_read, or the block's next store_tile) \
             before reusing its source",
            crate::SourceLocation::from(r.loc)
        );
        self.misuse(me, loc, msg)
    }

    /// Lane `i` exited: tile stores whose reads it never waited for are a
    /// misuse (reported at the store's line), unless another report came
    /// first.
    pub(crate) fn stores_after_exit(&mut self, i: u32) {
        let b = self.lanes[i as usize].block as usize;
        let reading = &mut self.blocks[b].copies.reading;
        let Some(first) = reading.iter().find(|r| r.lane == i).map(|r| r.loc) else {
            return;
        };
        reading.retain(|r| r.lane != i);
        if self.error.is_none() {
            let l = &self.lanes[i as usize];
            let summary = format!(
                "thread exited with tensor tile stores whose reads of shared memory it never \
                 waited for (TileStore::wait_read) (block {} thread {})",
                Dim3::from(self.blocks[b].idx),
                Dim3::from(l.tid)
            );
            self.error = Some(SimError::Misuse(Report {
                summary,
                location: Some(first.into()),
                blocked: self.blocked_groups(),
                notes: Vec::new(),
                accesses: None,
            }));
        }
    }
}
