//! Shared memory: one dynamic buffer and one buffer per static allocation
//! site, per block, filled with a poison byte so that reads before writes
//! show up.

use std::alloc::{Layout, alloc, dealloc};
use std::ptr::NonNull;
use std::sync::atomic::{AtomicU64, Ordering};

use crate::Dim3;
use crate::state::Core;
use crate::types::{Loc, Step};

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

/// Numbers launches for [`SharedOwner`] (0 is never one).
static LAUNCHES: AtomicU64 = AtomicU64::new(1);

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
    launch: u64,
    block: [u32; 3],
    mapped: bool,
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

impl Core {
    /// Block `b`'s shared memory, as a handle made now records it.
    pub(crate) fn owner(&self, b: usize, mapped: bool) -> SharedOwner {
        SharedOwner {
            launch: self.launch,
            block: self.blocks[b].idx,
            mapped,
        }
    }

    /// Why lane `me` may not use a handle of `owner` (`what` names the use
    /// in the message): its block ended (freed on the host, undefined on
    /// the GPU), or it is another block's — which only a mapped handle of
    /// a live block of the cluster may reach, and never when `own` asks
    /// for the lane's own block (a copy's destination). `None` when it may.
    pub(crate) fn owner_error(
        &self,
        me: u32,
        owner: SharedOwner,
        own: bool,
        what: &str,
    ) -> Option<String> {
        let b = self.lanes[me as usize].block as usize;
        let here = &self.blocks[b];
        if owner.launch == self.launch && owner.block == here.idx {
            return None;
        }
        let (x, y) = (Dim3::from(owner.block), Dim3::from(here.idx));
        // Only a block of this unit can still be running.
        let found = (owner.launch == self.launch)
            .then(|| self.blocks.iter().position(|k| k.idx == owner.block))
            .flatten()
            .map(|o| &self.blocks[o]);
        let ended = format!(
            "{what}: a shared-memory handle of block {x} used after that block ended (a block's \
             shared memory lives only as long as the block: a handle must not outlive it)"
        );
        let from = || {
            format!(
                "{what}: a shared-memory handle of block {x} used from block {y} (a handle \
                 belongs to the block that made it; a cluster peer's array is reached through \
                 map_shared_array)"
            )
        };
        let msg = match found {
            Some(o) if o.cluster == here.cluster && owner.mapped => {
                if own {
                    format!(
                        "{what}: a shared-memory handle of block {x}, a peer in the cluster, used \
                         in block {y}: it must be the calling block's own shared memory"
                    )
                } else if o.live == 0 {
                    format!(
                        "{what}: a distributed shared memory handle of block {x} used after that \
                         block exited (keep a cluster barrier between the last access to a \
                         peer's shared memory and the peer's end; PTX: undefined behaviour)"
                    )
                } else {
                    return None;
                }
            }
            Some(o) if o.live == 0 => ended,
            Some(_) => from(),
            // A cluster of a cooperative launch run in segments: the block
            // may be running in another cluster's unit.
            None if owner.launch == self.launch && self.coop.is_some() => from(),
            None => ended,
        };
        Some(msg)
    }

    /// Scratch memory of `len` bytes aligned to `align`, for a lane that
    /// unwinds (see the `scratch` field): alive until the launch's state
    /// is dropped, after every lane.
    pub(crate) fn scratch(&mut self, len: usize, align: usize) -> *mut u8 {
        let align = align.max(16);
        if let Some(b) = self
            .scratch
            .iter()
            .find(|b| b.len >= len && b.layout.align() >= align)
        {
            return b.ptr();
        }
        let b = Buf::new(len, align);
        let p = b.ptr();
        self.scratch.push(b);
        p
    }

    /// A lane's check of an access of `len` bytes at `p` through a handle
    /// of `owner` (`write`: a store), `what` naming it: the misuse report
    /// of [`owner_error`](Self::owner_error), then the copies in flight
    /// (`async_check_access`).
    pub fn shared_access(
        &mut self,
        me: u32,
        owner: SharedOwner,
        (p, len): (*const u8, usize),
        write: bool,
        what: &str,
        loc: Loc,
    ) -> Step {
        if let Some(msg) = self.owner_error(me, owner, false, what) {
            return self.misuse(me, loc, msg);
        }
        let verb = if write { "writes" } else { "reads" };
        self.async_check_access(me, p, len, verb, loc)
    }

    /// A lane's check of a handle of `owner` that must reach the lane's own
    /// block (`what` names the use: a copy's destination).
    pub fn shared_own(&mut self, me: u32, owner: SharedOwner, what: &str, loc: Loc) -> Step {
        match self.owner_error(me, owner, true, what) {
            Some(msg) => self.misuse(me, loc, msg),
            None => Step::Done(0),
        }
    }

    /// Whether an unwinding lane may use a handle of `owner` (`own`: as
    /// [`shared_own`](Self::shared_own)): where a report would have
    /// stopped it, it skips the access instead (it runs on to its end).
    pub(crate) fn shared_reachable(&self, me: u32, owner: SharedOwner, own: bool) -> bool {
        self.owner_error(me, owner, own, "").is_none()
    }
}
