//! Cache hints on global memory: the cache operator a load or a store of a
//! typed view takes, as a type — CUDA's `__ldcs`/`__stcs` (streaming:
//! touched once, evicted first), `__ldcg`/`__stcg` (L2 only), `__ldca`,
//! `__ldlu`, `__ldcv`, `__stwb`, `__stwt` — and a prefetch into L2. A hint
//! changes where the data is cached, never what a load returns: the
//! simulator, which has no caches, ignores it (its bounds and race checks
//! stay).
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

use crate::arch::{LoadCache, StoreCache};

mod sealed {
    pub trait Sealed {}
}

/// A cache operator a load may take.
pub trait LoadHint: sealed::Sealed + Copy {
    /// The PTX operator.
    #[doc(hidden)]
    const OP: LoadCache;
}

/// A cache operator a store may take.
pub trait StoreHint: sealed::Sealed + Copy {
    /// The PTX operator.
    #[doc(hidden)]
    const OP: StoreCache;
}

macro_rules! hints {
    ($($(#[$doc:meta])* $name:ident: $(load $l:ident)? $(store $s:ident)?;)*) => { $(
        $(#[$doc])*
        #[derive(Clone, Copy, Debug, Default)]
        pub struct $name;
        impl sealed::Sealed for $name {}
        $(impl LoadHint for $name {
            const OP: LoadCache = LoadCache::$l;
        })?
        $(impl StoreHint for $name {
            const OP: StoreCache = StoreCache::$s;
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
}
