//! TEN's JSON: views, events and moves written straight as canonical JSON (the one writer of each; the
//! network host sends and hashes these bytes on every move), moves parsed, and the saved state.
//!
//! Every card, wherever it appears, goes through [`Ten::write_card`]. The outcome inside the `game_over`
//! event (once a game, with its scoring breakdown) is the outcome's own `Value`, encoded here.

use super::cards::{TenKind, TOTAL_CARDS};
use super::rules::*;
use crate::error::GameError;
use crate::game::{Fields, Game, Seat};
use crate::json::{bool_str, write_array, write_canonical, write_list, write_string, write_u64};
use serde_json::{json, Value};

/// Writes one JSON object member by member. Keys must be given in canonical (byte) order, which debug
/// builds check; values are appended by the caller to the buffer [`Object::key`] returns.
struct Object<'o> {
    out: &'o mut String,
    last_key: Option<&'static str>,
}

impl<'o> Object<'o> {
    /// Opens an object in `out`.
    fn open(out: &'o mut String) -> Self {
        out.push('{');
        Object { out, last_key: None }
    }

    /// Writes the separator and `key`, returning the buffer for its value.
    fn key(&mut self, key: &'static str) -> &mut String {
        debug_assert!(self.last_key.is_none_or(|last| last < key), "key {key:?} out of canonical order");
        if self.last_key.is_some() {
            self.out.push(',');
        }
        self.last_key = Some(key);
        write_string(self.out, key);
        self.out.push(':');
        self.out
    }

    /// Writes an unsigned integer member.
    fn uint(&mut self, key: &'static str, value: impl Into<u64>) {
        write_u64(self.key(key), value.into());
    }

    /// Writes a seat member.
    fn seat(&mut self, key: &'static str, seat: Seat) {
        write_u64(self.key(key), seat as u64);
    }

    /// Writes a string member.
    fn string(&mut self, key: &'static str, value: &str) {
        write_string(self.key(key), value);
    }

    /// Closes the object.
    fn close(self) {
        self.out.push('}');
    }
}

/// Appends the seats `from + 1, ..., from + n` (mod `n`): the order of an auction or of the final round.
fn write_order_after(out: &mut String, from: Seat, n: usize) {
    write_list(out, (1..=n).map(|offset| ((from + offset) % n) as u64));
}

/// The name of the piece a `pay` event reports.
fn piece_name(token: bool, bust: bool) -> &'static str {
    if token {
        "token"
    } else if bust {
        "bust_token"
    } else {
        "card"
    }
}

impl Ten {
    /// Appends card `id`: its kind's fields and its id.
    pub(super) fn write_card(&self, out: &mut String, id: u8) {
        let kind = self.kind(id);
        let (colour, value) = match kind {
            TenKind::Number { colour, value } => (Some(colour), Some(value)),
            TenKind::ColourWild { colour } => (Some(colour), None),
            TenKind::NumberWild { value } | TenKind::Currency { value } => (None, Some(value)),
            TenKind::AnyWild => (None, None),
        };
        let mut card = Object::open(out);
        if let Some(colour) = colour {
            card.string("colour", colour.name());
        }
        card.uint("id", id);
        card.string("type", kind.type_name());
        if let Some(value) = value {
            card.uint("value", value);
        }
        card.close();
    }

    /// Appends the cards `ids` as a JSON array of card objects.
    fn write_cards(&self, out: &mut String, ids: impl Iterator<Item = u8>) {
        write_array(out, ids, |out, id| self.write_card(out, id));
    }

    /// Appends a card or `null`.
    fn write_opt_card(&self, out: &mut String, id: Option<u8>) {
        match id {
            Some(id) => self.write_card(out, id),
            None => out.push_str("null"),
        }
    }

    /// Canonical JSON of `public_view()`.
    pub(super) fn write_public(&self, out: &mut String) {
        let n = self.players();
        let tokens_held: u32 = self.seats[..n].iter().map(|s| u32::from(s.tokens)).sum();
        let mut view = Object::open(out);
        view.seat("active", self.active);
        self.write_auction(view.key("auction"));
        view.uint("bust_supply", self.bust_supply);
        self.write_discard(view.key("discard"));
        view.uint("draw_pile", self.draw.len() as u64);
        self.write_final_round(view.key("final_round"));
        match self.solo() {
            true => view.string("house_rules", SOLO_NOTE),
            false => view.key("house_rules").push_str("null"),
        }
        self.write_cards(view.key("market"), self.market.iter());
        self.write_offer(view.key("offer"));
        self.write_payment(view.key("payment"));
        view.string("phase", self.phase.name());
        self.write_seats(view.key("seats"));
        match self.solo() {
            true => view.uint("solo_target", self.solo_target),
            false => view.key("solo_target").push_str("null"),
        }
        self.write_tableau(view.key("tableau"));
        write_list(view.key("to_act"), self.to_act().iter().map(|s| s as u64));
        view.uint("token_supply", u32::from(self.data.currency_token_supply).saturating_sub(tokens_held));
        view.uint("turn", self.turn);
        view.close();
    }

    /// The view's `auction`: the wild on offer, the bidding order, the next bidder and the high bid.
    fn write_auction(&self, out: &mut String) {
        let Some(a) = self.auction else {
            out.push_str("null");
            return;
        };
        let n = self.players();
        let mut auction = Object::open(out);
        self.write_card(auction.key("card"), a.card);
        auction.uint("high_bid", a.high);
        match a.high_seat {
            Some(seat) => auction.seat("high_seat", seat),
            None => auction.key("high_seat").push_str("null"),
        }
        auction.uint("min_bid", a.high + 1);
        auction.seat("next", (self.active + a.offset) % n);
        write_order_after(auction.key("order"), self.active, n);
        auction.close();
    }

    /// The view's `discard`: every card of the face-up pile (bottom first), its size and its top card.
    fn write_discard(&self, out: &mut String) {
        let mut discard = Object::open(out);
        self.write_cards(discard.key("cards"), self.discard.iter().copied());
        discard.uint("size", self.discard.len() as u64);
        self.write_opt_card(discard.key("top"), self.discard.last().copied());
        discard.close();
    }

    /// The view's `final_round` (null outside the final buy round).
    fn write_final_round(&self, out: &mut String) {
        if self.final_offset == 0 || self.phase == Phase::Over {
            out.push_str("null");
            return;
        }
        let n = self.players();
        let mut round = Object::open(out);
        round.seat("next", (self.final_from + self.final_offset) % n);
        write_order_after(round.key("order"), self.final_from, n);
        round.close();
    }

    /// The view's `offer` (solo): the wild on offer and its price.
    fn write_offer(&self, out: &mut String) {
        let Some(card) = self.offer else {
            out.push_str("null");
            return;
        };
        let mut offer = Object::open(out);
        self.write_card(offer.key("card"), card);
        offer.uint("price", self.solo_price());
        offer.close();
    }

    /// The view's `payment` in progress.
    fn write_payment(&self, out: &mut String) {
        let Some(p) = self.pay else {
            out.push_str("null");
            return;
        };
        let paid = p.value(self.bust_value());
        let mut payment = Object::open(out);
        payment.uint("bust_tokens", p.busts);
        self.write_card(payment.key("card"), p.item);
        self.write_cards(payment.key("cards"), p.cards.iter());
        payment.uint("owed", p.price.saturating_sub(paid));
        payment.uint("paid", paid);
        payment.seat("payer", p.payer);
        payment.uint("price", p.price);
        payment.string("purpose", p.purpose.name());
        payment.uint("tokens", p.tokens);
        payment.close();
    }

    /// The view's `seats`: each seat's tokens, bust tokens, collection and score.
    fn write_seats(&self, out: &mut String) {
        write_array(out, self.seats[..self.players()].iter().enumerate(), |out, (s, st)| {
            let mut seat = Object::open(out);
            seat.uint("bust_tokens", st.busts);
            self.write_cards(seat.key("collection"), st.collection.iter());
            seat.uint("score", self.score(s));
            seat.uint("tokens", st.tokens);
            seat.close();
        });
    }

    /// The view's `tableau`: the turn's cards in draw order and their sums.
    fn write_tableau(&self, out: &mut String) {
        let mut tableau = Object::open(out);
        self.write_cards(tableau.key("cards"), self.tableau.iter().copied());
        tableau.uint("currency", self.currency);
        tableau.uint("numbers", self.numbers);
        tableau.close();
    }

    /// Canonical JSON array of `events(_)`: every observer learns the same events.
    pub(super) fn write_event_list(&self, out: &mut String) {
        write_array(out, &self.events, |out, event| self.write_event(out, event));
    }

    /// Appends one event as `event_json` gives it.
    fn write_event(&self, out: &mut String, event: &Event) {
        let mut e = Object::open(out);
        match *event {
            Event::Drew { seat, card } => {
                self.write_card(e.key("card"), card);
                e.seat("seat", seat);
                e.string("type", "draw");
            }
            Event::Bust { seat, currency, bust_token } => {
                e.key("bust_token").push_str(bool_str(bust_token));
                e.string("kind", if currency { "currency" } else { "numbers" });
                e.seat("seat", seat);
                e.string("type", "bust");
            }
            Event::Gain { seat, gained, lost } => {
                e.uint("lost", lost);
                e.seat("seat", seat);
                e.uint("tokens", gained);
                e.string("type", "gain");
            }
            Event::Stop { seat } => {
                e.seat("seat", seat);
                e.string("type", "stop");
            }
            Event::Prize { seat, kind } => {
                e.string("kind", kind.name());
                e.seat("seat", seat);
                e.string("type", "prize");
            }
            Event::AuctionOpen { card } => {
                self.write_card(e.key("card"), card);
                e.string("type", "auction");
            }
            Event::Bid { seat, amount } => {
                e.uint("amount", amount);
                e.seat("seat", seat);
                e.string("type", "bid");
            }
            Event::PassBid { seat } => {
                e.seat("seat", seat);
                e.string("type", "pass_bid");
            }
            Event::AuctionWon { seat, card, amount } => {
                e.uint("amount", amount);
                self.write_card(e.key("card"), card);
                e.seat("seat", seat);
                e.string("type", "auction_won");
            }
            Event::WildDiscarded { card } => {
                self.write_card(e.key("card"), card);
                e.string("type", "wild_discarded");
            }
            Event::Offer { card, price } => {
                self.write_card(e.key("card"), card);
                e.uint("price", price);
                e.string("type", "offer");
            }
            Event::BuyChosen { seat, card } => {
                self.write_card(e.key("card"), card);
                e.seat("seat", seat);
                e.string("type", "buy");
            }
            Event::SkipBuy { seat } => {
                e.seat("seat", seat);
                e.string("type", "skip_buy");
            }
            Event::Paid { seat, token, bust, card, owed } => {
                self.write_opt_card(e.key("card"), card);
                e.uint("owed", owed);
                e.string("piece", piece_name(token, bust));
                e.seat("seat", seat);
                e.string("type", "pay");
            }
            Event::Collected { seat, card, purpose } => {
                self.write_card(e.key("card"), card);
                e.string("purpose", purpose.name());
                e.seat("seat", seat);
                e.string("type", "collect");
            }
            Event::TurnEnd { seat } => {
                e.seat("seat", seat);
                e.string("type", "turn_end");
            }
            Event::NextTurn { seat, turn } => {
                e.seat("seat", seat);
                e.uint("turn", turn);
                e.string("type", "turn");
            }
            Event::FinalRound { first } => {
                e.seat("first", first);
                e.string("type", "final_round");
            }
            Event::GameOver => {
                // Once a game: the outcome and its scoring breakdown keep their `Value` form.
                match self.outcome() {
                    Some(outcome) => write_canonical(e.key("outcome"), &outcome.to_json()),
                    None => e.key("outcome").push_str("null"),
                }
                e.string("type", "game_over");
            }
        }
        e.close();
    }
}

/// Canonical JSON of `move_to_json(mv)`.
pub(super) fn write_move(out: &mut String, mv: &TenMove) {
    let mut m = Object::open(out);
    let name = match *mv {
        TenMove::Draw => "draw",
        TenMove::Stop => "stop",
        TenMove::Prize(prize) => {
            m.string("kind", prize.name());
            "prize"
        }
        TenMove::Buy(id) => {
            m.uint("card", id);
            "buy"
        }
        TenMove::SkipBuy => "skip_buy",
        TenMove::Bid(amount) => {
            m.uint("amount", amount);
            "bid"
        }
        TenMove::PassBid => "pass_bid",
        TenMove::PayToken => "pay_token",
        TenMove::PayBust => "pay_bust",
        TenMove::PayCard(id) => {
            m.uint("card", id);
            "pay_card"
        }
        TenMove::AcceptWild => "accept_wild",
        TenMove::DeclineWild => "decline_wild",
    };
    m.string("type", name);
    m.close();
}

pub(super) fn parse_card(f: &Fields) -> Result<u8, GameError> {
    let id = f.uint("card")?;
    if id >= TOTAL_CARDS as u64 {
        return Err(GameError::invalid(format!("no TEN card has id {id} (ids are 0–{})", TOTAL_CARDS - 1)));
    }
    Ok(id as u8)
}

impl Ten {
    /// [`Game::move_from_json`] of this game.
    pub(super) fn parse_move(value: &Value) -> Result<TenMove, GameError> {
        let kind = Fields::new(value, &["type", "kind", "card", "amount"])?.kind()?;
        let only = |keys: &[&str]| Fields::new(value, keys);
        Ok(match kind {
            "draw" => only(&["type"]).map(|_| TenMove::Draw)?,
            "stop" => only(&["type"]).map(|_| TenMove::Stop)?,
            "skip_buy" => only(&["type"]).map(|_| TenMove::SkipBuy)?,
            "pass_bid" => only(&["type"]).map(|_| TenMove::PassBid)?,
            "pay_token" => only(&["type"]).map(|_| TenMove::PayToken)?,
            "pay_bust" => only(&["type"]).map(|_| TenMove::PayBust)?,
            "accept_wild" => only(&["type"]).map(|_| TenMove::AcceptWild)?,
            "decline_wild" => only(&["type"]).map(|_| TenMove::DeclineWild)?,
            "prize" => match only(&["type", "kind"])?.str("kind")? {
                "numbers" => TenMove::Prize(Prize::Numbers),
                "currency" => TenMove::Prize(Prize::Currency),
                other => return Err(GameError::invalid(format!("unknown prize {other:?} (numbers or currency)"))),
            },
            "buy" => TenMove::Buy(parse_card(&only(&["type", "card"])?)?),
            "pay_card" => TenMove::PayCard(parse_card(&only(&["type", "card"])?)?),
            "bid" => {
                let amount = only(&["type", "amount"])?.uint("amount")?;
                TenMove::Bid(u32::try_from(amount).map_err(|_| GameError::invalid("bid amount too large"))?)
            }
            other => {
                return Err(GameError::invalid(format!(
                    "unknown TEN move {other:?} (draw, stop, prize, buy, skip_buy, bid, pass_bid, pay_token, \
                     pay_bust, pay_card, accept_wild, decline_wild)"
                )))
            }
        })
    }

    /// [`Game::state_json`] of this game.
    pub(super) fn saved_state(&self) -> Value {
        let mut v = self.public_view();
        v["draw_order"] = json!(self.draw);
        v["discard_order"] = json!(self.discard);
        v["rng"] = json!(self.rng.state_hex());
        v["final_from"] = json!(self.final_from);
        v["final_offset"] = json!(self.final_offset);
        v["events"] = Value::Array(self.events(None));
        v
    }
}

#[cfg(feature = "serde")]
crate::games::serde_via_wire!(TenMove, write_move, Ten::parse_move);
