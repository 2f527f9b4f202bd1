//! Cherki, the CARDAVIA version (rules: `docs/rules/cherki.md`): draw and discard until a called
//! hand of two triples and a pair completes its third triple.
//!
//! # Cards
//! 120 cards, ids `0..120`: `face = id / 4`, four interchangeable copies per face (`id % 4`).
//! Faces `0..9` are Coins 1–9, `9..18` Strings 1–9, `18..27` Myriads 1–9, then `27` White Flower,
//! `28` Red Flower, `29` Old Thousand. Names: `coins-7`, `strings-9`, `myriads-1`, `white-flower`,
//! `red-flower`, `old-thousand` ([`card_name`]). Strings 9, Red Flower and Old Thousand carry the red
//! stamp ([`red_stamp`], display only).
//!
//! A card's **kind** ([`card_kind`]) is its rank for number cards (kinds `0..9` = ranks 1–9, any suit)
//! and the honour itself for honours (kinds 9, 10, 11); in JSON a kind is a string: `"1"`…`"9"`,
//! `"white-flower"`, `"red-flower"`, `"old-thousand"` ([`kind_name`]).
//!
//! # Moves and their order
//! `{"type":"draw_stock"}`, `{"type":"take_discard"}`, `{"type":"discard","card":id}` (optionally with
//! `"call":true`) and `{"type":"call"}`. The legal moves are listed in this order:
//! - before drawing: `draw_stock`, then `take_discard` when allowed, then `call` when the hand is ready
//!   and not yet called;
//! - after drawing, not called: one `discard` per card id in hand in increasing id order (never the card
//!   just taken from the discard pile), then one `discard` with `"call":true` per such card whose
//!   removal leaves a ready hand, again by increasing id;
//! - after drawing, called: the single `discard` of the card just drawn.
//!
//! # Choices where the rules leave room
//! - The no-stalling rule (3.7, decision 11: no taking the discard two turns running) binds players who
//!   have not called. A called player may take only a discard of the pair kind, which wins and ends the
//!   deal, so it cannot stall: such a take stays legal even right after a take (3.8).
//! - Winning is automatic: a called player who draws or takes a card of the locked pair kind wins at once
//!   and the deal ends without a discard.
//! - With `deals` > 1 the next deal is dealt as soon as one ends (shuffled from the game's own RNG); the
//!   finished deal stays visible as `last_deal`.
//! - Outcome: if every cumulative score is 0 (a single drawn deal, or only drawn deals) the game is a
//!   `draw`; otherwise a `settlement` whose winners are the seats sharing the top cumulative score
//!   (which is then above 0, since settlements sum to zero).

mod bot;
mod cards;
mod discard_log;
mod explain;
mod legal;
mod rules;
mod view;
mod wire;

use crate::error::GameError;
use crate::game::{
    Game, GameInfo, LevelPlay, Levels, OptionKind, OptionSpec, Outcome, OutcomeKind, Search, Seat, SeatSet, Setup,
};
use crate::rng::Rng;
use cards::*;
pub use cards::{
    card_json, card_kind, card_name, card_points, card_words, kind_name, ready_pair_kind, red_stamp, DECK_SIZE,
    HAND_SIZE, KINDS,
};
pub use rules::{Cherki, CherkiMove, Phase};
use serde_json::{json, Value};

impl Game for Cherki {
    type Move = CherkiMove;

    fn info() -> GameInfo {
        GameInfo {
            name: "cherki",
            title: "Cherki",
            min_players: 2,
            max_players: MAX_PLAYERS,
            default_players: 3,
            options: vec![OptionSpec {
                name: "deals",
                kind: OptionKind::Int { min: 1, max: 20 },
                default: json!(1),
                doc: "Deals to play; scores add up over the deals and the dealer moves one seat clockwise.",
                house_rules: false,
            }],
            house_rules_players: Vec::new(),
            summary: "Malaysian money cards: draw from the stock or take the last discard, discard back to \
                      eight, call Cherki with two triples and a pair, then win by drawing or taking the card \
                      that completes the third triple. Each opponent pays the winner the hand's points.",
        }
    }

    fn new(setup: &Setup) -> Result<Self, GameError> {
        Self::deal_from(setup)
    }

    fn setup(&self) -> &Setup {
        &self.setup
    }

    fn to_act(&self) -> SeatSet {
        if self.phase == Phase::Over {
            SeatSet::EMPTY
        } else {
            SeatSet::single(self.turn as usize)
        }
    }

    /// Without building the outcome (the RL step asks after every move).
    fn is_over(&self) -> bool {
        self.phase == Phase::Over
    }

    fn outcome(&self) -> Option<Outcome> {
        if self.phase != Phase::Over {
            return None;
        }
        let scores = self.scores[..self.players].to_vec();
        let top = scores.iter().copied().max().unwrap_or(0);
        let mut order: Vec<Seat> = (0..self.players).collect();
        order.sort_by_key(|&s| std::cmp::Reverse(scores[s]));
        let (kind, winners) = if scores.iter().all(|&s| s == 0) {
            (OutcomeKind::Draw, Vec::new())
        } else {
            (OutcomeKind::Settlement, (0..self.players).filter(|&s| scores[s] == top).collect())
        };
        let results: Vec<Value> = self.results.iter().map(|r| r.written(self.players)).collect();
        Some(Outcome { kind, winners, scores, order, detail: json!({"deals": results}) })
    }

    fn legal_count(&self, seat: Seat) -> usize {
        if !self.acting(seat) {
            return 0;
        }
        match self.phase {
            Phase::Start => {
                let take = self.can_take(seat) as usize;
                let call = (!self.called[seat] && self.hand_ready_kind(seat).is_some()) as usize;
                1 + take + call
            }
            Phase::Drawn if self.called[seat] => 1,
            Phase::Drawn => {
                self.discardable(seat).count_ones() as usize + self.callable_discards(seat).count_ones() as usize
            }
            Phase::Over => 0,
        }
    }

    fn legal_move(&self, seat: Seat, index: usize) -> Option<CherkiMove> {
        self.unrank_move(seat, index)
    }

    fn index_of(&self, seat: Seat, mv: &CherkiMove) -> Option<usize> {
        self.rank_move(seat, mv)
    }

    fn explain(&self, seat: Seat, mv: &CherkiMove) -> GameError {
        self.refusal(seat, mv)
    }

    fn apply_legal(&mut self, seat: Seat, mv: &CherkiMove) {
        self.apply(seat, mv)
    }

    fn write_move(&self, mv: &CherkiMove, out: &mut String) {
        wire::write_move(out, mv);
    }

    fn move_from_json(&self, _seat: Seat, value: &Value) -> Result<CherkiMove, GameError> {
        Self::parse_move(value)
    }

    fn write_public_view(&self, out: &mut String) {
        self.write_public(out);
    }

    fn write_private_view(&self, seat: Option<Seat>, out: &mut String) {
        self.write_private(seat, out);
    }

    fn write_events(&self, seat: Option<Seat>, out: &mut String) {
        crate::json::write_array(out, &self.events, |out, event| self.write_event(event, seat, out));
    }

    fn determinize(&self, observer: Option<Seat>, rng: &mut Rng) -> Self {
        self.determinized(observer, rng)
    }

    fn from_view(setup: &Setup, seat: Option<Seat>, view: &Value, rng: &mut Rng) -> Result<Self, GameError> {
        Self::read_view(setup, seat, view, rng)
    }

    fn state_json(&self) -> Value {
        self.saved_state()
    }

    /// A single deal turns on the draw, so a tree search spreads its playouts too thin: the search levels
    /// compare a few candidate moves on the same sampled deals instead.
    const SEARCH: Search = Search::Flat { playout_cost: 1 };

    /// A deal is mostly the draw, so the search can rise little above the rule of thumb (+25 Elo against
    /// two heuristic players): the levels are spread below it instead, by how often a player misses what
    /// a careful one would see. The arena scores a game pair by pair and the two losers of a deal pay the
    /// same, so 100 Elo between two levels takes 28 points of win share between them: with one move in
    /// five at random `normal` wins 32 % of the deals at a table of the three levels, with four in five
    /// `easy` 2 %, the search 66 % (−121, −7, +127 Elo over 360 games; README, "Levels by Elo").
    const LEVELS: Levels = Levels {
        easy: LevelPlay::Careless { random_percent: 80 },
        normal: LevelPlay::Careless { random_percent: 20 },
        hard: LevelPlay::Search { iterations: Levels::STANDARD_HARD },
    };

    /// The card-counting player's move ([`Cherki::counting_index`]).
    fn search_default_index(&self, seat: Seat, _rng: &mut Rng) -> usize {
        self.counting_index(seat)
    }

    fn search_candidates(&self, seat: Seat) -> Vec<usize> {
        self.counting_candidates(seat)
    }

    fn heuristic_index(&self, seat: Seat, _rng: &mut Rng) -> usize {
        self.heuristic_choice(seat, _rng)
    }
}
