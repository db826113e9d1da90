//! `memcpy_async`, `wait` and `wait_prior` on the simulator: the data of
//! every group kind, element and byte forms, aligned and misaligned
//! addresses; and the misuse a GPU would not report — reading before the
//! wait, a member that skips it, reading a stage `wait_prior` left in
//! flight — reported at this file's lines.

use std::sync::atomic::{AtomicU32, Ordering::Relaxed};

use cg_sim::{LaunchConfig, POISON, SimError};
use cooperative_groups::{
    Pod, binary_partition, coalesced_threads, memcpy_async, memcpy_async_bytes, shared_array,
    this_thread_block, tiled_partition, tiled_partition_dyn, wait, wait_prior,
};

fn device() -> cg_sim::SimDevice {
    cg_sim::SimDevice {
        stack_size: 4 << 20,
        ..Default::default()
    }
}

fn launch(blocks: u32, block: u32, kernel: &(dyn Fn() + Sync)) -> Result<(), SimError> {
    cg_sim::launch_on(&device(), &LaunchConfig::new(blocks, block), kernel).map(|_| ())
}

fn out(n: usize) -> Vec<AtomicU32> {
    (0..n).map(|_| AtomicU32::new(u32::MAX)).collect()
}

fn values(v: &[AtomicU32]) -> Vec<u32> {
    v.iter().map(|x| x.load(Relaxed)).collect()
}

/// The report's location is a line of this file, and its text says `what`.
fn assert_reported_here(e: &SimError, what: &str) -> u32 {
    let msg = e.to_string();
    assert!(msg.contains(what), "{msg}");
    let r = e.report().unwrap_or_else(|| panic!("no report: {e}"));
    let loc = r.location.as_ref().expect("a location");
    assert_eq!(loc.file, file!(), "{msg}");
    loc.line
}

/// Every group kind copies its own run of 100 words (a partial last
/// segment included) and reads it back after `wait`.
#[test]
fn every_group_kind_copies_its_elements() {
    let input: Vec<u32> = (0..1000u32).map(|i| i.wrapping_mul(2654435761)).collect();
    let got = out(5 * 128);
    launch(1, 128, &|| {
        let block = this_thread_block();
        let r = block.thread_rank() as usize;
        let buf = shared_array!(u32; 5 * 128);
        // The block: words 0..128 (dst longer than src: min of both).
        memcpy_async(&block, buf.slice(0, 128), &input[0..100]);
        wait(&block);
        if r < 100 {
            got[r].store(buf.load(r), Relaxed);
        }
        // 32-thread tiles, each 32 words.
        let t32 = tiled_partition::<32>(&block);
        let w = r / 32;
        memcpy_async(
            &t32,
            buf.slice(128 + 32 * w, 32),
            &input[200 + 32 * w..232 + 32 * w],
        );
        wait(&t32);
        got[128 + r].store(buf.load(128 + r), Relaxed);
        // 64-thread tiles (named barriers).
        let t64 = tiled_partition::<64>(&block);
        let h = r / 64;
        memcpy_async(
            &t64,
            buf.slice(256 + 64 * h, 64),
            &input[400 + 64 * h..464 + 64 * h],
        );
        wait(&t64);
        got[256 + r].store(buf.load(256 + r), Relaxed);
        // Dynamic tiles of 8.
        let t8 = tiled_partition_dyn(&block, 8);
        let e = r / 8;
        memcpy_async(
            &t8,
            buf.slice(384 + 8 * e, 8),
            &input[600 + 8 * e..608 + 8 * e],
        );
        wait_prior::<0>(&t8);
        got[384 + r].store(buf.load(384 + r), Relaxed);
        // Coalesced groups: the odd and the even lanes of each warp.
        let half = binary_partition(&t32, r % 2 == 1);
        let c = coalesced_threads();
        assert_eq!(c.num_threads(), 32);
        let base = 512 + 32 * w + 16 * (r % 2);
        let from = 800 + 32 * w + 16 * (r % 2);
        memcpy_async(&half, buf.slice(base, 16), &input[from..from + 16]);
        wait(&half);
        block.sync();
        got[512 + r].store(buf.load(512 + r), Relaxed);
    })
    .unwrap_or_else(|e| panic!("{e}"));
    let g = values(&got);
    assert_eq!(g[..100], input[..100]);
    assert_eq!(g[128..256], input[200..328]);
    assert_eq!(g[256..384], input[400..528]);
    assert_eq!(g[384..512], input[600..728]);
    assert_eq!(g[512..640], input[800..928]);
}

/// The byte form copies exactly `bytes` bytes; the rest of the
/// destination keeps the simulator's poison.
#[test]
fn byte_count_copies_exactly_those_bytes() {
    let input: Vec<u8> = (0..64u8).collect();
    let got = out(64);
    launch(1, 32, &|| {
        let block = this_thread_block();
        let buf = shared_array!(u8; 64);
        memcpy_async_bytes(&block, buf.as_slice(), &input, 37);
        wait(&block);
        for i in [
            block.thread_rank() as usize,
            32 + block.thread_rank() as usize,
        ] {
            got[i].store(buf.load(i) as u32, Relaxed);
        }
    })
    .unwrap_or_else(|e| panic!("{e}"));
    let g = values(&got);
    for (i, &v) in g.iter().enumerate() {
        let want = if i < 37 { i as u32 } else { POISON as u32 };
        assert_eq!(v, want, "byte {i}");
    }
}

#[test]
fn more_bytes_than_fit_is_a_violation() {
    let input = [0u32; 4];
    let e = launch(1, 32, &|| {
        let buf = shared_array!(u32; 8);
        memcpy_async_bytes(&this_thread_block(), buf.as_slice(), &input, 17);
    })
    .unwrap_err();
    assert!(e.to_string().contains("17 bytes do not fit"), "{e}");
}

/// Misaligned sources and destinations take the slow paths (4-byte
/// segments with a synchronous head and tail; bytes only) and still copy
/// the right data, for every offset pair.
#[test]
fn misaligned_pointers_copy_correct_data() {
    let words: Vec<u32> = (0..300u32).map(|i| i * 3 + 1).collect();
    let bytes: Vec<u8> = (0..300u32).map(|i| (i * 7 + 3) as u8).collect();
    for (so, d) in [(0usize, 0usize), (1, 0), (0, 1), (3, 2), (2, 2), (1, 3)] {
        let gw = out(200);
        let gb = out(200);
        launch(1, 64, &|| {
            let block = this_thread_block();
            let r = block.thread_rank() as usize;
            let w = shared_array!(u32; 256);
            let b = shared_array!(u8; 256);
            // Words: relative offsets of 4, 8, 12 bytes.
            memcpy_async(&block, w.slice(d, 200), &words[so..so + 200]);
            // Bytes: every relative offset.
            memcpy_async(&block, b.slice(d, 200), &bytes[so..so + 200]);
            wait(&block);
            for i in (r..200).step_by(64) {
                gw[i].store(w.load(d + i), Relaxed);
                gb[i].store(b.load(d + i) as u32, Relaxed);
            }
        })
        .unwrap_or_else(|e| panic!("offsets ({so}, {d}): {e}"));
        assert_eq!(values(&gw), words[so..so + 200], "words ({so}, {d})");
        let want: Vec<u32> = bytes[so..so + 200].iter().map(|&x| x as u32).collect();
        assert_eq!(values(&gb), want, "bytes ({so}, {d})");
    }
}

/// An element type aligned to 16 bytes takes the compile-time path.
#[test]
fn sixteen_byte_elements_copy() {
    #[derive(Clone, Copy, Debug, PartialEq)]
    #[repr(C, align(16))]
    struct V([u32; 4]);
    // SAFETY: four u32, no padding.
    unsafe impl Pod for V {}
    let input: Vec<V> = (0..40u32).map(|i| V([i, i + 1, i * i, !i])).collect();
    let got = out(40 * 4);
    launch(1, 32, &|| {
        let block = this_thread_block();
        let buf = shared_array!(V; 40);
        memcpy_async(&block, buf.as_slice(), &input);
        wait(&block);
        for i in (block.thread_rank() as usize..40).step_by(32) {
            let v = buf.load(i);
            for k in 0..4 {
                got[4 * i + k].store(v.0[k], Relaxed);
            }
        }
    })
    .unwrap_or_else(|e| panic!("{e}"));
    let want: Vec<u32> = input.iter().flat_map(|v| v.0).collect();
    assert_eq!(values(&got), want);
}

/// Reading the destination before `wait` is reported at the read.
#[test]
fn reading_before_wait_is_reported() {
    let input = vec![7u32; 64];
    let line = line!() + 6;
    let e = launch(1, 32, &|| {
        let block = this_thread_block();
        let buf = shared_array!(u32; 64);
        memcpy_async(&block, buf.as_slice(), &input);
        // The copy is in flight: the read is too early.
        let x = buf.load(block.thread_rank() as usize);
        wait(&block);
        std::hint::black_box(x);
    })
    .unwrap_err();
    let at = assert_reported_here(&e, "reads shared memory that memcpy_async");
    assert_eq!(at, line, "{e}");
    assert!(e.to_string().contains("still copying"), "{e}");
}

/// A member that skips `wait` (and exits) is reported at its copy's line.
#[test]
fn a_member_skipping_wait_is_reported() {
    let input = vec![1u32; 64];
    let line = line!() + 4;
    let e = launch(1, 64, &|| {
        let block = this_thread_block();
        let buf = shared_array!(u32; 64);
        memcpy_async(&block, buf.as_slice(), &input);
        if block.thread_rank() == 5 {
            return; // skips wait
        }
        wait(&block);
        std::hint::black_box(buf.load(block.thread_rank() as usize));
    })
    .unwrap_err();
    let at = assert_reported_here(&e, "never waited for");
    assert_eq!(at, line, "{e}");
    assert!(e.to_string().contains("thread (5,0,0)"), "{e}");
}

/// Four stages in flight: each `wait_prior::<N>` delivers exactly the
/// stages older than the newest `N`.
#[test]
fn wait_prior_delivers_the_older_stages() {
    let input: Vec<u32> = (0..4 * 64).collect();
    let got = out(4 * 64);
    launch(1, 64, &|| {
        let block = this_thread_block();
        let r = block.thread_rank() as usize;
        let buf = shared_array!(u32; 4 * 64);
        for s in 0..4 {
            memcpy_async(&block, buf.slice(64 * s, 64), &input[64 * s..64 * s + 64]);
        }
        wait_prior::<3>(&block);
        got[r].store(buf.load(r), Relaxed);
        wait_prior::<2>(&block);
        got[64 + r].store(buf.load(64 + r), Relaxed);
        wait_prior::<1>(&block);
        got[128 + r].store(buf.load(128 + r), Relaxed);
        wait(&block);
        got[192 + r].store(buf.load(192 + r), Relaxed);
    })
    .unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(values(&got), input);
}

/// Reading a stage that `wait_prior` left in flight is reported.
#[test]
fn reading_a_stage_still_in_flight_is_reported() {
    let input: Vec<u32> = (0..3 * 32).collect();
    let line = line!() + 9;
    let e = launch(1, 32, &|| {
        let block = this_thread_block();
        let r = block.thread_rank() as usize;
        let buf = shared_array!(u32; 3 * 32);
        for s in 0..3 {
            memcpy_async(&block, buf.slice(32 * s, 32), &input[32 * s..32 * s + 32]);
        }
        wait_prior::<2>(&block); // stage 0 only
        let x = buf.load(32 + r); // stage 1: still in flight
        wait(&block);
        std::hint::black_box(x);
    })
    .unwrap_err();
    assert_eq!(assert_reported_here(&e, "still copying"), line, "{e}");
}

/// Copying into a buffer whose previous copy has not landed is reported.
#[test]
fn refilling_a_buffer_in_flight_is_reported() {
    let input = vec![3u32; 32];
    let e = launch(1, 32, &|| {
        let block = this_thread_block();
        let buf = shared_array!(u32; 32);
        memcpy_async(&block, buf.as_slice(), &input);
        memcpy_async(&block, buf.as_slice(), &input);
        wait(&block);
    })
    .unwrap_err();
    assert_reported_here(&e, "an earlier memcpy_async");
}

/// The lab's staged kernels (`cg-lab compare --only memcpy_async`) on the
/// simulator: a partial last tile and a tail of `n % 4` floats, with a
/// 16-aligned and a misaligned input (the `f32` and plain fallbacks; the
/// plain kernel's vector and scalar paths; the bulk copies' tail stored by
/// thread 0, and their rings of 2 and 3 stages; the pipeline's producer
/// warp and consumers).
#[test]
fn lab_staged_kernels_sum_exactly() {
    use cg_kernels::memcpy_async::{
        BLOCK, PIPE_BLOCK, PIPE_STAGES, SMEM_BYTES, STAGED_ASYNC, STAGED_ASYNC_V4, STAGED_BULK,
        STAGED_BULK_3, STAGED_PIPELINED, STAGED_PLAIN, TILE, bulk_smem,
    };
    // 14 tiles over 3 blocks: up to 5 trips per block, so the rings of
    // 2 and 3 stages wrap (every barrier's second phase, parity 1).
    let n = 13 * TILE + 7;
    // One spare float in front, so the input can start 4 bytes off 16.
    let mut store = vec![0f32; n + 8];
    let base = store.as_ptr().align_offset(16); // first 16-aligned index
    for offset in [base, base + 1] {
        for (i, x) in store[offset..offset + n].iter_mut().enumerate() {
            *x = (i % 16 + 1) as f32;
        }
        let want: f64 = store[offset..offset + n].iter().map(|&x| x as f64).sum();
        for (k, smem, threads) in [
            (STAGED_ASYNC, SMEM_BYTES, BLOCK),
            (STAGED_ASYNC_V4, SMEM_BYTES, BLOCK),
            (STAGED_BULK, bulk_smem(2), BLOCK),
            (STAGED_BULK_3, bulk_smem(3), BLOCK),
            (STAGED_PLAIN, SMEM_BYTES, BLOCK),
            (STAGED_PIPELINED, bulk_smem(PIPE_STAGES as u32), PIPE_BLOCK),
        ] {
            let mut partial = vec![f32::NAN; 3];
            let (i, p) = (
                store[offset..].as_ptr() as usize,
                partial.as_mut_ptr() as usize,
            );
            let cfg = LaunchConfig::new(3, threads).with_dynamic_smem(smem);
            // The plain kernel reads through `GlobalSlice` views of the
            // input: registered as the launch's region, as cg-runtime's
            // launches register their buffers.
            // SAFETY: `n` floats of `store` from `offset`, which outlives
            // the launch and which nothing writes while it runs.
            let input = unsafe { cg_sim::Region::new("input", i, 4 * n, 4, false) };
            // Past 48 KiB (the three-stage ring with the block's static
            // scratch) a block needs the opt-in cg-runtime makes on a GPU.
            let dev = cg_sim::SimDevice {
                max_smem_per_block: 227 * 1024,
                ..device()
            };
            let kernel = || {
                // SAFETY: `n` floats of `store` from `offset`, one partial per block.
                (unsafe { k.host_fn_unchecked() })((i as *const f32, p as *mut f32, n as u32))
            };
            // SAFETY: the region is `store`'s, alive and unwritten for the
            // launch.
            unsafe { cg_sim::launch_with(&dev, &cfg, &[input], &kernel) }
                .unwrap_or_else(|e| panic!("{} offset {offset}: {e}", k.name()));
            let got: f64 = partial.iter().map(|&x| x as f64).sum();
            assert_eq!(got, want, "{} offset {offset}", k.name());
        }
    }
}

/// `wait` waits for the caller's own copies and then syncs the group it is
/// given (as CUDA's `cg::wait`: `cp.async.wait_group` + `group.sync()`).
/// The block copies 64 words (16-byte segments: threads 0-15, warp 0, copy
/// them all); every thread then reads the word 32 places on. After
/// `wait(&block)` that is clean. After `wait(&warp)` only the warp is
/// synchronised: the second warp reads words the first warp's threads
/// copied, with no edge from their wait — a data race naming the copy and
/// the read.
#[test]
fn wait_orders_the_copies_of_the_group_it_syncs_only() {
    let input: Vec<u32> = (0..64).collect();
    let run = |whole_block: bool, copy_line: &AtomicU32, read_line: &AtomicU32| {
        launch(1, 64, &|| {
            let block = this_thread_block();
            let warp = tiled_partition::<32>(&block);
            let r = block.thread_rank() as usize;
            let buf = shared_array!(u32; 64);
            copy_line.store(line!() + 1, Relaxed);
            memcpy_async(&block, buf.slice(0, 64), &input);
            if whole_block {
                wait(&block);
            } else {
                wait(&warp);
            }
            read_line.store(line!() + 1, Relaxed);
            let v = buf.load((r + 32) % 64);
            assert_eq!(v, ((r + 32) % 64) as u32);
        })
    };
    let (c, l) = (AtomicU32::new(0), AtomicU32::new(0));
    run(true, &c, &l).unwrap_or_else(|e| panic!("wait(&block): {e}"));
    let e = run(false, &c, &l).expect_err("wait(&warp) then reading the other warp's words");
    let SimError::DataRace(r) = &e else {
        panic!("expected a data race, got:\n{e}")
    };
    assert!(
        r.summary.contains("cp.async write of its destination"),
        "{r}"
    );
    let mut lines: Vec<u32> = r.race_accesses().iter().map(|a| a.location.line).collect();
    lines.sort_unstable();
    let mut want = [c.load(Relaxed), l.load(Relaxed)];
    want.sort_unstable();
    assert_eq!(lines, want, "{r}");
    assert!(
        r.race_accesses().iter().all(|a| a.location.file == file!()),
        "{r}"
    );
}
