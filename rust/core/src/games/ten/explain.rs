//! Why TEN refuses a move: the reason shown to a player, computed only after the move was found illegal.

use super::rules::*;
use crate::error::GameError;
use crate::game::Seat;

impl Ten {
    /// [`Game::explain`] of this game.
    pub(super) fn refusal(&self, seat: Seat, mv: &TenMove) -> GameError {
        if self.phase == Phase::Over {
            return GameError::illegal("game_over", "the game is over");
        }
        if self.actor() != Some(seat) {
            return GameError::illegal("not_your_turn", format!("seat {seat} is not to act"));
        }
        let phase = self.phase.words();
        let wrong = || GameError::illegal("wrong_phase", format!("this move is not possible during {phase}"));
        match (self.phase, mv) {
            (Phase::Draw, TenMove::Draw) => {
                GameError::illegal("draw_pile_empty", "the draw pile is empty: you must stop")
            }
            (Phase::Draw, TenMove::Stop) => GameError::illegal(
                "empty_tableau",
                "you may stop only with a number or currency card in the tableau (wilds do not count): draw",
            ),
            (Phase::Prize, TenMove::Prize(p)) => GameError::illegal(
                "prize_absent",
                format!(
                    "the tableau holds no {} card, so that prize is not available",
                    match p {
                        Prize::Numbers => "number",
                        Prize::Currency => "currency",
                    }
                ),
            ),
            (Phase::Buy | Phase::FinalBuy, &TenMove::Buy(id)) => {
                if !self.market.contains(id) {
                    GameError::illegal("not_in_market", format!("card {id} is not in the market"))
                } else if self.duplicate(seat, id) {
                    GameError::illegal(
                        "duplicate",
                        format!("you already hold a number card of the same colour and number as card {id}"),
                    )
                } else {
                    GameError::illegal(
                        "cannot_afford",
                        format!("card {id} costs {} and your purchasing power is {}", self.face(id), self.power(seat)),
                    )
                }
            }
            (Phase::Auction, &TenMove::Bid(amount)) => {
                let lo = self.min_bid();
                if amount < lo {
                    GameError::illegal(
                        "bid_too_low",
                        format!("a bid must be at least {lo} (strictly higher than the high bid)"),
                    )
                } else {
                    GameError::illegal(
                        "cannot_afford",
                        format!("a bid of {amount} exceeds your purchasing power of {}", self.power(seat)),
                    )
                }
            }
            (Phase::SoloOffer, TenMove::AcceptWild) => GameError::illegal(
                "cannot_afford",
                format!("the wild costs {} and your purchasing power is {}", self.solo_price(), self.power(seat)),
            ),
            (Phase::Pay, TenMove::PayToken | TenMove::PayBust | TenMove::PayCard(_)) => {
                let Some(p) = self.pay else { return wrong() };
                let bv = self.bust_value();
                let owed = p.price.saturating_sub(p.value(bv));
                let s = &self.seats[seat];
                match mv {
                    TenMove::PayToken if s.tokens == 0 => {
                        GameError::illegal("no_tokens", "you have no currency tokens")
                    }
                    TenMove::PayBust if s.busts == 0 => GameError::illegal("no_bust_tokens", "you have no bust tokens"),
                    &TenMove::PayCard(id) if !s.collection.contains(id) => {
                        if id == p.item {
                            GameError::illegal("card_being_paid_for", format!("card {id} is the card being paid for"))
                        } else {
                            GameError::illegal("not_in_collection", format!("card {id} is not in your collection"))
                        }
                    }
                    // With a token or card paid, a bust token that keeps the payment short always leaves an
                    // exact completion (see the module documentation), so a refused one always overpays.
                    TenMove::PayBust => GameError::illegal(
                        "overpayment",
                        format!(
                            "you owe {owed}: a bust token (worth {bv}) would make the payment {} for a price of {}, \
                             and a token or card already paid could then be taken back; only bust tokens alone \
                             may overpay",
                            p.value(bv) + bv,
                            p.price
                        ),
                    ),
                    _ => {
                        let (piece, tokens, cards) = match mv {
                            TenMove::PayToken => ("token", s.tokens.saturating_sub(1), s.collection.len()),
                            _ => ("card", s.tokens, s.collection.len().saturating_sub(1)),
                        };
                        let left = owed.saturating_sub(1);
                        GameError::illegal(
                            "not_minimal",
                            format!(
                                "you owe {owed}: after this {piece} {left} would be left, and {tokens} tokens, {} \
                                 bust tokens and {cards} card{} cannot pay {left} exactly (a bust token may \
                                 overpay only in a payment of bust tokens alone)",
                                s.busts,
                                if cards == 1 { "" } else { "s" }
                            ),
                        )
                    }
                }
            }
            _ => wrong(),
        }
    }
}
