//! Tensor tile copies (`cooperative_groups::tma`) on the simulator: loads
//! whose boxes stick out of the tensor (zeros there, negative coordinates
//! included), a load and store round trip, and each misuse reported at
//! this file's line — reading a tile before its phase completes, writing a
//! store's source before its reads are waited for, a block exiting with a
//! store in flight, a misaligned tile, two blocks storing one box (a race);
//! and the copy engine's swizzled layouts, element by element.

use std::sync::atomic::{AtomicU32, Ordering::Relaxed};

use cg_sim::{LaunchConfig, SimError};
use cooperative_groups::host::{Image, tensor_map};
use cooperative_groups::tma::{TensorMap2d, TensorMap2dMut};
use cooperative_groups::{mbarrier, shared_array, this_thread_block};

fn launch(blocks: u32, block: u32, kernel: &dyn Fn()) -> Result<(), SimError> {
    cg_sim::launch(&LaunchConfig::new(blocks, block), kernel).map(|_| ())
}

/// The report's location is a line of this file, and its text says `what`.
fn assert_reported_here(e: &SimError, what: &str) {
    let msg = e.to_string();
    assert!(msg.contains(what), "{msg}");
    let r = e.report().unwrap_or_else(|| panic!("no report: {e}"));
    let loc = r.location.as_ref().expect("a location");
    assert_eq!(loc.file, file!(), "{msg}");
}

/// A 20 × 12 tensor of `y * 100 + x + 1`, rows 24 apart.
fn tensor() -> Vec<u32> {
    (0..12 * 24)
        .map(|i| {
            if i % 24 < 20 {
                (i / 24 * 100 + i % 24 + 1) as u32
            } else {
                0
            }
        })
        .collect()
}

fn map(data: &[u32]) -> TensorMap2d<'_, u32, 8, 4> {
    tensor_map(Image::new(data, 20, 12, 24)).unwrap()
}

/// Boxes at the corners and past the edges: what is inside the tensor
/// arrives, the rest is zeros.
#[test]
fn a_box_outside_the_tensor_arrives_as_zeros() {
    let data = tensor();
    let m = map(&data);
    let got: Vec<AtomicU32> = (0..4 * 32).map(|_| AtomicU32::new(u32::MAX)).collect();
    let corners = [(-4, -2), (16, 10), (0, 0), (24, 1)];
    launch(4, 32, &|| {
        let block = this_thread_block();
        let full = mbarrier!(&block, 1);
        let tile = shared_array!(u32; 32, align 128);
        let b = block.group_index().x as usize;
        let (x, y) = corners[b];
        if block.thread_rank() == 0 {
            // SAFETY: one 128-byte copy in flight on the phase.
            unsafe { full.arrive_copy_tile(tile.as_slice(), &m.tiles(), x, y) }.discard();
        }
        full.wait_parity(0);
        let t = block.thread_rank() as usize;
        got[b * 32 + t].store(tile.load(t), Relaxed);
    })
    .unwrap();
    for (b, &(x, y)) in corners.iter().enumerate() {
        for t in 0..32 {
            let (cx, cy) = (x + (t % 8) as i32, y + (t / 8) as i32);
            let want = if (0..20).contains(&cx) && (0..12).contains(&cy) {
                (cy * 100 + cx + 1) as u32
            } else {
                0
            };
            assert_eq!(
                got[b * 32 + t].load(Relaxed),
                want,
                "box ({x}, {y}) element {t}"
            );
        }
    }
}

/// Loads each box, adds one in shared memory and stores it back to a
/// second tensor: the stores land where the map says, and only inside it.
#[test]
fn a_round_trip_through_shared_memory() {
    let data = tensor();
    let mut out = vec![7u32; 12 * 24];
    let m = map(&data);
    let o: TensorMap2dMut<u32, 8, 4> =
        cooperative_groups::host::tensor_map_mut(Image::new(&mut out[..], 20, 12, 24)).unwrap();
    launch(9, 32, &|| {
        let block = this_thread_block();
        let full = mbarrier!(&block, 1);
        let tile = shared_array!(u32; 32, align 128);
        let b = block.group_index().x as i32;
        let (x, y) = (b % 3 * 8, b / 3 * 4);
        let wr = o.tiles_mut(&block);
        if block.thread_rank() == 0 {
            // SAFETY: one copy in flight on the phase.
            unsafe { full.arrive_copy_tile(tile.as_slice(), &m.tiles(), x, y) }.discard();
        }
        full.wait_parity(0);
        let t = block.thread_rank() as usize;
        tile.store(t, tile.load(t) + 1);
        // SAFETY: one block per box; the tile is not written again; waited.
        unsafe { wr.store_tile(&block, tile.as_slice(), x, y) }.wait_read(&block);
    })
    .unwrap();
    for i in 0..12 * 24 {
        let want = if i % 24 < 20 { data[i] + 1 } else { 7 };
        assert_eq!(out[i], want, "element {i}");
    }
}

#[test]
fn reading_a_tile_before_its_phase_completes_is_reported() {
    let data = tensor();
    let m = map(&data);
    let e = launch(1, 32, &|| {
        let block = this_thread_block();
        let full = mbarrier!(&block, 2);
        let tile = shared_array!(u32; 32, align 128);
        if block.thread_rank() == 0 {
            // SAFETY: one copy in flight on the phase.
            unsafe { full.arrive_copy_tile(tile.as_slice(), &m.tiles(), 0, 0) }.discard();
            let _ = tile.load(3); // the phase still expects an arrival
        }
    })
    .unwrap_err();
    assert_reported_here(&e, "still filling");
}

#[test]
fn writing_a_stores_source_too_early_is_reported() {
    let mut out = vec![0u32; 12 * 24];
    let o: TensorMap2dMut<u32, 8, 4> =
        cooperative_groups::host::tensor_map_mut(Image::new(&mut out[..], 20, 12, 24)).unwrap();
    let e = launch(1, 32, &|| {
        let block = this_thread_block();
        let tile = shared_array!(u32; 32, align 128);
        let wr = o.tiles_mut(&block);
        let t = block.thread_rank() as usize;
        tile.store(t, 1);
        // SAFETY: deliberately broken: the source is rewritten below.
        let st = unsafe { wr.store_tile(&block, tile.as_slice(), 0, 0) };
        if t == 0 {
            // Thread 0 issued the store: its write follows the store's read
            // in program order (no race), but the copy engine may still be
            // reading. (Another thread's write would also be a race.)
            tile.store(0, 2);
        }
        st.wait_read(&block);
    })
    .unwrap_err();
    assert_reported_here(&e, "still reading");
}

#[test]
fn exiting_with_a_store_in_flight_is_reported() {
    let mut out = vec![0u32; 12 * 24];
    let o: TensorMap2dMut<u32, 8, 4> =
        cooperative_groups::host::tensor_map_mut(Image::new(&mut out[..], 20, 12, 24)).unwrap();
    let e = launch(1, 32, &|| {
        let block = this_thread_block();
        let tile = shared_array!(u32; 32, align 128);
        let wr = o.tiles_mut(&block);
        tile.store(block.thread_rank() as usize, 1);
        // SAFETY: deliberately broken: never waited for.
        unsafe { wr.store_tile(&block, tile.as_slice(), 0, 0) }.discard();
    })
    .unwrap_err();
    assert_reported_here(&e, "never waited for");
}

#[test]
fn a_misaligned_tile_is_refused() {
    let data = tensor();
    let m = map(&data);
    let e = launch(1, 32, &|| {
        let block = this_thread_block();
        let full = mbarrier!(&block, 1);
        let tile = shared_array!(u32; 64, align 128);
        if block.thread_rank() == 0 {
            // SAFETY: one copy in flight on the phase.
            unsafe { full.arrive_copy_tile(tile.slice(4, 32), &m.tiles(), 0, 0) }.discard();
        }
        full.wait_parity(0);
    })
    .unwrap_err();
    assert!(e.to_string().contains("128-byte aligned"), "{e}");
}

/// The copy engine takes a box's x coordinate only at a multiple of 16
/// bytes (the H200 raised an illegal-instruction error at 8): the
/// simulator refuses it with the library's message, as the GPU build
/// traps.
#[test]
fn an_x_coordinate_off_16_bytes_is_refused() {
    let data = tensor();
    let m = map(&data);
    let e = launch(1, 32, &|| {
        let block = this_thread_block();
        let full = mbarrier!(&block, 1);
        let tile = shared_array!(u32; 32, align 128);
        if block.thread_rank() == 0 {
            // SAFETY: one copy in flight on the phase.
            unsafe { full.arrive_copy_tile(tile.as_slice(), &m.tiles(), 2, 0) }.discard();
        }
        full.wait_parity(0);
    })
    .unwrap_err();
    assert!(
        e.to_string().contains("multiple of 16 bytes (2 elements"),
        "{e}"
    );
}

#[test]
fn two_blocks_storing_one_box_race() {
    let mut out = vec![0u32; 12 * 24];
    let o: TensorMap2dMut<u32, 8, 4> =
        cooperative_groups::host::tensor_map_mut(Image::new(&mut out[..], 20, 12, 24)).unwrap();
    let e = launch(2, 32, &|| {
        let block = this_thread_block();
        let tile = shared_array!(u32; 32, align 128);
        let wr = o.tiles_mut(&block);
        tile.store(block.thread_rank() as usize, block.group_index().x);
        // SAFETY: deliberately broken: both blocks store box (0, 0).
        unsafe { wr.store_tile(&block, tile.as_slice(), 0, 0) }.wait_read(&block);
    })
    .unwrap_err();
    assert!(matches!(e, SimError::DataRace(_)), "{e}");
    assert_reported_here(&e, "tensor tile copy's write");
}

/// Where the copy engine puts element `(x, y)` of a box of `u32` rows of
/// `row_words` words (the swizzle's width) in a swizzled tile, written out
/// from the hardware's description: a 128-byte line holds `32 /
/// row_words` box rows, and the 16-byte chunks of each row trade places
/// by XOR with the line's number, modulo the chunks a row has.
fn swizzled_at(x: usize, y: usize, row_words: usize) -> usize {
    let rows_per_line = 32 / row_words;
    let chunks = row_words / 4;
    let line = y / rows_per_line;
    let chunk = (x / 4) ^ (line % chunks);
    y * row_words + chunk * 4 + x % 4
}

/// One box of each swizzle loaded from a 40 × 24 tensor: every element
/// lies where the hardware's layout puts it, `tile_index` finds it, and
/// the tile stored back through the same map restores the dense box.
#[test]
fn swizzled_tiles_lie_where_the_copy_engine_puts_them() {
    use cooperative_groups::tma::{Swizzle32B, Swizzle64B, Swizzle128B, TileLayout};

    fn check<L: TileLayout, const BW: u32>(data: &[u32]) {
        const BH: u32 = 16;
        let m: TensorMap2d<u32, BW, BH, L> = tensor_map(Image::new(data, 40, 24, 40)).unwrap();
        let mut back = vec![0u32; 40 * 24];
        let o: TensorMap2dMut<u32, BW, BH, L> =
            cooperative_groups::host::tensor_map_mut(Image::new(&mut back[..], 40, 24, 40))
                .unwrap();
        let len = (BW * BH) as usize;
        let raw: Vec<AtomicU32> = (0..len).map(|_| AtomicU32::new(0)).collect();
        let found: Vec<AtomicU32> = (0..len).map(|_| AtomicU32::new(0)).collect();
        launch(1, 128, &|| {
            let block = this_thread_block();
            let full = mbarrier!(&block, 1);
            let tile = shared_array!(u32; 512, align 1024);
            if block.thread_rank() == 0 {
                // SAFETY: one copy in flight on the phase.
                unsafe { full.arrive_copy_tile(tile.slice(0, len), &m.tiles(), 4, 3) }.discard();
            }
            full.wait_parity(0);
            for i in (block.thread_rank() as usize..len).step_by(128) {
                raw[i].store(tile.load(i), Relaxed);
                let (x, y) = (i as u32 % BW, i as u32 / BW);
                let at = TensorMap2d::<u32, BW, BH, L>::tile_index(x, y);
                found[i].store(tile.load(at), Relaxed);
            }
            let wr = o.tiles_mut(&block);
            // SAFETY: one block stores the box; waited for below.
            unsafe { wr.store_tile(&block, tile.slice(0, len), 4, 3) }.wait_read(&block);
        })
        .unwrap();
        let row_words = L::SWIZZLE.bytes() / 4;
        for y in 0..BH as usize {
            for x in 0..BW as usize {
                let want = data[(y + 3) * 40 + x + 4];
                let what = format!("{:?} box element ({x}, {y})", L::SWIZZLE);
                assert_eq!(
                    raw[swizzled_at(x, y, row_words)].load(Relaxed),
                    want,
                    "{what}"
                );
                assert_eq!(found[y * BW as usize + x].load(Relaxed), want, "{what}");
                assert_eq!(back[(y + 3) * 40 + x + 4], want, "{what} stored back");
            }
        }
    }
    let data: Vec<u32> = (0..40 * 24).map(|i| i as u32 + 1).collect();
    check::<Swizzle32B, 8>(&data);
    check::<Swizzle64B, 16>(&data);
    check::<Swizzle128B, 32>(&data);
}

#[test]
fn a_swizzled_tile_needs_the_swizzles_alignment() {
    let data: Vec<u32> = (0..40 * 24).collect();
    let m: TensorMap2d<u32, 32, 4, cooperative_groups::tma::Swizzle128B> =
        tensor_map(Image::new(&data[..], 40, 24, 40)).unwrap();
    let e = launch(1, 32, &|| {
        let block = this_thread_block();
        let full = mbarrier!(&block, 1);
        let tile = shared_array!(u32; 384, align 1024);
        if block.thread_rank() == 0 {
            // SAFETY: one copy in flight on the phase.
            unsafe { full.arrive_copy_tile(tile.slice(128, 128), &m.tiles(), 0, 0) }.discard();
        }
        full.wait_parity(0);
    })
    .unwrap_err();
    assert!(e.to_string().contains("1024-byte aligned"), "{e}");
}

fn launch_clusters(
    blocks: u32,
    cluster: u32,
    block: u32,
    kernel: &dyn Fn(),
) -> Result<(), SimError> {
    cg_sim::launch(
        &LaunchConfig::new(blocks, block).with_cluster(cluster),
        kernel,
    )
    .map(|_| ())
}

/// Rank 2 of each cluster of four loads one swizzled box for ranks 0, 1
/// and 3 (`0b1011`); rank 2 takes its own copy with a unicast load. Every
/// receiving block expects the bytes on its own barrier, before or after
/// the copy is issued.
#[test]
fn a_multicast_tile_reaches_every_block_of_the_mask() {
    use cooperative_groups::this_cluster;
    use cooperative_groups::tma::Swizzle128B;
    type Tiles<'a> = TensorMap2d<'a, u32, 32, 4, Swizzle128B>;
    let data: Vec<u32> = (0..40 * 24).map(|i| i as u32 * 7 + 1).collect();
    let m: Tiles = tensor_map(Image::new(&data[..], 40, 24, 40)).unwrap();
    let got: Vec<AtomicU32> = (0..8 * 128).map(|_| AtomicU32::new(0)).collect();
    launch_clusters(8, 4, 64, &|| {
        let block = this_thread_block();
        let cluster = this_cluster();
        let full = mbarrier!(&block, 1);
        let tile = shared_array!(u32; 128, align 1024);
        let (rank, b) = (cluster.block_rank(), block.group_index().x as usize);
        let y = (b / 4) as i32 * 8;
        cluster.sync();
        if block.thread_rank() == 0 {
            let tiles = m.tiles();
            if rank == 2 {
                // SAFETY: one copy of 512 bytes in flight on the phase.
                unsafe { full.arrive_copy_tile(tile.as_slice(), &tiles, 4, y) }.discard();
                // SAFETY: ranks 0, 1 and 3 initialised their barriers
                // before the cluster barrier and expect the bytes.
                unsafe { full.copy_tile_multicast(tile.as_slice(), &tiles, 4, y, 0b1011) };
            } else {
                // SAFETY: rank 2's multicast completes these bytes.
                unsafe { full.arrive_expect_tx(Tiles::BOX_BYTES) }.discard();
            }
        }
        full.wait_parity(0);
        for i in (block.thread_rank() as usize..128).step_by(64) {
            let at = Tiles::tile_index(i as u32 % 32, i as u32 / 32);
            got[b * 128 + i].store(tile.load(at), Relaxed);
        }
        cluster.sync();
    })
    .unwrap();
    for b in 0..8 {
        for i in 0..128 {
            let (x, y) = (4 + i % 32, (b / 4) * 8 + i / 32);
            assert_eq!(
                got[b * 128 + i].load(Relaxed),
                data[y * 40 + x],
                "block {b} element {i}"
            );
        }
    }
}

/// The 1-D bulk multicast: rank 0 of a cluster of two sends one window to
/// both blocks.
#[test]
fn a_multicast_bulk_copy_reaches_both_blocks() {
    use cooperative_groups::this_cluster;
    let src: Vec<u32> = (0..64).map(|i| i * 3).collect();
    let got: Vec<AtomicU32> = (0..2 * 64).map(|_| AtomicU32::new(0)).collect();
    launch_clusters(2, 2, 64, &|| {
        let block = this_thread_block();
        let cluster = this_cluster();
        let full = mbarrier!(&block, 1);
        let buf = shared_array!(u32; 64, align 16);
        cluster.sync();
        if block.thread_rank() == 0 {
            // SAFETY: the multicast below completes these bytes.
            unsafe { full.arrive_expect_tx(256) }.discard();
            if cluster.block_rank() == 0 {
                // SAFETY: both barriers initialised and expecting 256 bytes.
                unsafe { full.copy_multicast(buf.as_slice(), &src[..], 0b11) };
            }
        }
        full.wait_parity(0);
        let t = block.thread_rank() as usize;
        got[cluster.block_rank() as usize * 64 + t].store(buf.load(t), Relaxed);
        cluster.sync();
    })
    .unwrap();
    assert!((0..128).all(|i| got[i].load(Relaxed) == (i as u32 % 64) * 3));
}

/// The multicast misuses, each reported at this file's line: a mask past
/// the cluster, a peer whose barrier is not initialised when the copy is
/// issued, a peer reading its tile before its phase completes (a race with
/// the copy's write), and a phase that expects no bytes (it completes
/// before the copy lands: the tile is read while still filling).
#[test]
fn multicast_misuse_is_reported() {
    use cooperative_groups::this_cluster;
    let data = tensor();
    let m = map(&data);
    type Tiles<'a> = TensorMap2d<'a, u32, 8, 4>;
    let bytes = Tiles::BOX_BYTES;
    let run = |init: bool, expect: bool, wait: bool, mask: u16| {
        launch_clusters(2, 2, 32, &|| {
            let block = this_thread_block();
            let cluster = this_cluster();
            let tile = shared_array!(u32; 32, align 128);
            if !init && cluster.block_rank() == 1 {
                // Never initialises its barrier.
                cluster.sync();
                cluster.sync();
                return;
            }
            let full = mbarrier!(&block, 1);
            cluster.sync();
            if block.thread_rank() == 0 {
                if expect {
                    // SAFETY: deliberately broken per case.
                    unsafe { full.arrive_expect_tx(bytes) }.discard();
                } else {
                    full.arrive().discard();
                }
                if cluster.block_rank() == 0 {
                    // SAFETY: deliberately broken per case.
                    unsafe { full.copy_tile_multicast(tile.as_slice(), &m.tiles(), 0, 0, mask) };
                }
            }
            if wait {
                full.wait_parity(0);
            }
            let _ = tile.load(block.thread_rank() as usize);
            cluster.sync();
        })
        .unwrap_err()
    };
    let e = run(true, true, true, 0b100);
    assert_reported_here(&e, "must name blocks of the cluster");
    let e = run(false, true, true, 0b11);
    assert_reported_here(&e, "is not initialised");
    // Another thread reads the tile with no wait: unordered with the copy.
    let e = run(true, true, false, 0b11);
    assert!(matches!(e, SimError::DataRace(_)), "{e}");
    assert_reported_here(&e, "tensor tile copy's write");
    // The plain arrival completes the phase before the copy's bytes come:
    // the tile is read while the copy still fills it.
    let e = run(true, false, true, 0b11);
    assert_reported_here(&e, "still filling");
}

/// A 3-D box loaded (partly outside the tensor: zeros) and stored back
/// into another volume (partly outside it: those elements not written).
#[test]
fn a_3d_box_round_trips_through_shared_memory() {
    use cooperative_groups::host::{Volume, tensor_map_3d, tensor_map_3d_mut};
    use cooperative_groups::tma::{TensorMap3d, TensorMap3dMut};
    type Boxes<'a> = TensorMap3d<'a, u32, 8, 2, 2>;
    let data: Vec<u32> = (0..16 * 4 * 3).map(|i| i as u32 + 1).collect();
    let m: Boxes = tensor_map_3d(Volume::new(&data[..], (16, 4, 3), 16, 64)).unwrap();
    let mut out = vec![0u32; 12 * 4 * 3];
    let o: TensorMap3dMut<u32, 8, 2, 2> =
        tensor_map_3d_mut(Volume::new(&mut out[..], (12, 4, 3), 12, 48)).unwrap();
    launch(1, 32, &|| {
        let block = this_thread_block();
        let full = mbarrier!(&block, 1);
        let tile = shared_array!(u32; 32, align 128);
        if block.thread_rank() == 0 {
            // SAFETY: one 128-byte copy in flight on the phase.
            unsafe { full.arrive_copy_tile_3d(tile.as_slice(), &m.tiles(), 12, 3, 1) }.discard();
        }
        full.wait_parity(0);
        let wr = o.tiles_mut(&block);
        // SAFETY: one block stores the box; waited for below.
        unsafe { wr.store_tile(&block, tile.as_slice(), 8, 2, 1) }.wait_read(&block);
    })
    .unwrap();
    let src = |x: usize, y: usize, z: usize| -> u32 {
        if x < 16 && y < 4 && z < 3 {
            data[(z * 4 + y) * 16 + x]
        } else {
            0
        }
    };
    for z in 0..3 {
        for y in 0..4 {
            for x in 0..12 {
                let inside = (8..16).contains(&x) && (2..4).contains(&y) && (1..3).contains(&z);
                let want = if inside {
                    src(x - 8 + 12, y - 2 + 3, z - 1 + 1)
                } else {
                    0
                };
                assert_eq!(out[(z * 4 + y) * 12 + x], want, "({x}, {y}, {z})");
            }
        }
    }
}

/// A 5-D box in the 64-byte swizzle loaded (partly outside the tensor:
/// zeros), read through `tile_index`, and stored back dense into another
/// 5-D tensor (partly outside it: those elements not written). Every
/// element checked against the tensors' layout written out here.
#[test]
fn a_5d_box_round_trips_through_shared_memory() {
    use cooperative_groups::host::{TensorNd, tensor_map_nd};
    use cooperative_groups::tma::{Swizzle64B, TensorMap5d, TensorMap5dMut};
    type Src<'a> = TensorMap5d<'a, u32, 16, 2, 2, 2, 2, Swizzle64B>;
    type Dst<'a> = TensorMap5dMut<'a, u32, 16, 2, 2, 2, 2>;
    // 32 × 3 × 2 × 3 × 2 words, dense.
    let dims = [32, 3, 2, 3, 2];
    let strides = [32, 96, 192, 576];
    let data: Vec<u32> = (0..1152).map(|i| i as u32 * 7 + 1).collect();
    let m: Src = tensor_map_nd(TensorNd::new(&data[..], dims, strides)).unwrap();
    let mut out = vec![0u32; 1152];
    let o: Dst = tensor_map_nd(TensorNd::new(&mut out[..], dims, strides)).unwrap();
    let (load_at, store_at) = ([16, 2, 1, 2, 0], [0, 1, 0, 1, 1]);
    launch(1, 64, &|| {
        let block = this_thread_block();
        let full = mbarrier!(&block, 1);
        let swizzled = shared_array!(u32; 512, align 512);
        let dense = shared_array!(u32; 512, align 128);
        if block.thread_rank() == 0 {
            // SAFETY: one 2 KiB copy in flight on the phase.
            unsafe { full.arrive_copy_tile_5d(swizzled.as_slice(), &m.tiles(), load_at) }.discard();
        }
        full.wait_parity(0);
        for i in (block.thread_rank()..512).step_by(64) {
            let at = [i % 16, i / 16 % 2, i / 32 % 2, i / 64 % 2, i / 128];
            dense.store(i as usize, swizzled.load(Src::tile_index(at)));
        }
        let wr = o.tiles_mut(&block);
        // SAFETY: one block stores the box; waited for below.
        unsafe { wr.store_tile(&block, dense.as_slice(), store_at) }.wait_read(&block);
    })
    .unwrap();
    let index = |c: [i64; 5]| -> Option<usize> {
        let mut i = 0;
        for d in (0..5).rev() {
            if c[d] < 0 || c[d] >= dims[d] as i64 {
                return None;
            }
            i = i * dims[d] + c[d] as usize;
        }
        Some(i)
    };
    let mut written = 0;
    for (i, &got) in out.iter().enumerate() {
        let mut c = [0i64; 5];
        let mut rest = i;
        for d in 0..5 {
            c[d] = (rest % dims[d]) as i64;
            rest /= dims[d];
        }
        let b: Vec<i64> = (0..5).map(|d| c[d] - store_at[d] as i64).collect();
        let sides = [16, 2, 2, 2, 2];
        let want = if (0..5).all(|d| (0..sides[d]).contains(&b[d])) {
            written += 1;
            let s: [i64; 5] = core::array::from_fn(|d| b[d] + load_at[d] as i64);
            index(s).map_or(0, |k| data[k])
        } else {
            0
        };
        assert_eq!(got, want, "{c:?}");
    }
    // The store lands on 16 × 2 × 2 × 2 × 1 elements (w 1..3 holds only
    // 1 and 2 of 3, v 1..3 only 1 of 2).
    assert_eq!(written, 16 * 2 * 2 * 2);
    assert!(out.iter().any(|&v| v != 0));
}

/// The host refuses a tensor of the wrong rank, a writable map of a
/// shared borrow, and strides that overlap, naming the rule.
#[test]
fn nd_tensors_are_checked_on_the_host() {
    use cooperative_groups::host::{TensorNd, tensor_map_nd};
    use cooperative_groups::tma::{TensorMap4d, TensorMap4dMut, TensorMap5d};
    let data = vec![0u32; 256];
    let e = tensor_map_nd::<TensorMap5d<u32, 4, 1, 1, 1, 1>, _>(TensorNd::new(
        &data[..],
        [4, 2, 2, 2],
        [4, 8, 16],
    ))
    .err()
    .unwrap();
    assert!(e.contains("4-D tensor for a 5-D"), "{e}");
    let e = tensor_map_nd::<TensorMap4dMut<u32, 4, 1, 1, 1>, _>(TensorNd::new(
        &data[..],
        [4, 2, 2, 2],
        [4, 8, 16],
    ))
    .err()
    .unwrap();
    assert!(e.contains("borrowed mutably"), "{e}");
    let e = tensor_map_nd::<TensorMap4d<u32, 4, 1, 1, 1>, _>(TensorNd::new(
        &data[..],
        [4, 2, 2, 2],
        [4, 4, 16],
    ))
    .err()
    .unwrap();
    assert!(e.contains("dimension 2"), "{e}");
}
