//! The seed's inputs and what a correct run produces from them.

/// `float in[i] = (i % 16) + 1`.
pub fn reduce_input(n: u32) -> Vec<f32> {
    (0..n).map(|i| (i % 16 + 1) as f32).collect()
}

/// Exact sum of [`reduce_input`]: 142,606,336 for n = 2^24.
pub fn reduce_expected(n: u32) -> f64 {
    let n = n as u64;
    let full = n / 16;
    let rest = n % 16;
    (full * 136 + rest * (rest + 1) / 2) as f64
}

/// `int in[i] = (i % 16) + 1`.
pub fn odd_input(n: u32) -> Vec<i32> {
    (0..n).map(|i| (i % 16 + 1) as i32).collect()
}

/// Odd elements of [`odd_input`]: 8,388,608 for n = 2^24.
pub fn odd_expected(n: u32) -> u64 {
    // (i % 16) + 1 is odd exactly when i is even.
    (n as u64).div_ceil(2)
}

/// What block `b` reads from its neighbour in a cluster of `c` blocks:
/// `((b % c) + 1) % c + 1`.
pub fn cluster_expected(b: u32, c: u32) -> u32 {
    ((b % c) + 1) % c + 1
}

/// Inclusive prefix sums of [`reduce_input`] within tiles of `tile`
/// elements of chunks of `block` elements (what tiles scanning
/// block-sized chunks produce; the last tile of a chunk may be shorter).
/// `tile = block`: the block scan's.
pub fn tile_scan_expected(n: u32, block: u32, tile: u32) -> Vec<f32> {
    let mut out = Vec::with_capacity(n as usize);
    let mut acc = 0.0f32;
    for (i, x) in reduce_input(n).into_iter().enumerate() {
        if (i as u32 % block).is_multiple_of(tile) {
            acc = 0.0;
        }
        acc += x;
        out.push(acc);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn seed_values() {
        assert_eq!(reduce_expected(1 << 24), 142_606_336.0);
        assert_eq!(odd_expected(1 << 24), 8_388_608);
        for n in [0u32, 1, 15, 16, 17, 1000, 65536] {
            let direct: f64 = reduce_input(n).iter().map(|&x| x as f64).sum();
            assert_eq!(reduce_expected(n), direct, "n = {n}");
            let odd = odd_input(n).iter().filter(|&&x| x & 1 != 0).count() as u64;
            assert_eq!(odd_expected(n), odd, "n = {n}");
        }
        assert_eq!(cluster_expected(0, 2), 2);
        assert_eq!(cluster_expected(1, 2), 1);
        assert_eq!(cluster_expected(5, 4), 3);
        assert_eq!(
            tile_scan_expected(6, 4, 4),
            [1.0, 3.0, 6.0, 10.0, 5.0, 11.0]
        );
        // Tiles of 2 in chunks of 3: the chunk's last tile has one element.
        assert_eq!(
            tile_scan_expected(7, 3, 2),
            [1.0, 3.0, 3.0, 4.0, 9.0, 6.0, 7.0]
        );
    }
}
