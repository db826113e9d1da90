//! The deterministic input stream of the lab's experiments and of the
//! kernels' tests: Marsaglia's xorshift64 (shifts 13, 7, 17), one
//! generator for all of them, so that one seed always means one input.

/// A xorshift64 stream ([`next`](Self::next) gives each state in turn).
#[derive(Clone, Copy, Debug)]
pub struct Xorshift(u64);

impl Xorshift {
    /// The stream from state `x` (not zero: zero stays zero).
    pub const fn new(x: u64) -> Self {
        Xorshift(x)
    }

    /// The stream of any `seed`: spread by the golden-ratio multiplier
    /// and made odd, so never zero.
    pub const fn seeded(seed: u64) -> Self {
        Xorshift(seed.wrapping_mul(0x9e37_79b9_7f4a_7c15) | 1)
    }

    /// The next state.
    #[allow(clippy::should_implement_trait)] // an endless stream, not an iterator's `Option`
    pub fn next(&mut self) -> u64 {
        let mut x = self.0;
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        self.0 = x;
        x
    }
}
