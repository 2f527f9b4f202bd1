//! Cherki's JSON: views, events and moves written straight as canonical JSON (the one writer of each; the
//! network host sends and hashes these bytes on every move; no Cherki value is a float, so every number goes
//! through the integer writers of [`crate::json`]), moves parsed, and the saved state.

use super::cards::*;
use super::rules::*;
use crate::error::GameError;
use crate::game::{Fields, Seat};
use crate::json::{bool_str, write_array, write_i64, write_list, write_string, write_u64};
use serde_json::{json, Value};

/// Appends the card ids of `hand` as a JSON array, in increasing order.
fn write_hand(out: &mut String, hand: u128) {
    write_list(out, bits(hand).map(u64::from));
}

/// Appends a seat or card byte, `null` for `NONE`.
fn write_byte_or_null(out: &mut String, byte: u8) {
    if byte == NONE {
        out.push_str("null");
    } else {
        write_u64(out, u64::from(byte));
    }
}

/// Appends a kind's name as a JSON string, `null` for none.
fn write_kind_or_null(out: &mut String, kind: Option<usize>) {
    match kind {
        Some(kind) => write_string(out, kind_name(kind)),
        None => out.push_str("null"),
    }
}

impl DealResult {
    /// The result as the outcome's detail and the saved state hold it.
    pub(super) fn written(&self, players: usize) -> serde_json::Value {
        crate::json::written(|out| write_result(out, self, players, false))
    }
}

/// Appends a deal result (the outcome's `deals` list, the view's `results`); the `win` event slips its own
/// `seat` and `type` keys in sorted order: `win_event` says whether to add them.
fn write_result(out: &mut String, result: &DealResult, players: usize, win_event: bool) {
    let won = result.winner != NONE;
    out.push_str("{\"by\":");
    match (won, result.by_take) {
        (false, _) => out.push_str("null"),
        (true, true) => out.push_str("\"take_discard\""),
        (true, false) => out.push_str("\"draw_stock\""),
    }
    out.push_str(",\"deal\":");
    write_u64(out, u64::from(result.deal));
    out.push_str(",\"dealer\":");
    write_u64(out, u64::from(result.dealer));
    out.push_str(",\"hand\":");
    if won {
        write_list(out, result.hand.iter().map(|&c| u64::from(c)));
    } else {
        out.push_str("[]");
    }
    out.push_str(",\"pair_kind\":");
    if won {
        write_string(out, kind_name(usize::from(result.pair_kind)));
    } else {
        out.push_str("null");
    }
    out.push_str(",\"payments\":");
    write_array(out, result.payments(players), write_i64);
    out.push_str(",\"result\":");
    out.push_str(if won { "\"win\"" } else { "\"drawn\"" });
    if win_event {
        out.push_str(",\"seat\":");
        write_byte_or_null(out, result.winner);
    }
    out.push_str(",\"total\":");
    write_u64(out, if won { u64::from(result.total) } else { 0 });
    if win_event {
        out.push_str(",\"type\":\"win\"");
    }
    out.push_str(",\"winner\":");
    write_byte_or_null(out, result.winner);
    out.push('}');
}

/// Appends the canonical JSON of a move (`Game::write_move`): every acting seat's legal list is written
/// after every move.
pub(super) fn write_move(out: &mut String, mv: &CherkiMove) {
    match *mv {
        CherkiMove::DrawStock => out.push_str("{\"type\":\"draw_stock\"}"),
        CherkiMove::TakeDiscard => out.push_str("{\"type\":\"take_discard\"}"),
        CherkiMove::Call => out.push_str("{\"type\":\"call\"}"),
        CherkiMove::Discard { card, call } => {
            out.push_str(if call { "{\"call\":true,\"card\":" } else { "{\"card\":" });
            write_u64(out, u64::from(card));
            out.push_str(",\"type\":\"discard\"}");
        }
    }
}

impl Cherki {
    /// Appends the history of discards: `{"card","seat","taken_by"}` per entry, oldest first.
    fn write_discards(&self, out: &mut String) {
        write_array(out, self.discards.entries(), |out, d| {
            out.push_str("{\"card\":");
            write_u64(out, u64::from(d.card));
            out.push_str(",\"seat\":");
            write_u64(out, u64::from(d.seat));
            out.push_str(",\"taken_by\":");
            write_byte_or_null(out, d.taken_by);
            out.push('}');
        });
    }

    /// Appends the public per-seat entries: `{"called","hand_size","took_last"}` per seat.
    fn write_players(&self, out: &mut String) {
        write_array(out, 0..self.players, |out, s| {
            out.push_str("{\"called\":");
            out.push_str(bool_str(self.called[s]));
            out.push_str(",\"hand_size\":");
            write_u64(out, u64::from(self.hands[s].count_ones()));
            out.push_str(",\"took_last\":");
            out.push_str(bool_str(self.took_last[s]));
            out.push('}');
        });
    }

    /// Appends the view's `top_discard` (`{"card","seat","takeable"}` or `null`).
    fn write_top_discard(&self, out: &mut String) {
        match self.top_discard() {
            Some((card, seat, takeable)) => {
                out.push_str("{\"card\":");
                write_u64(out, u64::from(card));
                out.push_str(",\"seat\":");
                write_u64(out, seat as u64);
                out.push_str(",\"takeable\":");
                out.push_str(bool_str(takeable));
                out.push('}');
            }
            None => out.push_str("null"),
        }
    }

    /// Canonical JSON of `public_view()`.
    pub(super) fn write_public(&self, out: &mut String) {
        out.push_str("{\"deal\":");
        write_u64(out, u64::from(self.deal));
        out.push_str(",\"dealer\":");
        write_u64(out, u64::from(self.dealer));
        out.push_str(",\"deals\":");
        write_u64(out, u64::from(self.deals));
        out.push_str(",\"discards\":");
        self.write_discards(out);
        out.push_str(",\"last_deal\":");
        match self.results.last() {
            Some(result) => write_result(out, result, self.players, false),
            None => out.push_str("null"),
        }
        out.push_str(",\"phase\":");
        write_string(out, self.phase.name());
        out.push_str(",\"players\":");
        self.write_players(out);
        out.push_str(",\"scores\":");
        write_array(out, self.scores().iter().copied(), write_i64);
        out.push_str(",\"stock\":");
        write_u64(out, u64::from(self.stock_len));
        out.push_str(",\"top_discard\":");
        self.write_top_discard(out);
        out.push_str(",\"turn\":");
        if self.phase == Phase::Over {
            out.push_str("null");
        } else {
            write_u64(out, u64::from(self.turn));
        }
        out.push('}');
    }

    /// Canonical JSON of `private_view(seat)`.
    pub(super) fn write_private(&self, seat: Option<Seat>, out: &mut String) {
        let s = match seat {
            Some(s) if s < self.players => s,
            _ => return out.push_str("null"),
        };
        let mine = self.turn as usize == s;
        let ready = self.hand_ready_kind(s);
        out.push_str("{\"can_take\":");
        out.push_str(bool_str(self.phase == Phase::Start && mine && self.can_take(s)));
        out.push_str(",\"drawn\":");
        write_byte_or_null(out, if mine { self.drawn } else { NONE });
        out.push_str(",\"hand\":");
        write_hand(out, self.hands[s]);
        out.push_str(",\"pair_kind\":");
        write_kind_or_null(out, self.locked_pair_kind(s));
        out.push_str(",\"ready\":");
        out.push_str(bool_str(ready.is_some()));
        out.push_str(",\"ready_pair_kind\":");
        write_kind_or_null(out, ready);
        out.push('}');
    }

    /// Appends one event of [`crate::game::Game::events`] as `seat` may learn it, keys in canonical order.
    pub(super) fn write_event(&self, event: &Event, seat: Option<Seat>, out: &mut String) {
        match *event {
            Event::DrawStock { seat: s, card, stock } => {
                out.push('{');
                if seat == Some(usize::from(s)) {
                    out.push_str("\"card\":");
                    write_u64(out, u64::from(card));
                    out.push(',');
                }
                out.push_str("\"seat\":");
                write_u64(out, u64::from(s));
                out.push_str(",\"stock\":");
                write_u64(out, u64::from(stock));
                out.push_str(",\"type\":\"draw_stock\"}");
            }
            Event::TakeDiscard { seat: s, card, from } => {
                out.push_str("{\"card\":");
                write_u64(out, u64::from(card));
                out.push_str(",\"from\":");
                write_u64(out, u64::from(from));
                out.push_str(",\"seat\":");
                write_u64(out, u64::from(s));
                out.push_str(",\"type\":\"take_discard\"}");
            }
            Event::Discard { seat: s, card } => {
                out.push_str("{\"card\":");
                write_u64(out, u64::from(card));
                out.push_str(",\"seat\":");
                write_u64(out, u64::from(s));
                out.push_str(",\"type\":\"discard\"}");
            }
            Event::Call { seat: s } => {
                out.push_str("{\"seat\":");
                write_u64(out, u64::from(s));
                out.push_str(",\"type\":\"call\"}");
            }
            Event::Win => match self.results.last() {
                Some(result) => write_result(out, result, self.players, true),
                // Never happens (a win is recorded before its event); mirrors `events`, which turns the
                // missing result into an object holding only the two keys it sets.
                None => out.push_str("{\"seat\":null,\"type\":\"win\"}"),
            },
            Event::DealDrawn { deal } => {
                out.push_str("{\"deal\":");
                write_u64(out, u64::from(deal));
                out.push_str(",\"type\":\"deal_drawn\"}");
            }
            Event::NewDeal { deal, dealer } => {
                out.push_str("{\"deal\":");
                write_u64(out, u64::from(deal));
                out.push_str(",\"dealer\":");
                write_u64(out, u64::from(dealer));
                out.push_str(",\"hand\":");
                match seat {
                    Some(s) if s < self.players => write_hand(out, self.hands[s]),
                    _ => out.push_str("null"),
                }
                out.push_str(",\"type\":\"new_deal\"}");
            }
        }
    }
}

impl Cherki {
    /// [`Game::move_from_json`] of this game.
    pub(super) fn parse_move(value: &Value) -> Result<CherkiMove, GameError> {
        let kind = Fields::new(value, &["type", "card", "call"])?.kind()?;
        match kind {
            "draw_stock" | "take_discard" | "call" => {
                Fields::new(value, &["type"])?;
                Ok(match kind {
                    "draw_stock" => CherkiMove::DrawStock,
                    "take_discard" => CherkiMove::TakeDiscard,
                    _ => CherkiMove::Call,
                })
            }
            "discard" => {
                let fields = Fields::new(value, &["type", "card", "call"])?;
                let card = fields.uint("card")?;
                if card as usize >= DECK_SIZE {
                    return Err(GameError::invalid(format!("no card {card}: ids run 0–119")));
                }
                Ok(CherkiMove::Discard { card: card as u8, call: fields.opt_bool("call")? })
            }
            other => Err(GameError::invalid(format!(
                "unknown move type {other:?} (draw_stock, take_discard, discard, call)"
            ))),
        }
    }

    /// [`Game::state_json`] of this game.
    pub(super) fn saved_state(&self) -> Value {
        let hands: Vec<Value> = (0..self.players).map(|s| json!(hand_list(self.hands[s]))).collect();
        let known: Vec<Value> = (0..self.players).map(|s| json!(hand_list(self.known[s]))).collect();
        let pair_kinds: Vec<Value> =
            (0..self.players).map(|s| json!(self.locked_pair_kind(s).map(kind_name))).collect();
        let discards: Vec<Value> = self
            .discards
            .entries()
            .iter()
            .map(|d| json!([d.card, d.seat, if d.taken_by == NONE { -1 } else { d.taken_by as i64 }]))
            .collect();
        let results: Vec<Value> = self.results.iter().map(|r| r.written(self.players)).collect();
        json!({
            "players": self.players,
            "deals": self.deals,
            "deal": self.deal,
            "dealer": self.dealer,
            "scores": self.scores(),
            "hands": hands,
            "known": known,
            "called": &self.called[..self.players],
            "pair_kinds": pair_kinds,
            "took_last": &self.took_last[..self.players],
            "stock": self.stock(),
            "discards": discards,
            "top_available": self.top_available,
            "turn": self.turn,
            "phase": self.phase.name(),
            "drawn": if self.drawn == NONE { Value::Null } else { json!(self.drawn) },
            "drawn_taken": self.drawn_taken,
            "results": results,
            "rng": self.rng.state_hex(),
        })
    }
}

#[cfg(feature = "serde")]
crate::games::serde_via_wire!(CherkiMove, write_move, Cherki::parse_move);
