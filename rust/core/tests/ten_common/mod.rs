//! Position builders and move helpers the TEN rule suites (`ten_rules.rs`, `ten_payments.rs`,
//! `ten_explain_and_views.rs`) share, so that a position means the same thing in each.
// Each suite is its own crate and uses part of these (and of the imports handed on).
#![allow(dead_code, unused_imports)]

pub use cardnet_core::games::ten::cards::{Colour, TenData, TenKind};
pub use cardnet_core::games::ten::{Phase, Ten};
pub use cardnet_core::rng::Rng;
pub use cardnet_core::{Game, GameError, Seat, Setup};
pub use serde_json::{json, Map, Value};

pub use Colour::{Blue, Green, Orange, Red};

pub fn data() -> &'static TenData {
    TenData::embedded().expect("the embedded data loads")
}

/// Hands out distinct card ids by kind, from the cards every deck holds first.
#[derive(Default)]
pub struct Pick {
    pub used: Vec<u8>,
}

impl Pick {
    pub fn kind(&mut self, kind: TenKind) -> u8 {
        let mut cards: Vec<_> = data().cards.iter().filter(|c| c.kind == kind && !self.used.contains(&c.id)).collect();
        cards.sort_by_key(|c| (c.min_players, c.id));
        let id = cards.first().unwrap_or_else(|| panic!("no card {kind:?} left")).id;
        self.used.push(id);
        id
    }
    pub fn n(&mut self, colour: Colour, value: u8) -> u8 {
        self.kind(TenKind::Number { colour, value })
    }
    pub fn c(&mut self, value: u8) -> u8 {
        self.kind(TenKind::Currency { value })
    }
    pub fn cw(&mut self, colour: Colour) -> u8 {
        self.kind(TenKind::ColourWild { colour })
    }
    pub fn nw(&mut self, value: u8) -> u8 {
        self.kind(TenKind::NumberWild { value })
    }
    pub fn any(&mut self) -> u8 {
        self.kind(TenKind::AnyWild)
    }
}

pub fn setup(players: usize, options: Value) -> Setup {
    let info = Ten::info();
    Setup { players, seed: 1, options: info.resolve_options(&options).unwrap() }
}

/// A position: `draw` in drawing order, per seat (tokens, bust tokens, collection), the market, the active seat.
pub fn position(players: usize, draw: &[u8], seats: &[(u8, u8, &[u8])], market: &[u8], active: Seat) -> Ten {
    let pile: Vec<u8> = draw.iter().rev().copied().collect();
    Ten::test_position(&setup(players, Value::Null), &pile, seats, market, active).unwrap()
}

pub fn play(g: &mut Ten, seat: Seat, mv: Value) -> Result<(), GameError> {
    let typed = g.move_from_json(seat, &mv)?;
    if g.index_of(seat, &typed).is_none() {
        return Err(g.explain(seat, &typed));
    }
    g.apply_legal(seat, &typed);
    Ok(())
}

pub fn ok(g: &mut Ten, seat: Seat, mv: Value) {
    if let Err(e) = play(g, seat, mv.clone()) {
        panic!("{mv} refused for seat {seat}: {e}");
    }
}

pub fn refused(g: &mut Ten, seat: Seat, mv: Value) -> &'static str {
    match play(g, seat, mv.clone()) {
        Ok(()) => panic!("{mv} was accepted for seat {seat}"),
        Err(e) => e.code(),
    }
}

pub fn legal(g: &Ten, seat: Seat) -> Vec<Value> {
    (0..g.legal_count(seat)).map(|i| g.move_to_json(&g.legal_move(seat, i).unwrap())).collect()
}

pub fn view(g: &Ten) -> Value {
    g.public_view()
}

pub fn tokens(g: &Ten) -> Vec<u64> {
    view(g)["seats"].as_array().unwrap().iter().map(|s| s["tokens"].as_u64().unwrap()).collect()
}

pub fn collection(g: &Ten, seat: Seat) -> Vec<u64> {
    view(g)["seats"][seat]["collection"].as_array().unwrap().iter().map(|c| c["id"].as_u64().unwrap()).collect()
}

pub fn market(g: &Ten) -> Vec<u64> {
    view(g)["market"].as_array().unwrap().iter().map(|c| c["id"].as_u64().unwrap()).collect()
}

pub fn draw(g: &mut Ten, seat: Seat) {
    ok(g, seat, json!({"type": "draw"}));
}

pub fn filler(p: &mut Pick) -> u8 {
    p.c(1)
}

/// A buy phase for seat 0 of a 2-player game: it stops on one red 1 (numbers prize) with the given
/// tokens, bust tokens, collection and market.
pub fn buy_phase(p: &mut Pick, tokens: u8, busts: u8, coll: &[u8], market: &[u8]) -> (Ten, u8) {
    let won = p.n(Red, 1);
    let cards = [won, filler(p)];
    let mut g = position(2, &cards, &[(tokens, busts, coll), (5, 0, &[])], market, 0);
    draw(&mut g, 0);
    ok(&mut g, 0, json!({"type": "stop"}));
    ok(&mut g, 0, json!({"type": "prize", "kind": "numbers"}));
    assert_eq!(g.phase(), Phase::Buy);
    (g, won)
}

/// Seat 0 in the buy phase of [`buy_phase`] with no collection, having chosen to buy the only market card,
/// a `colour` number of `value`: the payment is open. Returns the game and the card.
pub fn buying(colour: Colour, value: u8, tokens: u8, busts: u8) -> (Ten, u8) {
    let mut p = Pick::default();
    let card = p.n(colour, value);
    let (mut g, _) = buy_phase(&mut p, tokens, busts, &[], &[card]);
    ok(&mut g, 0, json!({"type": "buy", "card": card}));
    (g, card)
}

/// A buy phase of seat 0 for a market card of `price`, with `tokens` and `busts` and only the red 1 just won.
pub fn paying(price: u8, tokens: u8, busts: u8) -> Ten {
    buying(Green, price, tokens, busts).0
}
