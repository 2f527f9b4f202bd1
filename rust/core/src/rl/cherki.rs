//! Cherki as an RL game.
//!
//! **Action ids** (layout 1, 63 ids): `0` = `draw_stock`, `1` = `take_discard`, `2` = `call`,
//! `3 + f` = discard a card of face `f` (`f = id / 4`, 30 faces), `33 + f` = discard a card of face `f` and
//! call. The four copies of a face are one action; the move applied is the engine's first legal one
//! (the lowest card id of that face that may be discarded).
//!
//! **Observation** (seat-relative): own hand as counts per face (/4), the card drawn this turn, own and
//! ready pair kinds, the top discard and who threw it, per seat the faces discarded this deal and the
//! faces publicly taken from the pile (/4), hand sizes, called and took-last flags, turn, dealer, scores
//! (/100), stock (/120), deal number.

use super::encode::{boolean, num, relative, uint, Encoder};
use super::RlGame;
use crate::game::{Game, Seat, Setup};
use crate::games::cherki::{card_json, card_kind, kind_name, Cherki, CherkiMove, Phase, DECK_SIZE, HAND_SIZE, KINDS};
use serde_json::Value;

const FACES: usize = DECK_SIZE / 4;
const DISCARD: usize = 3;
const DISCARD_CALL: usize = DISCARD + FACES;
const PHASES: [&str; 3] = ["start", "drawn", "over"];

/// The card ids of a mask, ascending.
fn cards(mut mask: u128) -> impl Iterator<Item = u8> {
    std::iter::from_fn(move || {
        let card = mask.trailing_zeros();
        mask &= mask.wrapping_sub(1);
        (card < 128).then_some(card as u8)
    })
}

/// The faces with at least one card in a card mask, ascending.
fn faces(mut mask: u128) -> impl Iterator<Item = usize> {
    std::iter::from_fn(move || {
        let f = mask.trailing_zeros() as usize / 4;
        mask &= !(0xF << (4 * f.min(31)));
        (f < FACES).then_some(f)
    })
}

fn kind_of(name: &Value) -> Option<usize> {
    let name = name.as_str()?;
    (0..KINDS).find(|&k| kind_name(k) == name)
}

impl RlGame for Cherki {
    fn action_space_size(_setup: &Setup) -> usize {
        DISCARD_CALL + FACES
    }

    fn action_id(_setup: &Setup, mv: &CherkiMove) -> Option<usize> {
        match *mv {
            CherkiMove::DrawStock => Some(0),
            CherkiMove::TakeDiscard => Some(1),
            CherkiMove::Call => Some(2),
            CherkiMove::Discard { card, call } => {
                let face = usize::from(card) / 4;
                (face < FACES).then_some(if call { DISCARD_CALL } else { DISCARD } + face)
            }
        }
    }

    fn encode_view(setup: &Setup, seat: Seat, view: &Value, enc: &mut Encoder<'_>) {
        let (public, private) = (&view["public"], &view["private"]);
        let players = setup.players;
        let rel = |s: usize| relative(s, seat, players);
        let face = |c: &Value| c.as_u64().map(|c| c as usize / 4);
        let hand: Vec<usize> = private["hand"].as_array().into_iter().flatten().filter_map(face).collect();
        enc.counts("hand", hand, FACES, 0.25);
        enc.one_hot("drawn", face(&private["drawn"]), FACES);
        enc.one_hot("pair_kind", kind_of(&private["pair_kind"]), KINDS);
        enc.flag("ready", boolean(private, "ready"));
        enc.one_hot("ready_pair_kind", kind_of(&private["ready_pair_kind"]), KINDS);
        enc.flag("can_take", boolean(private, "can_take"));
        let top = &public["top_discard"];
        enc.one_hot("top_discard", face(&top["card"]), FACES);
        enc.one_hot("top_discard_seat", uint(top, "seat").map(rel), players);
        enc.flag("top_discard_takeable", boolean(top, "takeable"));
        let discards: Vec<&Value> = public["discards"].as_array().into_iter().flatten().collect();
        for r in 0..players {
            let mine = discards.iter().filter(|d| uint(d, "seat").map(rel) == Some(r)).filter_map(|d| face(&d["card"]));
            enc.counts("discarded", mine.collect::<Vec<_>>(), FACES, 0.25);
        }
        for r in 0..players {
            let taken =
                discards.iter().filter(|d| uint(d, "taken_by").map(rel) == Some(r)).filter_map(|d| face(&d["card"]));
            enc.counts("taken", taken.collect::<Vec<_>>(), FACES, 0.25);
        }
        let seats: Vec<&Value> = public["players"].as_array().into_iter().flatten().collect();
        let column = |f: &dyn Fn(&Value) -> f64| {
            let mut out = vec![0.0; players];
            for (s, p) in seats.iter().enumerate().take(players) {
                out[rel(s)] = f(p);
            }
            out
        };
        enc.vector("hand_size", column(&|p| num(p, "hand_size")), players, (HAND_SIZE + 1) as f64);
        enc.vector("called", column(&|p| f64::from(u8::from(boolean(p, "called")))), players, 1.0);
        enc.vector("took_last", column(&|p| f64::from(u8::from(boolean(p, "took_last")))), players, 1.0);
        let mut scores = vec![0.0; players];
        for (s, v) in public["scores"].as_array().into_iter().flatten().enumerate().take(players) {
            scores[rel(s)] = v.as_f64().unwrap_or(0.0);
        }
        enc.vector("scores", scores, players, 100.0);
        enc.one_hot("turn", uint(public, "turn").map(rel), players);
        enc.one_hot("dealer", uint(public, "dealer").map(rel), players);
        let phase = public["phase"].as_str().and_then(|p| PHASES.iter().position(|&x| x == p));
        enc.one_hot("phase", phase, PHASES.len());
        enc.scalar("stock", num(public, "stock"), DECK_SIZE as f64);
        enc.scalar("deal", num(public, "deal"), num(public, "deals").max(1.0));
    }

    fn encode(&self, seat: Seat, enc: &mut Encoder<'_>) {
        let players = self.setup().players;
        let rel = |s: usize| relative(s, seat, players);
        let face = |c: u8| usize::from(c) / 4;
        // Counts of a face add quarters, exactly as the reference's count / 4.
        let hand = enc.block("hand", FACES);
        for card in cards(self.hand_mask(seat)) {
            if let Some(slot) = hand.get_mut(face(card)) {
                *slot += 0.25;
            }
        }
        let (drawn, ready, can_take) = self.private_sight(seat);
        enc.one_hot("drawn", drawn.map(face), FACES);
        enc.one_hot("pair_kind", self.locked_pair_kind(seat), KINDS);
        enc.flag("ready", ready.is_some());
        enc.one_hot("ready_pair_kind", ready, KINDS);
        enc.flag("can_take", can_take);
        let top = self.top_discard();
        enc.one_hot("top_discard", top.map(|t| face(t.0)), FACES);
        enc.one_hot("top_discard_seat", top.map(|t| rel(t.1)), players);
        enc.flag("top_discard_takeable", top.is_some_and(|t| t.2));
        // Per seat the faces it discarded, then per seat the faces it took, from the counts the game keeps
        // as moves are applied, written as quarters: exact, as the reference's sums.
        let rows = enc.blocks(&[("discarded", players, FACES), ("taken", players, FACES)]);
        for s in 0..players {
            let Some((discarded, taken)) = self.discard_face_counts(s) else { continue };
            for (block, counts) in [(rel(s), discarded), (players + rel(s), taken)] {
                if let Some(slots) = rows.get_mut(block * FACES..(block + 1) * FACES) {
                    for (slot, &n) in slots.iter_mut().zip(counts) {
                        *slot = f32::from(n) * 0.25;
                    }
                }
            }
        }
        let column = |f: &dyn Fn(usize) -> f64| {
            let mut out = [0.0; 6];
            for s in 0..players {
                out[rel(s)] = f(s);
            }
            out
        };
        let hand_size = |s: usize| f64::from(self.hand_mask(s).count_ones());
        enc.vector("hand_size", column(&hand_size), players, (HAND_SIZE + 1) as f64);
        enc.vector("called", column(&|s| f64::from(u8::from(self.has_called(s)))), players, 1.0);
        enc.vector("took_last", column(&|s| f64::from(u8::from(self.took_last_turn(s)))), players, 1.0);
        enc.vector("scores", column(&|s| self.scores()[s] as f64), players, 100.0);
        enc.one_hot("turn", self.turn_seat().map(rel), players);
        enc.one_hot("dealer", Some(rel(self.dealer())), players);
        let phase = match self.phase() {
            Phase::Start => 0,
            Phase::Drawn => 1,
            Phase::Over => 2,
        };
        enc.one_hot("phase", Some(phase), PHASES.len());
        enc.scalar("stock", self.stock().len() as f64, DECK_SIZE as f64);
        enc.scalar("deal", self.deal_number() as f64, self.deals().max(1) as f64);
    }

    fn push_legal_ids(&self, seat: Seat, out: &mut Vec<i32>) {
        let (plain, callable) = self.discard_options(seat);
        if plain == 0 {
            // Drawing, taking or calling: at most three moves.
            for i in 0..self.legal_count(seat) {
                if let Some(id) = self.legal_move(seat, i).and_then(|mv| Self::action_id(self.setup(), &mv)) {
                    out.push(id as i32);
                }
            }
            return;
        }
        out.extend(faces(plain).map(|f| (DISCARD + f) as i32));
        out.extend(faces(callable).map(|f| (DISCARD_CALL + f) as i32));
    }

    /// A discard id is built from the discard masks (the lowest card of the face, as the engine lists it
    /// first); the other ids are checked by rank.
    fn action_move(&self, seat: Seat, id: usize) -> Option<CherkiMove> {
        let mv = match id {
            0 => CherkiMove::DrawStock,
            1 => CherkiMove::TakeDiscard,
            2 => CherkiMove::Call,
            _ => {
                let (mask, call, f) = if id < DISCARD_CALL {
                    (self.plain_discards(seat), false, id - DISCARD)
                } else {
                    (self.discard_options(seat).1, true, id.checked_sub(DISCARD_CALL).filter(|&f| f < FACES)?)
                };
                let nibble = (mask >> (4 * f)) & 0xF;
                return (nibble != 0)
                    .then(|| CherkiMove::Discard { card: (4 * f as u32 + nibble.trailing_zeros()) as u8, call });
            }
        };
        self.index_of(seat, &mv).map(|_| mv)
    }

    /// Per deal, with stock `S = 120 − 8P`: a seat that has not called cannot take the discard on two
    /// turns running, and a called seat's take ends the deal, so every seat draws from the stock at least
    /// on every other turn: turns ≤ `2S + P`. A turn is a draw or take and a discard, and each seat calls
    /// at most once by a separate move: moves ≤ `2(2S + P) + P` per deal.
    fn max_game_length(setup: &Setup) -> usize {
        let players = setup.players;
        let stock = DECK_SIZE - HAND_SIZE * players;
        let deals = setup.int_option("deals").max(1) as usize;
        deals * (2 * (2 * stock + players) + players)
    }

    fn card_table(_setup: &Setup) -> Vec<Value> {
        (0..DECK_SIZE as u8)
            .map(|id| {
                let mut card = card_json(id);
                if let Value::Object(map) = &mut card {
                    map.insert("face".into(), (id / 4).into());
                    map.insert("kind_index".into(), card_kind(id).into());
                }
                card
            })
            .collect()
    }
}
