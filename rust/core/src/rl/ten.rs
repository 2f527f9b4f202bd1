//! TEN as an RL game.
//!
//! **Action ids** (layout 1; `K` = the distinct card kinds of the box in data-file order, `B` = the most
//! any bid can be): `0` `draw`, `1` `stop`, `2` prize numbers, `3` prize currency, `4` `skip_buy`,
//! `5 + k` buy a card of kind `k`, then `pass_bid`, bids `1..=B`, `decline_wild`, `accept_wild`,
//! `pay_token`, `pay_bust`, and `pay_card` of kind `k`. Buying or paying with any card of one kind is one
//! action (the engine lists and applies the lowest id). `B` = token cap + bust-token value × bust tokens
//! in the box + cards in the box: no seat's purchasing power can exceed it.
//!
//! **Observation** (layout 2): TEN hides only the draw pile's order, so the tensor is the public table,
//! seat-relative: phase, whose turn and who must act, tableau, market, discard pile and each seat's
//! collection, tokens, bust tokens and scores per seat, the supplies, the auction, the solo offer, the
//! payment in progress and the final round. Only a card's kind matters to the rules (copies of one kind are
//! interchangeable: the same scoring, price, bust arithmetic and action id), so a set of cards is the number
//! of its cards of each kind and a single card is a one-hot over kinds, each block with slots for only the
//! kinds that can be there (`Slots`): 461 floats at 3 players where 129-slot card-id sets took 1 341.

use super::encode::{card_ids, num, relative, uint, uints, Encoder};
use super::RlGame;
use crate::game::{Game, Seat, Setup};
use crate::games::ten::cards::{TenData, TenKind, TOTAL_CARDS};
use crate::games::ten::{CardSet, Phase, Prize, Ten, TenMove};
use serde_json::{json, Value};
use std::sync::OnceLock;

const PHASES: [&str; 8] = ["draw", "prize", "buy", "auction", "solo_offer", "pay", "final_buy", "over"];
const PURPOSES: [&str; 4] = ["buy", "final_buy", "auction", "solo_wild"];

/// The box's card kinds and the ids derived from them.
struct Layout {
    data: Option<&'static TenData>,
    kinds: Vec<TenKind>,
    /// Per card id: the index of its kind in `kinds` (`u8::MAX`: no such card).
    kind_of_card: Vec<u8>,
    max_bid: usize,
    /// Per [`Slots`] group, in its declaration order.
    slots: [SlotTable; 5],
}

/// The kinds a card block of the observation has slots for: only those the rules let into it.
#[derive(Clone, Copy)]
enum Slots {
    /// Every kind (the discard pile).
    All = 0,
    /// Number and currency cards (the tableau: a drawn wild goes to auction instead).
    Tableau = 1,
    /// Number cards (the market).
    Numbers = 2,
    /// Number cards and wilds (a collection, a card paid for, cards paid with).
    Collectable = 3,
    /// The wilds (the card on auction, the solo offer).
    Wilds = 4,
}

impl Slots {
    fn holds(self, kind: TenKind) -> bool {
        match self {
            Slots::All => true,
            Slots::Tableau => !kind.is_wild(),
            Slots::Numbers => matches!(kind, TenKind::Number { .. }),
            Slots::Collectable => !matches!(kind, TenKind::Currency { .. }),
            Slots::Wilds => kind.is_wild(),
        }
    }
}

/// A [`Slots`] group's block: its kinds in kind order, and each card id's slot in it.
struct SlotTable {
    len: usize,
    /// Per card id: its slot (`u8::MAX`: its kind has none here, or no such card).
    of_card: [u8; 256],
}

impl SlotTable {
    fn new(group: Slots, kinds: &[TenKind], kind_of_card: &[u8]) -> SlotTable {
        let mut slot_of_kind = vec![u8::MAX; kinds.len()];
        let mut len = 0;
        for (k, &kind) in kinds.iter().enumerate() {
            if group.holds(kind) {
                slot_of_kind[k] = len as u8;
                len += 1;
            }
        }
        let mut of_card = [u8::MAX; 256];
        for (card, &k) in kind_of_card.iter().enumerate() {
            of_card[card] = slot_of_kind.get(usize::from(k)).copied().unwrap_or(u8::MAX);
        }
        SlotTable { len, of_card }
    }

    /// The slot of a card id, if its kind has one.
    #[inline]
    fn slot(&self, card: usize) -> Option<usize> {
        self.of_card.get(card).filter(|&&s| s != u8::MAX).map(|&s| usize::from(s))
    }

    /// A block of how many of `cards` are of each kind.
    #[inline]
    fn counts(&self, enc: &mut Encoder<'_>, name: &str, cards: impl IntoIterator<Item = usize>) {
        let slots = enc.block(name, self.len);
        if slots.is_empty() {
            return;
        }
        for card in cards {
            self.add(slots, card, name);
        }
    }

    /// Counts one card in a block's slots.
    #[inline]
    fn add(&self, slots: &mut [f32], card: usize, name: &str) {
        let slot = self.slot(card);
        debug_assert!(slot.is_some(), "card {card} has no slot in block {name}");
        if let Some(s) = slot.and_then(|s| slots.get_mut(s)) {
            *s += 1.0;
        }
    }

    /// [`SlotTable::counts`] of the members of a card set, read straight from its bit words.
    #[inline]
    fn set_counts(&self, enc: &mut Encoder<'_>, name: &str, set: CardSet) {
        let slots = enc.block(name, self.len);
        if slots.is_empty() {
            return;
        }
        for (w, mut word) in set.words().into_iter().enumerate() {
            while word != 0 {
                self.add(slots, 64 * w + word.trailing_zeros() as usize, name);
                word &= word - 1;
            }
        }
    }

    /// A block with a 1.0 at the kind of `card`.
    #[inline]
    fn one_hot(&self, enc: &mut Encoder<'_>, name: &str, card: Option<usize>) {
        enc.one_hot(name, card.and_then(|c| self.slot(c)), self.len);
    }
}

impl Layout {
    fn get() -> &'static Layout {
        static LAYOUT: OnceLock<Layout> = OnceLock::new();
        LAYOUT.get_or_init(|| {
            let data = TenData::embedded().ok();
            let mut kinds: Vec<TenKind> = Vec::new();
            for card in data.map(|d| d.cards.as_slice()).unwrap_or_default() {
                if !kinds.contains(&card.kind) {
                    kinds.push(card.kind);
                }
            }
            let max_bid = data.map_or(0, |d| {
                usize::from(d.token_cap)
                    + usize::from(d.bust_token_value) * usize::from(d.bust_token_supply)
                    + d.cards.len()
            });
            let kind_of_card: Vec<u8> = (0..=u8::MAX)
                .map(|id| {
                    let kind = data.and_then(|d| d.kind(id));
                    kind.and_then(|k| kinds.iter().position(|&x| x == k)).map_or(u8::MAX, |i| i as u8)
                })
                .collect();
            let groups = [Slots::All, Slots::Tableau, Slots::Numbers, Slots::Collectable, Slots::Wilds];
            let slots = groups.map(|g| SlotTable::new(g, &kinds, &kind_of_card));
            Layout { data, kinds, kind_of_card, max_bid, slots }
        })
    }

    fn kind_index(&self, card: u8) -> Option<usize> {
        self.kind_of_card.get(usize::from(card)).filter(|&&k| k != u8::MAX).map(|&k| usize::from(k))
    }

    fn slots(&self, group: Slots) -> &SlotTable {
        &self.slots[group as usize]
    }

    fn buy(&self) -> usize {
        5
    }
    fn pass_bid(&self) -> usize {
        self.buy() + self.kinds.len()
    }
    fn decline(&self) -> usize {
        self.pass_bid() + 1 + self.max_bid
    }
    fn pay_card(&self) -> usize {
        self.decline() + 4
    }
}

impl RlGame for Ten {
    fn action_space_size(_setup: &Setup) -> usize {
        let layout = Layout::get();
        layout.pay_card() + layout.kinds.len()
    }

    fn action_id(_setup: &Setup, mv: &TenMove) -> Option<usize> {
        let layout = Layout::get();
        match *mv {
            TenMove::Draw => Some(0),
            TenMove::Stop => Some(1),
            TenMove::Prize(Prize::Numbers) => Some(2),
            TenMove::Prize(Prize::Currency) => Some(3),
            TenMove::SkipBuy => Some(4),
            TenMove::Buy(card) => layout.kind_index(card).map(|k| layout.buy() + k),
            TenMove::PassBid => Some(layout.pass_bid()),
            TenMove::Bid(amount) => {
                let amount = amount as usize;
                (1..=layout.max_bid).contains(&amount).then(|| layout.pass_bid() + amount)
            }
            TenMove::DeclineWild => Some(layout.decline()),
            TenMove::AcceptWild => Some(layout.decline() + 1),
            TenMove::PayToken => Some(layout.decline() + 2),
            TenMove::PayBust => Some(layout.decline() + 3),
            TenMove::PayCard(card) => layout.kind_index(card).map(|k| layout.pay_card() + k),
        }
    }

    fn encode_view(setup: &Setup, seat: Seat, view: &Value, enc: &mut Encoder<'_>) {
        let public = &view["public"];
        let players = setup.players;
        let layout = Layout::get();
        let slots = |group| layout.slots(group);
        let rel = |s: usize| relative(s, seat, players);
        let phase = public["phase"].as_str().and_then(|p| PHASES.iter().position(|&x| x == p));
        enc.one_hot("phase", phase, PHASES.len());
        enc.one_hot("active", uint(public, "active").map(rel), players);
        enc.counts("to_act", uints(&public["to_act"]).map(rel).collect::<Vec<_>>(), players, 1.0);
        enc.scalar("turn", num(public, "turn"), 100.0);
        enc.scalar("draw_pile", num(public, "draw_pile"), TOTAL_CARDS as f64);
        slots(Slots::Tableau).counts(enc, "tableau", card_ids(&public["tableau"]["cards"]));
        enc.scalar("tableau_numbers", num(&public["tableau"], "numbers"), 10.0);
        enc.scalar("tableau_currency", num(&public["tableau"], "currency"), 10.0);
        slots(Slots::Numbers).counts(enc, "market", card_ids(&public["market"]));
        slots(Slots::All).counts(enc, "discard", card_ids(&public["discard"]["cards"]));
        let seats: Vec<&Value> = public["seats"].as_array().into_iter().flatten().collect();
        let column = |key: &str| {
            let mut out = vec![0.0; players];
            for (s, p) in seats.iter().enumerate().take(players) {
                out[rel(s)] = num(p, key);
            }
            out
        };
        enc.vector("tokens", column("tokens"), players, 10.0);
        enc.vector("bust_tokens", column("bust_tokens"), players, 5.0);
        enc.vector("score", column("score"), players, 40.0);
        for r in 0..players {
            let s = (seat + r) % players;
            let collection = seats.get(s).map(|p| card_ids(&p["collection"])).unwrap_or_default();
            slots(Slots::Collectable).counts(enc, "collection", collection);
        }
        enc.scalar("bust_supply", num(public, "bust_supply"), 15.0);
        enc.scalar("token_supply", num(public, "token_supply"), 50.0);
        let auction = &public["auction"];
        slots(Slots::Wilds).one_hot(enc, "auction_card", uint(&auction["card"], "id"));
        enc.one_hot("auction_next", uint(auction, "next").map(rel), players);
        enc.one_hot("auction_high_seat", uint(auction, "high_seat").map(rel), players);
        enc.scalar("auction_high_bid", num(auction, "high_bid"), 20.0);
        slots(Slots::Wilds).one_hot(enc, "offer_card", uint(&public["offer"]["card"], "id"));
        let payment = &public["payment"];
        enc.one_hot("payment_payer", uint(payment, "payer").map(rel), players);
        let purpose = payment["purpose"].as_str().and_then(|p| PURPOSES.iter().position(|&x| x == p));
        enc.one_hot("payment_purpose", purpose, PURPOSES.len());
        slots(Slots::Collectable).one_hot(enc, "payment_card", uint(&payment["card"], "id"));
        enc.scalar("payment_price", num(payment, "price"), 20.0);
        enc.scalar("payment_owed", num(payment, "owed"), 20.0);
        enc.scalar("payment_tokens", num(payment, "tokens"), 10.0);
        enc.scalar("payment_bust_tokens", num(payment, "bust_tokens"), 5.0);
        slots(Slots::Collectable).counts(enc, "payment_cards", card_ids(&payment["cards"]));
        enc.one_hot("final_round_next", uint(&public["final_round"], "next").map(rel), players);
        enc.scalar("solo_target", num(public, "solo_target"), 40.0);
    }

    fn encode(&self, seat: Seat, enc: &mut Encoder<'_>) {
        let players = self.setup().players;
        let rel = |s: usize| relative(s, seat, players);
        let table = self.public_table();
        let layout = Layout::get();
        let slots = |group| layout.slots(group);
        fn ids(cards: &[u8]) -> impl Iterator<Item = usize> + '_ {
            cards.iter().map(|&c| usize::from(c))
        }
        let phase = match table.phase {
            Phase::Draw => 0,
            Phase::Prize => 1,
            Phase::Buy => 2,
            Phase::Auction => 3,
            Phase::SoloOffer => 4,
            Phase::Pay => 5,
            Phase::FinalBuy => 6,
            Phase::Over => 7,
        };
        debug_assert_eq!(PHASES[phase], table.phase.name());
        enc.one_hot("phase", Some(phase), PHASES.len());
        enc.one_hot("active", Some(rel(table.active)), players);
        enc.counts("to_act", self.to_act().iter().map(rel), players, 1.0);
        enc.scalar("turn", f64::from(self.turn()), 100.0);
        enc.scalar("draw_pile", table.draw_pile as f64, TOTAL_CARDS as f64);
        slots(Slots::Tableau).counts(enc, "tableau", ids(table.tableau));
        enc.scalar("tableau_numbers", f64::from(table.numbers), 10.0);
        enc.scalar("tableau_currency", f64::from(table.currency), 10.0);
        slots(Slots::Numbers).set_counts(enc, "market", table.market);
        slots(Slots::All).counts(enc, "discard", ids(table.discard));
        let column = |f: &dyn Fn(usize) -> f64| {
            let mut out = [0.0; 5];
            for s in 0..players {
                out[rel(s)] = f(s);
            }
            out
        };
        enc.vector("tokens", column(&|s| f64::from(table.seats[s].tokens)), players, 10.0);
        enc.vector("bust_tokens", column(&|s| f64::from(table.seats[s].busts)), players, 5.0);
        enc.vector("score", column(&|s| f64::from(self.score(s))), players, 40.0);
        for r in 0..players {
            slots(Slots::Collectable).set_counts(enc, "collection", table.seats[(seat + r) % players].collection);
        }
        enc.scalar("bust_supply", f64::from(self.bust_supply()), 15.0);
        enc.scalar("token_supply", f64::from(table.token_supply), 50.0);
        let auction = table.auction;
        slots(Slots::Wilds).one_hot(enc, "auction_card", auction.map(|a| usize::from(a.0)));
        enc.one_hot("auction_next", auction.map(|a| rel(a.1)), players);
        enc.one_hot("auction_high_seat", auction.and_then(|a| a.3).map(rel), players);
        enc.scalar("auction_high_bid", auction.map_or(0.0, |a| f64::from(a.2)), 20.0);
        slots(Slots::Wilds).one_hot(enc, "offer_card", table.offer.map(usize::from));
        let pay = table.payment;
        enc.one_hot("payment_payer", pay.map(|p| rel(p.payer)), players);
        enc.one_hot("payment_purpose", pay.and_then(|p| PURPOSES.iter().position(|&x| x == p.purpose)), PURPOSES.len());
        slots(Slots::Collectable).one_hot(enc, "payment_card", pay.map(|p| usize::from(p.card)));
        enc.scalar("payment_price", pay.map_or(0.0, |p| f64::from(p.price)), 20.0);
        enc.scalar("payment_owed", pay.map_or(0.0, |p| f64::from(p.owed)), 20.0);
        enc.scalar("payment_tokens", pay.map_or(0.0, |p| f64::from(p.tokens)), 10.0);
        enc.scalar("payment_bust_tokens", pay.map_or(0.0, |p| f64::from(p.bust_tokens)), 5.0);
        slots(Slots::Collectable).set_counts(enc, "payment_cards", pay.map(|p| p.cards).unwrap_or_default());
        enc.one_hot("final_round_next", table.final_next.map(rel), players);
        enc.scalar("solo_target", table.solo_target.map_or(0.0, f64::from), 40.0);
    }

    fn push_legal_ids(&self, seat: Seat, out: &mut Vec<i32>) {
        let setup = self.setup();
        self.visit_legal(seat, |mv| out.extend(Self::action_id(setup, &mv).map(|id| id as i32)));
    }

    fn action_move(&self, seat: Seat, id: usize) -> Option<TenMove> {
        let setup = self.setup();
        let mut found = None;
        self.visit_legal(seat, |mv| {
            if found.is_none() && Self::action_id(setup, &mv) == Some(id) {
                found = Some(mv);
            }
        });
        found
    }

    /// The sum of [`length_budget`]'s terms; the derivation is there and in `docs/RL.md`.
    fn max_game_length(setup: &Setup) -> usize {
        length_budget(setup).iter().map(|t| t.1).sum()
    }

    fn card_table(setup: &Setup) -> Vec<Value> {
        let layout = Layout::get();
        let in_deck = layout.data.and_then(|d| d.deck_for(setup.players as u8).ok()).unwrap_or_default();
        layout
            .data
            .map(|d| d.cards.as_slice())
            .unwrap_or_default()
            .iter()
            .map(|c| {
                let mut card = c.to_json();
                if let Value::Object(map) = &mut card {
                    map.insert("kind_index".into(), json!(layout.kind_index(c.id)));
                    map.insert("in_deck".into(), json!(in_deck.contains(&c.id)));
                }
                card
            })
            .collect()
    }
}

/// The term of [`length_budget`] a move counts against.
pub fn length_term(mv: &TenMove) -> &'static str {
    match mv {
        TenMove::Draw => "draw",
        TenMove::Stop | TenMove::PayBust => "stop_or_pay_bust",
        TenMove::Prize(_) => "prize",
        TenMove::Buy(_) | TenMove::SkipBuy => "buy_or_skip",
        TenMove::PassBid | TenMove::Bid(_) | TenMove::AcceptWild | TenMove::DeclineWild => "auction_or_offer",
        TenMove::PayCard(_) => "pay_card",
        TenMove::PayToken => "pay_token",
    }
}

/// The most moves of each kind one game of this setup can have, from the rules. Nothing in TEN is
/// unbounded: bids are not (every seat bids or passes exactly once per auction), and payments are bounded
/// by what can ever be paid. With `D` cards in the deck, `W` wilds, `C` currency cards worth `V` in all,
/// `N = D − W − C` number cards and `P` seats:
///
/// - `draw` ≤ `D`: each draw takes a card from the pile, which only shrinks.
/// - Turns `T` ≤ `N + C + 1`: a turn ends by a bust (after drawing a number or currency card) or by a
///   stop, allowed only with such a card in the tableau (cleared every turn) or when the pile is empty,
///   which makes that turn the last.
/// - `stop_or_pay_bust` ≤ `T`: each turn ends by one stop or one bust, a bust gives at most one bust token,
///   and bust tokens come from nowhere else; each `pay_bust` spends one.
/// - `prize` ≤ `T` (one per stop) and `buy_or_skip` ≤ `T + P` (one after each NUMBERS prize, one per seat
///   in the final round).
/// - `auction_or_offer` ≤ `W × P` (each seat bids or passes exactly once per auction); solo: `W` offers.
/// - `pay_card` ≤ `N + W`: a card paid goes to the discard pile, which gives nothing back, and only number
///   cards and wilds ever enter a collection.
/// - `pay_token` ≤ `start_tokens × P + max(1, P − 1) × V`: tokens come from the start and from gains; a
///   tableau's currency (each currency card is in one tableau) is gained by every other seat after a
///   NUMBERS prize or a number bust, or by the active seat after a CURRENCY prize.
pub fn length_budget(setup: &Setup) -> Vec<(&'static str, usize)> {
    let Some(data) = Layout::get().data else { return Vec::new() };
    let players = setup.players;
    let deck: Vec<TenKind> =
        data.deck_for(players as u8).map(|ids| ids.iter().filter_map(|&i| data.kind(i)).collect()).unwrap_or_default();
    let wilds = deck.iter().filter(|k| k.is_wild()).count();
    let currency: Vec<usize> = deck
        .iter()
        .filter_map(|k| match k {
            TenKind::Currency { value } => Some(usize::from(*value)),
            _ => None,
        })
        .collect();
    let numbers = deck.len() - wilds - currency.len();
    let turns = numbers + currency.len() + 1;
    let auctions = if players == 1 { wilds } else { wilds * players };
    let gains = players.saturating_sub(1).max(1) * currency.iter().sum::<usize>();
    vec![
        ("draw", deck.len()),
        ("stop_or_pay_bust", turns),
        ("prize", turns),
        ("buy_or_skip", turns + players),
        ("auction_or_offer", auctions),
        ("pay_card", numbers + wilds),
        ("pay_token", usize::from(data.start_tokens) * players + gains),
    ]
}
