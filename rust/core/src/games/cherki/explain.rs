//! Why Cherki refuses a move: the reason shown to a player, computed only after the move was found
//! illegal.

use super::cards::*;
use super::rules::*;
use crate::error::GameError;
use crate::game::Seat;

impl Cherki {
    /// [`Game::explain`] of this game.
    pub(super) fn refusal(&self, seat: Seat, mv: &CherkiMove) -> GameError {
        if seat >= self.players {
            return GameError::illegal("no_such_seat", format!("seat {seat} does not exist"));
        }
        if self.phase == Phase::Over {
            return GameError::illegal("game_over", "the game is over");
        }
        if seat != self.turn as usize {
            return GameError::illegal("not_your_turn", format!("it is seat {}'s turn", self.turn));
        }
        let pair = KIND_WORDS.get(self.pair_kind[seat] as usize).copied().unwrap_or("none");
        match (self.phase, *mv) {
            (Phase::Drawn, CherkiMove::DrawStock | CherkiMove::TakeDiscard) => {
                GameError::illegal("already_drawn", "you have already drawn this turn; discard a card")
            }
            (Phase::Drawn, CherkiMove::Call) => GameError::illegal(
                "call_with_discard",
                "after drawing you call Cherki as you discard (discard a card and call), not as a move of its own",
            ),
            (Phase::Start, CherkiMove::Discard { .. }) => {
                GameError::illegal("draw_first", "draw from the stock or take the discard before discarding")
            }
            (Phase::Start, CherkiMove::TakeDiscard) => {
                if !self.top_available {
                    GameError::illegal("no_discard", "there is no discard to take: draw from the stock")
                } else if self.took_last[seat] && !self.called[seat] {
                    GameError::illegal(
                        "took_last_turn",
                        "you took the discard on your previous turn, so this turn you must draw from the stock",
                    )
                } else {
                    let top = self.discards.last().map_or(0, |d| d.card);
                    GameError::illegal(
                        "not_pair_kind",
                        format!(
                            "you have called; you may take only a card of your pair kind ({pair}), and the discard is {}",
                            card_words(top)
                        ),
                    )
                }
            }
            (Phase::Start, CherkiMove::Call) => {
                if self.called[seat] {
                    GameError::illegal("already_called", "you have already called Cherki this deal")
                } else {
                    GameError::illegal("not_ready", "your eight cards are not two triples and a pair")
                }
            }
            (Phase::Drawn, CherkiMove::Discard { card, call }) => {
                let name = card_words(card);
                if self.called[seat] {
                    if call {
                        GameError::illegal("already_called", "you have already called Cherki this deal")
                    } else {
                        GameError::illegal(
                            "must_discard_drawn",
                            format!(
                                "your hand is locked: you must discard the card you drew ({})",
                                card_words(self.drawn)
                            ),
                        )
                    }
                } else if card as usize >= DECK_SIZE || self.hands[seat] & bit(card) == 0 {
                    GameError::illegal("not_in_hand", format!("card {card} ({name}) is not in your hand"))
                } else if self.drawn_taken && card == self.drawn {
                    GameError::illegal(
                        "just_taken",
                        format!("you cannot discard {name}: you took it from the discard pile this turn"),
                    )
                } else {
                    GameError::illegal(
                        "not_ready",
                        format!("without {name} your eight cards are not two triples and a pair, so you cannot call"),
                    )
                }
            }
            _ => GameError::illegal("not_legal", "that move is not legal now"),
        }
    }
}
