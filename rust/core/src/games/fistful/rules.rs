//! A Fistful of Gold's state, moves and events, and how a legal move changes the state (reveals, duels,
//! rounds and the match's end).

use crate::error::GameError;
use crate::game::{Seat, SeatSet, Setup};
use crate::rng::Rng;
use serde_json::{json, Value};

/// The id of the Dynamite card (Revolver cards are ids 1–8, equal to their value).
pub const DYNAMITE: u8 = 9;

/// Every card of one deck as a mask (bits 1..=9).
pub(super) const FULL_DECK: u16 = 0b11_1111_1110;

/// The last round that can hold a duel (`D_r = 7 − r`).
pub(super) const LAST_ROUND: usize = 6;

/// Gold a tie puts into the pot (§2.6 step 1).
pub(super) const TIE_POT: i32 = 2;

/// Gold for a Dynamite duel and for the Pink 8 against a 1.
pub(super) const SPECIAL_GOLD: i32 = 3;

/// How many random hidden histories `determinize` tries before it discards retrieval-bound cards early.
pub(super) const UNIFORM_TRIES: usize = 8;

/// The two deck colours.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Colour {
    /// The pink deck.
    Pink,
    /// The green deck, with the special Green 7 and Green 8.
    Green,
}

impl Colour {
    pub(super) fn name(self) -> &'static str {
        match self {
            Colour::Pink => "pink",
            Colour::Green => "green",
        }
    }
}

/// What the game waits for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Phase {
    SetupDiscard,
    Pick,
    Green8Retrieve,
    RoundEndDiscard,
    MatchOver,
}

impl Phase {
    pub(super) fn name(self) -> &'static str {
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
pub(super) enum Step {
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
pub(super) struct Duel {
    pub(super) round: u8,
    pub(super) number: u8,
    pub(super) cards: [u8; 2],
    pub(super) steps: [Option<Step>; 6],
    pub(super) gold: [i32; 2],
    pub(super) pot: i32,
}

impl Duel {
    pub(super) fn push(&mut self, step: Step) {
        if let Some(slot) = self.steps.iter_mut().find(|s| s.is_none()) {
            *slot = Some(step);
        }
    }

    pub(super) fn step_count(&self) -> usize {
        self.steps.iter().filter(|s| s.is_some()).count()
    }
}

/// What the last move caused; rendered per observer by [`Fistful::events`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Event {
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
pub(super) enum EndReason {
    Stars,
    NoDuelsLeft,
}

/// The state of one match.
#[derive(Clone, Debug)]
pub struct Fistful {
    pub(super) setup: Setup,
    pub(super) target: u8,
    pub(super) pink_seat: u8,
    pub(super) stars: [u8; 2],
    pub(super) round: u8,
    /// Number of the current duel (1-based); during a Green 8 pick, the duel being resolved.
    pub(super) duel: u8,
    pub(super) phase: Phase,
    pub(super) to_act: SeatSet,
    pub(super) hand: [u16; 2],
    pub(super) discard: [u16; 2],
    /// Cards played this round, in order (`played_len` of them, the same for both seats).
    pub(super) played: [[u8; 8]; 2],
    pub(super) played_len: u8,
    pub(super) pending: [Option<u8>; 2],
    pub(super) gold: [i32; 2],
    pub(super) pot: i32,
    pub(super) six_played: bool,
    pub(super) green7_at: Option<u8>,
    pub(super) green8_used: bool,
    /// Public log per seat and round (index = round): the cards played, and the Green 8's retrieved card
    /// (0 = none). `determinize` rebuilds hidden histories from it.
    pub(super) log_played: [[u16; LAST_ROUND + 1]; 2],
    pub(super) log_retrieved: [[u8; LAST_ROUND + 1]; 2],
    pub(super) last_duel: Option<Duel>,
    pub(super) end: Option<EndReason>,
    pub(super) events: Vec<Event>,
    pub(super) rng: Rng,
}

pub(super) fn bit(card: u8) -> u16 {
    1 << card
}

pub(super) fn cards_of(mask: u16) -> impl Iterator<Item = u8> {
    (1..=DYNAMITE).filter(move |&c| mask & bit(c) != 0)
}

pub(super) fn card_list(mask: u16) -> Vec<u8> {
    cards_of(mask).collect()
}

pub(super) fn count(mask: u16) -> usize {
    mask.count_ones() as usize
}

pub(super) fn card_name(card: u8) -> String {
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

impl Fistful {
    pub(super) fn colour(&self, seat: usize) -> Colour {
        if seat == usize::from(self.pink_seat) {
            Colour::Pink
        } else {
            Colour::Green
        }
    }

    pub(super) fn green_seat(&self) -> usize {
        1 - usize::from(self.pink_seat)
    }

    /// Planned duels of round `r` (§2.5).
    pub(super) fn duels_in(round: u8) -> u8 {
        7u8.saturating_sub(round)
    }

    pub(super) fn played_mask(&self, seat: usize) -> u16 {
        self.played[seat][..usize::from(self.played_len)].iter().fold(0, |m, &c| m | bit(c))
    }

    /// The card `seat` played in the previous duel of this round, which the +1 rule looks at.
    pub(super) fn previous(&self, seat: usize) -> Option<u8> {
        (self.played_len > 0).then(|| self.played[seat][usize::from(self.played_len) - 1])
    }

    /// The card the +1 rule bars for `seat` now, if any (§2.5 step 2, decision 3).
    pub(super) fn barred(&self, seat: usize) -> Option<u8> {
        match self.previous(seat) {
            Some(p) if p < 8 => Some(p + 1),
            _ => None,
        }
    }

    pub(super) fn pickable(&self, seat: usize) -> u16 {
        let barred = self.barred(seat).map_or(0, bit);
        self.hand[seat] & !barred
    }

    /// Cards `seat` must discard at this round's end (§2.5 card cycling).
    pub(super) fn round_end_count(&self, seat: usize) -> usize {
        if self.green8_used && seat == self.green_seat() {
            2
        } else {
            1
        }
    }

    pub(super) fn discard_count(&self, seat: usize) -> usize {
        match self.phase {
            Phase::SetupDiscard => 2,
            _ => self.round_end_count(seat),
        }
    }

    pub(super) fn winner(&self) -> Option<usize> {
        (0..2).find(|&s| self.stars[s] >= self.target)
    }

    /// Resolves the duel once both picks are in: steps 1–4, then step 5's wait or the rest.
    pub(super) fn reveal(&mut self) {
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
    pub(super) fn finish_duel(&mut self) {
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
    pub(super) fn end_round(&mut self) {
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

    pub(super) fn end_match(&mut self, reason: EndReason) {
        self.end = Some(reason);
        self.phase = Phase::MatchOver;
        self.to_act = SeatSet::EMPTY;
        self.events.push(Event::MatchEnd);
    }

    pub(super) fn do_discard(&mut self, seat: usize, cards: u16, setup: bool, auto: bool) {
        self.hand[seat] &= !cards;
        self.discard[seat] |= cards;
        self.events.push(Event::Discard { seat: seat as u8, cards, setup, auto });
    }

    /// Take-back and the next round's start.
    pub(super) fn start_round(&mut self) {
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

    pub(super) fn outcome_detail(&self) -> Value {
        let reason = match self.end {
            Some(EndReason::NoDuelsLeft) => "no_duels_left",
            _ => "stars",
        };
        json!({"reason": reason, "rounds": self.round, "target_stars": self.target})
    }
}

impl Fistful {
    /// [`Game::new`] of this game.
    pub(super) fn deal_from(setup: &Setup) -> Result<Self, GameError> {
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

    /// [`Game::apply_legal`] of this game.
    pub(super) fn apply(&mut self, seat: Seat, mv: &FistfulMove) {
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
}
