//! A Fistful of Gold from a view: a state rebuilt from what one seat sees, determinization, and what a
//! seat sees in typed form for the RL encoder.

use super::legal::*;
use super::rules::*;
use crate::error::GameError;
use crate::game::{Game, Seat, SeatSet, Setup};
use crate::rng::Rng;
use serde_json::Value;

/// The error for a view that is not one of this game's.
pub(super) fn corrupt(reason: impl std::fmt::Display) -> GameError {
    GameError::CorruptState(format!("not a Fistful of Gold view: {reason}"))
}

/// Strict readers of a view's JSON for [`Fistful::from_view`]; every failure is `CorruptState`.
pub(super) mod read {
    use super::{bit, corrupt, Phase, Step, DYNAMITE};
    use crate::error::GameError;
    use serde_json::Value;

    pub fn field<'a>(value: &'a Value, key: &str) -> Result<&'a Value, GameError> {
        value.get(key).ok_or_else(|| corrupt(format!("{key:?} is missing")))
    }

    pub fn uint(value: &Value, what: &str, max: u64) -> Result<u8, GameError> {
        match value.as_u64() {
            Some(n) if n <= max => Ok(n as u8),
            _ => Err(corrupt(format!("{what} must be an integer from 0 to {max}, not {value}"))),
        }
    }

    pub fn int(value: &Value, what: &str) -> Result<i32, GameError> {
        value
            .as_i64()
            .and_then(|n| i32::try_from(n).ok())
            .ok_or_else(|| corrupt(format!("{what} must be an integer, not {value}")))
    }

    pub fn boolean(value: &Value, what: &str) -> Result<bool, GameError> {
        value.as_bool().ok_or_else(|| corrupt(format!("{what} must be true or false, not {value}")))
    }

    pub fn card(value: &Value, what: &str) -> Result<u8, GameError> {
        match value.as_u64() {
            Some(n) if (1..=u64::from(DYNAMITE)).contains(&n) => Ok(n as u8),
            _ => Err(corrupt(format!("{what} must be a card id from 1 to 9, not {value}"))),
        }
    }

    pub fn opt<T>(
        value: &Value,
        what: &str,
        f: impl Fn(&Value, &str) -> Result<T, GameError>,
    ) -> Result<Option<T>, GameError> {
        if value.is_null() {
            Ok(None)
        } else {
            f(value, what).map(Some)
        }
    }

    pub fn list<'a>(value: &'a Value, what: &str) -> Result<&'a Vec<Value>, GameError> {
        value.as_array().ok_or_else(|| corrupt(format!("{what} must be a list, not {value}")))
    }

    /// A per-seat pair.
    pub fn pair<T>(
        value: &Value,
        what: &str,
        f: impl Fn(&Value, &str) -> Result<T, GameError>,
    ) -> Result<[T; 2], GameError> {
        match list(value, what)?.as_slice() {
            [a, b] => Ok([f(a, what)?, f(b, what)?]),
            _ => Err(corrupt(format!("{what} must hold one entry per seat"))),
        }
    }

    /// Distinct card ids, in the order given.
    pub fn cards(value: &Value, what: &str) -> Result<Vec<u8>, GameError> {
        let mut seen = 0u16;
        let mut out = Vec::new();
        for v in list(value, what)? {
            let c = card(v, what)?;
            if seen & bit(c) != 0 {
                return Err(corrupt(format!("{what} lists card {c} twice")));
            }
            seen |= bit(c);
            out.push(c);
        }
        Ok(out)
    }

    pub fn mask(value: &Value, what: &str) -> Result<u16, GameError> {
        Ok(cards(value, what)?.into_iter().fold(0, |m, c| m | bit(c)))
    }

    pub fn phase(value: &Value) -> Result<Phase, GameError> {
        let all = [Phase::SetupDiscard, Phase::Pick, Phase::Green8Retrieve, Phase::RoundEndDiscard, Phase::MatchOver];
        all.into_iter()
            .find(|p| value.as_str() == Some(p.name()))
            .ok_or_else(|| corrupt(format!("unknown phase {value}")))
    }

    /// A resolution step as `Fistful::step_json` writes it (constant fields are checked by the round trip).
    pub fn step(value: &Value) -> Result<Step, GameError> {
        let seat = || uint(field(value, "seat")?, "a step's seat", 1);
        let gold = || int(field(value, "gold")?, "a step's gold");
        Ok(match field(value, "step")?.as_str() {
            Some("tie") => Step::Tie,
            Some("base") => Step::Win { seat: seat()?, gold: gold()? },
            Some("pink8") => Step::Pink8 { seat: seat()? },
            Some("green7_bonus") => Step::Green7 { seat: seat()? },
            Some("six_takes_pot") => Step::Six { seat: seat()?, gold: gold()? },
            Some("green8_retrieve") => {
                Step::Green8 { seat: seat()?, card: card(field(value, "card")?, "a step's card")? }
            }
            Some("pink7_end") => Step::Pink7 { seat: seat()? },
            _ => return Err(corrupt(format!("unknown duel step {value}"))),
        })
    }
}

impl Fistful {
    /// Rebuilds the public state from `public` onto `self` (built by `new`), with every hidden card left
    /// for [`Fistful::from_view`] to deal.
    pub(super) fn read_public(&mut self, public: &Value) -> Result<(), GameError> {
        use read::{boolean, card, cards, field, int, list, mask, opt, pair, uint};
        if !public.is_object() {
            return Err(corrupt("`public` must be an object"));
        }
        self.phase = read::phase(field(public, "phase")?)?;
        for seat in list(field(public, "to_act")?, "to_act")? {
            self.to_act = self.to_act.with(usize::from(uint(seat, "a seat in to_act", 1)?));
        }
        let colours = pair(field(public, "colours")?, "colours", |v, _| Ok(v.as_str() == Some("pink")))?;
        self.pink_seat = match colours {
            [true, false] => 0,
            [false, true] => 1,
            _ => return Err(corrupt("colours must name one pink seat")),
        };
        let fixed = match self.setup.str_option("colours") {
            "seat0_pink" => Some(0),
            "seat0_green" => Some(1),
            _ => None,
        };
        if fixed.is_some_and(|p| p != self.pink_seat) {
            return Err(corrupt("the colours contradict the game's options"));
        }
        self.stars = pair(field(public, "stars")?, "stars", |v, w| uint(v, w, 3))?;
        self.round = uint(field(public, "round")?, "round", LAST_ROUND as u64)?;
        if self.round == 0 {
            return Err(corrupt("round numbers start at 1"));
        }
        self.duel = uint(field(public, "duel")?, "duel", u64::from(Self::duels_in(1)))?;
        // Duels count from 1 to the round's number (the fuzzer found `duel: 0` accepted: the round then ran one
        // duel too many, into a pick with no legal card).
        if self.duel == 0 || self.duel > Self::duels_in(self.round) {
            return Err(corrupt(format!(
                "round {} has duels 1 to {}, not {}",
                self.round,
                Self::duels_in(self.round),
                self.duel
            )));
        }
        self.gold = pair(field(public, "gold")?, "gold", int)?;
        self.pot = int(field(public, "pot")?, "pot")?;
        let played = pair(field(public, "played")?, "played", cards)?;
        if played[0].len() != played[1].len() || played[0].len() > usize::from(Self::duels_in(1)) {
            return Err(corrupt("both seats play one card per duel, at most 6 in a round"));
        }
        for (seat, cards) in played.iter().enumerate() {
            self.played[seat][..cards.len()].copy_from_slice(cards);
        }
        self.played_len = played[0].len() as u8;
        let picked = pair(field(public, "picked")?, "picked", boolean)?;
        // A placeholder until the real or dealt pick replaces it: only its presence is public.
        self.pending = picked.map(|p| p.then_some(DYNAMITE));
        self.six_played = boolean(field(public, "six_played")?, "six_played")?;
        self.green7_at = opt(field(public, "green7_played_at")?, "green7_played_at", |v, w| uint(v, w, 6))?;
        self.green8_used = boolean(field(public, "green8_played")?, "green8_played")?;
        let round = usize::from(self.round);
        for seat in 0..2 {
            self.log_played[seat][round] = self.played_mask(seat);
        }
        self.read_retrieved(field(public, "retrieved")?, round)?;
        let history = list(field(public, "history")?, "history")?;
        if history.len() + 1 != round {
            return Err(corrupt(format!("history must list the {} finished rounds", round - 1)));
        }
        for (i, entry) in history.iter().enumerate() {
            let masks = pair(field(entry, "played")?, "a history round's played cards", mask)?;
            for (log, played) in self.log_played.iter_mut().zip(masks) {
                log[i + 1] = played;
            }
            self.read_retrieved(field(entry, "retrieved")?, i + 1)?;
        }
        self.last_duel = match field(public, "last_duel")? {
            Value::Null => None,
            d => {
                let mut duel = Duel {
                    round: uint(field(d, "round")?, "last_duel.round", LAST_ROUND as u64)?,
                    number: uint(field(d, "duel")?, "last_duel.duel", u64::from(Self::duels_in(1)))?,
                    cards: pair(field(d, "cards")?, "last_duel.cards", card)?,
                    steps: [None; 6],
                    gold: pair(field(d, "gold")?, "last_duel.gold", int)?,
                    pot: int(field(d, "pot")?, "last_duel.pot")?,
                };
                let steps = list(field(d, "steps")?, "last_duel.steps")?;
                if steps.len() > duel.steps.len() {
                    return Err(corrupt("a duel has at most 6 steps"));
                }
                for step in steps {
                    duel.push(read::step(step)?);
                }
                Some(duel)
            }
        };
        if self.phase == Phase::MatchOver {
            self.end = Some(if self.winner().is_some() { EndReason::Stars } else { EndReason::NoDuelsLeft });
        }
        Ok(())
    }

    /// A `retrieved` entry (`null` or `{"seat","card"}`) of round `round` into the log.
    pub(super) fn read_retrieved(&mut self, value: &Value, round: usize) -> Result<(), GameError> {
        if let Some((seat, card)) = read::opt(value, "retrieved", |v, _| {
            Ok((
                read::uint(read::field(v, "seat")?, "retrieved.seat", 1)?,
                read::card(read::field(v, "card")?, "retrieved.card")?,
            ))
        })? {
            self.log_retrieved[usize::from(seat)][round] = card;
        }
        Ok(())
    }

    /// One hidden history of `seat` consistent with the public log: its setup and round-end discards,
    /// its present discard pile and hand, and a legal pending pick. `prefer_bound` discards cards that a
    /// later Green 8 retrieves as early as possible, which always finds a consistent history.
    pub(super) fn sample_hidden(
        &self,
        seat: usize,
        rng: &mut Rng,
        prefer_bound: bool,
    ) -> Option<(u16, u16, Option<u8>)> {
        let round = usize::from(self.round);
        let setup_done = self.phase != Phase::SetupDiscard || !self.to_act.contains(seat);
        if !setup_done {
            return Some((FULL_DECK, 0, None));
        }
        let mut disc = self.choose_discard(seat, 0, FULL_DECK, 2, rng, prefer_bound)?;
        for r in 1..=round.min(LAST_ROUND) {
            let back = self.log_retrieved[seat][r];
            if back != 0 {
                if disc & bit(back) == 0 {
                    return None;
                }
                disc &= !bit(back);
            }
            let end_done =
                r < round || (r == round && self.phase == Phase::RoundEndDiscard && !self.to_act.contains(seat));
            if end_done {
                let unplayed = FULL_DECK & !disc & !self.log_played[seat][r];
                let n = if back != 0 { 2 } else { 1 };
                disc |= self.choose_discard(seat, r, unplayed, n, rng, prefer_bound)?;
            }
        }
        let hand = FULL_DECK & !disc & !self.played_mask(seat);
        let pick = match self.pending[seat] {
            Some(_) => {
                let barred = self.barred(seat).map_or(0, bit);
                let options = hand & !barred;
                if options == 0 {
                    return None;
                }
                let chosen = unrank_subset(options, 1, rng.index(count(options)))?;
                Some(chosen.trailing_zeros() as u8)
            }
            None => None,
        };
        let hand = pick.map_or(hand, |p| hand & !bit(p));
        Some((hand, disc, pick))
    }

    /// Cards `seat` could have discarded at the discard event after round `after` (0 = setup) from
    /// `unplayed`: never a card it plays later before retrieving it, always a card the next round's Green 8
    /// retrieves.
    pub(super) fn choose_discard(
        &self,
        seat: usize,
        after: usize,
        unplayed: u16,
        n: usize,
        rng: &mut Rng,
        prefer_bound: bool,
    ) -> Option<u16> {
        let mut forbidden = 0u16;
        let mut required = 0u16;
        let mut bound = 0u16;
        for card in cards_of(unplayed) {
            for r in after + 1..=usize::from(self.round).min(LAST_ROUND) {
                if self.log_retrieved[seat][r] == card {
                    if r == after + 1 {
                        required |= bit(card);
                    } else {
                        bound |= bit(card);
                    }
                    break;
                }
                if self.log_played[seat][r] & bit(card) != 0 {
                    forbidden |= bit(card);
                    break;
                }
            }
        }
        let allowed = unplayed & !forbidden;
        if count(required) > n || count(allowed) < n {
            return None;
        }
        let mut chosen = required;
        while count(chosen) < n {
            let pool = if prefer_bound && bound & !chosen != 0 { bound & !chosen } else { allowed & !chosen };
            let pick = unrank_subset(pool, 1, rng.index(count(pool)))?;
            chosen |= pick;
        }
        Some(chosen)
    }
}

impl Fistful {
    /// [`Game::determinize`] of this game.
    pub(super) fn determinized(&self, observer: Option<Seat>, rng: &mut Rng) -> Self {
        let mut det = self.clone();
        det.rng = rng.fork();
        for seat in 0..2 {
            if observer == Some(seat) {
                continue;
            }
            let sampled = (0..UNIFORM_TRIES)
                .find_map(|_| self.sample_hidden(seat, rng, false))
                .or_else(|| self.sample_hidden(seat, rng, true));
            // The real state is itself a consistent history, so the fallback never shows a wrong world.
            if let Some((hand, disc, pick)) = sampled {
                det.hand[seat] = hand;
                det.discard[seat] = disc;
                det.pending[seat] = pick;
            }
        }
        det
    }

    /// [`Game::from_view`] of this game.
    pub(super) fn read_view(setup: &Setup, seat: Option<Seat>, view: &Value, rng: &mut Rng) -> Result<Self, GameError> {
        if seat.is_some_and(|s| s > 1) {
            return Err(corrupt(format!("the game has seats 0 and 1, not {seat:?}")));
        }
        let mut game = Self::new(setup)?;
        game.to_act = SeatSet::EMPTY;
        game.read_public(read::field(view, "public")?)?;
        let private = read::field(view, "private")?;
        if let Some(s) = seat {
            let hand = read::mask(read::field(private, "hand")?, "hand")?;
            let disc = read::mask(read::field(private, "discard")?, "discard")?;
            let pick = read::opt(read::field(private, "pick")?, "pick", read::card)?;
            let parts = [hand, disc, game.played_mask(s), pick.map_or(0, bit)];
            let disjoint = parts.iter().try_fold(0u16, |seen, &p| (seen & p == 0).then_some(seen | p));
            if disjoint != Some(FULL_DECK) {
                return Err(corrupt("the own hand, discard pile, played cards and pick are not one whole deck"));
            }
            if pick.is_some() != game.pending[s].is_some() {
                return Err(corrupt("the own pick contradicts `picked`"));
            }
            game.hand[s] = hand;
            game.discard[s] = disc;
            game.pending[s] = pick;
            // The public log must admit a history of the observer's own seat too: one it cannot fit is no
            // game's, and its spectator's view would not rebuild (the fuzzer found such a view accepted). The
            // bound-first search finds a history whenever one exists; its own generator leaves `rng` as it was.
            if game.sample_hidden(s, &mut Rng::new(0), true).is_none() {
                return Err(corrupt(format!("no history of seat {s} fits the public log")));
            }
        } else if !private.is_null() {
            return Err(corrupt("a spectator's view has `private: null`"));
        }
        for other in (0..2).filter(|&o| seat != Some(o)) {
            let (hand, disc, pick) = (0..UNIFORM_TRIES)
                .find_map(|_| game.sample_hidden(other, rng, false))
                .or_else(|| game.sample_hidden(other, rng, true))
                .ok_or_else(|| corrupt(format!("no hidden history of seat {other} fits the public log")))?;
            game.hand[other] = hand;
            game.discard[other] = disc;
            game.pending[other] = pick;
        }
        game.rng = rng.fork();
        // The derived and constant fields (sizes, barred, length, step constants...) are not read back:
        // the view must come out exactly as it went in.
        if game.view(seat) != *view {
            return Err(corrupt("its fields contradict each other or the game's options"));
        }
        Ok(game)
    }
}

#[doc(hidden)]
impl Fistful {
    /// Each seat's cards by place — hand, discard pile, played this round, pending pick — for the
    /// conservation tests.
    pub fn partition(&self, seat: Seat) -> [u16; 4] {
        [self.hand[seat], self.discard[seat], self.played_mask(seat), self.pending[seat].map_or(0, bit)]
    }
}

/// What one seat may know of a match, as numbers: the RL encoder reads it instead of the JSON view. It
/// holds the seat's own hand, discards and pick, and the public table; nothing of the other seat's hidden
/// cards.
#[derive(Clone, Copy, Debug)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct FistfulSight {
    /// Position of the phase in `setup_discard, pick, green8_retrieve, round_end_discard, match_over`.
    pub phase: usize,
    /// The seats to act now.
    pub to_act: SeatSet,
    /// Whether the seat plays the pink deck (else the green one).
    pub own_colour_pink: bool,
    /// Stars that win the match.
    pub target_stars: u8,
    /// Stars won so far, per seat.
    pub stars: [u8; 2],
    /// Gold held, per seat.
    pub gold: [i32; 2],
    /// Gold in the pot.
    pub pot: i32,
    /// The current round (1-based).
    pub round: u8,
    /// The current duel of the round (1-based); during a Green 8 pick, the duel being resolved.
    pub duel: u8,
    /// How many duels the current round has.
    pub duels_in_round: u8,
    /// The seat's own hand (card bit mask: card `c` is bit `c`, cards 1..=9).
    pub hand: u16,
    /// The seat's own discard pile (card bit mask).
    pub discard: u16,
    /// The card the seat has picked for the coming duel, if any.
    pub pick: Option<u8>,
    /// Cards in hand, per seat.
    pub hand_sizes: [u8; 2],
    /// Cards in the discard pile, per seat.
    pub discard_sizes: [u8; 2],
    /// Per seat: whether it has picked its card for the coming duel (the card itself stays hidden).
    pub picked: [bool; 2],
    /// Per seat: the cards played this round (bit mask).
    pub played: [u16; 2],
    /// Per seat: the card the +1 rule bars it from playing next, if any.
    pub barred: [Option<u8>; 2],
    /// Per seat and earlier round (index = round): the cards played (bit mask).
    pub earlier: [[u16; LAST_ROUND + 1]; 2],
    /// Rounds before the current one that the history shows (`1..earlier_rounds`).
    pub earlier_rounds: usize,
    /// The two cards of the last duel resolved (by seat), if any.
    pub last_duel: Option<[u8; 2]>,
    /// Whether a 6 has been played this round.
    pub six_played: bool,
    /// The duel of this round in which the Green 7 was played, if it was.
    pub green7_played_at: Option<u8>,
    /// Whether the Green 8 has been played this round.
    pub green8_played: bool,
    /// The Green 8's retrieval of this round: (seat, card).
    pub retrieved: Option<(Seat, u8)>,
}

impl Fistful {
    /// `seat`'s legal moves without listing them: `(cards, k, make)`, every legal move being `make(mask)`
    /// for a `k`-card subset `mask` of `cards` (card `c` = bit `c`); `None` when `seat` is not to act.
    pub fn choice(&self, seat: Seat) -> Option<(u16, usize, MoveOfCards)> {
        if seat > 1 || !self.to_act.contains(seat) {
            return None;
        }
        match self.phase {
            Phase::SetupDiscard | Phase::RoundEndDiscard => {
                Some((self.hand[seat], self.discard_count(seat), FistfulMove::Discard))
            }
            Phase::Pick => Some((self.pickable(seat), 1, |m| FistfulMove::Pick(m.trailing_zeros() as u8))),
            Phase::Green8Retrieve => Some((self.discard[seat], 1, |m| FistfulMove::Retrieve(m.trailing_zeros() as u8))),
            Phase::MatchOver => None,
        }
    }

    /// `seat`'s sight of the match (see [`FistfulSight`]); the same facts as `view(Some(seat))`.
    pub fn sight(&self, seat: Seat) -> FistfulSight {
        let green = self.green_seat();
        let retrieved = match self.log_retrieved[green][usize::from(self.round).min(LAST_ROUND)] {
            0 => None,
            card => Some((green, card)),
        };
        FistfulSight {
            phase: self.phase as usize,
            to_act: self.to_act,
            own_colour_pink: self.colour(seat) == Colour::Pink,
            target_stars: self.target,
            stars: self.stars,
            gold: self.gold,
            pot: self.pot,
            round: self.round,
            duel: self.duel,
            duels_in_round: Self::duels_in(self.round),
            hand: self.hand[seat],
            discard: self.discard[seat],
            pick: self.pending[seat],
            hand_sizes: [count(self.hand[0]) as u8, count(self.hand[1]) as u8],
            discard_sizes: [count(self.discard[0]) as u8, count(self.discard[1]) as u8],
            picked: [self.pending[0].is_some(), self.pending[1].is_some()],
            played: [self.played_mask(0), self.played_mask(1)],
            barred: [self.barred(0), self.barred(1)],
            earlier: self.log_played,
            earlier_rounds: usize::from(self.round).min(LAST_ROUND + 1),
            last_duel: self.last_duel.map(|d| d.cards),
            six_played: self.six_played,
            green7_played_at: self.green7_at,
            green8_played: self.green8_used,
            retrieved,
        }
    }
}
