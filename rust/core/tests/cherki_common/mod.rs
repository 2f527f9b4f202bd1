//! Position builders and move helpers the Cherki rule suites (`cherki_rules.rs`, `cherki_moves_and_views.rs`)
//! share, so that a position means the same thing in each.
// Each suite is its own crate and uses part of these (and of the imports handed on).
#![allow(dead_code, unused_imports)]

pub use cardnet_core::games::cherki::{
    card_json, card_kind, card_name, card_points, card_words, kind_name, ready_pair_kind, red_stamp, Cherki,
    CherkiMove, Phase, DECK_SIZE,
};
pub use cardnet_core::rng::Rng;
pub use cardnet_core::{Game, GameError, OutcomeKind, Setup};
pub use serde_json::{json, Value};

pub const WF: usize = 27;
pub const RF: usize = 28;
pub const OT: usize = 29;

/// Face index of a coins / strings / myriads card of rank `r`.
pub fn coins(r: usize) -> usize {
    r - 1
}
pub fn strings(r: usize) -> usize {
    8 + r
}
pub fn myriads(r: usize) -> usize {
    17 + r
}

/// Hands out distinct card ids: the next unused copy of a face.
pub struct Cards {
    pub used: [u8; 30],
}

impl Cards {
    pub fn new() -> Self {
        Cards { used: [0; 30] }
    }
    pub fn take(&mut self, face: usize) -> u8 {
        let copy = self.used[face];
        assert!(copy < 4, "face {face} used up");
        self.used[face] += 1;
        (face * 4) as u8 + copy
    }
    pub fn many(&mut self, faces: &[usize]) -> Vec<u8> {
        faces.iter().map(|&f| self.take(f)).collect()
    }
}

pub fn setup(players: usize, seed: u64, deals: u64) -> Setup {
    Setup { players, seed, options: json!({"deals": deals}).as_object().cloned().unwrap_or_default() }
}

pub fn legal(game: &Cherki, seat: usize) -> Vec<Value> {
    (0..game.legal_count(seat)).filter_map(|i| game.legal_move(seat, i)).map(|m| game.move_to_json(&m)).collect()
}

/// Plays a JSON move the way a session does: parse, look up, explain a refusal.
pub fn play(game: &mut Cherki, seat: usize, mv: Value) -> Result<(), GameError> {
    let typed = game.move_from_json(seat, &mv)?;
    match game.index_of(seat, &typed) {
        Some(_) => {
            game.apply_legal(seat, &typed);
            Ok(())
        }
        None => Err(game.explain(seat, &typed)),
    }
}

pub fn refused(game: &mut Cherki, seat: usize, mv: Value) -> &'static str {
    match play(game, seat, mv) {
        Err(GameError::IllegalMove { code, .. }) => code,
        other => panic!("expected a refusal, got {other:?}"),
    }
}

pub fn event_types(game: &Cherki, seat: Option<usize>) -> Vec<String> {
    game.events(seat).iter().map(|e| e["type"].as_str().unwrap_or("").to_string()).collect()
}

/// A hand of 8 that is not ready and holds no pair of 4s, 6s or 8s (used for bystanders).
pub fn junk(cards: &mut Cards) -> Vec<u8> {
    cards.many(&[coins(1), coins(2), strings(3), myriads(4), coins(5), strings(6), WF, OT])
}

/// Three players: seat 0 holds 7-7-7 9-9-9 RF-RF (ready, pair kind Red Flower), the others junk;
/// the stock (top first) is `stock` plus filler; seat 0 to act, dealer seat 2.
pub fn example_position(stock_top: &[usize], deals: u8) -> (Cherki, Vec<u8>) {
    let mut cards = Cards::new();
    let ready = cards.many(&[coins(7), strings(7), myriads(7), coins(9), strings(9), myriads(9), RF, RF]);
    let a = junk(&mut cards);
    let b = cards.many(&[coins(1), coins(2), strings(3), myriads(4), coins(5), strings(6), WF, OT]);
    let mut stock = cards.many(stock_top);
    stock.extend(cards.many(&[coins(3), coins(4), myriads(1), myriads(2), strings(1), strings(2)]));
    let game = Cherki::test_position(&[ready.clone(), a, b], &stock, 2, 0, None, deals, 1).expect("position");
    (game, ready)
}

pub fn faces_ready(faces: &[usize]) -> Option<&'static str> {
    let mut cards = Cards::new();
    ready_pair_kind(&cards.many(faces)).map(kind_name)
}

/// The move of a player who never keeps a card: draw from the stock, then discard the card drawn.
pub fn draw_or_discard_drawn(game: &Cherki, seat: usize) -> Value {
    if game.phase() == Phase::Start {
        json!({"type": "draw_stock"})
    } else {
        json!({"type": "discard", "card": game.view(Some(seat))["private"]["drawn"]})
    }
}

/// `seat` draws from the stock and discards the card at `at` in its hand as `Cherki::hand` lists it;
/// returns that card.
pub fn draw_and_discard(game: &mut Cherki, seat: usize, at: usize) -> u8 {
    play(game, seat, json!({"type": "draw_stock"})).expect("draw");
    let card = game.hand(seat)[at];
    play(game, seat, json!({"type": "discard", "card": card})).expect("discard");
    card
}
