//! Shared memory: one dynamic buffer and one buffer per static allocation
//! site, per block, filled with a poison byte so that reads before writes
//! show up.

use std::alloc::{Layout, alloc, dealloc};
use std::ptr::NonNull;

use crate::state::{Core, Loc, Step};

/// The byte fresh shared memory is filled with (reading it before writing
/// gives `0xCDCDCDCD`-style values, as in debug allocators).
pub const POISON: u8 = 0xCD;

/// A heap allocation standing for one shared-memory variable of one block.
pub(crate) struct Buf {
    ptr: NonNull<u8>,
    len: usize,
    layout: Layout,
}

impl Buf {
    /// `len` poisoned bytes aligned to `align` (at least 16, like the GPU's
    /// shared window; always a non-empty allocation).
    fn new(len: usize, align: usize) -> Buf {
        let layout = Layout::from_size_align(len.max(1), align.max(16))
            .expect("shared-memory layout (size overflow or bad alignment)");
        // SAFETY: the layout has a non-zero size.
        let p = unsafe { alloc(layout) };
        let Some(ptr) = NonNull::new(p) else {
            std::alloc::handle_alloc_error(layout)
        };
        // SAFETY: `ptr` is a fresh allocation of `layout.size()` bytes.
        unsafe { ptr.as_ptr().write_bytes(POISON, layout.size()) };
        Buf { ptr, len, layout }
    }

    pub fn ptr(&self) -> *mut u8 {
        self.ptr.as_ptr()
    }

    /// The offset of `p` inside this buffer (the start of an empty buffer
    /// counts as inside).
    fn offset_of(&self, p: *mut u8) -> Option<usize> {
        let (start, p) = (self.ptr.as_ptr() as usize, p as usize);
        (p >= start && (p < start + self.len || p == start)).then(|| p - start)
    }
}

impl Drop for Buf {
    fn drop(&mut self) {
        // SAFETY: allocated in `Buf::new` with this layout, freed once.
        unsafe { dealloc(self.ptr.as_ptr(), self.layout) }
    }
}

/// Which of a block's buffers a pointer is in.
#[derive(Clone, Copy, Debug)]
pub(crate) enum Which {
    Dynamic,
    Static {
        key: &'static str,
        bytes: usize,
        align: usize,
    },
}

/// A block's shared memory.
pub(crate) struct SharedMem {
    dynamic: Buf,
    statics: Vec<(&'static str, usize, Buf)>,
    static_bytes: usize,
}

impl SharedMem {
    pub fn new(dynamic_bytes: usize) -> SharedMem {
        SharedMem {
            dynamic: Buf::new(dynamic_bytes, 16),
            statics: Vec::new(),
            static_bytes: 0,
        }
    }

    pub fn dynamic(&self) -> (*mut u8, usize) {
        (self.dynamic.ptr(), self.dynamic.len)
    }

    fn find_static(&self, key: &'static str) -> Option<&(&'static str, usize, Buf)> {
        self.statics
            .iter()
            .find(|(k, _, _)| std::ptr::eq(*k, key) || *k == key)
    }

    /// The buffer of `p`, and `p`'s offset in it.
    pub fn locate(&self, p: *mut u8) -> Option<(Which, usize)> {
        if let Some(off) = self.dynamic.offset_of(p) {
            return Some((Which::Dynamic, off));
        }
        self.statics.iter().find_map(|(key, align, buf)| {
            buf.offset_of(p).map(|off| {
                let w = Which::Static {
                    key,
                    bytes: buf.len,
                    align: *align,
                };
                (w, off)
            })
        })
    }
}

/// Where a block's shared-memory buffers were, for a report made after
/// the block ended.
#[derive(Clone)]
pub(crate) struct SmemMap {
    pub idx: [u32; 3],
    /// (start, length, which); the dynamic buffer first.
    bufs: Vec<(usize, usize, Which)>,
}

impl SmemMap {
    /// As [`SharedMem::locate`] on the block's memory when it ran.
    pub fn locate(&self, p: usize) -> Option<(Which, usize)> {
        self.bufs.iter().find_map(|&(start, len, w)| {
            (p >= start && (p < start + len || p == start)).then(|| (w, p - start))
        })
    }
}

impl SharedMem {
    /// The block's buffers as a [`SmemMap`].
    pub fn map(&self, idx: [u32; 3]) -> SmemMap {
        let mut bufs = vec![(
            self.dynamic.ptr() as usize,
            self.dynamic.len,
            Which::Dynamic,
        )];
        for (key, align, buf) in &self.statics {
            let w = Which::Static {
                key,
                bytes: buf.len,
                align: *align,
            };
            bufs.push((buf.ptr() as usize, buf.len, w));
        }
        SmemMap { idx, bufs }
    }
}

impl Core {
    /// The buffer for static allocation `key` of block `b`, created on first
    /// use. Errors are messages for a misuse report.
    pub fn static_buffer(
        &mut self,
        b: u32,
        key: &'static str,
        bytes: usize,
        align: usize,
    ) -> Result<*mut u8, String> {
        let max = self.geom.max_smem_per_block;
        let dynamic = self.geom.dynamic_smem;
        let smem = &mut self.blocks[b as usize].smem;
        if let Some((_, a, buf)) = smem.find_static(key) {
            if buf.len != bytes || *a != align {
                return Err(format!(
                    "static shared allocation `{key}` requested as {bytes} bytes aligned to {align}, \
                     but it was first declared as {} bytes aligned to {a}",
                    buf.len
                ));
            }
            return Ok(buf.ptr());
        }
        if !align.is_power_of_two() {
            return Err(format!(
                "static shared allocation `{key}`: alignment {align} is not a power of two"
            ));
        }
        let total = smem.static_bytes + bytes + dynamic;
        if total > max {
            return Err(format!(
                "static shared allocation `{key}` of {bytes} bytes brings the block to {total} bytes of shared memory \
                 ({} static + {dynamic} dynamic before it), more than the device's {max} bytes per block",
                smem.static_bytes
            ));
        }
        smem.static_bytes += bytes;
        let buf = Buf::new(bytes, align);
        let p = buf.ptr();
        smem.statics.push((key, align, buf));
        Ok(p)
    }

    /// `static_shared` for the calling lane.
    pub fn static_shared(
        &mut self,
        me: u32,
        key: &'static str,
        bytes: usize,
        align: usize,
        loc: Loc,
    ) -> Step {
        let b = self.lanes[me as usize].block;
        match self.static_buffer(b, key, bytes, align) {
            Ok(p) => Step::Done(p as u64),
            Err(msg) => self.misuse(me, loc, msg),
        }
    }
}
