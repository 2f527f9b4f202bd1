//! The project's own pseudo-random generator.
//!
//! Games must replay identically on every machine and every version, so the generator is written here
//! instead of borrowed from a crate whose output may change: SplitMix64 expands a `u64` seed into the
//! 256-bit state of xoshiro256**, bounded integers use Lemire's unbiased multiply-and-reject method, and
//! shuffles are Fisher–Yates driven by those bounded integers. Test vectors are committed in the tests.
//!
//! Batch seeds: game `i` of a batch started with seed `S` uses `derive(S, i)` (see [`derive()`]), so any
//! single game of a batch can be re-created on its own with `new_game(seed = derive(S, i))`.

/// One SplitMix64 step: advances `state` and returns the next output.
pub fn splitmix64(state: &mut u64) -> u64 {
    *state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
    let mut z = *state;
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// The seed of game `index` in a batch started with `seed`: the first SplitMix64 output of the state
/// `seed ^ (index * 0xD1B54A32D192ED03)`. `derive(seed, 0) != seed`, so a batch never repeats its parent.
pub fn derive(seed: u64, index: u64) -> u64 {
    let mut state = seed ^ index.wrapping_mul(0xD1B5_4A32_D192_ED03);
    splitmix64(&mut state)
}

/// xoshiro256** seeded through SplitMix64. Cloning copies the stream, which is what game states want.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Rng {
    s: [u64; 4],
}

impl Rng {
    /// A generator whose whole stream is fixed by `seed`.
    pub fn new(seed: u64) -> Self {
        let mut sm = seed;
        let s = [splitmix64(&mut sm), splitmix64(&mut sm), splitmix64(&mut sm), splitmix64(&mut sm)];
        Rng { s }
    }

    /// Restores a generator from [`Rng::state`]. An all-zero state is the one state xoshiro cannot leave,
    /// so it is refused.
    pub fn from_state(s: [u64; 4]) -> Option<Self> {
        if s == [0; 4] {
            None
        } else {
            Some(Rng { s })
        }
    }

    /// The internal state, for saving.
    pub fn state(&self) -> [u64; 4] {
        self.s
    }

    /// The state as 64 lower-case hex digits (JSON integers cannot carry u64 safely to every language).
    pub fn state_hex(&self) -> String {
        self.s.iter().map(|w| format!("{w:016x}")).collect()
    }

    /// Parses [`Rng::state_hex`] output.
    pub fn from_state_hex(text: &str) -> Option<Self> {
        if text.len() != 64 || !text.bytes().all(|b| b.is_ascii_hexdigit()) {
            return None;
        }
        let mut s = [0u64; 4];
        for (i, word) in s.iter_mut().enumerate() {
            *word = u64::from_str_radix(&text[i * 16..i * 16 + 16], 16).ok()?;
        }
        Rng::from_state(s)
    }

    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        let result = self.s[1].wrapping_mul(5).rotate_left(7).wrapping_mul(9);
        let t = self.s[1] << 17;
        self.s[2] ^= self.s[0];
        self.s[3] ^= self.s[1];
        self.s[1] ^= self.s[2];
        self.s[0] ^= self.s[3];
        self.s[2] ^= t;
        self.s[3] = self.s[3].rotate_left(45);
        result
    }

    /// A uniform integer in `0..bound` with no modulo bias (Lemire). `bound` must be positive; a zero
    /// bound returns 0 so callers never panic on an empty choice (they check emptiness themselves).
    pub fn below(&mut self, bound: u64) -> u64 {
        if bound == 0 {
            return 0;
        }
        let mut m = (self.next_u64() as u128) * (bound as u128);
        let mut low = m as u64;
        if low < bound {
            let threshold = bound.wrapping_neg() % bound;
            while low < threshold {
                m = (self.next_u64() as u128) * (bound as u128);
                low = m as u64;
            }
        }
        (m >> 64) as u64
    }

    /// A uniform index in `0..len` (`len > 0`).
    pub fn index(&mut self, len: usize) -> usize {
        self.below(len as u64) as usize
    }

    /// Fisher–Yates shuffle, from the last position down.
    pub fn shuffle<T>(&mut self, items: &mut [T]) {
        for i in (1..items.len()).rev() {
            let j = self.index(i + 1);
            items.swap(i, j);
        }
    }

    /// A fresh generator split off this one (for sub-streams such as a determinization).
    pub fn fork(&mut self) -> Rng {
        Rng::new(self.next_u64())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn splitmix_reference_vector() {
        // First outputs of SplitMix64 from state 0 (the published reference values).
        let mut s = 0u64;
        assert_eq!(splitmix64(&mut s), 0xE220_A839_7B1D_CDAF);
        assert_eq!(splitmix64(&mut s), 0x6E78_9E6A_A1B9_65F4);
        assert_eq!(splitmix64(&mut s), 0x06C4_5D18_8009_454F);
    }

    #[test]
    fn state_hex_round_trips() {
        let mut r = Rng::new(42);
        r.next_u64();
        let back = Rng::from_state_hex(&r.state_hex()).unwrap();
        assert_eq!(back, r);
        assert!(Rng::from_state_hex(&"0".repeat(64)).is_none());
        assert!(Rng::from_state_hex("xyz").is_none());
    }

    #[test]
    fn below_stays_in_range_and_covers_it() {
        let mut r = Rng::new(7);
        let mut seen = [0u32; 7];
        for _ in 0..7000 {
            let v = r.below(7) as usize;
            seen[v] += 1;
        }
        assert!(seen.iter().all(|&c| c > 800 && c < 1200), "{seen:?}");
        assert_eq!(r.below(0), 0);
        assert_eq!(r.below(1), 0);
    }

    #[test]
    fn shuffle_is_a_permutation() {
        let mut r = Rng::new(3);
        let mut v: Vec<u32> = (0..50).collect();
        r.shuffle(&mut v);
        let mut sorted = v.clone();
        sorted.sort();
        assert_eq!(sorted, (0..50).collect::<Vec<_>>());
        assert_ne!(v, sorted);
    }

    #[test]
    fn derive_differs_per_index() {
        assert_ne!(derive(1, 0), derive(1, 1));
        assert_ne!(derive(1, 0), 1);
        assert_eq!(derive(5, 9), derive(5, 9));
    }
}
