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
    /// `first[k]`: the rank of the first multiset of size `k`.
    first: Vec<usize>,
    /// `skip[(i * stride + c) * (max_size + 1) + left]`: the multisets that come before those taking
    /// `c` copies of kind `i` with `left` items still to place (the ones taking more of it), so a rank is
    /// one lookup per kind.
    skip: Vec<u32>,
    /// One more than the largest cap.
    stride: usize,
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
        let first = (0..=max_size).map(|k| (1..k).map(|j| tail[0][j]).sum()).collect();
        let stride = caps.iter().map(|&c| usize::from(c)).max().unwrap_or(0) + 1;
        let mut skip = vec![0u32; n * stride * (max_size + 1)];
        for (i, &cap) in caps.iter().enumerate() {
            for c in 0..=usize::from(cap) {
                for left in 0..=max_size {
                    let before: usize = (c + 1..=usize::from(cap).min(left)).map(|more| tail[i + 1][left - more]).sum();
                    skip[(i * stride + c) * (max_size + 1) + left] = before as u32;
                }
            }
        }
        Multisets { caps, max_size, tail, first, skip, stride }
    }

    /// How many multisets of size `1..=max_size` there are.
    pub fn total(&self) -> usize {
        (1..=self.max_size).map(|k| self.tail[0][k]).sum()
    }

    /// The rank of the multiset with `copies[i]` of kind `i` (`None` when empty, too big or over a cap).
    pub fn rank(&self, copies: &[u8]) -> Option<usize> {
        self.rank_of(copies.len().min(self.caps.len()), |i| copies[i])
    }

    /// The rank of the multiset with `copies(i)` of kind `i` for the kinds `0..kinds`, none of the others.
    #[inline]
    pub fn rank_of(&self, kinds: usize, copies: impl Fn(usize) -> u8) -> Option<usize> {
        let kinds = kinds.min(self.caps.len());
        let mut size = 0;
        for i in 0..kinds {
            let c = copies(i);
            if c > self.caps[i] {
                return None;
            }
            size += usize::from(c);
        }
        if size == 0 || size > self.max_size {
            return None;
        }
        let mut index = self.first[size];
        let mut left = size;
        let row = self.max_size + 1;
        for i in 0..kinds {
            let c = usize::from(copies(i));
            index += self.skip[(i * self.stride + c) * row + left] as usize;
            left -= c;
            if left == 0 {
                break;
            }
        }
        Some(index)
    }

    /// The rank of the first multiset of `size` items (`1..=max_size`).
    pub fn first_of_size(&self, size: usize) -> usize {
        self.first[size]
    }

    /// What kind `i` taken `c ≥ 1` times, with `left` items still to place, adds to a rank: the rank of a
    /// multiset is [`Multisets::first_of_size`] plus the parts of the kinds it takes, in kind order, summed
    /// with wrapping (a part may be negative). An enumeration in kind order can so rank as it builds.
    pub fn part(&self, i: usize, c: usize, left: usize) -> u32 {
        // The rank adds `skip(q, c_q, left_q)` for every kind q; the kinds left out between two taken
        // ones add `skip(q, 0, left)` at a constant `left`, so each taken kind adds those before it and
        // takes back those after it, which the next taken kind adds (none remain once `left` is 0).
        let skip = |q: usize, c: usize, left: usize| self.skip[(q * self.stride + c) * (self.max_size + 1) + left];
        let zeros_before = |p: usize, left: usize| (0..p).map(|q| skip(q, 0, left)).sum::<u32>();
        zeros_before(i, left).wrapping_add(skip(i, c, left)).wrapping_sub(zeros_before(i + 1, left - c))
    }

    /// Writes the multiset of rank `index` as copies per kind into `copies` (one slot per kind); `None`
    /// past the end.
    pub fn unrank(&self, mut index: usize, copies: &mut [u8]) -> Option<()> {
        let mut size = 1;
        while size <= self.max_size && index >= self.tail[0][size] {
            index -= self.tail[0][size];
            size += 1;
        }
        if size > self.max_size {
            return None;
        }
        let mut left = size;
        for (i, slot) in copies.iter_mut().enumerate().take(self.caps.len()) {
            *slot = 0;
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
        (left == 0).then_some(())
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
            let mut copies = vec![0u8; 4];
            sets.unrank(index, &mut copies).expect("in range");
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
        assert_eq!(sets.unrank(sets.total(), &mut [0; 4]), None);
        assert_eq!(sets.rank(&[0, 3, 0, 0]), None);
        assert_eq!(sets.rank(&[0, 0, 0, 0]), None);
    }

    #[test]
    fn parts_add_up_to_the_rank() {
        let sets = Multisets::new(vec![4, 2, 1, 4, 3], 5);
        for index in 0..sets.total() {
            let mut copies = [0u8; 5];
            sets.unrank(index, &mut copies).expect("in range");
            let size: usize = copies.iter().map(|&c| usize::from(c)).sum();
            let mut left = size;
            let mut rank = sets.first_of_size(size) as u32;
            for (i, &c) in copies.iter().enumerate().filter(|(_, &c)| c > 0) {
                rank = rank.wrapping_add(sets.part(i, usize::from(c), left));
                left -= usize::from(c);
            }
            assert_eq!(rank as usize, index, "{copies:?}");
        }
    }
}
