//! Ranking multisets of kinds with per-kind caps, in a fixed order: by size, then by the sorted list of
//! kind positions compared lexicographically (more copies of an earlier kind first). Matchstick's play ids
//! use it for the multiset of printed types a play shows one value with.

/// Counting tables for multisets over `caps.len()` kinds, kind `i` at most `caps[i]` times, of sizes
/// `1..=max_size`.
#[derive(Clone, Debug)]
pub struct Multisets {
    caps: Vec<u8>,
    max_size: usize,
    /// `tail[i][r]`: multisets of exactly `r` items over kinds `i..`.
    tail: Vec<Vec<usize>>,
}

impl Multisets {
    /// The tables for `caps` and sizes up to `max_size`.
    pub fn new(caps: Vec<u8>, max_size: usize) -> Self {
        let n = caps.len();
        let mut tail = vec![vec![0usize; max_size + 1]; n + 1];
        tail[n][0] = 1;
        for i in (0..n).rev() {
            for r in 0..=max_size {
                tail[i][r] = (0..=usize::from(caps[i]).min(r)).map(|c| tail[i + 1][r - c]).sum();
            }
        }
        Multisets { caps, max_size, tail }
    }

    /// How many multisets of size `1..=max_size` there are.
    pub fn total(&self) -> usize {
        (1..=self.max_size).map(|k| self.tail[0][k]).sum()
    }

    /// The rank of the multiset with `copies[i]` of kind `i` (`None` when empty, too big or over a cap).
    pub fn rank(&self, copies: &[u8]) -> Option<usize> {
        let copies = &copies[..copies.len().min(self.caps.len())];
        if copies.iter().zip(&self.caps).any(|(c, cap)| c > cap) {
            return None;
        }
        let size: usize = copies.iter().map(|&c| usize::from(c)).sum();
        if size == 0 || size > self.max_size {
            return None;
        }
        let mut index: usize = (1..size).map(|k| self.tail[0][k]).sum();
        let mut left = size;
        for (i, &c) in copies.iter().enumerate() {
            let c = usize::from(c);
            // Multisets taking more copies of kind i (and the same before it) come first.
            for more in c + 1..=usize::from(self.caps[i]).min(left) {
                index += self.tail[i + 1][left - more];
            }
            left -= c;
        }
        Some(index)
    }

    /// The multiset of rank `index` as copies per kind (`None` past the end).
    pub fn unrank(&self, mut index: usize) -> Option<Vec<u8>> {
        let mut size = 1;
        while size <= self.max_size && index >= self.tail[0][size] {
            index -= self.tail[0][size];
            size += 1;
        }
        if size > self.max_size {
            return None;
        }
        let mut copies = vec![0u8; self.caps.len()];
        let mut left = size;
        for (i, slot) in copies.iter_mut().enumerate() {
            for c in (0..=usize::from(self.caps[i]).min(left)).rev() {
                let n = self.tail[i + 1][left - c];
                if index < n {
                    *slot = c as u8;
                    left -= c;
                    break;
                }
                index -= n;
            }
        }
        (left == 0).then_some(copies)
    }
}

#[cfg(test)]
mod tests {
    use super::Multisets;

    #[test]
    fn rank_and_unrank_are_inverse_and_ordered() {
        let sets = Multisets::new(vec![4, 2, 1, 4], 5);
        let mut previous: Option<Vec<u8>> = None;
        for index in 0..sets.total() {
            let copies = sets.unrank(index).expect("in range");
            assert_eq!(sets.rank(&copies), Some(index));
            if let Some(prev) = previous {
                let size = |c: &[u8]| c.iter().map(|&x| usize::from(x)).sum::<usize>();
                let list = |c: &[u8]| -> Vec<usize> {
                    c.iter().enumerate().flat_map(|(i, &n)| std::iter::repeat_n(i, usize::from(n))).collect()
                };
                assert!((size(&prev), list(&prev)) < (size(&copies), list(&copies)));
            }
            previous = Some(copies);
        }
        assert_eq!(sets.unrank(sets.total()), None);
        assert_eq!(sets.rank(&[0, 3, 0, 0]), None);
        assert_eq!(sets.rank(&[0, 0, 0, 0]), None);
    }
}
