//! Matchstick Tycoon (rules: `docs/rules/matchstick.md`), a climbing game played with
//! seven-segment cards that can be turned and completed with matchsticks.
//!
//! # Cards and hands
//! Card ids are `type * 4 + copy` for the 16 printed types of [`CardType`](crate::segments::CardType) (`0 1 2 3E 4 5 69 7 8 A b C d F`
//! are ids 0..=55; the expansion's G is 56.., H is 60..). Every card fits one `u64`, so a hand is a bitmask
//! and the cards of type `t` in a hand are the nibble `(hand >> 4t) & 0xF`.
//!
//! # Setup
//! The game's RNG (seeded with the setup seed) shuffles the deck, then picks the first player; cards are
//! dealt one at a time clockwise from the first player (15 each at 2–3 players unless `deal_all`, the
//! rest set aside unseen; the whole deck at 4–8). Everyone starts with one matchstick.
//!
//! # Moves
//! - `{"type": "play", "value": "8", "cards": [ids]}`, optionally with `"rotated": [bool per card]` and/or
//!   `"add": ["segments per card", ...]` (segment letters `a`..`g`). Turning a card never changes how many
//!   segments it lights, so a play is fully defined by the value shown and the multiset of printed types:
//!   its cost is `Σ min_cost` over its cards whatever the orientations. Each such play is listed once, with
//!   the lowest ids of each type in hand; any ids of the same types rank the same and are the ones that
//!   leave the hand. Given `rotated`/`add` details are checked exactly (the turned shape plus the added
//!   segments must be the value's glyph).
//! - `{"type": "pass"}`: take a matchstick (only when following, with cards in hand).
//! - `{"type": "discard_matchstick"}`: the forced turn of a player with no card but some matchsticks.
//!
//! # Legal-move order
//! 1. `pass`, when allowed (following);
//! 2. plays by card count (1..=5 when leading, the table's count when following), then by value in the
//!    normal strength order `0 1 … F G H` (whatever the revolution), then by the multiset of printed types,
//!    written as the sorted list of type indices and compared lexicographically (so `[0,0]` < `[0,3E]` <
//!    `[1,1]`: more copies of a lower type come first).
//!
//! A forced discard is the only move when it applies. The legal set is never built: per (count, value) the
//! number of type multisets within the matchstick budget is counted by a small dynamic programme over card
//! types (sizes ≤ 5, costs ≤ 25), cached for the player to act after every move, and unranked/ranked with
//! suffix tables of the same programme.

mod bot;
mod explain;
mod legal;
mod rules;
mod view;
mod wire;

use crate::error::GameError;
use crate::game::{Game, GameInfo, OptionKind, OptionSpec, Outcome, OutcomeKind, Seat, SeatSet, Setup};
use crate::json::write_array;
use crate::rng::Rng;
pub use legal::PlayNames;
use rules::*;
pub use rules::{Matchstick, MatchstickMove, PlayMove};
use serde_json::{json, Value as Json};

impl Game for Matchstick {
    type Move = MatchstickMove;

    fn info() -> GameInfo {
        GameInfo {
            name: "matchstick",
            title: "Matchstick Tycoon",
            min_players: 2,
            max_players: 8,
            default_players: 4,
            options: vec![
                OptionSpec {
                    name: "expansion",
                    kind: OptionKind::IntChoice(vec![0, 2, 4]),
                    default: json!(0),
                    doc: "copies of each expansion card G and H shuffled into the deck (0 = none)",
                    house_rules: false,
                },
                OptionSpec {
                    name: "deal_all",
                    kind: OptionKind::Bool,
                    default: json!(false),
                    doc: "at 2-3 players, deal the whole deck instead of 15 cards each (ignored at 4+)",
                    house_rules: true,
                },
            ],
            house_rules_players: Vec::new(),
            summary: "Climbing game with seven-segment cards: turn cards and add matchsticks to change \
                      their values, beat the table with the same number of cards, pass to take a \
                      matchstick, and be the first to empty your hand and your matchsticks.",
        }
    }

    fn new(setup: &Setup) -> Result<Self, GameError> {
        Self::deal_from(setup)
    }

    fn setup(&self) -> &Setup {
        &self.setup
    }

    fn to_act(&self) -> SeatSet {
        if self.legal.turn == Turn::Over {
            SeatSet::EMPTY
        } else {
            SeatSet::single(usize::from(self.current))
        }
    }

    /// Without building the outcome (the RL step asks after every move).
    fn is_over(&self) -> bool {
        self.legal.turn == Turn::Over
    }

    fn outcome(&self) -> Option<Outcome> {
        if self.legal.turn != Turn::Over {
            return None;
        }
        let n = usize::from(self.players);
        let order: Vec<Seat> = self.finish_order[..n].iter().map(|&s| usize::from(s)).collect();
        let scores: Vec<i64> = self.finish[..n].iter().map(|&p| i64::from(p)).collect();
        Some(Outcome {
            kind: OutcomeKind::Ranking,
            winners: vec![order[0]],
            scores,
            order,
            detail: json!({"revolution": self.revolution}),
        })
    }

    fn legal_count(&self, seat: Seat) -> usize {
        if self.legal.turn == Turn::Over || seat != usize::from(self.current) {
            0
        } else {
            self.legal.total as usize
        }
    }

    fn legal_move(&self, seat: Seat, index: usize) -> Option<MatchstickMove> {
        self.unrank_move(seat, index)
    }

    fn index_of(&self, seat: Seat, mv: &MatchstickMove) -> Option<usize> {
        self.rank_move(seat, mv)
    }

    fn explain(&self, seat: Seat, mv: &MatchstickMove) -> GameError {
        self.refusal(seat, mv)
    }

    fn apply_legal(&mut self, seat: Seat, mv: &MatchstickMove) {
        self.apply(seat, mv)
    }

    fn apply_index(&mut self, seat: Seat, index: usize) -> Result<(), GameError> {
        self.apply_ranked(seat, index)
    }

    fn write_move(&self, mv: &MatchstickMove, out: &mut String) {
        Self::write_move_json(mv, out)
    }

    fn move_from_json(&self, _seat: Seat, value: &Json) -> Result<MatchstickMove, GameError> {
        Self::parse_move(value)
    }

    fn write_public_view(&self, out: &mut String) {
        self.write_public(out);
    }

    fn write_private_view(&self, seat: Option<Seat>, out: &mut String) {
        self.write_private(seat, out);
    }

    fn events_are_public(&self) -> bool {
        true
    }

    fn write_events(&self, _seat: Option<Seat>, out: &mut String) {
        write_array(out, &self.events[..usize::from(self.event_count)], |out, event| event.write(out));
    }

    fn determinize(&self, observer: Option<Seat>, rng: &mut Rng) -> Self {
        self.determinized(observer, rng)
    }

    fn from_view(setup: &Setup, seat: Option<Seat>, view: &Json, rng: &mut Rng) -> Result<Self, GameError> {
        Self::read_view(setup, seat, view, rng)
    }

    fn state_json(&self) -> Json {
        self.saved_state()
    }

    fn heuristic_index(&self, seat: Seat, _rng: &mut Rng) -> usize {
        self.heuristic_choice(seat, _rng)
    }
}
