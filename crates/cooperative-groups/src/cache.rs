//! Cache hints on global memory: the cache operator a load or a store of a
//! typed view takes, as a type — CUDA's `__ldcs`/`__stcs` (streaming:
//! touched once, evicted first), `__ldcg`/`__stcg` (L2 only), `__ldca`,
//! `__ldlu`, `__ldcv`, `__stwb`, `__stwt` — the eviction priorities of
//! PTX ISA 7.4 (`.L1::no_allocate`: [`L1NoAllocate`]; L2 evict-first and
//! evict-last: [`L2EvictFirst`], [`L2EvictLast`], what `cuda::annotated_ptr`
//! with `cuda::access_property::streaming` / `persisting` asks for), L2
//! cache policies (`createpolicy` + `.L2::cache_hint`: [`CachePolicy`])
//! and a prefetch into L2.
//!
//! On loads and stores of up to 16 bytes ptxas accepts the `.L2::evict_*`
//! qualifiers only on 256-bit accesses (`.v8.b32`, sm_100), so the L2
//! priorities are policies on a `.L2::cache_hint` access — one
//! `createpolicy` per kernel (it is a pure instruction, hoisted out of
//! loops) — as CUDA's `annotated_ptr` compiles.
//!
//! A hint changes where the data is cached, never what a load returns or
//! what a store writes: the simulator, which has no caches, ignores every
//! hint and policy (its bounds and race checks stay), so a kernel's
//! results are the same with and without them.
//!
//! The eviction-priority qualifiers and cache policies need PTX ISA 7.4
//! (`.L1::no_allocate` sm_70+, policies sm_80+); the crate emits them on
//! sm_90 builds (PTX ISA 8.4). Builds for older SMs target an older PTX ISA and take the nearest
//! cache operator instead: `.cg` for `L1::no_allocate` (L2 only), `.cs`
//! for `L2::evict_first`, none for `L2::evict_last` and for a policy.
//!
//! ```
//! # use cooperative_groups::prelude::*;
//! # use cooperative_groups::{kernel, GlobalSlice, OwnedSlice};
//! use cooperative_groups::cache::Streaming;
//!
//! /// `y = a·x + y` over tensors read and written once: streaming loads and
//! /// stores (`ld.global.cs`, `st.global.cs`), as a kernel built with
//! /// `__ldcs`/`__stcs` does.
//! #[kernel]
//! pub fn axpy_once(a: f32, x: GlobalSlice<f32>, y: OwnedSlice<f32>) {
//!     let x = x.prefix(y.len());
//!     for e in y.grid_stride(&this_grid()) {
//!         let v = a * x.load_hint(e.index(), Streaming) + e.load_hint(Streaming);
//!         e.store_hint(v, Streaming);
//!     }
//! }
//! # let x = vec![2.0f32; 300];
//! # let mut y = vec![1.0f32; 300];
//! # cooperative_groups::host::run(&AXPY_ONCE, &cg_sim::LaunchConfig::new(2, 64), (3.0f32, &x[..], &mut y[..])).unwrap();
//! # assert!(y.iter().all(|&v| v == 7.0));
//! ```

use crate::Pod;
use crate::arch::{self, L2Priority, LoadCache, StoreCache};

mod sealed {
    pub trait Sealed {}
}

/// A cache operator (or policy) a load may take: the hint types below and
/// [`CachePolicy`].
pub trait LoadHint: sealed::Sealed + Copy {
    /// A weak load of `p` with the hint (`ld.global.<hint>`).
    ///
    /// # Safety
    /// As [`arch::ld_global`].
    #[doc(hidden)]
    unsafe fn load<T: Pod>(self, p: *const T) -> T;

    /// A read-only load of `p` with the hint: `ld.global.nc.<hint>` for
    /// the eviction priorities, the weak load for the cache operators
    /// (which do not combine with `.nc`) and policies.
    ///
    /// # Safety
    /// As [`arch::ld_global_nc`].
    #[doc(hidden)]
    unsafe fn load_nc<T: Pod>(self, p: *const T) -> T {
        // SAFETY: a read-only location is readable (the caller's contract).
        unsafe { self.load(p) }
    }
}

/// A cache operator (or policy) a store may take: the hint types below and
/// [`CachePolicy`].
pub trait StoreHint: sealed::Sealed + Copy {
    /// A weak store of `v` to `p` with the hint (`st.global.<hint>`).
    ///
    /// # Safety
    /// As [`arch::st_global`].
    #[doc(hidden)]
    unsafe fn store<T: Pod>(self, p: *mut T, v: T);
}

macro_rules! hints {
    ($($(#[$doc:meta])* $name:ident: $(load $l:ident $(nc $nc:ident)?)? $(store $s:ident)?;)*) => { $(
        $(#[$doc])*
        #[derive(Clone, Copy, Debug, Default)]
        pub struct $name;
        impl sealed::Sealed for $name {}
        $(impl LoadHint for $name {
            #[inline(always)]
            unsafe fn load<T: Pod>(self, p: *const T) -> T {
                // SAFETY: the caller's contract.
                unsafe { arch::ld_global_cached(p, LoadCache::$l) }
            }
            $(
            #[inline(always)]
            unsafe fn load_nc<T: Pod>(self, p: *const T) -> T {
                // SAFETY: the caller's contract.
                unsafe { arch::ld_global_nc_cached(p, LoadCache::$nc) }
            }
            )?
        })?
        $(impl StoreHint for $name {
            #[inline(always)]
            unsafe fn store<T: Pod>(self, p: *mut T, v: T) {
                // SAFETY: the caller's contract.
                unsafe { arch::st_global_cached(p, v, StoreCache::$s) }
            }
        })?
    )* };
}

hints! {
    /// Streaming (`.cs`): data touched once, evicted first —
    /// `__ldcs`/`__stcs`, SASS `LDG.E.EF`/`STG.E.EF`.
    #[doc(alias = "__ldcs")]
    #[doc(alias = "__stcs")]
    Streaming: load Streaming store Streaming;
    /// Cache at the global level (`.cg`): in L2, not L1 — `__ldcg`/`__stcg`.
    #[doc(alias = "__ldcg")]
    #[doc(alias = "__stcg")]
    CacheGlobal: load Global store Global;
    /// Cache at all levels (`.ca`, a load's default) — `__ldca`.
    #[doc(alias = "__ldca")]
    CacheAll: load All;
    /// Last use (`.lu`): the line is not needed again — `__ldlu`.
    #[doc(alias = "__ldlu")]
    LastUse: load LastUse;
    /// Fetch again (`.cv`): cache nothing, read the memory — `__ldcv`.
    #[doc(alias = "__ldcv")]
    DontCache: load Volatile;
    /// Write back (`.wb`, a store's default) — `__stwb`.
    #[doc(alias = "__stwb")]
    WriteBack: store WriteBack;
    /// Write through (`.wt`) to system memory — `__stwt`.
    #[doc(alias = "__stwt")]
    WriteThrough: store WriteThrough;
    /// Do not allocate in L1 (`.L1::no_allocate`, PTX ISA 7.4): the line
    /// goes to L2 only, leaving L1 to data that is reused — SASS
    /// `LDG.E.NA`/`STG.E.NA` (`.cg` on builds below sm_90). A read-only
    /// [`GlobalSlice`](crate::GlobalSlice) load keeps `.nc`:
    /// `ld.global.nc.L1::no_allocate`.
    #[doc(alias = "L1::no_allocate")]
    #[doc(alias = "no_allocate")]
    L1NoAllocate: load L1NoAllocate nc L1NoAllocate store L1NoAllocate;
    /// Evict first from L2: data read or written once — what
    /// `cuda::annotated_ptr<T, cuda::access_property::streaming>` does,
    /// and as it does, through an `evict_first` policy
    /// ([`CachePolicy::evict_first`], made once and hoisted out of loops)
    /// on a `.L2::cache_hint` access (the `.L2::evict_first` qualifier of
    /// `ld`/`st` is for 256-bit accesses only, sm_100). `.cs` on builds
    /// below sm_90. A read-only load keeps `.nc`.
    #[doc(alias = "L2::evict_first")]
    #[doc(alias = "evict_first")]
    #[doc(alias = "cuda::access_property::streaming")]
    #[doc(alias = "annotated_ptr")]
    L2EvictFirst: load L2EvictFirst nc L2EvictFirst store L2EvictFirst;
    /// Evict last from L2: data that should stay in L2 across the kernel
    /// (a small weight matrix, a lookup table) — what
    /// `cuda::annotated_ptr<T, cuda::access_property::persisting>` does,
    /// and as it does, through an `evict_last` policy
    /// ([`CachePolicy::evict_last`]) on a `.L2::cache_hint` access (the
    /// `.L2::evict_last` qualifier of `ld`/`st` is for 256-bit accesses
    /// only, sm_100). No hint on builds below sm_90. A read-only load
    /// keeps `.nc`.
    #[doc(alias = "L2::evict_last")]
    #[doc(alias = "evict_last")]
    #[doc(alias = "cuda::access_property::persisting")]
    #[doc(alias = "annotated_ptr")]
    L2EvictLast: load L2EvictLast nc L2EvictLast store L2EvictLast;
}

/// An L2 cache policy (`createpolicy.fractional`, sm_80+): an eviction
/// priority applied to a fraction of the accesses that carry it, passed to
/// a load or a store as its hint (`ld.global.L2::cache_hint`,
/// `st.global.L2::cache_hint`) — CUDA's `cuda::access_property` (a
/// `persisting`, `streaming` or `normal` property, or one with a hit
/// ratio) applied through `cuda::annotated_ptr` / `cuda::apply_access_property`.
///
/// Make it once, outside the loop (it is one `createpolicy` instruction,
/// a 64-bit value in a register), and pass it to every access:
///
/// ```
/// # use cooperative_groups::prelude::*;
/// # use cooperative_groups::{kernel, GlobalSlice, OwnedSlice};
/// use cooperative_groups::cache::CachePolicy;
///
/// /// `y[i] = table[x[i] mod 256]`: the table is kept in L2, the stream is not.
/// #[kernel]
/// pub fn lookup(table: GlobalSlice<f32>, x: GlobalSlice<u32>, y: OwnedSlice<f32>) {
///     let keep = CachePolicy::evict_last();
///     let once = CachePolicy::evict_first();
///     let x = x.prefix(y.len());
///     for e in y.grid_stride(&this_grid()) {
///         let k = x.load_hint(e.index(), once) as usize % 256;
///         e.store_hint(table.load_hint(k, keep), once);
///     }
/// }
/// # let table: Vec<f32> = (0..256).map(|i| i as f32).collect();
/// # let x: Vec<u32> = (0..1000).collect();
/// # let mut y = vec![0.0f32; 1000];
/// # cooperative_groups::host::run(&LOOKUP, &cg_sim::LaunchConfig::new(2, 64), (&table[..], &x[..], &mut y[..])).unwrap();
/// # assert!(y.iter().enumerate().all(|(i, &v)| v == (i % 256) as f32));
/// ```
///
/// On the simulator (no caches) a policy is an inert value; on builds
/// below sm_90 the accesses are plain (see the [module](self)).
#[doc(alias = "createpolicy")]
#[doc(alias = "L2::cache_hint")]
#[doc(alias = "cuda::access_property")]
#[doc(alias = "cuda::apply_access_property")]
#[derive(Clone, Copy, Debug)]
pub struct CachePolicy(u64);

impl CachePolicy {
    /// Keep in L2 (`createpolicy.fractional.L2::evict_last.b64 p, 1.0`):
    /// `cuda::access_property::persisting`.
    #[doc(alias = "cuda::access_property::persisting")]
    #[inline(always)]
    pub fn evict_last() -> Self {
        Self::fractional(Evict::Last, 1.0)
    }

    /// Evict first (`createpolicy.fractional.L2::evict_first.b64 p, 1.0`):
    /// `cuda::access_property::streaming`.
    #[doc(alias = "cuda::access_property::streaming")]
    #[inline(always)]
    pub fn evict_first() -> Self {
        Self::fractional(Evict::First, 1.0)
    }

    /// The default priority (`createpolicy.fractional.L2::evict_normal.b64
    /// p, 1.0`): `cuda::access_property::normal`.
    #[doc(alias = "cuda::access_property::normal")]
    #[inline(always)]
    pub fn evict_normal() -> Self {
        Self::fractional(Evict::Normal, 1.0)
    }

    /// `priority` for the fraction `fraction` of the accesses, the others
    /// unchanged (`createpolicy.fractional.L2::<priority>.b64 p, fraction`):
    /// `cuda::access_property(cuda::access_property::persisting{},
    /// hit_ratio)`'s form. `fraction` is clamped into `(0, 1]`: 0 and
    /// below, or NaN, take the smallest positive fraction.
    #[inline(always)]
    pub fn fractional(priority: Evict, fraction: f32) -> Self {
        let f = if fraction > 1.0 {
            1.0
        } else if fraction > 0.0 {
            fraction
        } else {
            f32::MIN_POSITIVE
        };
        let p = match priority {
            Evict::Last => L2Priority::Last,
            Evict::Normal => L2Priority::Normal,
            Evict::First => L2Priority::First,
        };
        CachePolicy(arch::create_policy(p, f))
    }
}

/// The L2 eviction priority of a [`CachePolicy`]: `Evict::Last` is
/// `.L2::evict_last`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Evict {
    /// `.L2::evict_last`: `cuda::access_property::persisting`.
    Last,
    /// `.L2::evict_normal`: `cuda::access_property::normal`.
    Normal,
    /// `.L2::evict_first`: `cuda::access_property::streaming`.
    First,
}

impl sealed::Sealed for CachePolicy {}

impl LoadHint for CachePolicy {
    #[inline(always)]
    unsafe fn load<T: Pod>(self, p: *const T) -> T {
        // SAFETY: the caller's contract.
        unsafe { arch::ld_global_policy(p, self.0) }
    }

    #[inline(always)]
    unsafe fn load_nc<T: Pod>(self, p: *const T) -> T {
        // SAFETY: the caller's contract.
        unsafe { arch::ld_global_nc_policy(p, self.0) }
    }
}

impl StoreHint for CachePolicy {
    #[inline(always)]
    unsafe fn store<T: Pod>(self, p: *mut T, v: T) {
        // SAFETY: the caller's contract.
        unsafe { arch::st_global_policy(p, v, self.0) }
    }
}
