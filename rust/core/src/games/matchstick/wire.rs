//! Matchstick Tycoon's JSON: moves, views and events written straight as canonical JSON (the one writer of
//! each), moves parsed, and the saved state.

use super::rules::*;
use crate::error::GameError;
use crate::game::{Fields, Game, Seat};
use crate::json::{bool_str, write_array, write_list, write_opt, write_string, write_u64};
use crate::segments::{self, segments_from_str, write_segment_letters, Segments, Value};
use serde_json::{json, Value as Json};

/// Writes the segment letters of `s` as a JSON string (letters need no escaping).
pub(super) fn write_segments(out: &mut String, s: Segments) {
    out.push('"');
    write_segment_letters(out, s);
    out.push('"');
}

impl Matchstick {
    pub(super) fn mask_json(mask: u64) -> Json {
        json!(ids_of(mask))
    }

    pub(super) fn seats_json(mask: u8) -> Json {
        json!((0..8).filter(|s| mask & (1 << s) != 0).collect::<Vec<u8>>())
    }
}

impl Matchstick {
    /// [`Game::write_move`] of this game.
    pub(super) fn write_move_json(mv: &MatchstickMove, out: &mut String) {
        match mv {
            MatchstickMove::Pass => out.push_str("{\"type\":\"pass\"}"),
            MatchstickMove::DiscardMatchstick => out.push_str("{\"type\":\"discard_matchstick\"}"),
            MatchstickMove::Play(p) => {
                let n = usize::from(p.count);
                out.push('{');
                if let Some(add) = p.add {
                    out.push_str("\"add\":");
                    write_array(out, &add[..n], |out, &segments| write_segments(out, segments));
                    out.push(',');
                }
                out.push_str("\"cards\":");
                write_list(out, p.ids().iter().map(|&id| u64::from(id)));
                if let Some(rotated) = p.rotated {
                    out.push_str(",\"rotated\":");
                    write_array(out, &rotated[..n], |out, &r| out.push_str(bool_str(r)));
                }
                out.push_str(",\"type\":\"play\",\"value\":");
                write_string(out, p.value.name());
                out.push('}');
            }
        }
    }

    /// [`Game::move_from_json`] of this game.
    pub(super) fn parse_move(value: &Json) -> Result<MatchstickMove, GameError> {
        let kind = Fields::new(value, &["type", "value", "cards", "rotated", "add"])?.kind()?;
        match kind {
            "pass" => {
                Fields::new(value, &["type"])?;
                Ok(MatchstickMove::Pass)
            }
            "discard_matchstick" => {
                Fields::new(value, &["type"])?;
                Ok(MatchstickMove::DiscardMatchstick)
            }
            "play" => {
                let f = Fields::new(value, &["type", "value", "cards", "rotated", "add"])?;
                let name = f.str("value")?;
                let shown = Value::parse(name)
                    .ok_or_else(|| GameError::invalid(format!("{name:?} is not a card value (0-9, A-H)")))?;
                let ids = f.uint_list("cards")?;
                if ids.is_empty() || ids.len() > MAX_PLAY {
                    return Err(GameError::invalid(format!("a play has 1 to 5 cards, not {}", ids.len())));
                }
                let mut small = [0u8; MAX_PLAY];
                for (slot, &id) in small.iter_mut().zip(&ids) {
                    if id >= 64 {
                        return Err(GameError::invalid(format!("{id} is not a card id (0-63)")));
                    }
                    *slot = id as u8;
                }
                let mut play =
                    PlayMove::new(shown, &small[..ids.len()]).ok_or_else(|| GameError::invalid("bad card list"))?;
                if let Some(r) = f.get("rotated") {
                    let list = r
                        .as_array()
                        .filter(|l| l.len() == ids.len())
                        .ok_or_else(|| GameError::invalid("\"rotated\" must be a list of booleans, one per card"))?;
                    let mut flags = [false; MAX_PLAY];
                    for (slot, item) in flags.iter_mut().zip(list) {
                        *slot =
                            item.as_bool().ok_or_else(|| GameError::invalid("\"rotated\" must hold true or false"))?;
                    }
                    play.rotated = Some(flags);
                }
                if let Some(a) = f.get("add") {
                    let list = a
                        .as_array()
                        .filter(|l| l.len() == ids.len())
                        .ok_or_else(|| GameError::invalid("\"add\" must be a list of segment strings, one per card"))?;
                    let mut segs = [0u8; MAX_PLAY];
                    for (slot, item) in segs.iter_mut().zip(list) {
                        let text = item.as_str().ok_or_else(|| GameError::invalid("\"add\" must hold strings"))?;
                        *slot = segments_from_str(text).ok_or_else(|| {
                            GameError::invalid(format!("{text:?} is not a set of segment letters a-g"))
                        })?;
                    }
                    play.add = Some(segs);
                }
                Ok(MatchstickMove::Play(play))
            }
            other => Err(GameError::invalid(format!("unknown move type {other:?} (play, pass, discard_matchstick)"))),
        }
    }

    /// [`Game::state_json`] of this game.
    pub(super) fn saved_state(&self) -> Json {
        let n = usize::from(self.players);
        let players: Vec<Json> = (0..n)
            .map(|s| {
                json!({"hand": Self::mask_json(self.hands[s]), "matchsticks": self.matchsticks[s],
                       "finish": self.finish[s]})
            })
            .collect();
        json!({
            "players": players,
            "active": Self::seats_json(self.active),
            "table": self.table.map(|t| crate::json::written(|out| t.write(out))),
            "pile": Self::mask_json(self.pile),
            "removed": Self::mask_json(self.removed),
            "set_aside": Self::mask_json(self.set_aside),
            "revolution": self.revolution,
            "current": self.current,
            "leader": self.leader,
            "passed": Self::seats_json(self.passed),
            "finish_order": self.finish_order[..usize::from(self.finished)],
            "expansion": self.expansion,
            "events": self.events(None),
            "rng": self.rng.state_hex(),
        })
    }
}

/// Canonical JSON of the views written without a `serde_json::Value` (the network host's per-move path).
/// Keys are written in byte order by hand; `direct_views_match_values` in the tests proves the bytes equal
/// `canonical(&public_view())` and `canonical(&private_view(seat))`.
impl Matchstick {
    pub(super) fn write_public(&self, out: &mut String) {
        let over = self.legal.turn == Turn::Over;
        out.push_str("{\"expansion\":");
        write_u64(out, u64::from(self.expansion));
        out.push_str(",\"finish_order\":");
        write_list(out, self.finish_order[..usize::from(self.finished)].iter().map(|&s| u64::from(s)));
        out.push_str(",\"last_play_seat\":");
        write_opt(out, self.table.map(|t| u64::from(t.seat)));
        out.push_str(",\"leader\":");
        write_opt(out, self.leader.map(u64::from));
        out.push_str(",\"over\":");
        out.push_str(bool_str(over));
        out.push_str(",\"passed\":");
        write_list(out, (0..8u64).filter(|s| self.passed & (1 << s) != 0));
        out.push_str(",\"pile_size\":");
        write_u64(out, u64::from(self.pile.count_ones()));
        out.push_str(",\"players\":[");
        for s in 0..usize::from(self.players) {
            if s > 0 {
                out.push(',');
            }
            out.push_str("{\"finish\":");
            write_opt(out, (self.finish[s] != 0).then(|| u64::from(self.finish[s])));
            out.push_str(",\"hand_size\":");
            write_u64(out, u64::from(self.hands[s].count_ones()));
            out.push_str(",\"matchsticks\":");
            write_u64(out, u64::from(self.matchsticks[s]));
            out.push_str(",\"out\":");
            out.push_str(bool_str(!self.is_active(s)));
            out.push_str(",\"seat\":");
            write_u64(out, s as u64);
            out.push('}');
        }
        out.push_str("],\"removed\":");
        write_u64(out, u64::from(self.removed.count_ones()));
        out.push_str(",\"removed_cards\":");
        write_mask(out, self.removed);
        out.push_str(",\"revolution\":");
        out.push_str(bool_str(self.revolution));
        out.push_str(",\"set_aside\":");
        write_u64(out, u64::from(self.set_aside.count_ones()));
        out.push_str(",\"table\":");
        match &self.table {
            Some(t) => t.write(out),
            None => out.push_str("null"),
        }
        out.push_str(",\"trick_cards\":");
        write_mask(out, self.pile);
        out.push_str(",\"turn\":");
        write_opt(out, (!over).then(|| u64::from(self.current)));
        out.push('}');
    }

    pub(super) fn write_private(&self, seat: Option<Seat>, out: &mut String) {
        let s = match seat {
            Some(s) if s < usize::from(self.players) => s,
            _ => return out.push_str("null"),
        };
        out.push_str("{\"hand\":[");
        let mut m = self.hands[s];
        while m != 0 {
            let id = m.trailing_zeros() as u8;
            m &= m - 1;
            out.push_str("{\"card\":");
            write_string(out, card_type(id).name());
            out.push_str(",\"id\":");
            write_u64(out, u64::from(id));
            out.push('}');
            if m != 0 {
                out.push(',');
            }
        }
        out.push_str("],\"seat\":");
        write_u64(out, s as u64);
        out.push('}');
    }
}

impl TablePlay {
    /// The play as canonical JSON: the table in views and saves.
    pub(super) fn write(&self, out: &mut String) {
        self.write_as(out, None);
    }

    /// [`TablePlay::write`] with a `type` key added (the play as an event).
    pub(super) fn write_as(&self, out: &mut String, kind: Option<&str>) {
        out.push_str("{\"cards\":");
        write_array(out, 0..usize::from(self.count), |out, i| {
            let id = self.cards[i];
            let rotated = self.rotated & (1 << i) != 0;
            out.push_str("{\"added\":");
            write_segments(out, self.added[i]);
            out.push_str(",\"card\":");
            write_string(out, card_type(id).name());
            out.push_str(",\"id\":");
            write_u64(out, u64::from(id));
            out.push_str(",\"lit\":");
            write_segments(out, segments::shape(card_type(id), rotated));
            out.push_str(",\"rotated\":");
            out.push_str(bool_str(rotated));
            out.push('}');
        });
        out.push_str(",\"cost\":");
        write_u64(out, u64::from(self.cost));
        out.push_str(",\"count\":");
        write_u64(out, u64::from(self.count));
        out.push_str(",\"seat\":");
        write_u64(out, u64::from(self.seat));
        if let Some(kind) = kind {
            out.push_str(",\"type\":");
            write_string(out, kind);
        }
        out.push_str(",\"value\":");
        write_string(out, self.value.name());
        out.push('}');
    }
}

impl Event {
    /// The event as canonical JSON.
    pub(super) fn write(&self, out: &mut String) {
        // Every event's other keys sort before `type`, which therefore comes last.
        let fields = |out: &mut String, pairs: &[(&str, u64)], kind: &str| {
            out.push('{');
            for (key, value) in pairs {
                write_string(out, key);
                out.push(':');
                write_u64(out, *value);
                out.push(',');
            }
            out.push_str("\"type\":");
            write_string(out, kind);
            out.push('}');
        };
        match self {
            Event::Play(top) => top.write_as(out, Some("play")),
            Event::Pass { seat, matchsticks } => {
                fields(out, &[("matchsticks", u64::from(*matchsticks)), ("seat", u64::from(*seat))], "pass")
            }
            Event::Discard { seat, matchsticks } => fields(
                out,
                &[("matchsticks", u64::from(*matchsticks)), ("seat", u64::from(*seat))],
                "discard_matchstick",
            ),
            Event::Revolution(on) => {
                out.push_str("{\"revolution\":");
                out.push_str(bool_str(*on));
                out.push_str(",\"type\":\"revolution\"}");
            }
            Event::WentOut { seat, position } => {
                fields(out, &[("position", u64::from(*position)), ("seat", u64::from(*seat))], "went_out")
            }
            Event::TrickCleared { cards, leader } => {
                fields(out, &[("leader", u64::from(*leader)), ("removed", u64::from(*cards))], "trick_cleared")
            }
            Event::GameOver => fields(out, &[], "game_over"),
        }
    }
}

/// The card ids of `mask` in increasing order, as `mask_json` lists them.
pub(super) fn write_mask(out: &mut String, mask: u64) {
    let mut m = mask;
    write_list(
        out,
        std::iter::from_fn(|| {
            (m != 0).then(|| {
                let id = m.trailing_zeros();
                m &= m - 1;
                u64::from(id)
            })
        }),
    );
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::json::{canonical, written};

    #[test]
    fn events_are_written_as_canonical_json_of_their_kind() {
        let play = TablePlay {
            seat: 2,
            count: 2,
            value: Value::ALL[9],
            cards: [5, 40, 0, 0, 0],
            rotated: 0b10,
            added: [0, 0b0100_0001, 0, 0, 0],
            cost: 1,
        };
        let events = [
            (Event::Play(play), "play"),
            (Event::Pass { seat: 1, matchsticks: 7 }, "pass"),
            (Event::Discard { seat: 0, matchsticks: 0 }, "discard_matchstick"),
            (Event::Revolution(true), "revolution"),
            (Event::Revolution(false), "revolution"),
            (Event::WentOut { seat: 3, position: 2 }, "went_out"),
            (Event::TrickCleared { cards: 4, leader: 1 }, "trick_cleared"),
            (Event::GameOver, "game_over"),
        ];
        for (event, kind) in &events {
            let mut out = String::new();
            event.write(&mut out);
            let value = written(|o| o.push_str(&out));
            assert_eq!(canonical(&value), out, "{event:?}");
            assert_eq!(value["type"], *kind, "{event:?}");
        }
    }
}

#[cfg(feature = "serde")]
crate::games::serde_via_wire!(
    MatchstickMove,
    |out: &mut String, mv| Matchstick::write_move_json(mv, out),
    Matchstick::parse_move
);
