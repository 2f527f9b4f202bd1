//! Why Matchstick Tycoon refuses a move: the reason shown to a player, computed only after the move
//! was found illegal.

use super::rules::*;
use crate::error::GameError;
use crate::game::Seat;
use crate::segments::{self, segments_to_str, CardType, Segments, Value};

/// Why one orientation of a card cannot show `value` with the given added segments (`None`: none given).
pub(super) fn orientation_problem(t: CardType, rotated: bool, value: Value, add: Option<Segments>) -> Option<String> {
    let glyph = value.glyph();
    let shape = segments::shape(t, rotated);
    let fill = glyph & !shape;
    if shape & !glyph != 0 {
        return Some(format!(
            "it lights {}, but {value} has no {}",
            segments_to_str(shape),
            segments_to_str(shape & !glyph)
        ));
    }
    let add = add?;
    let needs = if fill == 0 { "nothing added".to_string() } else { format!("{} added", segments_to_str(fill)) };
    let lit = add & shape;
    if lit != 0 {
        let (noun, verb) = if lit.count_ones() == 1 { ("segment", "is") } else { ("segments", "are") };
        Some(format!(
            "{noun} {} {verb} already lit (matchsticks only fill empty segments); it needs {needs}",
            segments_to_str(lit)
        ))
    } else if add != fill {
        Some(format!("it needs {needs}, not {}", segments_to_str(add)))
    } else {
        None
    }
}

/// The first card of a play whose given orientation and added segments do not show the play's value, and
/// why, for `explain`.
pub(super) fn detail_problem(mv: &PlayMove) -> String {
    for (i, &id) in mv.ids().iter().enumerate() {
        let t = card_type(id);
        let add = mv.add.map(|a| a[i]);
        let way = |rotated: bool| if rotated { "turned" } else { "upright" };
        match mv.rotated.map(|r| r[i]) {
            Some(rotated) => {
                if let Some(why) = orientation_problem(t, rotated, mv.value, add) {
                    return format!("card {id} ({t}) {} cannot show {}: {why}", way(rotated), mv.value);
                }
            }
            None => {
                let upright = orientation_problem(t, false, mv.value, add);
                let turned = orientation_problem(t, true, mv.value, add);
                if let (Some(up), Some(rot)) = (upright, turned) {
                    return format!(
                        "card {id} ({t}) cannot show {} with these added segments: upright, {up}; turned, {rot}",
                        mv.value
                    );
                }
            }
        }
    }
    format!("the given orientation and added segments do not make every card show exactly {}", mv.value)
}

impl Matchstick {
    pub(super) fn explain_play(&self, seat: usize, mv: &PlayMove) -> GameError {
        let hand = self.hands[seat];
        if hand == 0 {
            return GameError::illegal("must_discard", "your hand is empty: your turn is to discard one matchstick");
        }
        if mv.value.is_expansion() && self.expansion == 0 {
            return GameError::illegal(
                "no_such_value",
                format!("{} exists only with the expansion, which is not in play", mv.value),
            );
        }
        let mut seen = 0u64;
        for &id in mv.ids() {
            let bit = 1u64 << id;
            if seen & bit != 0 {
                return GameError::illegal("duplicate_card", format!("card {id} is listed twice"));
            }
            seen |= bit;
            if hand & bit == 0 {
                return GameError::illegal("not_in_hand", format!("card {id} is not in your hand"));
            }
        }
        if let Some(top) = self.table {
            if mv.count != top.count {
                let cards = if top.count == 1 { "card" } else { "cards" };
                return GameError::illegal(
                    "wrong_count",
                    format!("the table holds {} {cards}: you must play exactly {} or pass", top.count, top.count),
                );
            }
            if !mv.value.beats(top.value, self.revolution) {
                return GameError::illegal("not_stronger", self.what_beats(top.value, mv.value));
            }
        }
        let mut cheapest = 0u32;
        for &id in mv.ids() {
            let t = card_type(id);
            match segments::min_cost(t, mv.value) {
                Some(k) => cheapest += u32::from(k),
                None => {
                    return GameError::illegal(
                        "cannot_show",
                        format!("a {} card can never show {}, turned or with matchsticks", t, mv.value),
                    )
                }
            }
        }
        let Some((_, _, cost)) = resolve_details(mv) else {
            return GameError::illegal("bad_detail", detail_problem(mv));
        };
        let sticks = self.matchsticks[seat];
        if cost.max(cheapest) > sticks {
            let noun = if sticks == 1 { "matchstick" } else { "matchsticks" };
            return GameError::illegal(
                "too_few_matchsticks",
                format!("you have {sticks} {noun}; this play needs {}", cost.max(cheapest)),
            );
        }
        GameError::illegal("illegal_play", "this play is not legal now")
    }

    /// The reason a play showing `shown` does not beat the table's `top`: the weakest value that would,
    /// in the order in force, or that nothing can.
    pub(super) fn what_beats(&self, top: Value, shown: Value) -> String {
        let under = if self.revolution { " under a revolution" } else { "" };
        let next = if self.revolution { top.index().checked_sub(1) } else { Some(top.index() + 1) };
        match next.filter(|&i| i < usize::from(self.values)).and_then(Value::new) {
            Some(need) => {
                let way = if self.revolution { "weaker" } else { "stronger" };
                format!("the table shows {top}{under}: you need {need} or {way} ({shown} is not)")
            }
            None => format!("the table shows {top}{under}, the strongest value: nothing beats it, so pass"),
        }
    }
}

impl Matchstick {
    /// [`Game::explain`] of this game.
    pub(super) fn refusal(&self, seat: Seat, mv: &MatchstickMove) -> GameError {
        if seat != usize::from(self.current) || self.legal.turn == Turn::Over {
            return GameError::illegal("not_your_turn", format!("it is not seat {seat}'s turn"));
        }
        match mv {
            MatchstickMove::DiscardMatchstick => GameError::illegal(
                "not_forced",
                "you discard a matchstick only when your hand is empty; play or pass instead",
            ),
            MatchstickMove::Pass if self.legal.turn == Turn::Discard => GameError::illegal(
                "must_discard",
                "your hand is empty: you cannot pass, your turn is to discard one matchstick",
            ),
            MatchstickMove::Pass => GameError::illegal(
                "must_lead",
                "the table is empty: you lead and must play 1 to 5 cards (passing is not allowed)",
            ),
            MatchstickMove::Play(p) => self.explain_play(seat, p),
        }
    }
}
