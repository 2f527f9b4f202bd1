//! Each seat's score, remembered from the first time it is asked for until that seat's collection
//! changes. A score costs a search over wild placements (microseconds), a collection changes a few times
//! a game, and an observer (the RL observation) asks for every seat's score at every move.
//!
//! The memory is derived data: an entry is either unknown or the score of the collection it was computed
//! from, because every change of a collection forgets its seat's entry. A clone copies what is known, and
//! a state rebuilt from a view or a save starts with nothing known, so all of them answer as a fresh
//! computation would. The entries are atomics so that a shared `&Ten` may fill them (the RL batches are
//! `Sync`); relaxed loads and stores are plain moves on the targets the project builds for.

use std::sync::atomic::{AtomicU16, Ordering};

/// No score remembered (no collection scores anywhere near it).
const UNKNOWN: u16 = u16::MAX;

/// The remembered score of each of `N` seats.
pub(super) struct SeatScores<const N: usize>([AtomicU16; N]);

impl<const N: usize> SeatScores<N> {
    /// Nothing known.
    pub(super) fn new() -> Self {
        SeatScores(std::array::from_fn(|_| AtomicU16::new(UNKNOWN)))
    }

    /// Forgets `seat`'s score (its collection changed).
    pub(super) fn forget(&mut self, seat: usize) {
        if let Some(entry) = self.0.get_mut(seat) {
            *entry.get_mut() = UNKNOWN;
        }
    }

    /// Forgets every seat's score.
    pub(super) fn forget_all(&mut self) {
        for entry in &mut self.0 {
            *entry.get_mut() = UNKNOWN;
        }
    }

    /// `seat`'s score, computed by `compute` only when not remembered.
    pub(super) fn get_or(&self, seat: usize, compute: impl FnOnce() -> u16) -> u16 {
        let Some(entry) = self.0.get(seat) else { return compute() };
        let known = entry.load(Ordering::Relaxed);
        if known != UNKNOWN {
            return known;
        }
        let score = compute();
        entry.store(score, Ordering::Relaxed);
        score
    }
}

impl<const N: usize> Clone for SeatScores<N> {
    fn clone(&self) -> Self {
        SeatScores(std::array::from_fn(|s| AtomicU16::new(self.0[s].load(Ordering::Relaxed))))
    }
}

/// Prints the remembered scores, `None` for the unknown ones.
impl<const N: usize> std::fmt::Debug for SeatScores<N> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let known = self.0.iter().map(|e| Some(e.load(Ordering::Relaxed)).filter(|&s| s != UNKNOWN));
        f.debug_list().entries(known).finish()
    }
}

#[cfg(test)]
mod tests {
    use super::SeatScores;

    #[test]
    fn computes_once_until_forgotten() {
        let mut scores = SeatScores::<2>::new();
        assert_eq!(scores.get_or(0, || 7), 7);
        assert_eq!(scores.get_or(0, || unreachable!("remembered")), 7);
        assert_eq!(scores.clone().get_or(0, || unreachable!("copied")), 7);
        scores.forget(0);
        assert_eq!(scores.get_or(0, || 9), 9);
        assert_eq!(scores.get_or(1, || 3), 3);
        scores.forget_all();
        assert_eq!(scores.get_or(1, || 4), 4);
        assert_eq!(scores.get_or(5, || 2), 2, "a seat out of range is computed every time");
    }
}
