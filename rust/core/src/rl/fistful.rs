//! A Fistful of Gold as an RL game.
//!
//! **Action ids** (layout 1, 63 ids): `0..9` discard one card (`id − 1` = card 1..9 − 1), `9..45` discard
//! two cards `a < b` in lexicographic order of `(a, b)`, `45..54` pick card `1..9`, `54..63` retrieve card
//! `1..9`. A discard's card order does not matter.
//!
//! **Observation** (seat-relative: index 0 is the observer): own hand, own face-down discards and own
//! pending pick as 9-slot card sets; the phase; per seat the cards played this round, the +1 bar, the
//! cards played in earlier rounds (counts / 6), the last revealed duel's cards, hand and discard sizes,
//! pick flags, stars, gold; the round, duel, pot and the Green/Pink card state.

use super::encode::{boolean, num, relative, uint, uints, Encoder};
use super::RlGame;
use crate::game::{Game, Seat, Setup};
use crate::games::fistful::{Fistful, FistfulMove};
use serde_json::{json, Value};

const CARDS: usize = 9;
const SINGLES: usize = CARDS;
const PAIRS: usize = CARDS * (CARDS - 1) / 2;
const PICK: usize = SINGLES + PAIRS;
const RETRIEVE: usize = PICK + CARDS;
const PHASES: [&str; 5] = ["setup_discard", "pick", "green8_retrieve", "round_end_discard", "match_over"];
/// Rounds have 6, 5, …, 1 planned duels.
const ROUNDS: usize = 6;

/// The rank of the pair `a < b` of card indices `0..9`.
fn pair_rank(a: usize, b: usize) -> usize {
    (0..a).map(|i| CARDS - 1 - i).sum::<usize>() + (b - a - 1)
}

/// The cards action `id` names, as a mask (card `c` = bit `c`), whatever the phase.
fn id_cards(id: usize) -> Option<u16> {
    let card = |slot: usize| 1u16 << (slot + 1);
    match id {
        _ if id < SINGLES => Some(card(id)),
        _ if id < PICK => {
            let mut rest = id - SINGLES;
            for a in 0..CARDS {
                let row = CARDS - 1 - a;
                if rest < row {
                    return Some(card(a) | card(a + 1 + rest));
                }
                rest -= row;
            }
            None
        }
        _ if id < RETRIEVE => Some(card(id - PICK)),
        _ if id < RETRIEVE + CARDS => Some(card(id - RETRIEVE)),
        _ => None,
    }
}

/// Card `1..=9` as a slot `0..9`.
fn slot(card: u8) -> Option<usize> {
    (1..=CARDS as u8).contains(&card).then(|| usize::from(card) - 1)
}

impl RlGame for Fistful {
    fn action_space_size(_setup: &Setup) -> usize {
        RETRIEVE + CARDS
    }

    fn action_id(_setup: &Setup, mv: &FistfulMove) -> Option<usize> {
        match *mv {
            FistfulMove::Discard(mask) => {
                let low = mask.trailing_zeros() as usize;
                match (mask.count_ones(), mask & !0x3FE) {
                    (1, 0) => Some(low - 1),
                    (2, 0) => Some(SINGLES + pair_rank(low - 1, 14 - mask.leading_zeros() as usize)),
                    _ => None,
                }
            }
            FistfulMove::Pick(card) => slot(card).map(|s| PICK + s),
            FistfulMove::Retrieve(card) => slot(card).map(|s| RETRIEVE + s),
        }
    }

    fn encode_view(_setup: &Setup, seat: Seat, view: &Value, enc: &mut Encoder<'_>) {
        let (public, private) = (&view["public"], &view["private"]);
        let rel = |s: usize| relative(s, seat, 2);
        let cards = |v: &Value| uints(v).filter_map(|c| c.checked_sub(1)).collect::<Vec<_>>();
        let pair = |v: &Value, f: &dyn Fn(&Value) -> f64| {
            let mut out = [0.0; 2];
            for (s, x) in v.as_array().into_iter().flatten().enumerate().take(2) {
                out[rel(s)] = f(x);
            }
            out
        };
        enc.counts("hand", cards(&private["hand"]), CARDS, 1.0);
        enc.counts("discard", cards(&private["discard"]), CARDS, 1.0);
        enc.one_hot("pick", uint(private, "pick").and_then(|c| c.checked_sub(1)), CARDS);
        let phase = public["phase"].as_str().and_then(|p| PHASES.iter().position(|&x| x == p));
        enc.one_hot("phase", phase, PHASES.len());
        enc.counts("to_act", uints(&public["to_act"]).map(rel).collect::<Vec<_>>(), 2, 1.0);
        enc.flag("own_colour_pink", public["colours"][seat].as_str() == Some("pink"));
        enc.scalar("target_stars", num(public, "target_stars"), 3.0);
        enc.vector("stars", pair(&public["stars"], &|x| x.as_f64().unwrap_or(0.0)), 2, 3.0);
        enc.vector("gold", pair(&public["gold"], &|x| x.as_f64().unwrap_or(0.0)), 2, 30.0);
        enc.scalar("pot", num(public, "pot"), 10.0);
        enc.scalar("round", num(public, "round"), ROUNDS as f64);
        enc.scalar("duel", num(public, "duel"), ROUNDS as f64);
        enc.scalar("duels_in_round", num(public, "duels_in_round"), ROUNDS as f64);
        enc.vector("hand_sizes", pair(&public["hand_sizes"], &|x| x.as_f64().unwrap_or(0.0)), 2, CARDS as f64);
        enc.vector("discard_sizes", pair(&public["discard_sizes"], &|x| x.as_f64().unwrap_or(0.0)), 2, CARDS as f64);
        enc.vector("picked", pair(&public["picked"], &|x| f64::from(u8::from(x.as_bool() == Some(true)))), 2, 1.0);
        for s in [seat, 1 - seat] {
            enc.counts("played", cards(&public["played"][s]), CARDS, 1.0);
        }
        for s in [seat, 1 - seat] {
            enc.one_hot("barred", public["barred"][s].as_u64().and_then(|c| (c as usize).checked_sub(1)), CARDS);
        }
        for s in [seat, 1 - seat] {
            let earlier = public["history"].as_array().into_iter().flatten().flat_map(|r| cards(&r["played"][s]));
            enc.counts("played_earlier", earlier.collect::<Vec<_>>(), CARDS, 1.0 / ROUNDS as f32);
        }
        for s in [seat, 1 - seat] {
            let card = public["last_duel"]["cards"][s].as_u64().and_then(|c| (c as usize).checked_sub(1));
            enc.one_hot("last_duel", card, CARDS);
        }
        enc.flag("six_played", boolean(public, "six_played"));
        enc.scalar("green7_played_at", num(public, "green7_played_at"), ROUNDS as f64);
        enc.flag("green8_played", boolean(public, "green8_played"));
        let retrieved = &public["retrieved"];
        enc.one_hot("retrieved_seat", uint(retrieved, "seat").map(rel), 2);
        enc.one_hot("retrieved_card", uint(retrieved, "card").and_then(|c| c.checked_sub(1)), CARDS);
    }

    fn push_legal_ids(&self, seat: Seat, out: &mut Vec<i32>) {
        let Some((cards, k, make)) = self.choice(seat) else { return };
        let setup = self.setup();
        let mut push = |mask: u16| {
            if let Some(id) = Self::action_id(setup, &make(mask)) {
                out.push(id as i32);
            }
        };
        // Card order, then pairs `(a, b)` in lexicographic order: the ids come out ascending.
        let mut first = cards;
        while first != 0 {
            let a = first & first.wrapping_neg();
            first &= first - 1;
            match k {
                1 => push(a),
                2 => {
                    let mut second = first;
                    while second != 0 {
                        let b = second & second.wrapping_neg();
                        second &= second - 1;
                        push(a | b);
                    }
                }
                _ => {}
            }
        }
    }

    /// Each id names one move: built from the id and checked against the seat's choice.
    fn action_move(&self, seat: Seat, id: usize) -> Option<FistfulMove> {
        let (cards, k, make) = self.choice(seat)?;
        let mask = id_cards(id)?;
        let mv = make(mask);
        (mask & !cards == 0 && mask.count_ones() as usize == k && Self::action_id(self.setup(), &mv) == Some(id))
            .then_some(mv)
    }

    fn encode(&self, seat: Seat, enc: &mut Encoder<'_>) {
        let sight = self.sight(seat);
        let rel = |s: usize| relative(s, seat, 2);
        let slots = |mask: u16| (1..=CARDS).filter(move |&c| mask & (1 << c) != 0).map(|c| c - 1);
        let card = |c: Option<u8>| c.and_then(|c| usize::from(c).checked_sub(1));
        let pair = |values: [f64; 2]| {
            let mut out = [0.0; 2];
            for (s, v) in values.into_iter().enumerate() {
                out[rel(s)] = v;
            }
            out
        };
        // Card `c` is bit `c`, slot `c - 1`.
        let set = |mask: u16| [u64::from(mask >> 1)];
        enc.bits("hand", set(sight.hand), CARDS);
        enc.bits("discard", set(sight.discard), CARDS);
        enc.one_hot("pick", card(sight.pick), CARDS);
        enc.one_hot("phase", Some(sight.phase), PHASES.len());
        enc.counts("to_act", sight.to_act.iter().map(rel), 2, 1.0);
        enc.flag("own_colour_pink", sight.own_colour_pink);
        enc.scalar("target_stars", f64::from(sight.target_stars), 3.0);
        enc.vector("stars", pair(sight.stars.map(f64::from)), 2, 3.0);
        enc.vector("gold", pair(sight.gold.map(f64::from)), 2, 30.0);
        enc.scalar("pot", f64::from(sight.pot), 10.0);
        enc.scalar("round", f64::from(sight.round), ROUNDS as f64);
        enc.scalar("duel", f64::from(sight.duel), ROUNDS as f64);
        enc.scalar("duels_in_round", f64::from(sight.duels_in_round), ROUNDS as f64);
        enc.vector("hand_sizes", pair(sight.hand_sizes.map(f64::from)), 2, CARDS as f64);
        enc.vector("discard_sizes", pair(sight.discard_sizes.map(f64::from)), 2, CARDS as f64);
        enc.vector("picked", pair(sight.picked.map(|p| f64::from(u8::from(p)))), 2, 1.0);
        for s in [seat, 1 - seat] {
            enc.bits("played", set(sight.played[s]), CARDS);
        }
        for s in [seat, 1 - seat] {
            enc.one_hot("barred", card(sight.barred[s]), CARDS);
        }
        for s in [seat, 1 - seat] {
            let earlier = (1..sight.earlier_rounds).flat_map(|r| slots(sight.earlier[s][r]));
            enc.counts("played_earlier", earlier, CARDS, 1.0 / ROUNDS as f32);
        }
        for s in [seat, 1 - seat] {
            enc.one_hot("last_duel", card(sight.last_duel.map(|d| d[s])), CARDS);
        }
        enc.flag("six_played", sight.six_played);
        enc.scalar("green7_played_at", sight.green7_played_at.map_or(0.0, f64::from), ROUNDS as f64);
        enc.flag("green8_played", sight.green8_played);
        enc.one_hot("retrieved_seat", sight.retrieved.map(|r| rel(r.0)), 2);
        enc.one_hot("retrieved_card", card(sight.retrieved.map(|r| r.1)), CARDS);
    }

    /// Two setup discards, then per round `r` (1..=6, `7 − r` planned duels) two picks per duel, one
    /// Green 8 retrieval, and two round-end discards when a Pink 7 ended the round in its last duel; the
    /// sixth round ends the match, so it has no round-end discard.
    fn max_game_length(_setup: &Setup) -> usize {
        let rounds: usize = (1..=ROUNDS).map(|r| 2 * (7 - r) + 1 + 2).sum();
        2 + rounds - 2
    }

    fn card_table(_setup: &Setup) -> Vec<Value> {
        (1..=CARDS)
            .map(|c| json!({"id": c, "card": if c == 9 { "dynamite".to_string() } else { c.to_string() }}))
            .collect()
    }
}
