//! Matchstick Tycoon from a view: a state rebuilt from what one seat sees, and determinization.

use super::rules::*;
use crate::error::GameError;
use crate::game::{Game, Seat, Setup};
use crate::rng::Rng;
use crate::segments::{self, segments_from_str, Value};
use serde_json::Value as Json;

pub(super) fn corrupt(reason: impl Into<String>) -> GameError {
    GameError::CorruptState(format!("not a Matchstick Tycoon view: {}", reason.into()))
}

pub(super) fn object<'a>(value: &'a Json, what: &str) -> Result<&'a serde_json::Map<String, Json>, GameError> {
    value.as_object().ok_or_else(|| corrupt(format!("{what} must be a JSON object")))
}

pub(super) fn field<'a>(map: &'a serde_json::Map<String, Json>, key: &str) -> Result<&'a Json, GameError> {
    map.get(key).ok_or_else(|| corrupt(format!("field {key:?} is missing")))
}

/// A whole number in `0..=max`.
pub(super) fn uint(map: &serde_json::Map<String, Json>, key: &str, max: u64) -> Result<u64, GameError> {
    field(map, key)?
        .as_u64()
        .filter(|&x| x <= max)
        .ok_or_else(|| corrupt(format!("field {key:?} must be a whole number from 0 to {max}")))
}

pub(super) fn seat_of(value: &Json, key: &str, players: usize) -> Result<u8, GameError> {
    value
        .as_u64()
        .filter(|&s| s < players as u64)
        .map(|s| s as u8)
        .ok_or_else(|| corrupt(format!("{key:?} must hold seats below {players}")))
}

pub(super) fn optional_seat(
    map: &serde_json::Map<String, Json>,
    key: &str,
    players: usize,
) -> Result<Option<u8>, GameError> {
    match field(map, key)? {
        Json::Null => Ok(None),
        value => seat_of(value, key, players).map(Some),
    }
}

pub(super) fn seat_list(map: &serde_json::Map<String, Json>, key: &str, players: usize) -> Result<Vec<u8>, GameError> {
    let list = field(map, key)?.as_array().ok_or_else(|| corrupt(format!("{key:?} must be a list of seats")))?;
    let seats = list.iter().map(|v| seat_of(v, key, players)).collect::<Result<Vec<u8>, GameError>>()?;
    let distinct = seats.iter().fold(0u8, |m, &s| m | (1 << s));
    if distinct.count_ones() as usize != seats.len() {
        return Err(corrupt(format!("{key:?} lists a seat twice")));
    }
    Ok(seats)
}

/// A list of distinct card ids of `deck`, as a mask.
pub(super) fn id_set(map: &serde_json::Map<String, Json>, key: &str, deck: u64) -> Result<u64, GameError> {
    let list = field(map, key)?.as_array().ok_or_else(|| corrupt(format!("{key:?} must be a list of card ids")))?;
    let mut mask = 0u64;
    for value in list {
        let bit = value.as_u64().filter(|&id| id < 64).map(|id| 1u64 << id).unwrap_or(0);
        if bit == 0 || deck & bit == 0 || mask & bit != 0 {
            return Err(corrupt(format!("{key:?} must list distinct cards of the deck")));
        }
        mask |= bit;
    }
    Ok(mask)
}

impl Matchstick {
    /// The table's top play read back from its view, checking that every card shows the value; its
    /// cards are added to `known`.
    pub(super) fn table_from_json(&self, value: &Json, deck: u64, known: &mut u64) -> Result<TablePlay, GameError> {
        let table = object(value, "\"table\"")?;
        let name = field(table, "value")?.as_str().unwrap_or_default();
        let shown = Value::parse(name)
            .filter(|v| v.index() < usize::from(self.values))
            .ok_or_else(|| corrupt(format!("{name:?} is not a value of this deck")))?;
        let cards = field(table, "cards")?.as_array().ok_or_else(|| corrupt("the table's cards must be a list"))?;
        if cards.is_empty() || cards.len() > MAX_PLAY {
            return Err(corrupt("the table holds 1 to 5 cards"));
        }
        let mut top = TablePlay {
            seat: seat_of(field(table, "seat")?, "seat", usize::from(self.players))?,
            count: cards.len() as u8,
            value: shown,
            cards: [0; MAX_PLAY],
            rotated: 0,
            added: [0; MAX_PLAY],
            cost: 0,
        };
        for (i, card) in cards.iter().enumerate() {
            let card = object(card, "a table card")?;
            let id = uint(card, "id", 63)? as u8;
            let bit = 1u64 << id;
            if deck & bit == 0 || *known & bit != 0 {
                return Err(corrupt(format!("card {id} cannot be on the table")));
            }
            *known |= bit;
            let rotated = field(card, "rotated")?.as_bool().ok_or_else(|| corrupt("\"rotated\" must be a boolean"))?;
            let added = field(card, "added")?
                .as_str()
                .and_then(segments_from_str)
                .ok_or_else(|| corrupt("\"added\" must be segment letters a-g"))?;
            let shape = segments::shape(card_type(id), rotated);
            if shape & added != 0 || shape | added != shown.glyph() {
                return Err(corrupt(format!("card {id} does not show {shown} as drawn")));
            }
            top.cards[i] = id;
            if rotated {
                top.rotated |= 1 << i;
            }
            top.added[i] = added;
            top.cost += added.count_ones() as u8;
        }
        Ok(top)
    }
}

impl Matchstick {
    /// [`Game::determinize`] of this game.
    pub(super) fn determinized(&self, observer: Option<Seat>, rng: &mut Rng) -> Self {
        let mut game = self.clone();
        let n = usize::from(self.players);
        let hidden_seats: Vec<usize> = (0..n).filter(|&s| Some(s) != observer).collect();
        let mut pool: Vec<u8> = ids_of(self.set_aside);
        for &s in &hidden_seats {
            pool.extend(ids_of(self.hands[s]));
        }
        rng.shuffle(&mut pool);
        let mut next = pool.into_iter();
        for &s in &hidden_seats {
            let size = self.hands[s].count_ones() as usize;
            let hand = next.by_ref().take(size).fold(0u64, |m, id| m | (1u64 << id));
            game.set_hand(s, hand);
        }
        game.set_aside = next.fold(0u64, |m, id| m | (1u64 << id));
        game.rng = rng.fork();
        game.refresh_legal();
        game
    }

    /// [`Game::from_view`] of this game.
    pub(super) fn read_view(setup: &Setup, seat: Option<Seat>, view: &Json, rng: &mut Rng) -> Result<Self, GameError> {
        let mut game = Self::new(setup)?;
        let n = usize::from(game.players);
        if seat.is_some_and(|s| s >= n) {
            return Err(corrupt(format!("seat {seat:?} is not one of the {n} seats")));
        }
        let root = object(view, "the view")?;
        if root.len() != 2 {
            return Err(corrupt("the view must hold exactly \"public\" and \"private\""));
        }
        let public = object(field(root, "public")?, "\"public\"")?;
        let deck = game.deck_mask();

        let players = field(public, "players")?.as_array().ok_or_else(|| corrupt("\"players\" must be a list"))?;
        if players.len() != n {
            return Err(corrupt(format!("\"players\" lists {} seats; the setup has {n}", players.len())));
        }
        let mut sizes = [0u64; 8];
        game.active = 0;
        game.finished = 0;
        for (s, entry) in players.iter().enumerate() {
            let p = object(entry, "a player")?;
            if uint(p, "seat", 7)? != s as u64 {
                return Err(corrupt(format!("player {s} is listed with another seat number")));
            }
            sizes[s] = uint(p, "hand_size", 64)?;
            game.matchsticks[s] = uint(p, "matchsticks", u64::from(u32::MAX))? as u32;
            let out = field(p, "out")?.as_bool().ok_or_else(|| corrupt("\"out\" must be true or false"))?;
            let finish = match field(p, "finish")? {
                Json::Null => 0,
                _ => match uint(p, "finish", n as u64)? {
                    0 => return Err(corrupt(format!("seat {s}'s finishing position must be 1 or more"))),
                    f => f as u8,
                },
            };
            if out != (finish != 0) {
                return Err(corrupt(format!("seat {s} is out exactly when it has a finishing position")));
            }
            if finish == 0 {
                game.active |= Self::seat_bit(s);
                if sizes[s] == 0 && game.matchsticks[s] == 0 {
                    return Err(corrupt(format!("seat {s} has no card and no matchstick but is not out")));
                }
            } else {
                game.finished += 1;
            }
            game.finish[s] = finish;
        }
        let order = seat_list(public, "finish_order", n)?;
        if order.len() != usize::from(game.finished) {
            return Err(corrupt("\"finish_order\" must list exactly the seats that are out"));
        }
        for (i, &s) in order.iter().enumerate() {
            if usize::from(game.finish[usize::from(s)]) != i + 1 {
                return Err(corrupt(format!("seat {s} is not in position {} of \"finish_order\"", i + 1)));
            }
            game.finish_order[i] = s;
        }

        let mut known = 0u64;
        game.table = match field(public, "table")? {
            Json::Null => None,
            table => Some(game.table_from_json(table, deck, &mut known)?),
        };
        let top_cards = known;
        let pile_size = uint(public, "pile_size", 64)?;
        let table_count = game.table.map_or(0, |t| u64::from(t.count));
        if pile_size < table_count || (table_count == 0) != (pile_size == 0) {
            return Err(corrupt("\"pile_size\" must count the table's cards and only be 0 with an empty table"));
        }
        let removed = uint(public, "removed", 64)?;
        let set_aside = uint(public, "set_aside", 64)?;
        // Every card played this trick and every card of a cleared trick was played face up.
        let trick_cards = id_set(public, "trick_cards", deck)?;
        let removed_cards = id_set(public, "removed_cards", deck)?;
        if trick_cards & removed_cards != 0
            || u64::from(trick_cards.count_ones()) != pile_size
            || u64::from(removed_cards.count_ones()) != removed
            || top_cards & !trick_cards != 0
        {
            return Err(corrupt(
                "\"trick_cards\" and \"removed_cards\" must list the counted cards, the table's among them",
            ));
        }
        known |= trick_cards | removed_cards;
        game.revolution =
            field(public, "revolution")?.as_bool().ok_or_else(|| corrupt("\"revolution\" must be true or false"))?;
        match optional_seat(public, "turn", n)? {
            Some(s) if game.active & Self::seat_bit(usize::from(s)) == 0 => {
                return Err(corrupt(format!("the turn is seat {s}'s, but that seat is out")));
            }
            Some(s) => game.current = s,
            None => game.current = game.finish_order.first().copied().unwrap_or(0),
        }
        game.leader = optional_seat(public, "leader", n)?;
        game.passed = seat_list(public, "passed", n)?.iter().fold(0u8, |m, &s| m | Self::seat_bit(usize::from(s)));

        let hidden_seats: Vec<usize> = (0..n).filter(|&s| Some(s) != seat).collect();
        match (seat, root.get("private")) {
            (None, Some(Json::Null)) => {}
            (Some(s), Some(private)) => {
                let private = object(private, "\"private\"")?;
                if private.len() != 2 || uint(private, "seat", 7)? != s as u64 {
                    return Err(corrupt(format!("\"private\" must hold seat {s}'s \"seat\" and \"hand\"")));
                }
                let cards = field(private, "hand")?.as_array().ok_or_else(|| corrupt("\"hand\" must be a list"))?;
                let mut hand = 0u64;
                for card in cards {
                    let id = uint(object(card, "a hand card")?, "id", 63)?;
                    let bit = 1u64 << id;
                    if deck & bit == 0 || (hand | known) & bit != 0 {
                        return Err(corrupt(format!("card {id} cannot be in the hand")));
                    }
                    hand |= bit;
                }
                if u64::from(hand.count_ones()) != sizes[s] {
                    return Err(corrupt(format!("seat {s}'s hand does not hold its \"hand_size\" cards")));
                }
                known |= hand;
                game.set_hand(s, hand);
            }
            _ => return Err(corrupt("\"private\" must be null for a spectator and an object for a seat")),
        }

        let hidden: u64 = hidden_seats.iter().map(|&s| sizes[s]).sum();
        let mut pool = ids_of(deck & !known);
        if pool.len() as u64 != hidden + set_aside {
            return Err(corrupt(format!(
                "the counts do not add up to the deck: {} unseen cards, {hidden} in hidden hands, {set_aside} set aside",
                pool.len()
            )));
        }
        rng.shuffle(&mut pool);
        let mut next = pool.into_iter();
        let mut take = |count: u64| next.by_ref().take(count as usize).fold(0u64, |m, id| m | (1u64 << id));
        for &s in &hidden_seats {
            let hand = take(sizes[s]);
            game.set_hand(s, hand);
        }
        game.pile = trick_cards;
        game.removed = removed_cards;
        game.set_aside = take(set_aside);
        game.rng = rng.fork();
        game.event_count = 0;
        game.refresh_legal();
        if game.view(seat) != *view {
            return Err(corrupt("the view contradicts itself (it is not one this game could show)"));
        }
        Ok(game)
    }
}
