//! A Fistful of Gold's JSON: views, events and moves written straight as canonical JSON (the one writer of
//! each; the network host sends and hashes these bytes on every move), moves parsed, and the saved state.

use super::rules::*;
use crate::error::GameError;
use crate::game::{Fields, Game, Seat};
use crate::json::{bool_str, write_canonical, write_i64, write_list, write_opt, write_string, write_u64};
use serde_json::{json, Value};

/// Appends the cards of `mask` as a JSON array, in increasing order.
fn write_cards(out: &mut String, mask: u16) {
    write_list(out, cards_of(mask).map(u64::from));
}

/// Appends `[a,b]` from one value per seat.
fn write_pair(out: &mut String, mut each: impl FnMut(&mut String, usize)) {
    out.push('[');
    each(out, 0);
    out.push(',');
    each(out, 1);
    out.push(']');
}

/// Appends a duel's step; its name goes under `name_key` (`step` in a view's duel, `type` as an event), which
/// sorts after `seat` either way.
fn write_step(out: &mut String, step: &Step, name_key: &str) {
    // (gold or card key, its value, seat, step name); keys in sorted order: card/gold/pot, seat, step or type.
    let (amount, seat, name) = match *step {
        Step::Tie => (Some(("pot", i64::from(TIE_POT))), None, "tie"),
        Step::Win { seat, gold } => (Some(("gold", i64::from(gold))), Some(seat), "base"),
        Step::Pink8 { seat } => (Some(("gold", i64::from(SPECIAL_GOLD))), Some(seat), "pink8"),
        Step::Green7 { seat } => (Some(("gold", 1)), Some(seat), "green7_bonus"),
        Step::Six { seat, gold } => (Some(("gold", i64::from(gold))), Some(seat), "six_takes_pot"),
        Step::Green8 { seat, card } => (Some(("card", i64::from(card))), Some(seat), "green8_retrieve"),
        Step::Pink7 { seat } => (None, Some(seat), "pink7_end"),
    };
    out.push('{');
    if let Some((key, value)) = amount {
        write_string(out, key);
        out.push(':');
        write_i64(out, value);
        out.push(',');
    }
    if let Some(seat) = seat {
        out.push_str("\"seat\":");
        write_u64(out, u64::from(seat));
        out.push(',');
    }
    write_string(out, name_key);
    out.push(':');
    write_string(out, name);
    out.push('}');
}

/// Appends a duel as the view's `last_duel` and the saved state show it.
pub(super) fn write_duel(out: &mut String, duel: &Duel) {
    out.push_str("{\"cards\":");
    write_list(out, duel.cards.iter().map(|&c| u64::from(c)));
    out.push_str(",\"duel\":");
    write_u64(out, u64::from(duel.number));
    out.push_str(",\"gold\":");
    write_pair(out, |out, s| write_i64(out, i64::from(duel.gold[s])));
    out.push_str(",\"pot\":");
    write_i64(out, i64::from(duel.pot));
    out.push_str(",\"round\":");
    write_u64(out, u64::from(duel.round));
    out.push_str(",\"steps\":[");
    for (i, step) in duel.steps.iter().flatten().enumerate() {
        if i > 0 {
            out.push(',');
        }
        write_step(out, step, "step");
    }
    out.push_str("]}");
}

impl Fistful {
    /// The Green 8's retrieved card of round `round`, as [`Fistful::retrieved_in`] gives it.
    fn write_retrieved(&self, out: &mut String, round: usize) {
        let green = self.green_seat();
        match self.log_retrieved[green][round.min(LAST_ROUND)] {
            0 => out.push_str("null"),
            card => {
                out.push_str("{\"card\":");
                write_u64(out, u64::from(card));
                out.push_str(",\"seat\":");
                write_u64(out, green as u64);
                out.push('}');
            }
        }
    }

    /// Canonical JSON of `public_view()`.
    pub(super) fn write_public(&self, out: &mut String) {
        out.push_str("{\"barred\":");
        write_pair(out, |out, s| write_opt(out, self.barred(s).map(u64::from)));
        out.push_str(",\"colours\":");
        write_pair(out, |out, s| write_string(out, self.colour(s).name()));
        out.push_str(",\"discard_sizes\":");
        write_pair(out, |out, s| write_u64(out, count(self.discard[s]) as u64));
        out.push_str(",\"duel\":");
        write_u64(out, u64::from(self.duel));
        out.push_str(",\"duels_in_round\":");
        write_u64(out, u64::from(Self::duels_in(self.round)));
        out.push_str(",\"gold\":");
        write_pair(out, |out, s| write_i64(out, i64::from(self.gold[s])));
        out.push_str(",\"green7_played_at\":");
        write_opt(out, self.green7_at.map(u64::from));
        out.push_str(",\"green8_played\":");
        out.push_str(bool_str(self.green8_used));
        out.push_str(",\"hand_sizes\":");
        write_pair(out, |out, s| write_u64(out, count(self.hand[s]) as u64));
        out.push_str(",\"history\":[");
        for r in 1..usize::from(self.round).min(LAST_ROUND + 1) {
            if r > 1 {
                out.push(',');
            }
            out.push_str("{\"played\":");
            write_pair(out, |out, s| write_cards(out, self.log_played[s][r]));
            out.push_str(",\"retrieved\":");
            self.write_retrieved(out, r);
            out.push_str(",\"round\":");
            write_u64(out, r as u64);
            out.push('}');
        }
        out.push_str("],\"last_duel\":");
        match &self.last_duel {
            Some(duel) => write_duel(out, duel),
            None => out.push_str("null"),
        }
        out.push_str(",\"length\":");
        write_string(out, if self.target == 3 { "long" } else { "short" });
        out.push_str(",\"phase\":");
        write_string(out, self.phase.name());
        out.push_str(",\"picked\":");
        write_pair(out, |out, s| out.push_str(bool_str(self.pending[s].is_some())));
        out.push_str(",\"played\":");
        let played = usize::from(self.played_len);
        write_pair(out, |out, s| write_list(out, self.played[s][..played].iter().map(|&c| u64::from(c))));
        out.push_str(",\"pot\":");
        write_i64(out, i64::from(self.pot));
        out.push_str(",\"retrieved\":");
        self.write_retrieved(out, usize::from(self.round));
        out.push_str(",\"round\":");
        write_u64(out, u64::from(self.round));
        out.push_str(",\"six_played\":");
        out.push_str(bool_str(self.six_played));
        out.push_str(",\"stars\":");
        write_pair(out, |out, s| write_u64(out, u64::from(self.stars[s])));
        out.push_str(",\"target_stars\":");
        write_u64(out, u64::from(self.target));
        out.push_str(",\"to_act\":");
        write_list(out, self.to_act.iter().map(|s| s as u64));
        out.push('}');
    }

    /// Canonical JSON of `private_view(seat)`.
    pub(super) fn write_private(&self, seat: Option<Seat>, out: &mut String) {
        let s = match seat {
            Some(s) if s < 2 => s,
            _ => return out.push_str("null"),
        };
        out.push_str("{\"discard\":");
        write_cards(out, self.discard[s]);
        out.push_str(",\"hand\":");
        write_cards(out, self.hand[s]);
        out.push_str(",\"pick\":");
        write_opt(out, self.pending[s].map(u64::from));
        out.push('}');
    }
}

/// Appends the canonical JSON of a move (`Game::write_move`): every acting seat's legal list is written
/// after every move.
pub(super) fn write_move(out: &mut String, mv: &FistfulMove) {
    let (kind, card) = match *mv {
        FistfulMove::Discard(cards) => {
            out.push_str("{\"cards\":");
            write_cards(out, cards);
            out.push_str(",\"type\":\"discard\"}");
            return;
        }
        FistfulMove::Pick(card) => ("pick", card),
        FistfulMove::Retrieve(card) => ("retrieve", card),
    };
    out.push_str("{\"card\":");
    write_u64(out, u64::from(card));
    out.push_str(",\"type\":");
    write_string(out, kind);
    out.push('}');
}

impl Fistful {
    /// Appends the entries of one event of [`Game::events`] as `seat` may learn them (none, one, or a duel's
    /// steps), keys in canonical order; `first` says whether nothing was written to the array yet.
    pub(super) fn write_event(&self, event: &Event, seat: Option<Seat>, out: &mut String, first: &mut bool) {
        let mut open = |out: &mut String| {
            if !std::mem::take(first) {
                out.push(',');
            }
        };
        match *event {
            Event::Discard { seat: s, cards, setup, auto } => {
                open(out);
                out.push_str("{\"auto\":");
                out.push_str(bool_str(auto));
                if seat == Some(usize::from(s)) {
                    out.push_str(",\"cards\":");
                    write_cards(out, cards);
                }
                out.push_str(",\"count\":");
                write_u64(out, count(cards) as u64);
                out.push_str(",\"seat\":");
                write_u64(out, u64::from(s));
                out.push_str(",\"type\":\"discard\",\"when\":");
                write_string(out, if setup { "setup" } else { "round_end" });
                out.push('}');
            }
            Event::Pick { seat: s, card } => {
                open(out);
                out.push('{');
                if seat == Some(usize::from(s)) {
                    out.push_str("\"card\":");
                    write_u64(out, u64::from(card));
                    out.push(',');
                }
                out.push_str("\"seat\":");
                write_u64(out, u64::from(s));
                out.push_str(",\"type\":\"pick\"}");
            }
            Event::Reveal => {
                if let Some(d) = &self.last_duel {
                    open(out);
                    out.push_str("{\"cards\":");
                    write_list(out, d.cards.iter().map(|&c| u64::from(c)));
                    out.push_str(",\"duel\":");
                    write_u64(out, u64::from(d.number));
                    out.push_str(",\"round\":");
                    write_u64(out, u64::from(d.round));
                    out.push_str(",\"type\":\"reveal\"}");
                }
            }
            Event::Steps { from, to } => {
                if let Some(d) = &self.last_duel {
                    let steps = d.steps.iter().flatten().skip(usize::from(from));
                    for step in steps.take(usize::from(to - from)) {
                        open(out);
                        write_step(out, step, "type");
                    }
                }
            }
            Event::RoundEnd { round, gold, star, stars } => {
                open(out);
                out.push_str("{\"gold\":");
                write_pair(out, |out, s| write_i64(out, i64::from(gold[s])));
                out.push_str(",\"round\":");
                write_u64(out, u64::from(round));
                out.push_str(",\"star\":");
                write_opt(out, star.map(u64::from));
                out.push_str(",\"stars\":");
                write_pair(out, |out, s| write_u64(out, u64::from(stars[s])));
                out.push_str(",\"type\":\"round_end\"}");
            }
            Event::TakeBack => {
                open(out);
                out.push_str("{\"hand_sizes\":");
                write_pair(out, |out, s| write_u64(out, count(self.hand[s]) as u64));
                out.push_str(",\"type\":\"take_back\"}");
            }
            Event::RoundStart { round } => {
                open(out);
                out.push_str("{\"duels\":");
                write_u64(out, u64::from(Self::duels_in(round)));
                out.push_str(",\"round\":");
                write_u64(out, u64::from(round));
                out.push_str(",\"type\":\"round_start\"}");
            }
            Event::MatchEnd => {
                if let Some(o) = self.outcome() {
                    open(out);
                    out.push_str("{\"outcome\":");
                    write_canonical(out, &o.to_json());
                    out.push_str(",\"type\":\"match_end\"}");
                }
            }
        }
    }
}

impl Fistful {
    /// [`Game::move_from_json`] of this game.
    pub(super) fn parse_move(value: &Value) -> Result<FistfulMove, GameError> {
        let kind = Fields::new(value, &["type", "card", "cards"])?.kind()?;
        let card_id = |id: u64| -> Result<u8, GameError> {
            if (1..=u64::from(DYNAMITE)).contains(&id) {
                Ok(id as u8)
            } else {
                Err(GameError::invalid(format!("card ids are 1-8 (Revolvers) and 9 (Dynamite), not {id}")))
            }
        };
        match kind {
            "discard" => {
                let fields = Fields::new(value, &["type", "cards"])?;
                let mut mask = 0u16;
                for id in fields.uint_list("cards")? {
                    let card = card_id(id)?;
                    if mask & bit(card) != 0 {
                        return Err(GameError::invalid(format!("card {card} is listed twice")));
                    }
                    mask |= bit(card);
                }
                Ok(FistfulMove::Discard(mask))
            }
            "pick" => Ok(FistfulMove::Pick(card_id(Fields::new(value, &["type", "card"])?.uint("card")?)?)),
            "retrieve" => Ok(FistfulMove::Retrieve(card_id(Fields::new(value, &["type", "card"])?.uint("card")?)?)),
            other => Err(GameError::invalid(format!("unknown move type {other:?} (discard, pick, retrieve)"))),
        }
    }

    /// [`Game::state_json`] of this game.
    pub(super) fn saved_state(&self) -> Value {
        let n = usize::from(self.played_len);
        let duel = self.last_duel.as_ref().map(|d| crate::json::written(|out| write_duel(out, d)));
        json!({
            "target": self.target,
            "pink_seat": self.pink_seat,
            "stars": self.stars,
            "round": self.round,
            "duel": self.duel,
            "phase": self.phase.name(),
            "to_act": self.to_act.0,
            "hand": [card_list(self.hand[0]), card_list(self.hand[1])],
            "discard": [card_list(self.discard[0]), card_list(self.discard[1])],
            "played": [self.played[0][..n].to_vec(), self.played[1][..n].to_vec()],
            "pending": self.pending,
            "gold": self.gold,
            "pot": self.pot,
            "six_played": self.six_played,
            "green7_at": self.green7_at,
            "green8_used": self.green8_used,
            "log_played": [self.log_played[0].to_vec(), self.log_played[1].to_vec()],
            "log_retrieved": [self.log_retrieved[0].to_vec(), self.log_retrieved[1].to_vec()],
            "last_duel": duel,
            "end": self.end.map(|_| self.outcome_detail()),
            "rng": self.rng.state_hex(),
        })
    }
}

#[cfg(feature = "serde")]
crate::games::serde_via_wire!(FistfulMove, write_move, Fistful::parse_move);
