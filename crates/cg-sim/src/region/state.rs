//! A kernel parameter's global memory as the launcher registers it. Below
//! the unit that holds the launch's regions; the checks are `region`'s.

/// A kernel parameter's global memory: `bytes` bytes at `addr`, elements of
/// `elem` bytes, named `name` in reports, writable by the kernel or not.
///
/// A region is what the simulator trusts: every typed access that falls
/// inside one of the launch's regions touches that memory as it is, so
/// whoever names the regions of a launch ([`launch_with`](crate::launch_with),
/// [`launch_parallel`](crate::launch_parallel)) vouches for them. Its
/// fields are private and [`Region::new`] is `unsafe`, so a region cannot
/// be forged (or edited) by safe code outside this crate.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Region {
    pub(crate) name: &'static str,
    pub(crate) addr: usize,
    pub(crate) bytes: usize,
    pub(crate) elem: usize,
    pub(crate) writable: bool,
}

impl Region {
    /// The region of `bytes` bytes at `addr`, elements of `elem` bytes (0
    /// if unknown), named `name` in reports (empty if unknown), `writable`
    /// by the kernel or only readable.
    ///
    /// # Safety
    /// For every launch the region is passed to, for the whole launch:
    /// the `bytes` bytes at `addr` must be valid for reads (and for
    /// writes when `writable`), initialised, and accessed by nothing but
    /// the launch's kernel (when `writable`; a read-only region may be
    /// read by others, never written); a region of a shared borrow of the
    /// host (`&[T]`) must not be `writable`. The region does not keep the
    /// memory alive: a region kept past its memory's end must not be
    /// passed to a launch.
    pub const unsafe fn new(
        name: &'static str,
        addr: usize,
        bytes: usize,
        elem: usize,
        writable: bool,
    ) -> Region {
        Region {
            name,
            addr,
            bytes,
            elem,
            writable,
        }
    }

    /// The parameter's name (empty if unknown).
    pub const fn name(&self) -> &'static str {
        self.name
    }

    /// Address of the first byte.
    pub const fn addr(&self) -> usize {
        self.addr
    }

    /// Length in bytes.
    pub const fn bytes(&self) -> usize {
        self.bytes
    }

    /// Bytes per element (0 if unknown).
    pub const fn elem(&self) -> usize {
        self.elem
    }

    /// Whether the kernel may write it.
    pub const fn writable(&self) -> bool {
        self.writable
    }

    pub(super) fn contains(&self, addr: usize, len: usize) -> bool {
        addr >= self.addr
            && addr - self.addr <= self.bytes
            && len <= self.bytes - (addr - self.addr)
    }
}
