//! Why A Fistful of Gold refuses a move: the reason shown to a player, computed only after the move was
//! found illegal.

use super::rules::*;
use crate::error::GameError;
use crate::game::Seat;

impl Fistful {
    /// [`Game::explain`] of this game.
    pub(super) fn refusal(&self, seat: Seat, mv: &FistfulMove) -> GameError {
        if seat > 1 || !self.to_act.contains(seat) {
            return GameError::illegal("not_your_turn", format!("seat {seat} is not to act"));
        }
        let wanted = match self.phase {
            Phase::SetupDiscard | Phase::RoundEndDiscard => "discard",
            Phase::Pick => "pick",
            Phase::Green8Retrieve => "retrieve",
            Phase::MatchOver => "nothing",
        };
        match (self.phase, *mv) {
            (Phase::SetupDiscard | Phase::RoundEndDiscard, FistfulMove::Discard(cards)) => {
                let n = self.discard_count(seat);
                if count(cards) != n {
                    let why = if self.phase == Phase::SetupDiscard {
                        "at setup you discard 2 cards".to_string()
                    } else if n == 2 {
                        "you played the Green 8 this round, so you discard 2 of your unplayed cards".to_string()
                    } else {
                        "at the end of a round you discard 1 of your unplayed cards".to_string()
                    };
                    return GameError::illegal("wrong_count", format!("{why}, not {}", count(cards)));
                }
                let missing = card_list(cards & !self.hand[seat]);
                GameError::illegal(
                    "not_in_hand",
                    format!("{} not among your unplayed cards in hand", join_cards(&missing)),
                )
            }
            (Phase::Pick, FistfulMove::Pick(card)) => {
                if self.barred(seat) == Some(card) && self.hand[seat] & bit(card) != 0 {
                    return GameError::illegal(
                        "plus_one",
                        format!("you played the {} in the previous duel, so you may not play the {card} now", card - 1),
                    );
                }
                GameError::illegal("not_in_hand", format!("{} is not in your hand", card_name(card)))
            }
            (Phase::Green8Retrieve, FistfulMove::Retrieve(card)) => {
                GameError::illegal("not_in_discard", format!("{} is not in your discard pile", card_name(card)))
            }
            _ => GameError::illegal("wrong_phase", format!("the game waits for a {wanted} move now")),
        }
    }
}

pub(super) fn join_cards(cards: &[u8]) -> String {
    let names: Vec<String> = cards.iter().map(|&c| card_name(c)).collect();
    match names.len() {
        0 => "these cards are".into(),
        1 => format!("{} is", names[0]),
        _ => format!("{} are", names.join(" and ")),
    }
}
