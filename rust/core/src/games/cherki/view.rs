//! Cherki from a view: a state rebuilt from what one seat sees, and determinization (hidden hands and the
//! stock redealt consistently with every called pair and face-up discard).

use super::cards::*;
use super::discard_log::DiscardEntry;
use super::legal::*;
use super::rules::*;
use crate::error::GameError;
use crate::game::{Game, Seat, Setup};
use crate::rng::Rng;
use serde_json::{json, Value};

/// A `CorruptState` for a view that cannot come from this game.
/// Removes and returns a uniformly chosen card of any kind but `kind` from cards sorted by kind (the card a
/// called seat just drew without winning), or `None` when there is none.
pub(super) fn take_card_not_of_kind(by_kind: &mut [Vec<u8>; KINDS], kind: usize, rng: &mut Rng) -> Option<u8> {
    let others: usize = (0..KINDS).filter(|&k| k != kind).map(|k| by_kind[k].len()).sum();
    if others == 0 {
        return None;
    }
    let mut pick = rng.index(others);
    let chosen = (0..KINDS).filter(|&k| k != kind).find(|&k| {
        if pick < by_kind[k].len() {
            true
        } else {
            pick -= by_kind[k].len();
            false
        }
    })?;
    Some(by_kind[chosen].swap_remove(pick))
}

pub(super) fn bad_view(reason: impl std::fmt::Display) -> GameError {
    GameError::CorruptState(format!("not a Cherki view: {reason}"))
}

/// The object at `value`, whose keys must be exactly `keys`.
pub(super) fn view_object<'a>(
    value: &'a Value,
    what: &str,
    keys: &[&str],
) -> Result<&'a serde_json::Map<String, Value>, GameError> {
    let map = value.as_object().ok_or_else(|| bad_view(format!("{what} must be an object")))?;
    if map.len() != keys.len() || !keys.iter().all(|k| map.contains_key(*k)) {
        let mut found: Vec<&str> = map.keys().map(String::as_str).collect();
        found.sort_unstable();
        return Err(bad_view(format!("{what} has keys {found:?}, expected {keys:?}")));
    }
    Ok(map)
}

pub(super) fn view_uint(map: &serde_json::Map<String, Value>, key: &str, max: u64) -> Result<u8, GameError> {
    match map.get(key).and_then(Value::as_u64) {
        Some(n) if n <= max => Ok(n as u8),
        _ => Err(bad_view(format!("{key:?} must be an integer 0–{max}"))),
    }
}

pub(super) fn view_opt_uint(map: &serde_json::Map<String, Value>, key: &str, max: u64) -> Result<u8, GameError> {
    if map.get(key).is_some_and(Value::is_null) {
        Ok(NONE)
    } else {
        view_uint(map, key, max)
    }
}

pub(super) fn view_bool(map: &serde_json::Map<String, Value>, key: &str) -> Result<bool, GameError> {
    map.get(key).and_then(Value::as_bool).ok_or_else(|| bad_view(format!("{key:?} must be a boolean")))
}

/// A list of distinct card ids.
pub(super) fn view_cards(value: &Value, what: &str) -> Result<u128, GameError> {
    let list = value.as_array().ok_or_else(|| bad_view(format!("{what} must be a list of card ids")))?;
    let mut cards = 0u128;
    for item in list {
        match item.as_u64() {
            Some(card) if (card as usize) < DECK_SIZE && cards & bit(card as u8) == 0 => cards |= bit(card as u8),
            _ => return Err(bad_view(format!("{what} holds {item}, not a new card id"))),
        }
    }
    Ok(cards)
}

/// A kind name, or `NONE` for null.
pub(super) fn view_kind(value: &Value, what: &str) -> Result<u8, GameError> {
    if value.is_null() {
        return Ok(NONE);
    }
    value
        .as_str()
        .and_then(|name| KIND_NAMES.iter().position(|k| *k == name))
        .map(|k| k as u8)
        .ok_or_else(|| bad_view(format!("{what} must be a kind name or null")))
}

/// A hidden called hand to invent: its seat, the kinds it is known to hold, and whether it also holds a
/// drawn card (which cannot be of its pair kind, or it would have won).
pub(super) struct CalledSeat {
    pub(super) seat: usize,
    pub(super) known: [u8; KINDS],
    pub(super) drawn: bool,
}

/// Chooses for each called seat from `index` on a ready shape (kind counts and pair kind) that holds its
/// known cards and fits the cards `avail` per kind, trying shapes in random order and backtracking; the
/// seat holding a drawn card comes last, so a card outside its pair kind is checked to remain. `budget`
/// bounds the search.
pub(super) fn choose_shapes(
    seats: &[CalledSeat],
    index: usize,
    avail: &mut [u8; KINDS],
    rng: &mut Rng,
    budget: &mut u32,
    out: &mut Vec<([u8; KINDS], usize)>,
) -> bool {
    let Some(called) = seats.get(index) else { return true };
    let mut shapes = Vec::new();
    for a in 0..KINDS {
        for b in a..KINDS {
            for p in 0..KINDS {
                let mut need = [0u8; KINDS];
                need[a] += 3;
                need[b] += 3;
                need[p] += 2;
                if (0..KINDS).all(|k| need[k] >= called.known[k] && need[k] - called.known[k] <= avail[k]) {
                    shapes.push((need, p));
                }
            }
        }
    }
    rng.shuffle(&mut shapes);
    for (need, p) in shapes {
        if *budget == 0 {
            return false;
        }
        *budget -= 1;
        for k in 0..KINDS {
            avail[k] -= need[k] - called.known[k];
        }
        let drawn_ok = !called.drawn || (0..KINDS).any(|k| k != p && avail[k] > 0);
        if drawn_ok {
            out.push((need, p));
            if choose_shapes(seats, index + 1, avail, rng, budget, out) {
                return true;
            }
            out.pop();
        }
        for k in 0..KINDS {
            avail[k] += need[k] - called.known[k];
        }
    }
    false
}

impl Cherki {
    /// Fills the hidden hands and the stock from `pool` for a determinization; `None` when a called
    /// hand could not be completed (the caller retries).
    pub(super) fn redeal_hidden(&mut self, observer: Option<Seat>, pool: u128, rng: &mut Rng) -> Option<()> {
        let mut by_kind: [Vec<u8>; KINDS] = Default::default();
        for card in bits(pool) {
            by_kind[card_kind(card)].push(card);
        }
        for cards in by_kind.iter_mut() {
            rng.shuffle(cards);
        }
        for seat in 0..self.players {
            if Some(seat) == observer || !self.called[seat] {
                continue;
            }
            let known = self.known[seat];
            let known_counts = kind_counts(known);
            let avail: Vec<usize> = by_kind.iter().map(Vec::len).collect();
            let need_of = |a: usize, b: usize, p: usize| {
                let mut need = [0u8; KINDS];
                need[a] += 3;
                need[b] += 3;
                need[p] += 2;
                need
            };
            let fits = |need: &[u8; KINDS]| {
                (0..KINDS).all(|k| need[k] >= known_counts[k] && (need[k] - known_counts[k]) as usize <= avail[k])
            };
            // A shape is as likely as the number of ways to deal its missing cards from the pool, so a
            // triple of a rank (twelve copies) is far likelier than one of an honour (four).
            let ways = |need: &[u8; KINDS]| -> u64 {
                (0..KINDS).map(|k| choose(avail[k], (need[k] - known_counts[k]) as usize)).product()
            };
            let mut total = 0u64;
            for a in 0..KINDS {
                for b in a..KINDS {
                    for p in 0..KINDS {
                        let need = need_of(a, b, p);
                        if fits(&need) {
                            total += ways(&need);
                        }
                    }
                }
            }
            if total == 0 {
                return None;
            }
            let mut pick = rng.below(total);
            let mut chosen = None;
            'search: for a in 0..KINDS {
                for b in a..KINDS {
                    for p in 0..KINDS {
                        let need = need_of(a, b, p);
                        if fits(&need) {
                            let w = ways(&need);
                            if pick < w {
                                chosen = Some((need, p));
                                break 'search;
                            }
                            pick -= w;
                        }
                    }
                }
            }
            let (need, p) = chosen?;
            let mut hand = known;
            for kind in 0..KINDS {
                for _ in known_counts[kind]..need[kind] {
                    hand |= bit(by_kind[kind].pop()?);
                }
            }
            self.pair_kind[seat] = p as u8;
            if self.phase == Phase::Drawn && self.turn as usize == seat {
                let card = take_card_not_of_kind(&mut by_kind, p, rng)?;
                hand |= bit(card);
                self.drawn = card;
            }
            self.hands[seat] = hand;
        }
        let mut rest: Vec<u8> = by_kind.iter().flatten().copied().collect();
        rng.shuffle(&mut rest);
        if !self.deal_uncalled(observer, &mut rest) || rest.len() != self.stock_len as usize {
            return None;
        }
        self.stock[..rest.len()].copy_from_slice(&rest);
        Some(())
    }

    /// Refills every uncalled hand but the observer's to its size from its known cards plus cards popped
    /// off `rest`; a seat holding a drawn card nobody saw gets the last card dealt to it as that card.
    /// False when `rest` ran out before every hand was full.
    pub(super) fn deal_uncalled(&mut self, observer: Option<Seat>, rest: &mut Vec<u8>) -> bool {
        let mut complete = true;
        for seat in 0..self.players {
            if Some(seat) == observer || self.called[seat] {
                continue;
            }
            let size = self.hands[seat].count_ones() as usize;
            let mut hand = self.known[seat];
            let mut fresh = NONE;
            while (hand.count_ones() as usize) < size {
                let Some(card) = rest.pop() else {
                    complete = false;
                    break;
                };
                hand |= bit(card);
                fresh = card;
            }
            if self.phase == Phase::Drawn && self.turn as usize == seat && !self.drawn_taken {
                self.drawn = fresh;
            }
            self.hands[seat] = hand;
        }
        complete
    }

    /// Deals the cards of `pool` to the `hidden` seats (sizes from the view; each keeps its known cards)
    /// and to the stock, for [`Game::from_view`]: called seats get ready hands (see [`choose_shapes`]),
    /// a seat mid-turn gets a drawn card. Refused when no deal fits.
    pub(super) fn deal_view_hidden(
        &mut self,
        hidden: &[bool; MAX_PLAYERS],
        sizes: &[usize; MAX_PLAYERS],
        pool: u128,
        rng: &mut Rng,
    ) -> Result<(), GameError> {
        let mid_turn = |s: usize| self.phase == Phase::Drawn && self.turn as usize == s && !self.drawn_taken;
        let mut slots = self.stock_len as usize;
        let mut called = Vec::new();
        for s in (0..self.players).filter(|&s| hidden[s]) {
            let known = self.known[s].count_ones() as usize;
            if known > sizes[s] || (mid_turn(s) && known == sizes[s]) {
                return Err(bad_view(format!("seat {s} holds more cards taken from the pile than its hand size")));
            }
            slots += sizes[s] - known;
            if self.called[s] {
                let size = HAND_SIZE + usize::from(self.phase == Phase::Drawn && self.turn as usize == s);
                if sizes[s] != size || (self.phase == Phase::Drawn && self.turn as usize == s && self.drawn_taken) {
                    return Err(bad_view(format!("seat {s} called but holds {} cards", sizes[s])));
                }
                called.push(CalledSeat { seat: s, known: kind_counts(self.known[s]), drawn: mid_turn(s) });
            }
        }
        if slots != pool.count_ones() as usize {
            return Err(bad_view("the hand sizes and the stock do not account for every card"));
        }
        // The seat with a drawn card goes last, where the search checks that a card for it remains.
        called.sort_by_key(|c| c.drawn);
        let mut by_kind: [Vec<u8>; KINDS] = Default::default();
        for card in bits(pool) {
            by_kind[card_kind(card)].push(card);
        }
        let mut avail = [0u8; KINDS];
        for (count, cards) in avail.iter_mut().zip(by_kind.iter_mut()) {
            rng.shuffle(cards);
            *count = cards.len() as u8;
        }
        let mut shapes = Vec::with_capacity(called.len());
        if !choose_shapes(&called, 0, &mut avail, rng, &mut 100_000, &mut shapes) {
            return Err(bad_view("no ready hands fit the called seats"));
        }
        for (c, &(need, p)) in called.iter().zip(&shapes) {
            let mut hand = self.known[c.seat];
            for kind in 0..KINDS {
                for _ in c.known[kind]..need[kind] {
                    hand |= bit(by_kind[kind].pop().ok_or_else(|| bad_view("a called hand ran short"))?);
                }
            }
            if c.drawn {
                self.drawn = take_card_not_of_kind(&mut by_kind, p, rng)
                    .ok_or_else(|| bad_view("no card left to be the drawn one"))?;
                hand |= bit(self.drawn);
            }
            self.hands[c.seat] = hand;
            self.pair_kind[c.seat] = p as u8;
        }
        let mut rest: Vec<u8> = by_kind.iter().flatten().copied().collect();
        rng.shuffle(&mut rest);
        for s in (0..self.players).filter(|&s| hidden[s] && !self.called[s]) {
            let mut hand = self.known[s];
            while (hand.count_ones() as usize) < sizes[s] {
                let card = rest.pop().ok_or_else(|| bad_view("the hands ran short"))?;
                hand |= bit(card);
                if mid_turn(s) {
                    self.drawn = card;
                }
            }
            self.hands[s] = hand;
        }
        self.stock[..rest.len()].copy_from_slice(&rest);
        Ok(())
    }

    /// How good a hand is to keep building: triples count most, pairs next, singles nothing.
    pub(super) fn shape_score(counts: &[u8; KINDS]) -> u32 {
        counts.iter().map(|&c| (c as u32 / 3) * 4 + if c % 3 == 2 { 2 } else { 0 }).sum()
    }
}

impl Cherki {
    /// [`Game::determinize`] of this game.
    pub(super) fn determinized(&self, observer: Option<Seat>, rng: &mut Rng) -> Self {
        let mut fixed = 0u128;
        for seat in 0..self.players {
            fixed |= if Some(seat) == observer { self.hands[seat] } else { self.known[seat] };
        }
        for d in self.discards.entries() {
            if d.taken_by == NONE {
                fixed |= bit(d.card);
            }
        }
        let pool = ALL_CARDS & !fixed;
        for _ in 0..8 {
            let mut game = self.clone();
            if game.redeal_hidden(observer, pool, rng).is_some() {
                game.rng = rng.fork();
                return game;
            }
        }
        // Called hands so tangled that random completion keeps failing: keep every called hand as it
        // is and re-deal only the others, which always succeeds.
        let mut game = self.clone();
        let mut kept = pool;
        for seat in 0..self.players {
            if Some(seat) != observer && self.called[seat] {
                kept &= !self.hands[seat];
            }
        }
        let mut rest: Vec<u8> = bits(kept).collect();
        rng.shuffle(&mut rest);
        // `kept` holds exactly the cards the uncalled hands lack plus the stock, so no hand comes up short.
        game.deal_uncalled(observer, &mut rest);
        let n = rest.len().min(DECK_SIZE);
        game.stock[..n].copy_from_slice(&rest[..n]);
        game.rng = rng.fork();
        game
    }

    /// Parses the view back (strictly: exactly the keys `view` writes), derives the cards publicly known
    /// to be in each hand from the discard history (a card whose latest discard was taken by a seat), then
    /// deals the rest: a random ready hand with an invented pair kind for each hidden called seat (a
    /// backtracking search, so tangled called hands still fit), a drawn card outside that pair kind when
    /// such a seat is mid-turn, the uncalled hands and the stock from what is left, and the RNG from
    /// `rng`. After a win that ended the game the winner's nine cards are the revealed ones. Only the last
    /// deal's result is in a view, so the built state's outcome detail lists that deal alone (the scores
    /// are exact). The result is re-rendered and must reproduce `view`, so any inconsistency is refused.
    /// [`Game::from_view`] of this game.
    pub(super) fn read_view(setup: &Setup, seat: Option<Seat>, view: &Value, rng: &mut Rng) -> Result<Self, GameError> {
        let mut game = Cherki::new(setup)?;
        let players = game.players;
        if seat.is_some_and(|s| s >= players) {
            return Err(bad_view(format!("seat {seat:?} does not exist with {players} players")));
        }
        let top = view_object(view, "the view", &["public", "private"])?;
        let public = view_object(
            &top["public"],
            "public",
            &[
                "deal",
                "deals",
                "dealer",
                "scores",
                "stock",
                "top_discard",
                "discards",
                "players",
                "turn",
                "phase",
                "last_deal",
            ],
        )?;
        if view_uint(public, "deals", 20)? != game.deals {
            return Err(bad_view("\"deals\" differs from the setup's option"));
        }
        game.deal = view_uint(public, "deal", game.deals as u64)?;
        if game.deal == 0 {
            return Err(bad_view("\"deal\" starts at 1"));
        }
        game.dealer = view_uint(public, "dealer", players as u64 - 1)?;
        game.stock_len = view_uint(public, "stock", DECK_SIZE as u64)?;
        game.phase = match public["phase"].as_str() {
            Some("start") => Phase::Start,
            Some("drawn") => Phase::Drawn,
            Some("over") => Phase::Over,
            _ => return Err(bad_view("\"phase\" must be start, drawn or over")),
        };
        game.turn = view_opt_uint(public, "turn", players as u64 - 1)?;
        if (game.turn == NONE) != (game.phase == Phase::Over) {
            return Err(bad_view("\"turn\" is null exactly when the game is over"));
        }
        let scores = public["scores"].as_array().filter(|s| s.len() == players);
        let scores = scores.ok_or_else(|| bad_view(format!("\"scores\" must list {players} integers")))?;
        for (slot, score) in game.scores.iter_mut().zip(scores) {
            *slot = score.as_i64().ok_or_else(|| bad_view("\"scores\" must list integers"))?;
        }
        let seats = public["players"].as_array().filter(|p| p.len() == players);
        let seats = seats.ok_or_else(|| bad_view(format!("\"players\" must list {players} seats")))?;
        let mut sizes = [0usize; MAX_PLAYERS];
        for (s, entry) in seats.iter().enumerate() {
            let entry = view_object(entry, "a player", &["hand_size", "called", "took_last"])?;
            sizes[s] = view_uint(entry, "hand_size", HAND_SIZE as u64 + 1)? as usize;
            game.called[s] = view_bool(entry, "called")?;
            game.took_last[s] = view_bool(entry, "took_last")?;
        }
        // The discard history; each card's latest entry tells where it is now (pile or a taker's hand).
        let history = public["discards"].as_array().ok_or_else(|| bad_view("\"discards\" must be a list"))?;
        game.discards.clear();
        let mut pile = 0u128;
        game.known = [0; MAX_PLAYERS];
        for entry in history {
            let entry = view_object(entry, "a discard", &["card", "seat", "taken_by"])?;
            let card = view_uint(entry, "card", DECK_SIZE as u64 - 1)?;
            let by = view_uint(entry, "seat", players as u64 - 1)?;
            let taken_by = view_opt_uint(entry, "taken_by", players as u64 - 1)?;
            if pile & bit(card) != 0 {
                return Err(bad_view(format!("card {card} is discarded again while still in the pile")));
            }
            for known in game.known.iter_mut() {
                *known &= !bit(card);
            }
            if taken_by == NONE {
                pile |= bit(card);
            } else {
                game.known[taken_by as usize] |= bit(card);
            }
            game.discards.push(DiscardEntry { card, seat: by, taken_by });
        }
        game.top_available = !public["top_discard"].is_null();
        let last = &public["last_deal"];
        game.results.clear();
        if !last.is_null() {
            let result = view_object(
                last,
                "last_deal",
                &["deal", "dealer", "result", "winner", "hand", "pair_kind", "total", "by", "payments"],
            )?;
            let winner = view_opt_uint(result, "winner", players as u64 - 1)?;
            let revealed = view_cards(&result["hand"], "last_deal.hand")?;
            let mut hand = [0u8; 9];
            if winner != NONE {
                if revealed.count_ones() != 9 {
                    return Err(bad_view("a winning hand has nine cards"));
                }
                for (slot, card) in hand.iter_mut().zip(bits(revealed)) {
                    *slot = card;
                }
            }
            let total = result["total"].as_u64().filter(|&t| t <= 9 * 9);
            game.results.push(DealResult {
                deal: view_uint(result, "deal", game.deals as u64)?,
                dealer: view_uint(result, "dealer", players as u64 - 1)?,
                winner,
                hand,
                pair_kind: view_kind(&result["pair_kind"], "last_deal.pair_kind")?,
                total: total.ok_or_else(|| bad_view("last_deal.total must be a hand's points"))? as u32,
                by_take: result["by"] == json!("take_discard"),
            });
        }
        // Cards whose place the observer knows: its own hand, the pile, cards taken in view and, once a
        // win ended the game, the revealed winning hand.
        let mut fixed = pile;
        let mut hidden = [true; MAX_PLAYERS];
        let fix = |cards: u128, fixed: &mut u128| -> Result<(), GameError> {
            if *fixed & cards != 0 {
                return Err(bad_view("a card is in two places"));
            }
            *fixed |= cards;
            Ok(())
        };
        game.hands = [0; MAX_PLAYERS];
        if game.phase == Phase::Over {
            if let Some(r) = game.results.last().filter(|r| r.winner != NONE && r.deal == game.deal) {
                let w = r.winner as usize;
                game.hands[w] = r.hand.iter().fold(0, |h, &c| h | bit(c));
                hidden[w] = false;
            }
        }
        for s in (0..players).filter(|&s| !hidden[s]) {
            if game.known[s] & !game.hands[s] != 0 {
                return Err(bad_view(format!("seat {s} took a card its revealed hand lacks")));
            }
        }
        game.pair_kind = [NONE; MAX_PLAYERS];
        game.drawn = NONE;
        game.drawn_taken = game.phase == Phase::Drawn
            && game.discards.last().is_some_and(|d| d.taken_by == game.turn && !game.top_available);
        if game.drawn_taken {
            game.drawn = game.discards.last().map_or(NONE, |d| d.card);
        }
        match seat {
            None => {
                if !top["private"].is_null() {
                    return Err(bad_view("a spectator's view has private: null"));
                }
            }
            Some(s) => {
                let private = view_object(
                    &top["private"],
                    "private",
                    &["hand", "pair_kind", "ready", "ready_pair_kind", "drawn", "can_take"],
                )?;
                game.hands[s] = view_cards(&private["hand"], "private.hand")?;
                if game.known[s] & !game.hands[s] != 0 {
                    return Err(bad_view("the hand lacks a card it took from the discard pile"));
                }
                if game.called[s] {
                    game.pair_kind[s] = view_kind(&private["pair_kind"], "private.pair_kind")?;
                }
                if game.turn as usize == s && game.phase == Phase::Drawn && !game.drawn_taken {
                    game.drawn = view_opt_uint(private, "drawn", DECK_SIZE as u64 - 1)?;
                }
                hidden[s] = false;
            }
        }
        for (s, &unseen) in hidden.iter().enumerate().take(players) {
            fix(if unseen { game.known[s] } else { game.hands[s] }, &mut fixed)?;
        }
        game.deal_view_hidden(&hidden, &sizes, ALL_CARDS & !fixed, rng)?;
        game.rng = rng.fork();
        game.events.clear();
        if game.view(seat) != *view {
            return Err(bad_view("its fields contradict each other (the rebuilt state shows a different view)"));
        }
        Ok(game)
    }
}
