//! The device-wide selections (`device_select`: flagged, by predicate,
//! unique) on the simulator against the sequential model: partial last
//! tiles, empty inputs, nothing and everything selected, runs across warp
//! and tile boundaries, consecutive launches on the same tile states (a
//! new epoch each), inputs at 16-byte aligned addresses (whole tiles
//! staged by `memcpy_async`) and not (element by element), and random
//! cases under proptest.

use cg_kernels::device_select::{
    DEVICE_PARTITION_FLAGGED_I32, DEVICE_PARTITION_IF_I32, DEVICE_SELECT_FLAGGED_I32,
    DEVICE_SELECT_IF_I32, DEVICE_SELECT_UNIQUE_I32, PARTITION_TILE, SELECT_BLOCK, SELECT_TILE,
    partition_grid, partition_model, partition_smem, select_grid, select_model, select_smem,
    select_tiles,
};
use cg_kernels::xorshift::Xorshift;
use proptest::prelude::*;

fn dev() -> cg_sim::SimDevice {
    cg_sim::SimDevice {
        stack_size: 4 << 20,
        ..Default::default()
    }
}

/// Which selection.
#[derive(Clone, Copy, Debug)]
enum Sel {
    Flagged,
    If(i32),
    Unique,
}

/// 16-byte aligned storage for a kernel's input, placed `off` elements
/// past an aligned address (`off % 4 != 0`: not 16-byte aligned).
#[derive(Default)]
struct Aligned(Vec<u128>);

impl Aligned {
    /// A copy of `data` at element `off` of the storage; its address.
    fn place<T: Copy>(&mut self, data: &[T], off: usize) -> *const T {
        let size = std::mem::size_of::<T>();
        self.0 = vec![0; ((off + data.len()) * size).div_ceil(16) + 1];
        // SAFETY: the storage holds `(off + len) · size` bytes, `u128`-aligned
        // (16 bytes on the targets the tests run on, checked below).
        let p = unsafe { self.0.as_mut_ptr().cast::<T>().add(off) };
        assert_eq!(self.0.as_ptr() as usize % 16, 0);
        // SAFETY: `p .. p + len` lies inside the storage; `T: Copy`.
        unsafe { std::ptr::copy_nonoverlapping(data.as_ptr(), p, data.len()) };
        p
    }
}

/// The kernel's selection from `input` (and `flags`), copied to `off`
/// elements past a 16-byte aligned address, and its count, with `states`
/// and `epoch` (advanced).
fn select_at(
    sel: Sel,
    input: &[i32],
    flags: &[u8],
    off: usize,
    states: &mut Vec<u64>,
    epoch: &mut u32,
) -> Vec<i32> {
    let n = input.len() as u32;
    // One state per block (the grid has one block even for `n == 0`).
    assert!(select_grid(n) >= select_tiles(n));
    if states.len() < select_grid(n) as usize {
        states.resize(select_grid(n) as usize, 0);
    }
    *epoch += 1;
    let mut out = vec![i32::MIN; input.len()];
    let mut count = u32::MAX;
    let (mut in_store, mut flag_store) = (Aligned::default(), Aligned::default());
    let (pi, pf, po, pc, ps, e) = (
        in_store.place(input, off),
        flag_store.place(flags, off),
        out.as_mut_ptr(),
        &mut count as *mut u32,
        states.as_mut_ptr(),
        *epoch,
    );
    let flagged = matches!(sel, Sel::Flagged);
    let cfg = cg_sim::LaunchConfig::new(select_grid(n), SELECT_BLOCK)
        .with_dynamic_smem(select_smem(flagged));
    match sel {
        Sel::Flagged => {
            // SAFETY: `n` inputs, flags and outputs, one count, the tile states.
            let k = unsafe { DEVICE_SELECT_FLAGGED_I32.host_fn_unchecked() };
            cg_sim::launch_on(&dev(), &cfg, &|| k((pi, pf, po, pc, ps, n, e))).unwrap();
        }
        Sel::If(p) => {
            // SAFETY: as above.
            let k = unsafe { DEVICE_SELECT_IF_I32.host_fn_unchecked() };
            cg_sim::launch_on(&dev(), &cfg, &|| k((pi, p, po, pc, ps, n, e))).unwrap();
        }
        Sel::Unique => {
            // SAFETY: as above.
            let k = unsafe { DEVICE_SELECT_UNIQUE_I32.host_fn_unchecked() };
            cg_sim::launch_on(&dev(), &cfg, &|| k((pi, po, pc, ps, n, e))).unwrap();
        }
    }
    assert!(count as usize <= input.len(), "count {count}");
    // Past the count the output is untouched.
    assert!(out[count as usize..].iter().all(|&x| x == i32::MIN));
    out.truncate(count as usize);
    out
}

/// [`select_at`] from an aligned address.
fn select(
    sel: Sel,
    input: &[i32],
    flags: &[u8],
    states: &mut Vec<u64>,
    epoch: &mut u32,
) -> Vec<i32> {
    select_at(sel, input, flags, 0, states, epoch)
}

fn model(sel: Sel, input: &[i32], flags: &[u8]) -> Vec<i32> {
    let mut out = vec![0; input.len()];
    let m = match sel {
        Sel::Flagged => select_model(input, Some(flags), None, &mut out),
        Sel::If(p) => select_model(input, None, Some(p), &mut out),
        Sel::Unique => select_model(input, None, None, &mut out),
    };
    out.truncate(m);
    out
}

/// Runs of lengths 1..=`max_run` of values that mostly change.
fn data(n: usize, seed: u64, max_run: u64) -> (Vec<i32>, Vec<u8>) {
    let mut x = Xorshift::seeded(seed);
    let mut next = move || x.next() >> 11;
    let mut input = Vec::with_capacity(n);
    while input.len() < n {
        let v = (next() % 1000) as i32 - 500;
        for _ in 0..1 + next() % max_run {
            input.push(v);
        }
    }
    input.truncate(n);
    let flags = (0..n).map(|_| (next() % 3 == 0) as u8).collect();
    (input, flags)
}

/// The kernel's partition of `input` (flagged: `pivot` None), copied to
/// `off` elements past a 16-byte aligned address: the whole output and
/// the count.
fn partition(
    pivot: Option<i32>,
    input: &[i32],
    flags: &[u8],
    off: usize,
    epoch: &mut u32,
) -> (Vec<i32>, u32) {
    let n = input.len() as u32;
    let mut states = vec![0u64; partition_grid(n) as usize];
    *epoch += 1;
    let mut out = vec![i32::MIN; input.len()];
    let mut count = u32::MAX;
    let (mut in_store, mut flag_store) = (Aligned::default(), Aligned::default());
    let (pi, pf, po, pc, ps, e) = (
        in_store.place(input, off),
        flag_store.place(flags, off),
        out.as_mut_ptr(),
        &mut count as *mut u32,
        states.as_mut_ptr(),
        *epoch,
    );
    let cfg = cg_sim::LaunchConfig::new(partition_grid(n), SELECT_BLOCK)
        .with_dynamic_smem(partition_smem(pivot.is_none()));
    match pivot {
        None => {
            // SAFETY: `n` inputs, flags and outputs, one count, the tile states.
            let k = unsafe { DEVICE_PARTITION_FLAGGED_I32.host_fn_unchecked() };
            cg_sim::launch_on(&dev(), &cfg, &|| k((pi, pf, po, pc, ps, n, e))).unwrap();
        }
        Some(p) => {
            // SAFETY: as above.
            let k = unsafe { DEVICE_PARTITION_IF_I32.host_fn_unchecked() };
            cg_sim::launch_on(&dev(), &cfg, &|| k((pi, p, po, pc, ps, n, e))).unwrap();
        }
    }
    (out, count)
}

#[test]
fn partitions_match_the_model() {
    let mut epoch = 0;
    for n in [0usize, 1, 31, PARTITION_TILE, 3 * PARTITION_TILE + 77] {
        let (input, flags) = data(n, n as u64 + 5, 10);
        for pivot in [None, Some(-100), Some(i32::MIN), Some(i32::MAX)] {
            let mut want = vec![0; n];
            let m = partition_model(
                &input,
                pivot.is_none().then_some(&flags[..]),
                pivot,
                &mut want,
            );
            for off in [0, 1] {
                assert_eq!(
                    partition(pivot, &input, &flags, off, &mut epoch),
                    (want.clone(), m as u32),
                    "{pivot:?}, n {n}, offset {off}"
                );
            }
        }
    }
}

#[test]
fn every_selection_matches_the_model() {
    let (mut states, mut epoch) = (Vec::new(), 0u32);
    for n in [0usize, 1, 31, SELECT_TILE, 3 * SELECT_TILE + 77] {
        let (input, flags) = data(n, n as u64 + 1, 40);
        for sel in [
            Sel::Flagged,
            Sel::If(-100),
            Sel::If(i32::MIN),
            Sel::If(i32::MAX),
            Sel::Unique,
        ] {
            for off in [0, 1, 2] {
                let got = select_at(sel, &input, &flags, off, &mut states, &mut epoch);
                assert_eq!(
                    got,
                    model(sel, &input, &flags),
                    "{sel:?}, n {n}, offset {off}"
                );
            }
        }
    }
}

#[test]
fn one_long_run_is_one_unique_element() {
    let (mut states, mut epoch) = (Vec::new(), 0u32);
    let input = vec![7i32; 2 * SELECT_TILE + 5];
    assert_eq!(
        select(Sel::Unique, &input, &[], &mut states, &mut epoch),
        vec![7]
    );
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 12, ..ProptestConfig::default() })]
    #[test]
    fn random_selections(n in 0usize..3 * SELECT_TILE, seed in any::<u64>(), max_run in 1u64..100, pivot in -600i32..600) {
        let (mut states, mut epoch) = (Vec::new(), 0u32);
        let (input, flags) = data(n, seed, max_run);
        for sel in [Sel::Flagged, Sel::If(pivot), Sel::Unique] {
            prop_assert_eq!(select(sel, &input, &flags, &mut states, &mut epoch), model(sel, &input, &flags));
        }
    }
}
