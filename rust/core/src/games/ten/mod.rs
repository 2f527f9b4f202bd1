//! TEN (AEG, 2021): push-your-luck drawing and auctions of wilds, scored by runs per colour.
//! Rules: `docs/rules/ten.md`.
//!
//! The rules engine (rules: `docs/rules/ten.md`, §4.3–§4.13).
//!
//! # Flow
//! A turn is a [`Phase::Draw`] loop (`draw` / `stop`). A drawn wild opens an [`Phase::Auction`] (one pass
//! starting left of the active player, who bids last) or, in the solo house variant, a
//! [`Phase::SoloOffer`]; the drawing phase then goes on. `stop` with cards in the tableau leads to
//! [`Phase::Prize`]; the NUMBERS prize leads to [`Phase::Buy`]. A bust ends the turn inside the `draw` move.
//! Once the turn that drew the last card ends, [`Phase::FinalBuy`] gives every seat one buy, starting left of
//! that turn's player, who goes last; then the game is over and scored.
//!
//! Every price (a market card, an auction win, a solo wild) is paid in [`Phase::Pay`], one piece per move.
//!
//! # Minimal payments (§4.7)
//! A payment of `t` tokens, `b` bust tokens and `c` collected cards is worth `t + 3b + c`. It is valid when it
//! covers the price and no single piece can be taken back while it still covers the price (taking back more
//! pieces only lowers the value, so single pieces are enough). Removing a token or card lowers the value by 1,
//! a bust token by 3, so the valid payments are exactly:
//! - **exact** payments (`t + 3b + c = price`), in any mix; and
//! - **bust tokens alone**, as many as it takes: `b = ceil(price / 3)`, the only way to overpay.
//!
//! A bust token paid next to any token or card must therefore land exactly: owing 2 with nothing paid yet,
//! `pay_bust` is legal (one bust token alone, 1 lost); owing 2 after one token of a price of 3, it is not
//! (token + bust = 4, and the token could be taken back). A `pay_*` move is legal only while something is owed
//! and only if the payment can still end valid with what the payer has left; the phase ends the moment the
//! price is covered. Entering the phase needs purchasing power (`tokens + 3·busts + cards`) of at least the
//! price, and that is also enough for a valid payment to exist.
//!
//! # Legal-move order
//! - `draw` (if the pile has cards), then `stop` (if the tableau holds a card, or the pile is empty);
//! - `prize numbers` then `prize currency`, each only when the tableau holds that kind;
//! - buy phases: `skip_buy`, then `buy` per buyable kind of market card (the lowest id of each colour and
//!   number, by id; any id of the same kind ranks the same);
//! - auctions: `pass_bid`, then `bid` from the lowest legal amount up to the bidder's purchasing power;
//! - solo offers: `decline_wild`, then `accept_wild` (if affordable);
//! - payments: `pay_token`, `pay_bust`, then `pay_card` per kind of collected card (lowest id of each kind;
//!   identical cards pay identically).
//!
//! A forced choice (the only prize present, `draw` with an empty tableau) is still a move of the player, so
//! every change of the state is one recorded decision.

mod bot;
pub mod cards;
mod explain;
mod legal;
mod rules;
pub mod scoring;
mod seat_scores;
mod table;
mod view;
mod wire;

use crate::error::GameError;
use crate::game::{Game, GameInfo, OptionKind, OptionSpec, Outcome, Search, Seat, SeatSet, Setup};
use crate::rng::Rng;
use bot::*;
pub use cards::CardSet;
use cards::TenData;
use rules::*;
pub use rules::{Phase, Prize, SeatState, Ten, TenMove, SOLO_NOTE};
use serde_json::{json, Value};
pub use view::{PublicPayment, PublicTable};

impl Game for Ten {
    type Move = TenMove;

    fn info() -> GameInfo {
        let data = TenData::embedded().ok();
        let default_target = data.map_or(Value::Null, |d| json!(d.solo_target_score_default));
        let best = data.map_or(40, |d| 4 * (9 + i64::from(d.perfect_run_bonus)));
        GameInfo {
            name: "ten",
            title: "TEN",
            min_players: 1,
            max_players: MAX_PLAYERS,
            default_players: 3,
            options: vec![OptionSpec {
                name: "solo_target",
                kind: OptionKind::Int { min: 1, max: best },
                default: default_target,
                doc: "Solo house variant only (1 player): the total score that wins. Ignored with 2–5 players.",
                house_rules: true,
            }],
            house_rules_players: vec![(1, SOLO_NOTE)],
            summary: "Push your luck: draw cards until you stop or bust (numbers minus currency, or currency, \
                      reaching 11), then take the numbers or the currency. Every wild drawn is auctioned. \
                      Score the longest run per colour; a full 1–9 run scores 10.",
        }
    }

    fn new(setup: &Setup) -> Result<Self, GameError> {
        Self::deal_from(setup)
    }

    fn setup(&self) -> &Setup {
        &self.setup
    }

    fn to_act(&self) -> SeatSet {
        self.actor().map_or(SeatSet::EMPTY, SeatSet::single)
    }

    /// Without building the outcome (the RL step asks after every move).
    fn is_over(&self) -> bool {
        self.phase == Phase::Over
    }

    fn outcome(&self) -> Option<Outcome> {
        self.result()
    }

    fn legal_count(&self, seat: Seat) -> usize {
        self.count_legal(seat)
    }

    fn legal_move(&self, seat: Seat, index: usize) -> Option<TenMove> {
        self.unrank_move(seat, index)
    }

    fn index_of(&self, seat: Seat, mv: &TenMove) -> Option<usize> {
        self.rank_move(seat, mv)
    }

    fn explain(&self, seat: Seat, mv: &TenMove) -> GameError {
        self.refusal(seat, mv)
    }

    fn apply_legal(&mut self, seat: Seat, mv: &TenMove) {
        self.apply(seat, mv)
    }

    fn write_move(&self, mv: &TenMove, out: &mut String) {
        wire::write_move(out, mv);
    }

    fn move_from_json(&self, _seat: Seat, value: &Value) -> Result<TenMove, GameError> {
        Self::parse_move(value)
    }

    fn write_public_view(&self, out: &mut String) {
        self.write_public(out);
    }

    /// Always `null`, as [`Ten::private_view`] is.
    fn write_private_view(&self, _seat: Option<Seat>, out: &mut String) {
        out.push_str("null");
    }

    fn write_events(&self, _seat: Option<Seat>, out: &mut String) {
        self.write_event_list(out);
    }

    /// TEN hides nothing but the draw pile's order, so every observer learns the same events.
    fn events_are_public(&self) -> bool {
        true
    }

    fn determinize(&self, _observer: Option<Seat>, rng: &mut Rng) -> Self {
        self.determinized(_observer, rng)
    }

    fn from_view(setup: &Setup, seat: Option<Seat>, view: &Value, rng: &mut Rng) -> Result<Self, GameError> {
        Self::read_view(setup, seat, view, rng)
    }

    fn state_json(&self) -> Value {
        self.saved_state()
    }

    fn heuristic_index(&self, seat: Seat, rng: &mut Rng) -> usize {
        self.heuristic(seat, rng)
    }

    /// The draw pile's order is the only hidden fact and a tree search spreads its costly playouts over
    /// many moves, so the search levels compare the candidates on the same shuffles instead. A playout is
    /// most of a game of about 330 moves and costs two iterations: `hard` then thinks about 0.5 s a move.
    const SEARCH: Search = Search::Flat { playout_cost: 2 };

    /// Payments are left to the heuristic (they are a third of the decisions and rarely change a
    /// result); an auction compares passing with the three lowest bids, which already lead it.
    fn search_candidates(&self, seat: Seat) -> Vec<usize> {
        let count = self.legal_count(seat);
        match self.phase {
            Phase::Pay => Vec::new(),
            Phase::Auction => (0..count.min(AUCTION_CANDIDATES)).collect(),
            _ => (0..count).collect(),
        }
    }
}
