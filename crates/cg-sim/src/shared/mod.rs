//! Shared memory: one dynamic buffer and one buffer per static allocation
//! site, per block, filled with a poison byte so that reads before writes
//! show up.

pub(crate) mod state;

use self::state::{Buf, SharedOwner};

use crate::Dim3;
use crate::types::{Loc, Step};
use crate::unit::Core;

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
