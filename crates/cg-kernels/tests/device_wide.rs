//! The device-wide reduce and scan (`device_wide`) on the simulator against
//! sequential models: partial last tiles and vector tails, several grids
//! for the reduce, consecutive scan launches on the same tile states (new
//! epoch each time, no reset), and the race detector on the look-back's
//! flags.

use cg_kernels::device_wide::{
    BLOCK, DEVICE_REDUCE_F32, DEVICE_REDUCE_I32, DEVICE_SCAN_F32, DEVICE_SCAN_I32, SCAN_BLOCK,
    SCAN_SMEM_BYTES, SCAN_TILE, scan_grid, scan_model_i32, scan_tiles,
};

fn dev() -> cg_sim::SimDevice {
    cg_sim::SimDevice {
        stack_size: 4 << 20,
        ..Default::default()
    }
}

fn input(n: usize) -> Vec<i32> {
    (0..n as u64)
        .map(|i| ((i * 7 + 3) % 23) as i32 - 11 + (i % 5) as i32)
        .collect()
}

#[test]
fn reduce_sums_every_element() {
    for (grid, n) in [(1u32, 1usize), (2, 1003), (3, 4 * 256 * 3 + 5)] {
        let xs = input(n);
        let fs: Vec<f32> = xs.iter().map(|&x| x as f32).collect();
        let (mut oi, mut of) = (0i32, 0f32);
        let (pi, pf, po, pof) = (
            xs.as_ptr(),
            fs.as_ptr(),
            &mut oi as *mut i32,
            &mut of as *mut f32,
        );
        let cfg = cg_sim::LaunchConfig::new(grid, BLOCK).with_cooperative(true);
        // SAFETY: `n` inputs and one total, alive across the launch.
        let ki = unsafe { DEVICE_REDUCE_I32.host_fn_unchecked() };
        cg_sim::launch_on(&dev(), &cfg, &|| ki((pi, po, n as u32))).unwrap();
        // SAFETY: as above.
        let kf = unsafe { DEVICE_REDUCE_F32.host_fn_unchecked() };
        cg_sim::launch_on(&dev(), &cfg, &|| kf((pf, pof, n as u32))).unwrap();
        let want: i32 = xs.iter().fold(0i32, |a, &b| a.wrapping_add(b));
        assert_eq!(oi, want, "grid {grid}, n {n}");
        assert_eq!(
            of, want as f32,
            "grid {grid}, n {n} (small integers: exact)"
        );
    }
}

#[test]
fn scan_matches_the_sequential_prefix_sums() {
    let n_max = 3 * SCAN_TILE + 17;
    let mut states = vec![0u64; scan_tiles(n_max as u32) as usize];
    let mut epoch = 0u32;
    for n in [5usize, SCAN_TILE, n_max] {
        let xs = input(n);
        let fs: Vec<f32> = xs.iter().map(|&x| x as f32).collect();
        let mut oi = vec![0i32; n];
        let mut of = vec![0f32; n];
        let ps = states.as_mut_ptr();
        let cfg = cg_sim::LaunchConfig::new(scan_grid(n as u32), SCAN_BLOCK)
            .with_dynamic_smem(SCAN_SMEM_BYTES);
        epoch += 1;
        let (pi, po) = (xs.as_ptr(), oi.as_mut_ptr());
        // SAFETY: `n` inputs and outputs, and the tile states for `n`.
        let ki = unsafe { DEVICE_SCAN_I32.host_fn_unchecked() };
        cg_sim::launch_on(&dev(), &cfg, &|| ki((pi, po, ps, n as u32, epoch))).unwrap();
        epoch += 1;
        let (pf, pof) = (fs.as_ptr(), of.as_mut_ptr());
        // SAFETY: as above.
        let kf = unsafe { DEVICE_SCAN_F32.host_fn_unchecked() };
        cg_sim::launch_on(&dev(), &cfg, &|| kf((pf, pof, ps, n as u32, epoch))).unwrap();
        let mut want = vec![0i32; n];
        scan_model_i32(&xs, &mut want);
        assert_eq!(oi, want, "n {n}");
        let wantf: Vec<f32> = want.iter().map(|&x| x as f32).collect();
        assert_eq!(of, wantf, "n {n} (small integers: exact)");
    }
}
