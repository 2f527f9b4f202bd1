//! The deal's discard history, with per-seat counts by face kept as entries are added and taken, so a
//! reader (the RL observation) need not walk the whole history. The counts are derived data: every way
//! of changing the history goes through [`DiscardLog`], so a clone or a log rebuilt from a view has the
//! same counts as the game it came from.

use super::cards::{DECK_SIZE, MAX_PLAYERS, NONE};

/// Faces of the deck: the four copies of a face are cards `4f..4f + 4`.
pub(super) const FACES: usize = DECK_SIZE / 4;

/// One discard of the current deal, in order.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct DiscardEntry {
    pub(super) card: u8,
    pub(super) seat: u8,
    /// The seat that took it from the pile, `NONE` while it lies there.
    pub(super) taken_by: u8,
}

/// The history and, per seat, how many cards of each face it discarded and took this deal. A seat
/// discards at most once a turn and a deal has fewer than 2 × 255 turns, shared by at least two seats,
/// so a count fits a byte.
#[derive(Clone)]
pub(super) struct DiscardLog {
    entries: Vec<DiscardEntry>,
    discarded: [[u8; FACES]; MAX_PLAYERS],
    taken: [[u8; FACES]; MAX_PLAYERS],
}

impl DiscardLog {
    pub(super) fn new() -> Self {
        DiscardLog {
            entries: Vec::with_capacity(128),
            discarded: [[0; FACES]; MAX_PLAYERS],
            taken: [[0; FACES]; MAX_PLAYERS],
        }
    }

    pub(super) fn clear(&mut self) {
        self.entries.clear();
        self.discarded = [[0; FACES]; MAX_PLAYERS];
        self.taken = [[0; FACES]; MAX_PLAYERS];
    }

    /// Adds an entry, counted for its discarder and, when already taken, for its taker.
    pub(super) fn push(&mut self, entry: DiscardEntry) {
        let face = usize::from(entry.card) / 4;
        count(&mut self.discarded, entry.seat, face);
        if entry.taken_by != NONE {
            count(&mut self.taken, entry.taken_by, face);
        }
        self.entries.push(entry);
    }

    /// Marks the last discard taken by `seat`; returns it as it was, `None` when the history is empty.
    pub(super) fn take_last(&mut self, seat: u8) -> Option<DiscardEntry> {
        let last = self.entries.last_mut()?;
        let before = *last;
        last.taken_by = seat;
        count(&mut self.taken, seat, usize::from(before.card) / 4);
        Some(before)
    }

    pub(super) fn entries(&self) -> &[DiscardEntry] {
        &self.entries
    }

    pub(super) fn last(&self) -> Option<&DiscardEntry> {
        self.entries.last()
    }

    /// How many cards of each face `seat` discarded this deal.
    pub(super) fn discarded_by(&self, seat: usize) -> Option<&[u8; FACES]> {
        self.discarded.get(seat)
    }

    /// How many cards of each face `seat` took from the pile this deal.
    pub(super) fn taken_by(&self, seat: usize) -> Option<&[u8; FACES]> {
        self.taken.get(seat)
    }
}

fn count(rows: &mut [[u8; FACES]; MAX_PLAYERS], seat: u8, face: usize) {
    if let Some(n) = rows.get_mut(usize::from(seat)).and_then(|row| row.get_mut(face)) {
        *n = n.saturating_add(1);
    }
}

/// Prints as the plain list of entries, as the history was printed before it carried counts.
impl std::fmt::Debug for DiscardLog {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        self.entries.fmt(f)
    }
}
