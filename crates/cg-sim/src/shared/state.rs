//! Shared memory as a block holds it: one dynamic buffer and one buffer per
//! static allocation site, filled with a poison byte so that reads before
//! writes show up; the map a report reads after the block ended; the owner
//! a shared-memory handle records. Below the unit that holds it; the
//! operations are `shared`'s.

use std::alloc::{Layout, alloc, dealloc};
use std::ptr::NonNull;
use std::sync::atomic::{AtomicU64, Ordering};

/// The byte fresh shared memory is filled with (reading it before writing
/// gives `0xCDCDCDCD`-style values, as in debug allocators).
pub const POISON: u8 = 0xCD;

/// A heap allocation standing for one shared-memory variable of one block.
pub(crate) struct Buf {
    pub(super) ptr: NonNull<u8>,
    pub(super) len: usize,
    pub(super) layout: Layout,
}

impl Buf {
    /// `len` poisoned bytes aligned to `align` (at least 16, like the GPU's
    /// shared window; always a non-empty allocation).
    pub(crate) fn new(len: usize, align: usize) -> Buf {
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
    pub(super) fn offset_of(&self, p: *mut u8) -> Option<usize> {
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
    pub(super) dynamic: Buf,
    pub(super) statics: Vec<(&'static str, usize, Buf)>,
    pub(super) static_bytes: usize,
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

    pub(super) fn find_static(&self, key: &'static str) -> Option<&(&'static str, usize, Buf)> {
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
    pub(super) bufs: Vec<(usize, usize, Which)>,
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

/// Numbers launches for [`SharedOwner`] (0 is never one).
pub(super) static LAUNCHES: AtomicU64 = AtomicU64::new(1);

/// A launch number not used before in this process.
pub(crate) fn next_launch() -> u64 {
    LAUNCHES.fetch_add(1, Ordering::Relaxed)
}

/// Whose shared memory a shared-memory handle reaches: the block that made
/// it (its launch and index), and whether it was mapped to a block of the
/// cluster (`mapa`, which lets the cluster's other blocks use it too).
///
/// The simulator's shared memory is host memory that a block's end frees,
/// and a handle is an address in it; on the GPU no handle can outlive its
/// block or reach another block in safe code, but on the host a kernel can
/// keep one (in a `Cell` of the launch closure, a `thread_local!`). A
/// library that hands out shared-memory handles records their owner here
/// ([`lane::shared_owner`](crate::lane::shared_owner)) and has every access
/// checked ([`lane::shared_access`](crate::lane::shared_access)): a handle
/// used outside the blocks it may reach is reported before it touches
/// memory.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SharedOwner {
    pub(super) launch: u64,
    pub(super) block: [u32; 3],
    pub(super) mapped: bool,
}

impl SharedOwner {
    /// The owner of a handle that names no memory (a library's placeholder
    /// for storage a primitive never touches): no lane may use it.
    pub const NOBODY: SharedOwner = SharedOwner {
        launch: 0,
        block: [0; 3],
        mapped: false,
    };
}
