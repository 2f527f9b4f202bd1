//! The `Game` trait every rules engine implements, and the shapes around it.
//!
//! The trait was designed against all four rules files at once; each method says which game forced it:
//! - several seats acting at once with hidden pending choices (A Fistful of Gold's simultaneous picks and
//!   setup/round-end discards) → [`Game::to_act`] returns a set, and a pick stays hidden until resolved;
//! - decisions in the middle of resolving something (Fistful's Green 8 retrieval, TEN's auction bids and
//!   card-by-card payments) → the state carries a phase and `to_act` names whoever must decide next;
//! - randomness in the middle of a game (Cherki's next deal) → the state owns its [`Rng`];
//! - outcomes that are a ranking (Matchstick), a match (Fistful), a settlement (Cherki), scores with
//!   tie-breaks or a shared win (TEN), or a draw → [`Outcome`];
//! - 1-player games (TEN's labelled solo house variant) → nothing assumes an opponent;
//! - per-seat redaction of views and of events → [`Game::view`] and [`Game::events`] take the observer;
//! - [`Game::determinize`] → a full state consistent with what one observer may know.
//!
//! Legal moves exist in one place only: `legal_count`, `legal_move(i)` (unrank) and `index_of` (rank).
//! Validation is `index_of`; an explanation of a refusal comes from `explain`, which runs only after the
//! lookup failed and never decides legality.

use crate::error::GameError;
use crate::json::written;
use crate::rng::Rng;
use serde_json::{json, Map, Value};
use std::fmt::Debug;

/// A seat index, `0..players`.
pub type Seat = usize;

/// Largest player count any game supports (Matchstick Tycoon: 8).
pub const MAX_SEATS: usize = 8;

/// A game that has not ended after this many decisions is a bug in its engine, not a long game.
pub const DECISION_LIMIT: u64 = 1_000_000;

/// A set of seats as a bitmask (bit i = seat i). Seats 16 and above cannot be members: adding one
/// changes nothing and asking for one answers no, so that an out-of-range seat never panics.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(transparent))]
pub struct SeatSet(pub u16);

impl SeatSet {
    /// The empty set.
    pub const EMPTY: SeatSet = SeatSet(0);

    /// The set holding only `seat` (empty for a seat of 16 or more).
    pub fn single(seat: Seat) -> Self {
        SeatSet(bit(seat))
    }

    /// Whether `seat` is in the set.
    pub fn contains(self, seat: Seat) -> bool {
        self.0 & bit(seat) != 0
    }

    /// The set with `seat` added (unchanged for a seat of 16 or more).
    pub fn with(self, seat: Seat) -> Self {
        SeatSet(self.0 | bit(seat))
    }

    /// The set with `seat` removed.
    pub fn without(self, seat: Seat) -> Self {
        SeatSet(self.0 & !bit(seat))
    }

    /// Whether no seat is in the set.
    pub fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// How many seats are in the set.
    pub fn len(self) -> usize {
        self.0.count_ones() as usize
    }

    /// The lowest seat in the set.
    pub fn first(self) -> Option<Seat> {
        if self.0 == 0 {
            None
        } else {
            Some(self.0.trailing_zeros() as usize)
        }
    }

    /// The seats in increasing order.
    pub fn iter(self) -> impl Iterator<Item = Seat> {
        (0..16).filter(move |&s| self.0 & (1 << s) != 0)
    }
}

/// The bit of `seat` in a [`SeatSet`], 0 for a seat the mask cannot hold.
fn bit(seat: Seat) -> u16 {
    u32::try_from(seat).ok().and_then(|s| 1u16.checked_shl(s)).unwrap_or(0)
}

/// The kind and domain of one game option.
#[derive(Clone, Debug, PartialEq)]
#[non_exhaustive]
pub enum OptionKind {
    /// `true` / `false`.
    Bool,
    /// An integer in `min..=max`.
    Int {
        /// The smallest allowed value.
        min: i64,
        /// The largest allowed value.
        max: i64,
    },
    /// One integer of a fixed list (Matchstick's `expansion`: 0, 2 or 4).
    IntChoice(Vec<i64>),
    /// One string of a fixed list (Fistful's `length`: "short" or "long").
    Choice(Vec<&'static str>),
}

/// One option a host may set, with its default and documentation.
#[derive(Clone, Debug, PartialEq)]
pub struct OptionSpec {
    /// The option's key in an options object.
    pub name: &'static str,
    /// Its type and allowed values.
    pub kind: OptionKind,
    /// The value when the host does not set it.
    pub default: Value,
    /// One sentence for help screens.
    pub doc: &'static str,
    /// True when choosing a non-default value plays house rules rather than the published game.
    pub house_rules: bool,
}

/// What a game is and how it may be set up; exported unchanged to Python as `cardnet.GAMES[name]`.
#[derive(Clone, Debug, PartialEq)]
pub struct GameInfo {
    /// Short machine name (`matchstick`, `fistful`, `cherki`, `ten`).
    pub name: &'static str,
    /// Display title.
    pub title: &'static str,
    /// Fewest players the game takes.
    pub min_players: usize,
    /// Most players the game takes.
    pub max_players: usize,
    /// The player count when none is given.
    pub default_players: usize,
    /// The options a host may set.
    pub options: Vec<OptionSpec>,
    /// Player counts that play a house variant rather than the published game (TEN solo: `[1]`), with a note.
    pub house_rules_players: Vec<(usize, &'static str)>,
    /// One-paragraph summary for help screens.
    pub summary: &'static str,
}

impl GameInfo {
    /// Checks `requested` (a JSON object or null) against the specs and fills in defaults.
    /// Unknown keys, wrong types and out-of-range values are `BadOptions`.
    pub fn resolve_options(&self, requested: &Value) -> Result<Map<String, Value>, GameError> {
        let empty = Map::new();
        let given = match requested {
            Value::Null => &empty,
            Value::Object(map) => map,
            _ => return Err(GameError::BadOptions("options must be an object".into())),
        };
        for key in given.keys() {
            if !self.options.iter().any(|o| o.name == key) {
                let known: Vec<&str> = self.options.iter().map(|o| o.name).collect();
                return Err(GameError::BadOptions(format!(
                    "{} has no option {key:?} (options: {})",
                    self.name,
                    if known.is_empty() { "none".to_string() } else { known.join(", ") }
                )));
            }
        }
        let mut out = Map::new();
        for spec in &self.options {
            let value = given.get(spec.name).unwrap_or(&spec.default);
            check_option(spec, value)?;
            out.insert(spec.name.to_string(), value.clone());
        }
        Ok(out)
    }

    /// Checks a player count, defaulting when `None`.
    pub fn resolve_players(&self, players: Option<usize>) -> Result<usize, GameError> {
        let n = players.unwrap_or(self.default_players);
        if n < self.min_players || n > self.max_players {
            return Err(GameError::BadOptions(format!(
                "{} takes {}–{} players, not {n}",
                self.title, self.min_players, self.max_players
            )));
        }
        Ok(n)
    }

    /// The resolved [`Setup`] of a game of this kind: `players` checked (`None`: the usual count) and
    /// `options` (a JSON object, or null for the defaults) checked and completed, as [`Game::new`] wants it.
    pub fn setup(&self, players: Option<usize>, seed: u64, options: &Value) -> Result<Setup, GameError> {
        Ok(Setup { players: self.resolve_players(players)?, seed, options: self.resolve_options(options)? })
    }

    /// The info as JSON (for help screens, the protocol's table description and Python).
    pub fn to_json(&self) -> Value {
        let options: Vec<Value> = self
            .options
            .iter()
            .map(|o| {
                let (kind, choices, min, max) = match &o.kind {
                    OptionKind::Bool => ("bool", Value::Null, Value::Null, Value::Null),
                    OptionKind::Int { min, max } => ("int", Value::Null, json!(min), json!(max)),
                    OptionKind::IntChoice(c) => ("int", json!(c), Value::Null, Value::Null),
                    OptionKind::Choice(c) => ("choice", json!(c), Value::Null, Value::Null),
                };
                json!({"name": o.name, "kind": kind, "choices": choices, "min": min, "max": max,
                       "default": o.default, "doc": o.doc, "house_rules": o.house_rules})
            })
            .collect();
        let house: Vec<Value> =
            self.house_rules_players.iter().map(|(n, doc)| json!({"players": n, "doc": doc})).collect();
        json!({"name": self.name, "title": self.title, "min_players": self.min_players,
               "max_players": self.max_players, "default_players": self.default_players,
               "options": options, "house_rules_players": house, "summary": self.summary})
    }
}

fn check_option(spec: &OptionSpec, value: &Value) -> Result<(), GameError> {
    let bad = |what: String| Err(GameError::BadOptions(format!("option {}: {what}", spec.name)));
    match &spec.kind {
        OptionKind::Bool => {
            if !value.is_boolean() {
                return bad(format!("expected true or false, got {value}"));
            }
        }
        OptionKind::Int { min, max } => match value.as_i64() {
            Some(v) if (*min..=*max).contains(&v) => {}
            _ => return bad(format!("expected an integer {min}–{max}, got {value}")),
        },
        OptionKind::IntChoice(choices) => match value.as_i64() {
            Some(v) if choices.contains(&v) => {}
            _ => return bad(format!("expected one of {choices:?}, got {value}")),
        },
        OptionKind::Choice(choices) => match value.as_str() {
            Some(v) if choices.contains(&v) => {}
            _ => return bad(format!("expected one of {choices:?}, got {value}")),
        },
    }
    Ok(())
}

/// Everything that fixes a game's start: the player count, the seed of its shuffles, resolved options.
#[derive(Clone, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Setup {
    /// How many seats play.
    pub players: usize,
    /// The seed of every shuffle of the game.
    pub seed: u64,
    /// Every option of [`GameInfo::options`], resolved (defaults filled in).
    pub options: Map<String, Value>,
}

impl Setup {
    /// A boolean option (already validated by [`GameInfo::resolve_options`]).
    pub fn bool_option(&self, name: &str) -> bool {
        self.options.get(name).and_then(Value::as_bool).unwrap_or(false)
    }

    /// An integer option.
    pub fn int_option(&self, name: &str) -> i64 {
        self.options.get(name).and_then(Value::as_i64).unwrap_or(0)
    }

    /// A choice option.
    pub fn str_option(&self, name: &str) -> &str {
        self.options.get(name).and_then(Value::as_str).unwrap_or("")
    }
}

/// The shape of a finished game's result.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "lowercase"))]
#[non_exhaustive]
pub enum OutcomeKind {
    /// A finishing order (Matchstick Tycoon): `order[0]` won.
    Ranking,
    /// A match decided by round wins (A Fistful of Gold): `scores` are stars.
    Match,
    /// Points paid between players (Cherki): `scores` are settlements, summing to zero.
    Settlement,
    /// Final scores with tie-breaks; several winners share a win (TEN).
    Scores,
    /// Nobody won (a drawn Fistful match, a drawn Cherki deal).
    Draw,
}

impl OutcomeKind {
    /// The lower-case name used in JSON.
    pub fn name(self) -> &'static str {
        match self {
            OutcomeKind::Ranking => "ranking",
            OutcomeKind::Match => "match",
            OutcomeKind::Settlement => "settlement",
            OutcomeKind::Scores => "scores",
            OutcomeKind::Draw => "draw",
        }
    }
}

/// The result of a finished game.
#[derive(Clone, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Outcome {
    /// The shape of the result.
    pub kind: OutcomeKind,
    /// Seats that won (several = a shared win; empty = nobody, e.g. a draw or a missed solo target).
    pub winners: Vec<Seat>,
    /// One number per seat: finishing position (Ranking, 1 = first), stars, settlement or score.
    pub scores: Vec<i64>,
    /// Seats from best to worst; ties keep seat order.
    pub order: Vec<Seat>,
    /// Game-specific extras (tie-break values, the winning hand, ...), an object.
    pub detail: Value,
}

impl Outcome {
    /// The outcome as canonical-ready JSON.
    pub fn to_json(&self) -> Value {
        json!({"kind": self.kind.name(), "winners": self.winners, "scores": self.scores,
               "order": self.order, "detail": self.detail})
    }

    /// A reward in `0..=1` per seat for search. Rankings are rank-based; a draw is 0.5 each. Otherwise a
    /// win (`1/k` each when shared by `k`) weighs 0.7 and the seat's place between the lowest and highest
    /// score weighs 0.3, so that a near miss counts for more than a rout (TEN's scores, Cherki's
    /// settlements); with one player the score itself stands in for that place. The ISMCTS player backs up
    /// the win alone instead where the game has scores (`ai::ismcts`), since the score share led it to
    /// trade wins for a better losing score.
    pub fn rewards(&self, players: usize) -> Vec<f64> {
        let mut r = vec![0.0; players];
        match self.kind {
            OutcomeKind::Ranking => {
                let denom = (players.max(2) - 1) as f64;
                for (pos, &seat) in self.order.iter().enumerate() {
                    r[seat] = (players - 1 - pos) as f64 / denom;
                }
            }
            OutcomeKind::Draw => r.iter_mut().for_each(|x| *x = 0.5),
            _ => {
                let k = self.winners.len().max(1) as f64;
                for &w in &self.winners {
                    r[w] = WIN_WEIGHT / k;
                }
                let low = self.scores.iter().copied().min().unwrap_or(0);
                let high = self.scores.iter().copied().max().unwrap_or(0);
                for (seat, reward) in r.iter_mut().enumerate() {
                    let score = self.scores.get(seat).copied().unwrap_or(0);
                    let place = if players == 1 {
                        let s = score.max(0) as f64;
                        s / (s + SOLO_SCORE_SCALE)
                    } else if high > low {
                        (score - low) as f64 / (high - low) as f64
                    } else {
                        0.5
                    };
                    *reward += (1.0 - WIN_WEIGHT) * place;
                }
            }
        }
        r
    }
}

/// Share of a search reward that comes from winning (the rest comes from the score).
const WIN_WEIGHT: f64 = 0.7;
/// A solo score worth half of the score part of the reward.
const SOLO_SCORE_SCALE: f64 = 20.0;

/// A rules engine. Implementations keep their hot path (`legal_count`, `apply_index`, `clone`) free of
/// allocation where the game allows; views, events and JSON are off the hot path.
pub trait Game: Clone + Send + Sync + 'static {
    /// A move in the engine's own typed form.
    type Move: Clone + PartialEq + Debug + Send + Sync;

    /// Static description: players, options, house rules.
    fn info() -> GameInfo;

    /// A new game. `setup.options` were already resolved against [`Game::info`]; the game still refuses
    /// combinations that depend on the player count (`BadOptions`).
    fn new(setup: &Setup) -> Result<Self, GameError>;

    /// A new game from a player count (`None`: the game's usual one), a seed and options as a host gives
    /// them (a JSON object, or null for the defaults): [`GameInfo::setup`], then [`Game::new`]. By name,
    /// with the game's type unknown until run time, [`crate::new_game`] does the same.
    ///
    /// ```
    /// use cardnet_core::games::matchstick::Matchstick;
    /// use cardnet_core::Game;
    ///
    /// # fn main() -> Result<(), cardnet_core::GameError> {
    /// let game = Matchstick::start(Some(5), 11, &serde_json::json!({"expansion": 4}))?;
    /// assert_eq!((game.setup().players, game.setup().seed), (5, 11));
    /// assert_eq!(game.setup().int_option("expansion"), 4);
    /// assert_eq!(Matchstick::start(Some(1), 11, &serde_json::Value::Null).unwrap_err().code(), "bad_options");
    /// # Ok(())
    /// # }
    /// ```
    fn start(players: Option<usize>, seed: u64, options: &Value) -> Result<Self, GameError> {
        Self::new(&Self::info().setup(players, seed, options)?)
    }

    /// The setup this game started from.
    fn setup(&self) -> &Setup;

    /// Seats that must act now. Usually one; both seats during a Fistful duel or discard; empty once over.
    fn to_act(&self) -> SeatSet;

    /// The result, once the game is over.
    fn outcome(&self) -> Option<Outcome>;

    /// Whether the game is over.
    fn is_over(&self) -> bool {
        self.outcome().is_some()
    }

    /// How many legal moves `seat` has (0 when it is not to act). Matchstick can have thousands: count,
    /// don't build.
    fn legal_count(&self, seat: Seat) -> usize;

    /// The `index`-th legal move of `seat` in the game's fixed order (unrank), `None` past the end.
    fn legal_move(&self, seat: Seat, index: usize) -> Option<Self::Move>;

    /// The index of `mv` among `seat`'s legal moves (rank), `None` when illegal. Equivalent moves rank the
    /// same (Matchstick: any ids of the same printed types give the listed move's index).
    fn index_of(&self, seat: Seat, mv: &Self::Move) -> Option<usize>;

    /// Why `mv` is not legal for `seat`. Called only after `index_of` returned `None`.
    fn explain(&self, seat: Seat, mv: &Self::Move) -> GameError;

    /// Applies a move already known legal (by `index_of` or `legal_move`) and records its events.
    fn apply_legal(&mut self, seat: Seat, mv: &Self::Move);

    /// Applies the `index`-th legal move; the fast path for bulk play. Games may override it to skip
    /// building the typed move.
    fn apply_index(&mut self, seat: Seat, index: usize) -> Result<(), GameError> {
        match self.legal_move(seat, index) {
            Some(mv) => {
                self.apply_legal(seat, &mv);
                Ok(())
            }
            None => Err(GameError::illegal(
                "no_such_move",
                format!("seat {seat} has {} legal moves; index {index} is out of range", self.legal_count(seat)),
            )),
        }
    }

    /// Appends the move's canonical JSON (`{"type": ..., ...}`) to `out`. The one writer of a move: the
    /// network host writes every acting seat's legal list after every move with it.
    fn write_move(&self, mv: &Self::Move, out: &mut String);

    /// The move as JSON: the value of [`Game::write_move`]'s bytes.
    fn move_to_json(&self, mv: &Self::Move) -> Value {
        written(|out| self.write_move(mv, out))
    }

    /// Parses a move sent by `seat`. Wrong types, unknown keys and unknown names are `InvalidMove`;
    /// legality is not checked here.
    fn move_from_json(&self, seat: Seat, value: &Value) -> Result<Self::Move, GameError>;

    /// What `seat` may see (`None` = a spectator): `{"public": ..., "private": ...}`; the spectator's
    /// view has `private: null`. `public` is identical for every observer.
    fn view(&self, seat: Option<Seat>) -> Value {
        json!({"public": self.public_view(), "private": self.private_view(seat)})
    }

    /// Appends the canonical JSON of the public part of the view to `out`: the bytes `state_hash` digests
    /// and every observer's view embeds. Never holds hidden data (Fistful's pending picks are only
    /// "picked: true").
    fn write_public_view(&self, out: &mut String);

    /// Appends the canonical JSON of the `private` part of `seat`'s view to `out` (`null` for a spectator).
    /// Kept apart from [`Game::write_public_view`] so that the per-move fan-out writes the public part once
    /// for every observer.
    fn write_private_view(&self, seat: Option<Seat>, out: &mut String);

    /// The public part of the view as JSON: the value of [`Game::write_public_view`]'s bytes.
    fn public_view(&self) -> Value {
        written(|out| self.write_public_view(out))
    }

    /// The `private` part of `seat`'s view as JSON: the value of [`Game::write_private_view`]'s bytes.
    fn private_view(&self, seat: Option<Seat>) -> Value {
        written(|out| self.write_private_view(seat, out))
    }

    /// Appends the canonical JSON array of the events caused by the last applied move, as `seat` may learn
    /// them (`None` = spectator), to `out`.
    fn write_events(&self, seat: Option<Seat>, out: &mut String);

    /// The events of [`Game::write_events`] as JSON values.
    fn events(&self, seat: Option<Seat>) -> Vec<Value> {
        match written(|out| self.write_events(seat, out)) {
            Value::Array(events) => events,
            other => panic!("write_events wrote {other} rather than an array"),
        }
    }

    /// Whether [`Game::events`] is the same for every observer (no event hides anything), so that the host's
    /// fan-out encodes the events once rather than once per observer.
    fn events_are_public(&self) -> bool {
        false
    }

    /// A full state consistent with everything `observer` may know (`None`: only public knowledge),
    /// with every unknown shuffled from `rng`: other hands, face-down discards, pending picks, the stock
    /// and draw pile order, and the state's own RNG. `view(observer)` and `events(observer)` are unchanged.
    fn determinize(&self, observer: Option<Seat>, rng: &mut Rng) -> Self;

    /// A full state built from what `seat` sees (`view` is exactly `view(seat)`, `None` = a spectator's),
    /// with every hidden fact dealt from `rng` consistently with that view — the same knowledge
    /// `determinize` keeps. A network bot has only its view; this lets the built-in players search from it.
    /// The result's `view(seat)`, `to_act()` and `seat`'s legal moves equal the original's; its events are
    /// empty. A view that is not one of this game's is `CorruptState`.
    fn from_view(setup: &Setup, seat: Option<Seat>, view: &Value, rng: &mut Rng) -> Result<Self, GameError>;

    /// The whole state including hidden cards and the RNG, for saves (compared after a replay).
    fn state_json(&self) -> Value;

    /// The built-in heuristic player's choice for `seat`, as a legal-move index (a quick, game-specific
    /// rule of thumb; the ISMCTS player searches instead).
    fn heuristic_index(&self, seat: Seat, rng: &mut Rng) -> usize;

    /// How the search levels (`normal`, `hard`) play this game: see [`Search`].
    const SEARCH: Search = Search::Tree;

    /// What the difficulty levels `easy`, `normal` and `hard` play in this game: [`Levels::STANDARD`]
    /// (the heuristic, then the search with a growing budget) unless the game needs its own ladder to keep
    /// the levels apart.
    const LEVELS: Levels = Levels::STANDARD;

    /// The move the search levels start from and keep unless their playouts find another clearly better
    /// (a legal-move index for `seat`): the heuristic's by default; a game may give the search a rule
    /// of thumb that is too slow for every playout step.
    fn search_default_index(&self, seat: Seat, rng: &mut Rng) -> usize {
        self.heuristic_index(seat, rng)
    }

    /// The legal-move indices a [`Search::Flat`] search compares for `seat` (the default move is always
    /// compared too): every legal move by default. A game leaves out moves equivalent to a listed one and
    /// moves it knows to be unsound, so the playouts are shared among fewer moves.
    fn search_candidates(&self, seat: Seat) -> Vec<usize> {
        (0..self.legal_count(seat)).collect()
    }

    /// For a [`Search::Matrix`] game at a decision `seat` makes at the same time as one opponent: a full
    /// state consistent with what `seat` knows (as [`Game::determinize`] deals it) in which both seats are
    /// still to act — the opponent's pick, if it is already in, taken back — and the opponent's seat.
    /// `None` (the default) where the matrix search does not apply; the tree search decides there.
    fn simultaneous_sample(&self, _seat: Seat, _rng: &mut Rng) -> Option<(Self, Seat)>
    where
        Self: Sized,
    {
        None
    }
}

/// What one difficulty level plays in a game (see [`Levels`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LevelPlay {
    /// The game's rule of thumb ([`Game::heuristic_index`]).
    Heuristic,
    /// The rule of thumb, except that `random_percent` % of the moves are drawn uniformly among the legal
    /// ones: a beginner who knows what to aim for but now and then misses what is on the table.
    Careless {
        /// Share of the moves played at random, 1–100.
        random_percent: u8,
    },
    /// The game's search ([`Game::SEARCH`]) with this many iterations per decision.
    Search {
        /// Iterations per decision.
        iterations: u32,
    },
}

/// A game's difficulty ladder ([`Game::LEVELS`]): the names `easy`, `normal` and `hard` are the same in
/// every game, what they play may differ, so that in every game each level is clearly stronger than the
/// one below (the README's AI section has the Elo of each).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Levels {
    /// What `easy` plays.
    pub easy: LevelPlay,
    /// What `normal` plays.
    pub normal: LevelPlay,
    /// What `hard` plays (`hard@MS` plays the game's search with a think time instead).
    pub hard: LevelPlay,
}

impl Levels {
    /// Iterations of the standard `hard` level's search.
    pub const STANDARD_HARD: u32 = 1500;
    /// Iterations of the standard `normal` level's search.
    pub const STANDARD_NORMAL: u32 = 300;

    /// The ladder most games use: the heuristic, the search at 300 iterations, the search at 1 500.
    pub const STANDARD: Levels = Levels {
        easy: LevelPlay::Heuristic,
        normal: LevelPlay::Search { iterations: Self::STANDARD_NORMAL },
        hard: LevelPlay::Search { iterations: Self::STANDARD_HARD },
    };
}

/// The search behind the `normal` and `hard` levels ([`Game::SEARCH`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Search {
    /// Information-set MCTS over a tree of both sides' moves (`ai::ismcts`).
    Tree,
    /// Flat Monte Carlo over the searching seat's candidate moves, each played on the same sampled states
    /// with the same playout seeds (`ai::flat`); for games where one decision moves the odds so little that
    /// a tree spreads its playouts too thin to tell the moves apart. A playout counts as `playout_cost`
    /// iterations of a level's budget, so a game whose playouts are long keeps within the levels' think
    /// time.
    Flat {
        /// Iterations of the budget one playout uses up (at least 1).
        playout_cost: u32,
    },
    /// Simultaneous-move MCTS with regret matching at every node (`ai::matrix`, `ai::simtree`): at
    /// decisions two seats make at once ([`Game::simultaneous_sample`]) the searching seat's average
    /// strategy at the root is drawn from as a mixed strategy, at the others the move it favours most is
    /// played. One iteration of a level's budget buys `playouts` tree iterations (each ends in one
    /// playout). A count under `tree_below` iterations plays information-set MCTS (`ai::ismcts`)
    /// throughout, whose habit of answering predictable players keeps `normal` a level of its own.
    Matrix {
        /// Tree iterations (each ending in one playout) per iteration of the budget (at least 1).
        playouts: u32,
        /// Iteration counts below this search with the tree (`None`: never).
        tree_below: Option<u32>,
    },
}

/// Reads a JSON object's fields strictly: unknown keys are errors (shared by every game's `move_from_json`).
pub struct Fields<'a> {
    map: &'a Map<String, Value>,
}

impl<'a> Fields<'a> {
    /// Checks that `value` is an object whose keys are all in `allowed` (which must include "type").
    pub fn new(value: &'a Value, allowed: &[&str]) -> Result<Self, GameError> {
        let map = value.as_object().ok_or_else(|| GameError::invalid("a move must be a JSON object"))?;
        for key in map.keys() {
            if !allowed.contains(&key.as_str()) {
                return Err(GameError::invalid(format!("unknown key {key:?} (allowed: {})", allowed.join(", "))));
            }
        }
        Ok(Fields { map })
    }

    /// The move's `type`.
    pub fn kind(&self) -> Result<&'a str, GameError> {
        self.str("type")
    }

    /// A required string field.
    pub fn str(&self, key: &str) -> Result<&'a str, GameError> {
        self.map
            .get(key)
            .and_then(Value::as_str)
            .ok_or_else(|| GameError::invalid(format!("field {key:?} must be a string")))
    }

    /// A required non-negative integer field.
    pub fn uint(&self, key: &str) -> Result<u64, GameError> {
        self.map
            .get(key)
            .and_then(Value::as_u64)
            .ok_or_else(|| GameError::invalid(format!("field {key:?} must be a non-negative integer")))
    }

    /// An optional boolean field (absent = false).
    pub fn opt_bool(&self, key: &str) -> Result<bool, GameError> {
        match self.map.get(key) {
            None => Ok(false),
            Some(Value::Bool(b)) => Ok(*b),
            Some(_) => Err(GameError::invalid(format!("field {key:?} must be true or false"))),
        }
    }

    /// A required list of non-negative integers (card ids).
    pub fn uint_list(&self, key: &str) -> Result<Vec<u64>, GameError> {
        let items = self
            .map
            .get(key)
            .and_then(Value::as_array)
            .ok_or_else(|| GameError::invalid(format!("field {key:?} must be a list of integers")))?;
        items
            .iter()
            .map(|v| v.as_u64().ok_or_else(|| GameError::invalid(format!("field {key:?} must hold integers"))))
            .collect()
    }

    /// The raw value of an optional field.
    pub fn get(&self, key: &str) -> Option<&'a Value> {
        self.map.get(key)
    }
}
