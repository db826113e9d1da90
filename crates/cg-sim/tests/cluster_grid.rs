//! Clusters (barrier, distributed shared memory) and grid sync.

mod common;

use std::cell::Cell;

use cg_sim::lane;
use cg_sim::{Dim3, LaunchConfig};
use common::{Out, gtid, run, tid};

#[test]
fn cluster_barrier_and_map_shared() {
    let out = Out::new(8 * 64);
    let cfg = LaunchConfig::new(8, 64)
        .with_cluster(4)
        .with_dynamic_smem(64 * 4);
    run(&cfg, &|| {
        assert_eq!(lane::cluster_num_ctas(), 4);
        assert_eq!(lane::cluster_dim(), [4, 1, 1]);
        let rank = lane::cluster_cta_rank();
        assert_eq!(lane::cluster_cta_idx(), [rank, 0, 0]);
        assert_eq!(rank, lane::block_idx()[0] % 4);
        let t = tid() as usize;
        let st = lane::static_shared("dsmem", 64 * 4, 4) as *mut u32;
        let (dy, _) = lane::dynamic_shared();
        let dy = dy as *mut u32;
        // SAFETY: both buffers hold 64 u32s.
        unsafe {
            st.add(t).write(rank * 1000 + t as u32);
            dy.add(t).write(lane::block_idx()[0] * 7 + t as u32);
        }
        lane::cluster_arrive();
        lane::cluster_wait();
        let next = (rank + 1) % 4;
        let remote = lane::cluster_map_shared(st.cast(), next) as *mut u32;
        // SAFETY: `t` < 64, inside the dynamic buffer.
        let mine = unsafe { dy.add(t) };
        let remote_dy = lane::cluster_map_shared(mine.cast(), next) as *mut u32;
        // SAFETY: mapped into the neighbour's buffers of the same size.
        let (a, b) = unsafe { (remote.add(t).read(), remote_dy.read()) };
        // Keep the neighbour's shared memory alive until everyone has read.
        lane::cluster_arrive();
        lane::cluster_wait();
        out.set(gtid(), (a as u64) << 32 | b as u64);
    });
    for blk in 0..8u64 {
        let next = (blk % 4 + 1) % 4;
        let next_blk = blk / 4 * 4 + next;
        for t in 0..64u64 {
            let want = (next * 1000 + t) << 32 | (next_blk * 7 + t);
            assert_eq!(
                out.get((blk * 64 + t) as usize),
                want,
                "block {blk} thread {t}"
            );
        }
    }
}

#[test]
fn two_dimensional_clusters_rank_x_fastest() {
    let out = Out::new(16);
    let cfg = LaunchConfig::new((4, 4, 1), (1, 1, 1)).with_cluster((2, 2, 1));
    run(&cfg, &|| {
        let [x, y, _] = lane::block_idx();
        let [cx, cy, _] = lane::cluster_cta_idx();
        assert_eq!((cx, cy), (x % 2, y % 2));
        out.set((y * 4 + x) as usize, lane::cluster_cta_rank() as u64);
    });
    for y in 0..4u64 {
        for x in 0..4u64 {
            assert_eq!(out.get((y * 4 + x) as usize), x % 2 + 2 * (y % 2));
        }
    }
}

#[test]
fn grid_sync_across_blocks_in_a_cooperative_launch() {
    let n = 4 * 64;
    let data: Vec<Cell<u32>> = (0..n).map(|_| Cell::new(0)).collect();
    let out = Out::new(n);
    let cfg = LaunchConfig::new(4, 64).with_cooperative(true);
    run(&cfg, &|| {
        let g = gtid();
        data[g].set(g as u32 + 1);
        lane::grid_sync();
        // Block 0's lanes run before block 3's: without the grid barrier this
        // would read 0.
        let v = data[(g + 192) % n].get();
        lane::grid_sync();
        data[g].set(0);
        lane::grid_sync();
        out.set(g, v as u64 + data[(g + 64) % n].get() as u64);
    });
    for g in 0..n {
        assert_eq!(out.get(g), ((g + 192) % n + 1) as u64);
    }
}

#[test]
fn grid_sync_tolerates_partially_exited_blocks() {
    let out = Out::new(2 * 64);
    let cfg = LaunchConfig::new(2, 64).with_cooperative(true);
    run(&cfg, &|| {
        if tid() >= 40 {
            return;
        }
        lane::grid_sync();
        out.set(gtid(), 1);
    });
    assert_eq!(out.to_vec().iter().filter(|&&v| v == 1).count(), 80);
}

#[test]
fn cooperative_limit_is_the_device_occupancy() {
    let dev = cg_sim::SimDevice::default();
    let max = dev.max_cooperative_blocks(256, 0);
    assert_eq!(max, 4 * 8); // 2048 threads per SM / 256, 4 SMs
    let cfg = LaunchConfig::new(Dim3::x(max as u32), 256).with_cooperative(true);
    let stats = cg_sim::launch_on(&dev, &cfg, &|| lane::grid_sync()).unwrap();
    assert_eq!(stats.lanes, max * 256);
}
