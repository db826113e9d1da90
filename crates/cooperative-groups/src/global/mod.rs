//! Typed global memory: kernel parameters that make kernels safe.
//!
//! A kernel whose parameters are all typed — [`GlobalSlice`] (read-only),
//! [`OwnedSlice`] (written by ownership), [`AtomicSlice`] (atomics),
//! [`Pitched`]/[`OwnedPitched`] (2-D), scalars and `Pod` structs that are
//! [`SafeParam`] — is a safe function: its body needs no `unsafe`, and
//! `cg-runtime` launches it with a safe call that takes the runtime's
//! buffers directly (`&input`, `&mut output`), so the borrow checker keeps
//! a written buffer from being passed twice. A raw pointer parameter makes
//! the kernel an `unsafe fn` and its launch `unsafe` (`launch_unchecked`).
//!
//! # Ownership follows the groups
//!
//! An [`OwnedSlice`]'s elements each belong to one thread of the launch,
//! as its [partition](Partition) says; a thread writes only through an
//! [`Elem`], a witness it gets from its own identity (the hardware's thread
//! and block indices) and can neither forge nor hand to another thread. So
//! two threads never write one element — by construction, on the GPU as on
//! the simulator. What ownership cannot express goes through an
//! [`AtomicSlice`], or through the `unsafe`
//! [`store_unchecked`](OwnedSlice::store_unchecked) whose documentation
//! states the promise.
//!
//! | pattern | parameter | the thread's elements |
//! |---|---|---|
//! | one element per thread | `OwnedSlice<T>` | [`out.at(&grid)`](OwnedSlice::at) |
//! | a grid-stride loop | `OwnedSlice<T>` | [`out.grid_stride(&grid)`](OwnedSlice::grid_stride) |
//! | `N` contiguous elements per thread | `OwnedSlice<T, Chunked<N>>` | [`out.chunk(&grid)`](OwnedSlice::chunk) |
//! | one result per block, by its leader | `OwnedSlice<T, PerBlock>` | [`out.leader(&block)`](OwnedSlice::leader) |
//! | one result per tile (warp), by its leader | `OwnedSlice<T, PerTile<32>>` | [`out.leader(&tile)`](OwnedSlice::leader) |
//! | a window per block (tile), striped over its members | `OwnedSlice<T, PerBlock<W>>` | [`out.window(&block).striped()`](Window::striped) |
//! | a block store's tile, striped (`Striped`, `Transpose`) | `OwnedSlice<T, PerBlock<{ B * I }>>` | [`store_window(out.window(&block), items)`](crate::primitives::BlockStore::store_window) |
//! | a block store's tile, blocked (`Direct`, `Vectorize`) | `OwnedSlice<T, Chunked<I>>` | [`store_chunk(out.chunk(&grid), items)`](crate::primitives::BlockStore::store_chunk) |
//! | an in-place update | `OwnedSlice<T>` (any partition) | [`e.update(f)`](Elem::update), [`e.load()`](Elem::load) |
//! | a 2-D image | `OwnedPitched<T>` | [`img.at(&grid)`](OwnedPitched::at) |
//! | a row of run-time width per block (warp, tile) | `OwnedPitched<T, BlockRows>` (`TileRows<32>`) | [`out.row(&block)`](OwnedPitched::row), [`out.row_stride(&warp)`](OwnedPitched::row_stride), then [`row.striped()`](Row::striped) |
//! | a row of run-time width per warp (block), 16-byte stores | `OwnedPitched<T, TileRows<32, 4>>` (`BlockRows<4>`) | [`row.striped_vec()`](Row::striped_vec) (a [`VecElem2d`] per `V` elements), [`row.tail()`](Row::tail) |
//! | a row per thread | `OwnedPitched<T, ThreadRows>` | [`out.row_stride(&grid)`](OwnedPitched::row_stride) |
//! | a `TM × TN` register tile per thread | `OwnedPitched<T, ThreadTiles<TM, TN>>` | [`out.tile(&grid)`](OwnedPitched::tile), [`tile.store_all(&acc)`](ThreadTile::store_all) |
//! | block-strided (tile-strided) windows or elements | `OwnedSlice<T, PerBlock<W>>` | [`out.windows(&block)`](OwnedSlice::windows) |
//! | a scatter (histogram, counters) | `AtomicSlice<T>` | [`bins.at(i)`](AtomicSlice::at) |
//!
//! Reads take any element: [`GlobalSlice::load`] (`ld.global.nc`: nothing
//! writes an input during its launch), [`OwnedSlice::load`] (`ld.global`:
//! another thread's element once a synchronisation orders its write before
//! the read — the simulator's race detector reports a read that nothing
//! orders, across blocks too).
//!
//! # Bounds
//!
//! Every index is checked: past the end, a `trap` on the GPU; on the
//! simulator, a report naming the parameter, the index, the length, the
//! block, the thread and the line ([`SimError::OutOfBounds`](cg_sim::SimError)).
//! The witnesses' indices are in bounds by construction, so writes through
//! them carry no check, and neither do the loads of a grid-stride loop's own
//! element; `load_unchecked` drops the check where the caller can promise it.
//!
//! # The patterns, each a kernel
//!
//! One element per thread, and its grid-stride form:
//!
//! ```
//! use cooperative_groups::prelude::*;
//! use cooperative_groups::{kernel, GlobalSlice, OwnedSlice};
//!
//! #[kernel]
//! pub fn add_one(x: GlobalSlice<u32>, y: OwnedSlice<u32>) {
//!     if let Some(e) = y.at(&this_grid()) {
//!         e.store(x.load(e.index()) + 1);
//!     }
//! }
//!
//! #[kernel]
//! pub fn add_one_strided(x: GlobalSlice<u32>, y: OwnedSlice<u32>) {
//!     for e in y.grid_stride(&this_grid()) {
//!         e.store(x.load(e.index()) + 1);
//!     }
//! }
//!
//! let x: Vec<u32> = (0..1000).collect();
//! let (mut a, mut b) = (vec![0; 1000], vec![0; 1000]);
//! let run = cooperative_groups::host::run;
//! run(&ADD_ONE, &cg_sim::LaunchConfig::new(8, 128), (&x[..], &mut a[..])).unwrap();
//! run(&ADD_ONE_STRIDED, &cg_sim::LaunchConfig::new(2, 64), (&x[..], &mut b[..])).unwrap();
//! assert!(a.iter().zip(&b).enumerate().all(|(i, (&a, &b))| a == i as u32 + 1 && b == a));
//! ```
//!
//! Four contiguous elements per thread, and one total per block by its leader:
//!
//! ```
//! use cooperative_groups::prelude::*;
//! use cooperative_groups::{kernel, Chunked, GlobalSlice, OwnedSlice, PerBlock};
//!
//! #[kernel]
//! pub fn prefix4(x: GlobalSlice<u32>, y: OwnedSlice<u32, Chunked<4>>, sums: OwnedSlice<u32, PerBlock>) {
//!     let block = this_thread_block();
//!     let chunk = y.chunk(&this_grid());
//!     let mut run = 0;
//!     for e in chunk.iter() {
//!         run += x.load(e.index());
//!         e.store(run); // the prefix sums of the thread's four
//!     }
//!     let total = reduce(&block, run, Plus);
//!     if let Some(e) = sums.leader(&block) {
//!         e.store(total);
//!     }
//! }
//!
//! let x = vec![1u32; 1024];
//! let (mut y, mut sums) = (vec![0; 1024], vec![0; 2]);
//! let cfg = cg_sim::LaunchConfig::new(2, 128);
//! cooperative_groups::host::run(&PREFIX4, &cfg, (&x[..], &mut y[..], &mut sums[..])).unwrap();
//! assert_eq!(&y[..8], &[1, 2, 3, 4, 1, 2, 3, 4]);
//! assert_eq!(sums, [512, 512]);
//! ```
//!
//! One result per warp (a tile of 32) by its leader, an in-place update,
//! and a histogram through atomics:
//!
//! ```
//! use cooperative_groups::atomic::Relaxed;
//! use cooperative_groups::prelude::*;
//! use cooperative_groups::{kernel, AtomicSlice, OwnedSlice, PerTile};
//!
//! #[kernel]
//! pub fn warp_max(v: OwnedSlice<u32>, maxima: OwnedSlice<u32, PerTile<32>>, bins: AtomicSlice<u32>) {
//!     let tile = tiled_partition::<32>(&this_thread_block());
//!     let Some(e) = v.at(&this_grid()) else { return };
//!     e.update(|x| x * 3);              // in place: the thread's own element
//!     let m = reduce(&tile, e.load(), Greater);
//!     if let Some(slot) = maxima.leader(&tile) {
//!         slot.store(m);
//!     }
//!     bins.at((e.load() % 4) as usize).red_add(1, Relaxed);
//! }
//!
//! let mut v: Vec<u32> = (0..128).collect();
//! let (mut maxima, mut bins) = (vec![0; 4], vec![0; 4]);
//! let cfg = cg_sim::LaunchConfig::new(1, 128);
//! cooperative_groups::host::run(&WARP_MAX, &cfg, (&mut v[..], &mut maxima[..], &mut bins[..])).unwrap();
//! assert_eq!(maxima, [93, 189, 285, 381]);
//! assert_eq!(bins, [32; 4]);
//! ```
//!
//! What the types reject does not compile: writing another thread's
//! element (there is no safe `store(i, v)`), sending a witness to another
//! lane by a shuffle (an [`Elem`] is not [`ShflValue`](crate::ShflValue)),
//! a leader's write from a member that is not the leader (`leader` is
//! `None` there), one buffer passed as two writable parameters (the
//! launcher's `&mut` borrows), a raw pointer parameter in a kernel launched
//! safely (`SafeArgs`). The tests under `tests/ui/` show each error.
//!
//! # What each call lowers to
//!
//! | Rust | PTX | SASS (sm_90) |
//! |---|---|---|
//! | `GlobalSlice::load`, `Pitched::load` | `ld.global.nc.b32` (`.b64`, `.v4.b32`) | `LDG.E.CONSTANT` |
//! | `OwnedSlice::load`, `Elem::load` | `ld.global.b32` | `LDG.E` |
//! | `Elem::store` | `st.global.b32` | `STG.E` |
//! | a bounds check | `setp` + a branch to `trap` | `ISETP` + `BRA` to `BPT.TRAP` |
//!
//! Each access converts its address with `cvta.to.global` inside its own
//! `asm` (ptxas folds the repeats), so the state space is explicit; the
//! zero-cost tests (`crates/cg-lab/tests/zero_cost.rs`) check the typed
//! lab kernels against their raw-pointer forms instruction for instruction.

mod atomic;
mod identity;
mod kinds;
mod owned;
mod param;
mod partition;
mod pitched;
mod rows;
mod slice;
mod tiles;

pub use atomic::AtomicSlice;
pub use kinds::{Chunked, Partition, PerBlock, PerThread, PerTile};
pub use owned::{Elem, OwnedSlice};
pub use param::{KernelParam, LaunchScope, SafeParam};
pub use partition::{Chunk, GridStride, Window, WindowOwner};
pub use pitched::{Elem2d, OwnedPitched, Partition2d, PerThread2d, Pitched};
pub use rows::{BlockRows, ElementRows, Row, ThreadRows, TileRows, VecElem2d};
pub use slice::GlobalSlice;
pub use tiles::{ThreadTile, ThreadTiles, WarpTile, WarpTiles, WarpgroupTile, WarpgroupTiles};
