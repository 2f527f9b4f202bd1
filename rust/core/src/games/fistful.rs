//! A Fistful of Gold: two seats, two 9-card decks (Pink and Green), simultaneous hidden duels.
//!
//! Rules: `docs/rules/fistful.md` (§ numbers below refer to it).
//!
//! **Card ids.** Each seat owns one deck and card ids are local to it: ids 1–8 are the Revolver cards of
//! that value and id 9 is the Dynamite. The colour of a card is its owner's colour (`colours` in the view),
//! so "Pink 7" is id 7 of the pink seat. Masks use bits 1..=9.
//!
//! **Moves** (JSON): `{"type":"discard","cards":[a,b]}` (setup and round-end discards; ids sorted
//! ascending), `{"type":"pick","card":c}` (a duel pick), `{"type":"retrieve","card":c}` (the Green 8's
//! card from the own discard pile).
//!
//! **Legal-move order**, per phase: `discard` — subsets of the hand of the required size in
//! lexicographic order of their sorted ids (1 card: ascending; 2 cards: (1,2), (1,3), …, (8,9)); `pick` —
//! hand cards in ascending id order, the card barred by the +1 rule left out; `retrieve` — discard-pile
//! cards in ascending id order.
//!
//! **Simultaneous steps.** The setup discard, every duel pick and a round-end discard with a real choice
//! are made by both seats at once: both are in `to_act`, a seat leaves `to_act` once it has moved. A pick
//! stays hidden until both are in: the public view says only which seats have picked, and the events of
//! a first pick say who picked, never what (the picking seat's own events name its card). Discards apply
//! at once: they go face down, so only their count is public.
//!
//! **Round-end discards with no choice are automatic.** When a seat's unplayed cards are exactly the
//! cards it must discard (every round that runs to its planned end), the engine discards them itself and
//! emits a `discard` event with `"auto": true`; the seat is asked only when the Pink 7 ended the round
//! early and it holds more unplayed cards than it must discard.

use crate::error::GameError;
use crate::game::{Fields, Game, GameInfo, OptionKind, OptionSpec, Outcome, OutcomeKind, Seat, SeatSet, Setup};
use crate::rng::Rng;
use serde_json::{json, Value};

mod wire;

/// The id of the Dynamite card (Revolver cards are ids 1–8, equal to their value).
pub const DYNAMITE: u8 = 9;
/// Every card of one deck as a mask (bits 1..=9).
const FULL_DECK: u16 = 0b11_1111_1110;
/// The last round that can hold a duel (`D_r = 7 − r`).
const LAST_ROUND: usize = 6;
/// Gold a tie puts into the pot (§2.6 step 1).
const TIE_POT: i32 = 2;
/// Gold for a Dynamite duel and for the Pink 8 against a 1.
const SPECIAL_GOLD: i32 = 3;
/// How many random hidden histories `determinize` tries before it discards retrieval-bound cards early.
const UNIFORM_TRIES: usize = 8;

/// The two deck colours.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Colour {
    Pink,
    Green,
}

impl Colour {
    fn name(self) -> &'static str {
        match self {
            Colour::Pink => "pink",
            Colour::Green => "green",
        }
    }
}

/// What the game waits for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Phase {
    SetupDiscard,
    Pick,
    Green8Retrieve,
    RoundEndDiscard,
    MatchOver,
}

impl Phase {
    fn name(self) -> &'static str {
        match self {
            Phase::SetupDiscard => "setup_discard",
            Phase::Pick => "pick",
            Phase::Green8Retrieve => "green8_retrieve",
            Phase::RoundEndDiscard => "round_end_discard",
            Phase::MatchOver => "match_over",
        }
    }
}

/// Builds a move from the mask of the cards it names (see [`Fistful::choice`]).
pub type MoveOfCards = fn(u16) -> FistfulMove;

/// A move of A Fistful of Gold.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FistfulMove {
    /// Face-down discard of the cards in the mask (bits 1..=9).
    Discard(u16),
    /// A duel pick.
    Pick(u8),
    /// The Green 8's retrieval of one card from the own discard pile.
    Retrieve(u8),
}

/// One step of a duel's resolution, in the order of decision 10.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Step {
    /// Step 1 with equal cards: the tie pot grows.
    Tie,
    /// Step 1 with a winner.
    Win { seat: u8, gold: i32 },
    /// Step 2: the Pink 8 beat a 1 and wins 3; it replaces step 1 (the 1 never wins its 7).
    Pink8 { seat: u8 },
    /// Step 3: +1 for a duel won after the Green 7.
    Green7 { seat: u8 },
    /// Step 4: the first 6 of the round takes the pot (possibly 0).
    Six { seat: u8, gold: i32 },
    /// Step 5: the Green 8's retrieved card.
    Green8 { seat: u8, card: u8 },
    /// Step 6: the Pink 7 ended the round.
    Pink7 { seat: u8 },
}

/// A revealed duel and the steps of its resolution so far.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Duel {
    round: u8,
    number: u8,
    cards: [u8; 2],
    steps: [Option<Step>; 6],
    gold: [i32; 2],
    pot: i32,
}

impl Duel {
    fn push(&mut self, step: Step) {
        if let Some(slot) = self.steps.iter_mut().find(|s| s.is_none()) {
            *slot = Some(step);
        }
    }

    fn step_count(&self) -> usize {
        self.steps.iter().filter(|s| s.is_some()).count()
    }
}

/// What the last move caused; rendered per observer by [`Fistful::events`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Event {
    Discard {
        seat: u8,
        cards: u16,
        setup: bool,
        auto: bool,
    },
    Pick {
        seat: u8,
        card: u8,
    },
    Reveal,
    /// Steps `from..to` of `last_duel`.
    Steps {
        from: u8,
        to: u8,
    },
    RoundEnd {
        round: u8,
        gold: [i32; 2],
        star: Option<u8>,
        stars: [u8; 2],
    },
    TakeBack,
    RoundStart {
        round: u8,
    },
    MatchEnd,
}

/// Why the match ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum EndReason {
    Stars,
    NoDuelsLeft,
}

/// The state of one match.
#[derive(Clone, Debug)]
pub struct Fistful {
    setup: Setup,
    target: u8,
    pink_seat: u8,
    stars: [u8; 2],
    round: u8,
    /// Number of the current duel (1-based); during a Green 8 pick, the duel being resolved.
    duel: u8,
    phase: Phase,
    to_act: SeatSet,
    hand: [u16; 2],
    discard: [u16; 2],
    /// Cards played this round, in order (`played_len` of them, the same for both seats).
    played: [[u8; 8]; 2],
    played_len: u8,
    pending: [Option<u8>; 2],
    gold: [i32; 2],
    pot: i32,
    six_played: bool,
    green7_at: Option<u8>,
    green8_used: bool,
    /// Public log per seat and round (index = round): the cards played, and the Green 8's retrieved card
    /// (0 = none). `determinize` rebuilds hidden histories from it.
    log_played: [[u16; LAST_ROUND + 1]; 2],
    log_retrieved: [[u8; LAST_ROUND + 1]; 2],
    last_duel: Option<Duel>,
    end: Option<EndReason>,
    events: Vec<Event>,
    rng: Rng,
}

fn bit(card: u8) -> u16 {
    1 << card
}

fn cards_of(mask: u16) -> impl Iterator<Item = u8> {
    (1..=DYNAMITE).filter(move |&c| mask & bit(c) != 0)
}

fn card_list(mask: u16) -> Vec<u8> {
    cards_of(mask).collect()
}

fn count(mask: u16) -> usize {
    mask.count_ones() as usize
}

fn card_name(card: u8) -> String {
    if card == DYNAMITE {
        "the Dynamite".into()
    } else {
        format!("the {card}")
    }
}

/// Gold won by card `x` against card `y` before the special cards (§2.6 step 1 and its table): positive
/// when `x` wins, negative when `y` wins, 0 for a tie.
pub fn base_gold(x: u8, y: u8) -> i32 {
    if x == y {
        return 0;
    }
    if x == DYNAMITE {
        return if y <= 4 { SPECIAL_GOLD } else { -SPECIAL_GOLD };
    }
    if y == DYNAMITE {
        return -base_gold(y, x);
    }
    let d = (i32::from(x) - i32::from(y)).abs();
    let x_wins = if d <= 3 { x > y } else { x < y };
    if x_wins {
        d
    } else {
        -d
    }
}

/// The error for a view that is not one of this game's.
fn corrupt(reason: impl std::fmt::Display) -> GameError {
    GameError::CorruptState(format!("not a Fistful of Gold view: {reason}"))
}

/// Strict readers of a view's JSON for [`Fistful::from_view`]; every failure is `CorruptState`.
mod read {
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

/// `n` choose `k` for the tiny sizes of this game.
fn choose(n: usize, k: usize) -> usize {
    match k {
        0 => 1,
        1 => n,
        2 => n * n.saturating_sub(1) / 2,
        _ => 0,
    }
}

/// The `index`-th `k`-subset (k = 1 or 2) of `mask` in lexicographic order.
fn unrank_subset(mask: u16, k: usize, index: usize) -> Option<u16> {
    let cards: [u8; 9] = {
        let mut a = [0u8; 9];
        for (i, c) in cards_of(mask).enumerate() {
            a[i] = c;
        }
        a
    };
    let n = count(mask);
    match k {
        1 => (index < n).then(|| bit(cards[index])),
        2 => {
            let mut i = index;
            for a in 0..n {
                let row = n - a - 1;
                if i < row {
                    return Some(bit(cards[a]) | bit(cards[a + 1 + i]));
                }
                i -= row;
            }
            None
        }
        _ => None,
    }
}

/// The rank of `subset` among the `count(subset)`-subsets of `mask`, if it is one.
fn rank_subset(mask: u16, subset: u16) -> Option<usize> {
    if subset & !mask != 0 {
        return None;
    }
    let k = count(subset);
    (0..choose(count(mask), k)).find(|&i| unrank_subset(mask, k, i) == Some(subset))
}

/// Net gold of `x` against every card of a full deck, a rough card strength for the heuristic player.
fn strength(x: u8) -> i32 {
    (1..=DYNAMITE).map(|y| base_gold(x, y)).sum()
}

impl Fistful {
    fn colour(&self, seat: usize) -> Colour {
        if seat == usize::from(self.pink_seat) {
            Colour::Pink
        } else {
            Colour::Green
        }
    }

    fn green_seat(&self) -> usize {
        1 - usize::from(self.pink_seat)
    }

    /// Planned duels of round `r` (§2.5).
    fn duels_in(round: u8) -> u8 {
        7u8.saturating_sub(round)
    }

    fn played_mask(&self, seat: usize) -> u16 {
        self.played[seat][..usize::from(self.played_len)].iter().fold(0, |m, &c| m | bit(c))
    }

    /// The card `seat` played in the previous duel of this round, which the +1 rule looks at.
    fn previous(&self, seat: usize) -> Option<u8> {
        (self.played_len > 0).then(|| self.played[seat][usize::from(self.played_len) - 1])
    }

    /// The card the +1 rule bars for `seat` now, if any (§2.5 step 2, decision 3).
    fn barred(&self, seat: usize) -> Option<u8> {
        match self.previous(seat) {
            Some(p) if p < 8 => Some(p + 1),
            _ => None,
        }
    }

    fn pickable(&self, seat: usize) -> u16 {
        let barred = self.barred(seat).map_or(0, bit);
        self.hand[seat] & !barred
    }

    /// Cards `seat` must discard at this round's end (§2.5 card cycling).
    fn round_end_count(&self, seat: usize) -> usize {
        if self.green8_used && seat == self.green_seat() {
            2
        } else {
            1
        }
    }

    fn discard_count(&self, seat: usize) -> usize {
        match self.phase {
            Phase::SetupDiscard => 2,
            _ => self.round_end_count(seat),
        }
    }

    fn winner(&self) -> Option<usize> {
        (0..2).find(|&s| self.stars[s] >= self.target)
    }

    /// Resolves the duel once both picks are in: steps 1–4, then step 5's wait or the rest.
    fn reveal(&mut self) {
        let (Some(c0), Some(c1)) = (self.pending[0], self.pending[1]) else { return };
        self.pending = [None, None];
        let cards = [c0, c1];
        let slot = usize::from(self.played_len);
        for (seat, &card) in cards.iter().enumerate() {
            self.played[seat][slot] = card;
            self.log_played[seat][usize::from(self.round)] |= bit(card);
        }
        self.played_len += 1;
        let mut duel =
            Duel { round: self.round, number: self.duel, cards, steps: [None; 6], gold: self.gold, pot: self.pot };
        let pink = usize::from(self.pink_seat);
        let green = self.green_seat();
        // Steps 1 and 2 decide the winner and the gold. The Pink 8's step stands in place of the base
        // result rather than after it, so the gold the steps list always adds up to the gold paid.
        let base = base_gold(c0, c1);
        let mut winner = None;
        if base == 0 {
            self.pot += TIE_POT;
            duel.push(Step::Tie);
        } else if cards[pink] == 8 && cards[1 - pink] == 1 {
            duel.push(Step::Pink8 { seat: pink as u8 });
            self.gold[pink] += SPECIAL_GOLD;
            winner = Some(pink);
        } else {
            let (w, g) = if base > 0 { (0, base) } else { (1, -base) };
            duel.push(Step::Win { seat: w as u8, gold: g });
            self.gold[w] += g;
            winner = Some(w);
        }
        if winner == Some(green) && self.green7_at.is_some_and(|d| d < self.duel) {
            self.gold[green] += 1;
            duel.push(Step::Green7 { seat: green as u8 });
        }
        if !self.six_played {
            // Two 6s in one duel are a tie and neither is first (§2.6 step 4).
            if (c0 == 6) != (c1 == 6) {
                let seat = if c0 == 6 { 0 } else { 1 };
                let taken = self.pot;
                self.gold[seat] += taken;
                self.pot = 0;
                duel.push(Step::Six { seat: seat as u8, gold: taken });
            }
        }
        if cards.contains(&6) {
            self.six_played = true;
        }
        if cards[green] == 7 && self.green7_at.is_none() {
            self.green7_at = Some(self.duel);
        }
        duel.gold = self.gold;
        duel.pot = self.pot;
        self.last_duel = Some(duel);
        self.events.push(Event::Reveal);
        self.events.push(Event::Steps { from: 0, to: duel.step_count() as u8 });
        if cards[green] == 8 {
            self.green8_used = true;
            self.phase = Phase::Green8Retrieve;
            self.to_act = SeatSet::single(green);
        } else {
            self.finish_duel();
        }
    }

    /// Step 6 and the end-of-duel checks.
    fn finish_duel(&mut self) {
        let pink = usize::from(self.pink_seat);
        let pink7 = self.played[pink][usize::from(self.played_len) - 1] == 7 && self.duel >= 3;
        if pink7 {
            if let Some(duel) = self.last_duel.as_mut() {
                let from = duel.step_count() as u8;
                duel.push(Step::Pink7 { seat: pink as u8 });
                self.events.push(Event::Steps { from, to: from + 1 });
            }
        }
        if pink7 || self.duel >= Self::duels_in(self.round) {
            self.end_round();
        } else {
            self.duel += 1;
            self.phase = Phase::Pick;
            self.to_act = SeatSet(0b11);
        }
    }

    /// Star, match-end checks, then the round-end discards (§2.5, decision 9).
    fn end_round(&mut self) {
        let star = match self.gold[0].cmp(&self.gold[1]) {
            std::cmp::Ordering::Greater => Some(0u8),
            std::cmp::Ordering::Less => Some(1u8),
            std::cmp::Ordering::Equal => None,
        };
        if let Some(s) = star {
            self.stars[usize::from(s)] += 1;
        }
        self.events.push(Event::RoundEnd { round: self.round, gold: self.gold, star, stars: self.stars });
        if self.winner().is_some() {
            self.end_match(EndReason::Stars);
            return;
        }
        if Self::duels_in(self.round + 1) == 0 {
            self.end_match(EndReason::NoDuelsLeft);
            return;
        }
        self.phase = Phase::RoundEndDiscard;
        self.to_act = SeatSet::EMPTY;
        for seat in 0..2 {
            let n = self.round_end_count(seat);
            if count(self.hand[seat]) <= n {
                let cards = self.hand[seat];
                self.do_discard(seat, cards, false, true);
            } else {
                self.to_act = self.to_act.with(seat);
            }
        }
        if self.to_act.is_empty() {
            self.start_round();
        }
    }

    fn end_match(&mut self, reason: EndReason) {
        self.end = Some(reason);
        self.phase = Phase::MatchOver;
        self.to_act = SeatSet::EMPTY;
        self.events.push(Event::MatchEnd);
    }

    fn do_discard(&mut self, seat: usize, cards: u16, setup: bool, auto: bool) {
        self.hand[seat] &= !cards;
        self.discard[seat] |= cards;
        self.events.push(Event::Discard { seat: seat as u8, cards, setup, auto });
    }

    /// Take-back and the next round's start.
    fn start_round(&mut self) {
        for seat in 0..2 {
            self.hand[seat] |= self.played_mask(seat);
        }
        self.events.push(Event::TakeBack);
        self.played_len = 0;
        self.round += 1;
        self.duel = 1;
        self.gold = [0, 0];
        self.pot = 0;
        self.six_played = false;
        self.green7_at = None;
        self.green8_used = false;
        self.phase = Phase::Pick;
        self.to_act = SeatSet(0b11);
        self.events.push(Event::RoundStart { round: self.round });
    }

    fn outcome_detail(&self) -> Value {
        let reason = match self.end {
            Some(EndReason::NoDuelsLeft) => "no_duels_left",
            _ => "stars",
        };
        json!({"reason": reason, "rounds": self.round, "target_stars": self.target})
    }

    /// Rebuilds the public state from `public` onto `self` (built by `new`), with every hidden card left
    /// for [`Fistful::from_view`] to deal.
    fn read_public(&mut self, public: &Value) -> Result<(), GameError> {
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
    fn read_retrieved(&mut self, value: &Value, round: usize) -> Result<(), GameError> {
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
    fn sample_hidden(&self, seat: usize, rng: &mut Rng, prefer_bound: bool) -> Option<(u16, u16, Option<u8>)> {
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
    fn choose_discard(
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

impl Game for Fistful {
    type Move = FistfulMove;

    fn info() -> GameInfo {
        GameInfo {
            name: "fistful",
            title: "A Fistful of Gold",
            min_players: 2,
            max_players: 2,
            default_players: 2,
            options: vec![
                OptionSpec {
                    name: "length",
                    kind: OptionKind::Choice(vec!["short", "long"]),
                    default: json!("short"),
                    doc: "short: first to 2 sheriff stars; long: first to 3",
                    house_rules: false,
                },
                OptionSpec {
                    name: "colours",
                    kind: OptionKind::Choice(vec!["random", "seat0_pink", "seat0_green"]),
                    default: json!("random"),
                    doc: "which seat plays the Pink deck: drawn at random, or fixed by the host",
                    house_rules: false,
                },
            ],
            house_rules_players: Vec::new(),
            summary: "Two gunslingers duel with 9-card decks, both choosing a card in secret each duel; \
                      the closer the values the more the higher card wins, far apart the lower card wins. \
                      The richer player takes the round's sheriff star; first to 2 (or 3) stars wins.",
        }
    }

    fn new(setup: &Setup) -> Result<Self, GameError> {
        if setup.players != 2 {
            return Err(GameError::BadOptions(format!("A Fistful of Gold takes 2 players, not {}", setup.players)));
        }
        let target = match setup.str_option("length") {
            "long" => 3,
            _ => 2,
        };
        let mut rng = Rng::new(setup.seed);
        let pink_seat = match setup.str_option("colours") {
            "seat0_pink" => 0,
            "seat0_green" => 1,
            _ => rng.below(2) as u8,
        };
        Ok(Fistful {
            setup: setup.clone(),
            target,
            pink_seat,
            stars: [0, 0],
            round: 1,
            duel: 1,
            phase: Phase::SetupDiscard,
            to_act: SeatSet(0b11),
            hand: [FULL_DECK, FULL_DECK],
            discard: [0, 0],
            played: [[0; 8]; 2],
            played_len: 0,
            pending: [None, None],
            gold: [0, 0],
            pot: 0,
            six_played: false,
            green7_at: None,
            green8_used: false,
            log_played: [[0; LAST_ROUND + 1]; 2],
            log_retrieved: [[0; LAST_ROUND + 1]; 2],
            last_duel: None,
            end: None,
            events: Vec::new(),
            rng,
        })
    }

    fn setup(&self) -> &Setup {
        &self.setup
    }

    fn to_act(&self) -> SeatSet {
        self.to_act
    }

    /// Without building the outcome (the RL step asks after every move).
    fn is_over(&self) -> bool {
        self.end.is_some()
    }

    fn outcome(&self) -> Option<Outcome> {
        self.end?;
        let scores = vec![i64::from(self.stars[0]), i64::from(self.stars[1])];
        let detail = self.outcome_detail();
        let winner = match self.stars[0].cmp(&self.stars[1]) {
            std::cmp::Ordering::Greater => Some(0),
            std::cmp::Ordering::Less => Some(1),
            std::cmp::Ordering::Equal => None,
        };
        Some(match winner {
            Some(w) => Outcome { kind: OutcomeKind::Match, winners: vec![w], scores, order: vec![w, 1 - w], detail },
            None => Outcome { kind: OutcomeKind::Draw, winners: Vec::new(), scores, order: vec![0, 1], detail },
        })
    }

    fn legal_count(&self, seat: Seat) -> usize {
        if seat > 1 || !self.to_act.contains(seat) {
            return 0;
        }
        match self.phase {
            Phase::SetupDiscard | Phase::RoundEndDiscard => choose(count(self.hand[seat]), self.discard_count(seat)),
            Phase::Pick => count(self.pickable(seat)),
            Phase::Green8Retrieve => count(self.discard[seat]),
            Phase::MatchOver => 0,
        }
    }

    fn legal_move(&self, seat: Seat, index: usize) -> Option<FistfulMove> {
        if index >= self.legal_count(seat) {
            return None;
        }
        match self.phase {
            Phase::SetupDiscard | Phase::RoundEndDiscard => {
                unrank_subset(self.hand[seat], self.discard_count(seat), index).map(FistfulMove::Discard)
            }
            Phase::Pick => cards_of(self.pickable(seat)).nth(index).map(FistfulMove::Pick),
            Phase::Green8Retrieve => cards_of(self.discard[seat]).nth(index).map(FistfulMove::Retrieve),
            Phase::MatchOver => None,
        }
    }

    fn index_of(&self, seat: Seat, mv: &FistfulMove) -> Option<usize> {
        if self.legal_count(seat) == 0 {
            return None;
        }
        match (self.phase, *mv) {
            (Phase::SetupDiscard | Phase::RoundEndDiscard, FistfulMove::Discard(cards)) => {
                if count(cards) != self.discard_count(seat) {
                    return None;
                }
                rank_subset(self.hand[seat], cards)
            }
            (Phase::Pick, FistfulMove::Pick(card)) => {
                let legal = self.pickable(seat);
                (card <= DYNAMITE && legal & bit(card) != 0).then(|| count(legal & (bit(card) - 1)))
            }
            (Phase::Green8Retrieve, FistfulMove::Retrieve(card)) => {
                let pile = self.discard[seat];
                (card <= DYNAMITE && pile & bit(card) != 0).then(|| count(pile & (bit(card) - 1)))
            }
            _ => None,
        }
    }

    fn explain(&self, seat: Seat, mv: &FistfulMove) -> GameError {
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

    fn apply_legal(&mut self, seat: Seat, mv: &FistfulMove) {
        self.events.clear();
        match *mv {
            FistfulMove::Discard(cards) => {
                let setup = self.phase == Phase::SetupDiscard;
                self.do_discard(seat, cards, setup, false);
                self.to_act = self.to_act.without(seat);
                if self.to_act.is_empty() {
                    if setup {
                        self.phase = Phase::Pick;
                        self.to_act = SeatSet(0b11);
                        self.events.push(Event::RoundStart { round: self.round });
                    } else {
                        self.start_round();
                    }
                }
            }
            FistfulMove::Pick(card) => {
                self.hand[seat] &= !bit(card);
                self.pending[seat] = Some(card);
                self.to_act = self.to_act.without(seat);
                self.events.push(Event::Pick { seat: seat as u8, card });
                if self.to_act.is_empty() {
                    self.reveal();
                }
            }
            FistfulMove::Retrieve(card) => {
                self.discard[seat] &= !bit(card);
                self.hand[seat] |= bit(card);
                self.log_retrieved[seat][usize::from(self.round)] = card;
                if let Some(duel) = self.last_duel.as_mut() {
                    let from = duel.step_count() as u8;
                    duel.push(Step::Green8 { seat: seat as u8, card });
                    self.events.push(Event::Steps { from, to: from + 1 });
                }
                self.finish_duel();
            }
        }
    }

    fn write_move(&self, mv: &FistfulMove, out: &mut String) {
        wire::write_move(out, mv);
    }

    fn move_from_json(&self, _seat: Seat, value: &Value) -> Result<FistfulMove, GameError> {
        let kind = Fields::new(value, &["type", "card", "cards"])?.kind()?;
        let card_id = |id: u64| -> Result<u8, GameError> {
            if (1..=u64::from(DYNAMITE)).contains(&id) {
                Ok(id as u8)
            } else {
                Err(GameError::invalid(format!("card ids are 1-8 (Revolvers) and 9 (Dynamite), not {id}")))
            }
        };
        match kind {
            "discard" => {
                let fields = Fields::new(value, &["type", "cards"])?;
                let mut mask = 0u16;
                for id in fields.uint_list("cards")? {
                    let card = card_id(id)?;
                    if mask & bit(card) != 0 {
                        return Err(GameError::invalid(format!("card {card} is listed twice")));
                    }
                    mask |= bit(card);
                }
                Ok(FistfulMove::Discard(mask))
            }
            "pick" => Ok(FistfulMove::Pick(card_id(Fields::new(value, &["type", "card"])?.uint("card")?)?)),
            "retrieve" => Ok(FistfulMove::Retrieve(card_id(Fields::new(value, &["type", "card"])?.uint("card")?)?)),
            other => Err(GameError::invalid(format!("unknown move type {other:?} (discard, pick, retrieve)"))),
        }
    }

    fn write_public_view(&self, out: &mut String) {
        self.write_public(out);
    }

    fn write_private_view(&self, seat: Option<Seat>, out: &mut String) {
        self.write_private(seat, out);
    }

    fn write_events(&self, seat: Option<Seat>, out: &mut String) {
        out.push('[');
        let mut first = true;
        for event in &self.events {
            self.write_event(event, seat, out, &mut first);
        }
        out.push(']');
    }

    fn determinize(&self, observer: Option<Seat>, rng: &mut Rng) -> Self {
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

    fn from_view(setup: &Setup, seat: Option<Seat>, view: &Value, rng: &mut Rng) -> Result<Self, GameError> {
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

    fn state_json(&self) -> Value {
        let n = usize::from(self.played_len);
        let duel = self.last_duel.as_ref().map(|d| crate::json::written(|out| wire::write_duel(out, d)));
        json!({
            "target": self.target,
            "pink_seat": self.pink_seat,
            "stars": self.stars,
            "round": self.round,
            "duel": self.duel,
            "phase": self.phase.name(),
            "to_act": self.to_act.0,
            "hand": [card_list(self.hand[0]), card_list(self.hand[1])],
            "discard": [card_list(self.discard[0]), card_list(self.discard[1])],
            "played": [self.played[0][..n].to_vec(), self.played[1][..n].to_vec()],
            "pending": self.pending,
            "gold": self.gold,
            "pot": self.pot,
            "six_played": self.six_played,
            "green7_at": self.green7_at,
            "green8_used": self.green8_used,
            "log_played": [self.log_played[0].to_vec(), self.log_played[1].to_vec()],
            "log_retrieved": [self.log_retrieved[0].to_vec(), self.log_retrieved[1].to_vec()],
            "last_duel": duel,
            "end": self.end.map(|_| self.outcome_detail()),
            "rng": self.rng.state_hex(),
        })
    }

    fn heuristic_index(&self, seat: Seat, _rng: &mut Rng) -> usize {
        let n = self.legal_count(seat);
        let best_by = |score: &dyn Fn(FistfulMove) -> i32| -> usize {
            (0..n)
                .filter_map(|i| self.legal_move(seat, i).map(|m| (i, score(m))))
                .max_by_key(|&(i, s)| (s, std::cmp::Reverse(i)))
                .map_or(0, |(i, _)| i)
        };
        match self.phase {
            // Keep the strong cards: discard the weakest set.
            Phase::SetupDiscard | Phase::RoundEndDiscard => best_by(&|m| match m {
                FistfulMove::Discard(cards) => -cards_of(cards).map(strength).sum::<i32>(),
                _ => 0,
            }),
            Phase::Green8Retrieve => best_by(&|m| match m {
                FistfulMove::Retrieve(card) => strength(card),
                _ => 0,
            }),
            // Best net gold against the opponent's cards not yet played this round.
            Phase::Pick => {
                let other = 1 - seat;
                let candidates = FULL_DECK & !self.played_mask(other);
                best_by(&|m| match m {
                    FistfulMove::Pick(card) => cards_of(candidates).map(|y| base_gold(card, y)).sum(),
                    _ => 0,
                })
            }
            Phase::MatchOver => 0,
        }
    }
}

fn join_cards(cards: &[u8]) -> String {
    let names: Vec<String> = cards.iter().map(|&c| card_name(c)).collect();
    match names.len() {
        0 => "these cards are".into(),
        1 => format!("{} is", names[0]),
        _ => format!("{} are", names.join(" and ")),
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
pub struct FistfulSight {
    /// Position of the phase in `setup_discard, pick, green8_retrieve, round_end_discard, match_over`.
    pub phase: usize,
    pub to_act: SeatSet,
    pub own_colour_pink: bool,
    pub target_stars: u8,
    pub stars: [u8; 2],
    pub gold: [i32; 2],
    pub pot: i32,
    pub round: u8,
    pub duel: u8,
    pub duels_in_round: u8,
    /// The seat's own hand, discard pile (card bit masks, bits 1..=9) and pending pick.
    pub hand: u16,
    pub discard: u16,
    pub pick: Option<u8>,
    pub hand_sizes: [u8; 2],
    pub discard_sizes: [u8; 2],
    pub picked: [bool; 2],
    /// Per seat: cards played this round, the card the +1 rule bars, the cards played in each earlier round.
    pub played: [u16; 2],
    pub barred: [Option<u8>; 2],
    pub earlier: [[u16; LAST_ROUND + 1]; 2],
    /// Rounds before the current one that the history shows (`1..earlier_rounds`).
    pub earlier_rounds: usize,
    pub last_duel: Option<[u8; 2]>,
    pub six_played: bool,
    pub green7_played_at: Option<u8>,
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
