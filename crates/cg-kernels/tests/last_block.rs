//! The last-block-finishes reduction (`c02::last_block_reduce`) on the
//! simulator: exact totals for integer-valued inputs over several grids and
//! block sizes, the ticket back at 0 after every launch (so launches chain
//! without a reset), every block's partial in place, and a grid of one block.

use cg_kernels::c02::{LAST_BLOCK_REDUCE, last_block_reduce_sized};

fn run(grid: u32, block: u32, input: &[f32], out: &mut [f32], ticket: &mut u32) {
    let (i, o, t) = (input.as_ptr(), out.as_mut_ptr(), ticket as *mut u32);
    let n = input.len() as u32;
    // The sized kernel where there is one (every second call), else the dynamic one.
    let k = match last_block_reduce_sized(block) {
        Some(k) if (grid + n).is_multiple_of(2) => k,
        _ => LAST_BLOCK_REDUCE,
    };
    // SAFETY: `n` inputs, a partial per block plus the total, one ticket.
    let body = unsafe { k.host_fn_unchecked() };
    cg_sim::launch(&cg_sim::LaunchConfig::new(grid, block), &|| {
        body((i, o, n, t))
    })
    .unwrap();
}

#[test]
fn last_block_sums_every_partial() {
    for (grid, block, n) in [
        (1, 32, 100),
        (7, 128, 10_000),
        (8, 128, 10_000),
        (16, 256, 40_000),
        (5, 96, 1_001),
        (3, 1024, 5_001),
    ] {
        let input: Vec<f32> = (0..n).map(|i| ((i * 37) % 101) as f32 - 50.0).collect();
        let want: f32 = input.iter().sum();
        let mut out = vec![f32::NAN; grid as usize + 1];
        let mut ticket = 0u32;
        for round in 0..2 {
            out.iter_mut().for_each(|x| *x = f32::NAN);
            run(grid, block, &input, &mut out, &mut ticket);
            assert_eq!(
                out[grid as usize], want,
                "grid {grid} block {block} round {round}"
            );
            assert_eq!(ticket, 0, "the last draw wraps the ticket to 0");
            // Each partial is its block's grid-stride slice.
            for b in 0..grid {
                let slice: f32 = (0..n)
                    .filter(|i| (i / block) % grid == b)
                    .map(|i| input[i as usize])
                    .sum();
                assert_eq!(out[b as usize], slice, "partial of block {b}");
            }
        }
    }
}

/// A stale ticket (not 0 at the launch) makes the wrong block "last": it
/// sums before every partial is written (here: block 3's slot still holds
/// NaN), and the ticket stays stale — the kernel's precondition matters.
#[test]
fn a_stale_ticket_finishes_too_early() {
    let input = vec![1.0f32; 1000];
    let mut out = vec![f32::NAN; 5];
    let mut ticket = 1u32;
    run(4, 64, &input, &mut out, &mut ticket);
    assert!(
        out[4].is_nan(),
        "block 2 drew the last ticket and summed block 3's empty slot"
    );
    assert_eq!(ticket, 1, "four draws from 1 with limit 3 end at 1");
}
