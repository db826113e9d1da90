//! The ownership promise, driven at random through the public safe API:
//! launch shapes of one to three dimensions (partial warps and partial
//! tiles included), every partition of `OwnedSlice`, and slices of any
//! length. Each thread writes its grid rank + 1 into every element the API
//! gives it, so after the launch each element holds the rank of the one
//! thread the partition's documented rule names (or 0 where no thread of
//! the launch owns it); a second writer would be a race the simulator
//! reports, and the launch would fail. The slice sits between guard words
//! that no launch may touch, and indices past the end of an input are
//! reports, never reads.

use cg_sim::{Dim3, LaunchConfig, SimError};
use cooperative_groups::host::run;
use cooperative_groups::prelude::*;
use cooperative_groups::{Chunked, GlobalSlice, OwnedSlice, PerBlock, PerTile, kernel};
use proptest::prelude::*;

const GUARD: u32 = 0xA5A5_5A5A;
const PAD: usize = 17;
const CHUNK: usize = 3;
const WINDOW: usize = 40;
const TILE: u32 = 8;

fn me() -> u32 {
    this_grid().thread_rank() as u32 + 1
}

#[kernel]
pub fn own_at(out: OwnedSlice<u32>) {
    if let Some(e) = out.at(&this_grid()) {
        e.store(me());
    }
}

#[kernel]
pub fn own_strided(out: OwnedSlice<u32>) {
    for e in out.grid_stride(&this_grid()) {
        e.store(me());
    }
}

#[kernel]
pub fn own_chunk(out: OwnedSlice<u32, Chunked<CHUNK>>) {
    let chunk = out.chunk(&this_grid());
    for e in chunk.iter() {
        e.store(me());
    }
}

#[kernel]
pub fn own_block_window(out: OwnedSlice<u32, PerBlock<WINDOW>>) {
    let block = this_thread_block();
    for e in out.window(&block).striped() {
        e.store(me());
    }
}

#[kernel]
pub fn own_tile_window(out: OwnedSlice<u32, PerTile<TILE, WINDOW>>) {
    let tile = tiled_partition::<TILE>(&this_thread_block());
    for e in out.window(&tile).striped() {
        e.store(me());
    }
}

#[kernel]
pub fn own_block_leader(out: OwnedSlice<u32, PerBlock>) {
    if let Some(e) = out.leader(&this_thread_block()) {
        e.store(me());
    }
}

/// Each thread reads `x[rank · k]` into its own element.
#[kernel]
pub fn gather(x: GlobalSlice<u32>, out: OwnedSlice<u32>, k: u32) {
    if let Some(e) = out.at(&this_grid()) {
        e.store(x.load(e.index() * k as usize));
    }
}

/// The grid thread rank (x fastest, blocks in grid order) of thread `t` of
/// block `b`, for blocks of `n` threads.
fn rank(b: usize, t: usize, n: usize) -> u32 {
    (b * n + t) as u32 + 1
}

/// Who owns element `i` under each partition, by the rule its docs state.
#[derive(Clone, Copy, Debug)]
enum Rule {
    At,
    Strided,
    Chunk,
    BlockWindow,
    TileWindow,
    BlockLeader,
}

fn owner(rule: Rule, i: usize, blocks: usize, n: usize) -> u32 {
    let threads = blocks * n;
    match rule {
        Rule::At => {
            if i < threads {
                i as u32 + 1
            } else {
                0
            }
        }
        Rule::Strided => (i % threads) as u32 + 1,
        Rule::Chunk => {
            if i / CHUNK < threads {
                (i / CHUNK) as u32 + 1
            } else {
                0
            }
        }
        Rule::BlockWindow => {
            let b = i / WINDOW;
            if b < blocks {
                rank(b, (i % WINDOW) % n, n)
            } else {
                0
            }
        }
        Rule::TileWindow => {
            let tile = TILE as usize;
            let per_block = n.div_ceil(tile);
            let t = i / WINDOW;
            let (b, k, m) = (t / per_block, t % per_block, (i % WINDOW) % tile);
            if b < blocks && k * tile + m < n {
                rank(b, k * tile + m, n)
            } else {
                0
            }
        }
        Rule::BlockLeader => {
            if i < blocks {
                rank(i, 0, n)
            } else {
                0
            }
        }
    }
}

fn shape() -> impl Strategy<Value = (Dim3, Dim3)> {
    let grid = (1u32..4, 1u32..3, 1u32..3).prop_map(|(x, y, z)| Dim3::new(x, y, z));
    let block = (1u32..40, 1u32..4, 1u32..3).prop_map(|(x, y, z)| Dim3::new(x, y, z));
    (grid, block)
}

/// Runs `launch` on a slice of `len` words between guards; returns the
/// slice, after checking the guards.
fn guarded(len: usize, launch: impl FnOnce(&mut [u32]) -> Result<(), SimError>) -> Vec<u32> {
    let mut buf = vec![GUARD; PAD + len + PAD];
    buf[PAD..PAD + len].fill(0);
    if let Err(e) = launch(&mut buf[PAD..PAD + len]) {
        panic!("a safe launch failed: {e}");
    }
    assert!(
        buf[..PAD].iter().all(|&w| w == GUARD),
        "a guard word before the slice changed"
    );
    assert!(
        buf[PAD + len..].iter().all(|&w| w == GUARD),
        "a guard word after the slice changed"
    );
    buf[PAD..PAD + len].to_vec()
}

fn check(rule: Rule, out: &[u32], blocks: usize, n: usize) -> Result<(), TestCaseError> {
    for (i, &w) in out.iter().enumerate() {
        prop_assert_eq!(w, owner(rule, i, blocks, n), "{:?}: element {}", rule, i);
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 64, ..ProptestConfig::default() })]

    #[test]
    fn every_element_has_the_one_owner_its_partition_names((grid, block) in shape(), len in 0usize..400) {
        let cfg = LaunchConfig::new(grid, block);
        let (blocks, n) = (grid.volume() as usize, block.volume() as usize);
        let out = guarded(len, |s| run(&OWN_AT, &cfg, (s,)).map(drop));
        check(Rule::At, &out, blocks, n)?;
        let out = guarded(len, |s| run(&OWN_STRIDED, &cfg, (s,)).map(drop));
        check(Rule::Strided, &out, blocks, n)?;
        let out = guarded(len, |s| run(&OWN_CHUNK, &cfg, (s,)).map(drop));
        check(Rule::Chunk, &out, blocks, n)?;
        let out = guarded(len, |s| run(&OWN_BLOCK_WINDOW, &cfg, (s,)).map(drop));
        check(Rule::BlockWindow, &out, blocks, n)?;
        if n >= TILE as usize {
            let out = guarded(len, |s| run(&OWN_TILE_WINDOW, &cfg, (s,)).map(drop));
            check(Rule::TileWindow, &out, blocks, n)?;
        } else {
            // A tile larger than the block is refused (a report), nothing written.
            let mut buf = vec![0u32; len];
            let e = run(&OWN_TILE_WINDOW, &cfg, (&mut buf[..],)).unwrap_err().to_string();
            prop_assert!(e.contains("larger than the block"), "{}", e);
            prop_assert!(buf.iter().all(|&w| w == 0));
        }
        let out = guarded(len, |s| run(&OWN_BLOCK_LEADER, &cfg, (s,)).map(drop));
        check(Rule::BlockLeader, &out, blocks, n)?;
    }

    #[test]
    fn reads_past_an_input_are_reports((grid, block) in shape(), xlen in 1usize..300, k in 0u32..4) {
        let cfg = LaunchConfig::new(grid, block);
        let threads = (grid.volume() * block.volume()) as usize;
        let x: Vec<u32> = (0..xlen as u32).map(|v| v * 3 + 1).collect();
        let mut out = vec![0u32; threads];
        let past = (0..threads).any(|i| i * k as usize >= xlen);
        match run(&GATHER, &cfg, (&x[..], &mut out[..], k)) {
            Ok(_) => {
                prop_assert!(!past, "an index past the input was read");
                for (i, &w) in out.iter().enumerate() {
                    prop_assert_eq!(w, x[i * k as usize]);
                }
            }
            Err(e) => {
                prop_assert!(past, "a launch within bounds failed: {}", e);
                let text = e.to_string();
                prop_assert!(text.contains("soundness_random.rs"), "{}", text);
            }
        }
    }
}
