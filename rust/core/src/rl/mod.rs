//! The core as a reinforcement-learning environment: global action ids, observation tensors, masks,
//! information states and a vectorized environment. Pure Rust; `cardnet.rl` builds the OpenSpiel and
//! PettingZoo adapters on top of it.
//!
//! # Action ids
//! Every (game, players, options) has a fixed action space `0..action_space_size`. An id names a move up
//! to the equivalences the rules already make (Matchstick: value shown × multiset of printed types; Cherki:
//! a discard names a face, not one of its four copies; TEN: a buy or a card payment names a card kind), so
//! ids are stable across states and deals. [`RlGame::action_id`] maps a move to its id without looking at
//! the state; [`action_id_to_move`] picks the first legal move with that id (the engine's own
//! representative, e.g. the lowest card ids of each type). The layouts are versioned by
//! [`LAYOUT_VERSION`] and documented per game in `docs/RL.md`.
//!
//! # Tensors
//! [`RlGame::encode`] writes the observation tensor of a seat from that seat's own view only, so it holds
//! exactly what the view holds (see [`encode`]). The information-state tensor appends the seat's own past
//! actions as counts per action id, which the view does not keep.

pub mod cherki;
pub mod encode;
pub mod fistful;
pub mod matchstick;
mod multiset;
pub mod ten;
mod vector;

pub use encode::{Block, Encoder};
pub use vector::{LegalIds, Outputs, VecEnv};

use crate::ai::Player;
use crate::error::GameError;
use crate::game::{Game, Seat, Setup};
use crate::json::canonical;
use crate::rng::Rng;
use crate::session::hex_sha256;
use serde_json::{json, Value};
use std::sync::Arc;

/// Version of the action-id and tensor layouts; bumped whenever any game's layout changes.
/// Version 2: TEN's card blocks count card kinds instead of one slot per card id (action ids unchanged).
pub const LAYOUT_VERSION: u32 = 2;

/// The oldest [`LAYOUT_VERSION`] whose saves [`load_rl`] replays: a save holds action ids, and no action
/// id has changed since this version.
pub const OLDEST_SAVE_LAYOUT: u32 = 1;

/// What a game adds to [`Game`] to be an RL environment.
pub trait RlGame: Game {
    /// How many action ids this setup has.
    fn action_space_size(setup: &Setup) -> usize;

    /// The id of a move, from the move alone (equivalent moves share it); `None` for a move that cannot
    /// occur in this setup.
    fn action_id(setup: &Setup, mv: &Self::Move) -> Option<usize>;

    /// Writes `seat`'s observation tensor from `view` = `view(Some(seat))` alone: the reference encoder,
    /// which cannot leak what the view does not show. The sizes of every block depend on the setup alone.
    fn encode_view(setup: &Setup, seat: Seat, view: &Value, enc: &mut Encoder<'_>);

    /// Writes `seat`'s observation tensor. A game may read its state directly for speed; the result must
    /// equal [`RlGame::encode_view`] of the seat's view (the property tests check it at every step).
    fn encode(&self, seat: Seat, enc: &mut Encoder<'_>) {
        Self::encode_view(self.setup(), seat, &self.view(Some(seat)), enc);
    }

    /// An upper bound on the number of moves of one game with this setup, derived from the rules
    /// (the derivation is in the implementation and in `docs/RL.md`).
    fn max_game_length(setup: &Setup) -> usize;

    /// What each card id of this setup is: one JSON object per id, in id order.
    fn card_table(setup: &Setup) -> Vec<Value>;

    /// The legal move of `seat` with action `id` (the engine's representative: the first legal move with
    /// that id), `None` when it is not legal now. The default scans the legal moves; a game with large
    /// legal sets builds the move from the id and ranks it instead.
    fn action_move(&self, seat: Seat, id: usize) -> Option<Self::Move> {
        let setup = self.setup();
        (0..self.legal_count(seat))
            .filter_map(|i| self.legal_move(seat, i))
            .find(|mv| Self::action_id(setup, mv) == Some(id))
    }

    /// Appends the action ids legal for `seat` to `out` in any order, repeats allowed (the caller sorts
    /// and dedups). The default maps every legal move; a game with large legal sets enumerates the ids.
    fn push_legal_ids(&self, seat: Seat, out: &mut Vec<i32>) {
        let setup = self.setup();
        for i in 0..self.legal_count(seat) {
            if let Some(id) = self.legal_move(seat, i).and_then(|mv| Self::action_id(setup, &mv)) {
                out.push(id as i32);
            }
        }
    }

    /// Bounds of the per-seat return ([`crate::game::Outcome::rewards`], the same for every game).
    fn reward_bounds(_setup: &Setup) -> (f64, f64) {
        (0.0, 1.0)
    }
}

/// Room for the legal ids of most decisions: collecting them into a vector of this capacity does not
/// reallocate, where growing from empty reallocated five times and cost a third of a Fistful observation.
pub const LEGAL_IDS_ROOM: usize = 64;

/// An empty vector with room for [`LEGAL_IDS_ROOM`] legal ids, for [`append_legal_ids`].
pub fn legal_ids_buffer() -> Vec<i32> {
    Vec::with_capacity(LEGAL_IDS_ROOM)
}

/// The action ids legal for `seat`, ascending and without repeats.
pub fn legal_action_ids<G: RlGame>(game: &G, seat: Seat) -> Vec<usize> {
    let mut ids = legal_ids_buffer();
    append_legal_ids(game, seat, &mut ids);
    ids.into_iter().map(|id| id as usize).collect()
}

/// Appends the action ids legal for `seat` to `out`, ascending and without repeats (the sparse form of
/// the mask: as many entries as legal ids, whatever the size of the action space).
pub fn append_legal_ids<G: RlGame>(game: &G, seat: Seat, out: &mut Vec<i32>) {
    let start = out.len();
    game.push_legal_ids(seat, out);
    let added = &mut out[start..];
    if added.windows(2).any(|w| w[0] >= w[1]) {
        added.sort_unstable();
        let mut kept = start;
        for i in start..out.len() {
            if kept == start || out[i] != out[kept - 1] {
                out[kept] = out[i];
                kept += 1;
            }
        }
        out.truncate(kept);
    }
}

/// Writes `seat`'s legal-action mask (1 = legal) into `out`, which is `action_space_size` long.
pub fn write_legal_mask<G: RlGame>(game: &G, seat: Seat, out: &mut [u8]) {
    out.fill(0);
    let setup = game.setup();
    for i in 0..game.legal_count(seat) {
        if let Some(id) = game.legal_move(seat, i).and_then(|mv| G::action_id(setup, &mv)) {
            if let Some(slot) = out.get_mut(id) {
                *slot = 1;
            }
        }
    }
}

/// The first legal move of `seat` whose id is `id` (the engine's representative), or `None`.
pub fn action_id_to_move<G: RlGame>(game: &G, seat: Seat, id: usize) -> Option<G::Move> {
    game.action_move(seat, id)
}

/// Applies the move of action `id` for `seat`; an id that is not legal changes nothing.
pub fn apply_action_id<G: RlGame>(game: &mut G, seat: Seat, id: usize) -> Result<(), GameError> {
    check_turn(game, seat)?;
    let mv = action_id_to_move(game, seat, id).ok_or_else(|| no_such_action(game, seat, id))?;
    game.apply_legal(seat, &mv);
    Ok(())
}

fn check_turn<G: Game>(game: &G, seat: Seat) -> Result<(), GameError> {
    let players = game.setup().players;
    if seat >= players {
        return Err(GameError::illegal(
            "no_such_seat",
            format!("seat {seat} does not exist in a {players}-player game"),
        ));
    }
    if game.is_over() {
        return Err(GameError::illegal("game_over", "the game is over"));
    }
    if !game.to_act().contains(seat) {
        return Err(GameError::illegal("not_your_turn", format!("seat {seat} is not to act")));
    }
    Ok(())
}

fn no_such_action<G: RlGame>(game: &G, seat: Seat, id: usize) -> GameError {
    let size = G::action_space_size(game.setup());
    if id >= size {
        GameError::illegal("no_such_action", format!("action id {id} is outside 0..{size}"))
    } else {
        GameError::illegal("illegal_action", format!("action id {id} is not legal for seat {seat} now"))
    }
}

/// Length of the observation tensor of this setup.
pub fn observation_len<G: RlGame>(game: &G) -> usize {
    observation_layout(game).iter().map(|b| b.len).sum()
}

/// The named blocks of the observation tensor (measured on `game`; they depend on its setup only).
pub fn observation_layout<G: RlGame>(game: &G) -> Vec<Block> {
    let mut enc = Encoder::measuring();
    game.encode(0, &mut enc);
    enc.into_blocks()
}

/// A game with what RL tools need beside the rules: per-seat event logs (the information-state string),
/// each seat's own action ids (the information-state tensor), and the action history for replays.
#[derive(Clone)]
pub struct RlState<G: RlGame> {
    game: G,
    /// Per seat, the canonical JSON of each batch of events that seat received, when logging is on.
    logs: Option<Vec<Vec<String>>>,
    history: Vec<(Seat, usize)>,
    obs_len: usize,
    actions: usize,
    /// Where a determinized copy came from (`None` for a game played from its deal): what its save
    /// replays, since the re-dealt cards follow from no seed.
    origin: Option<Arc<Origin<G>>>,
}

/// The recipe of a determinized copy: the state it was drawn from, for whom and with which seed, and how
/// many entries of its history it started with (the observer's own actions).
struct Origin<G: RlGame> {
    source: RlState<G>,
    observer: Option<Seat>,
    seed: u64,
    since: usize,
}

impl<G: RlGame> RlState<G> {
    /// Starts a game (`players: None` = the default; options JSON or null). `log_events` keeps the
    /// per-seat event logs the information-state string needs (the vectorized env turns it off).
    pub fn start(players: Option<usize>, seed: u64, options: &Value, log_events: bool) -> Result<Self, GameError> {
        let info = G::info();
        let players = info.resolve_players(players)?;
        let options = info.resolve_options(options)?;
        let game = G::new(&Setup { players, seed, options })?;
        Ok(Self::around(game, log_events))
    }

    /// Wraps a game in its starting position.
    pub fn around(game: G, log_events: bool) -> Self {
        let players = game.setup().players;
        let obs_len = observation_len(&game);
        let actions = G::action_space_size(game.setup());
        RlState {
            game,
            logs: log_events.then(|| vec![Vec::new(); players]),
            history: Vec::new(),
            obs_len,
            actions,
            origin: None,
        }
    }

    /// Wraps a game in its starting position with `like`'s sizes and logging (no layout to measure).
    fn around_like(game: G, like: &Self) -> Self {
        let players = game.setup().players;
        RlState {
            game,
            logs: like.logs.as_ref().map(|_| vec![Vec::new(); players]),
            history: Vec::new(),
            obs_len: like.obs_len,
            actions: like.actions,
            origin: None,
        }
    }

    /// Replaces the game by a new one of the same setup, in place (the history keeps its allocation).
    fn restart(&mut self, game: G) {
        self.game = game;
        self.history.clear();
        if let Some(logs) = self.logs.as_mut() {
            logs.iter_mut().for_each(Vec::clear);
        }
        self.origin = None;
    }

    /// The engine state.
    pub fn game(&self) -> &G {
        &self.game
    }

    fn own_counts(&self, seat: Seat) -> impl Iterator<Item = usize> + '_ {
        self.history.iter().filter(move |(s, _)| *s == seat).map(|&(_, id)| id)
    }

    fn record(&mut self, seat: Seat, id: usize) {
        self.history.push((seat, id));
        if let Some(logs) = self.logs.as_mut() {
            for (s, log) in logs.iter_mut().enumerate() {
                let mut batch = String::new();
                self.game.write_events(Some(s), &mut batch);
                log.push(batch);
            }
        }
    }
}

/// Any game's RL state behind one object-safe interface (what the Python binding and [`VecEnv`] hold).
pub trait AnyRl: Send + Sync {
    /// The game's machine name.
    fn name(&self) -> &'static str;
    /// Player count, seed and options.
    fn setup(&self) -> &Setup;
    /// Size of the action space.
    fn action_space_size(&self) -> usize;
    /// Length of the observation tensor.
    fn observation_len(&self) -> usize;
    /// Length of the information-state tensor (observation, then one count per action id).
    fn infostate_len(&self) -> usize;
    /// The observation tensor's named blocks.
    fn observation_layout(&self) -> Vec<Block>;
    /// Upper bound on moves per game.
    fn max_game_length(&self) -> usize;
    /// Bounds of each seat's return.
    fn reward_bounds(&self) -> (f64, f64);
    /// What each card id is.
    fn card_table(&self) -> Vec<Value>;
    /// Seats to act, ascending.
    fn to_act(&self) -> Vec<Seat>;
    /// The lowest seat to act (`None` once over), without building a list.
    fn first_to_act(&self) -> Option<Seat>;
    /// Whether the game is over.
    fn is_over(&self) -> bool;
    /// Per-seat returns in `reward_bounds` once over, zeros before.
    fn returns(&self) -> Vec<f64>;
    /// Moves made so far.
    fn move_count(&self) -> usize;
    /// `(seat, action id)` of every move so far.
    fn action_history(&self) -> Vec<(Seat, usize)>;
    /// Legal action ids of `seat`, ascending.
    fn legal_action_ids(&self, seat: Seat) -> Vec<usize>;
    /// Writes the legal mask of `seat` (`action_space_size` bytes).
    fn write_legal_mask(&self, seat: Seat, out: &mut [u8]);
    /// Appends the legal action ids of `seat`, ascending, to `out`.
    fn append_legal_ids(&self, seat: Seat, out: &mut Vec<i32>);
    /// Writes each seat's return (`players` values; zeros before the end).
    fn write_returns(&self, out: &mut [f32]);
    /// Applies action `id` for `seat` (errors change nothing).
    fn apply_action_id(&mut self, seat: Seat, id: usize) -> Result<(), GameError>;
    /// The id of a JSON move of `seat` (parsed strictly; legality not required).
    fn move_to_action_id(&self, seat: Seat, mv: &Value) -> Result<usize, GameError>;
    /// Whether action `id` is legal for `seat` now.
    fn is_legal_action(&self, seat: Seat, id: usize) -> bool;
    /// The legal move of `seat` with action `id` as JSON, `None` when not legal now.
    fn action_id_to_move(&self, seat: Seat, id: usize) -> Option<Value>;
    /// Writes `seat`'s observation tensor (`observation_len` floats).
    fn write_observation(&self, seat: Seat, out: &mut [f32]);
    /// Writes `seat`'s information-state tensor (`infostate_len` floats).
    fn write_infostate(&self, seat: Seat, out: &mut [f32]);
    /// `seat`'s information state as text: its view, then every event batch it received (needs logging).
    fn information_state_string(&self, seat: Seat) -> Result<String, GameError>;
    /// The view of `seat` (`None` = spectator).
    fn view(&self, seat: Option<Seat>) -> Value;
    /// The full state (hidden cards included), for equality checks and saving.
    fn state_json(&self) -> Value;
    /// The save document of the underlying game plus the action history.
    fn to_json(&self) -> Result<Value, GameError>;
    /// An independent copy.
    fn clone_box(&self) -> Box<dyn AnyRl>;
    /// A new game of the same setup dealt from `seed` (with event logs as this one has them).
    fn redeal(&self, seed: u64) -> Result<Box<dyn AnyRl>, GameError>;
    /// A copy re-dealing what `observer` cannot know; only `observer`'s log and actions are kept.
    fn determinize(&self, observer: Option<Seat>, seed: u64) -> Box<dyn AnyRl>;
    /// Whether the per-seat event logs are kept (the information-state string needs them).
    fn logs_events(&self) -> bool;
    /// The action id a built-in `player` picks for `seat` (deterministic for a `seed`). The player sees the
    /// state only as `seat` may (it searches determinized copies), so this is the same choice as on a
    /// [`Game`] in the same position. `not_your_turn` when `seat` has nothing to decide.
    fn choose_action(&self, seat: Seat, player: Player, seed: u64) -> Result<usize, GameError>;
}

impl<G: RlGame> AnyRl for RlState<G> {
    fn name(&self) -> &'static str {
        G::info().name
    }
    fn setup(&self) -> &Setup {
        self.game.setup()
    }
    fn action_space_size(&self) -> usize {
        self.actions
    }
    fn observation_len(&self) -> usize {
        self.obs_len
    }
    fn infostate_len(&self) -> usize {
        self.obs_len + self.actions
    }
    fn observation_layout(&self) -> Vec<Block> {
        observation_layout(&self.game)
    }
    fn max_game_length(&self) -> usize {
        G::max_game_length(self.game.setup())
    }
    fn reward_bounds(&self) -> (f64, f64) {
        G::reward_bounds(self.game.setup())
    }
    fn card_table(&self) -> Vec<Value> {
        G::card_table(self.game.setup())
    }
    fn to_act(&self) -> Vec<Seat> {
        self.game.to_act().iter().collect()
    }
    fn first_to_act(&self) -> Option<Seat> {
        self.game.to_act().first()
    }
    fn is_over(&self) -> bool {
        self.game.is_over()
    }
    fn returns(&self) -> Vec<f64> {
        let players = self.game.setup().players;
        self.game.outcome().map_or_else(|| vec![0.0; players], |o| o.rewards(players))
    }
    fn move_count(&self) -> usize {
        self.history.len()
    }
    fn action_history(&self) -> Vec<(Seat, usize)> {
        self.history.clone()
    }
    fn legal_action_ids(&self, seat: Seat) -> Vec<usize> {
        legal_action_ids(&self.game, seat)
    }
    fn write_legal_mask(&self, seat: Seat, out: &mut [u8]) {
        write_legal_mask(&self.game, seat, out)
    }
    fn append_legal_ids(&self, seat: Seat, out: &mut Vec<i32>) {
        append_legal_ids(&self.game, seat, out)
    }
    fn write_returns(&self, out: &mut [f32]) {
        out.fill(0.0);
        if let Some(outcome) = self.game.outcome() {
            for (slot, r) in out.iter_mut().zip(outcome.rewards(self.game.setup().players)) {
                *slot = r as f32;
            }
        }
    }
    fn apply_action_id(&mut self, seat: Seat, id: usize) -> Result<(), GameError> {
        apply_action_id(&mut self.game, seat, id)?;
        self.record(seat, id);
        Ok(())
    }
    fn move_to_action_id(&self, seat: Seat, mv: &Value) -> Result<usize, GameError> {
        let typed = self.game.move_from_json(seat, mv)?;
        G::action_id(self.game.setup(), &typed)
            .ok_or_else(|| GameError::invalid(format!("{} has no action for the move {}", self.name(), canonical(mv))))
    }
    fn is_legal_action(&self, seat: Seat, id: usize) -> bool {
        action_id_to_move(&self.game, seat, id).is_some()
    }
    fn action_id_to_move(&self, seat: Seat, id: usize) -> Option<Value> {
        action_id_to_move(&self.game, seat, id).map(|mv| self.game.move_to_json(&mv))
    }
    fn write_observation(&self, seat: Seat, out: &mut [f32]) {
        self.game.encode(seat, &mut Encoder::writing(out));
    }
    fn write_infostate(&self, seat: Seat, out: &mut [f32]) {
        let (obs, own) = out.split_at_mut(self.obs_len.min(out.len()));
        self.write_observation(seat, obs);
        own.fill(0.0);
        for id in self.own_counts(seat) {
            if let Some(slot) = own.get_mut(id) {
                *slot += 1.0;
            }
        }
    }
    fn information_state_string(&self, seat: Seat) -> Result<String, GameError> {
        let logs = self.logs.as_ref().ok_or_else(|| {
            GameError::illegal("no_log", "this state was created without event logs (log_events=false)")
        })?;
        let mut text = canonical(&self.game.view(Some(seat)));
        for batch in logs.get(seat).into_iter().flatten() {
            text.push('\n');
            text.push_str(batch);
        }
        Ok(text)
    }
    fn view(&self, seat: Option<Seat>) -> Value {
        self.game.view(seat)
    }
    fn state_json(&self) -> Value {
        self.game.state_json()
    }
    fn to_json(&self) -> Result<Value, GameError> {
        let setup = self.game.setup();
        let state_hash = hex_sha256(canonical(&self.game.state_json()).as_bytes());
        if let Some(origin) = &self.origin {
            // The re-dealt cards follow from the source state and the seed, so the save replays those.
            let actions: Vec<Value> = self.history[origin.since..].iter().map(|(s, id)| json!([s, id])).collect();
            let from = json!({"state": origin.source.to_json()?, "observer": origin.observer, "seed": origin.seed});
            return Ok(json!({"format": LAYOUT_VERSION, "game": self.name(), "players": setup.players,
                             "determinized": from, "actions": actions, "state_hash": state_hash}));
        }
        let actions: Vec<Value> = self.history.iter().map(|(s, id)| json!([s, id])).collect();
        Ok(json!({"format": LAYOUT_VERSION, "game": self.name(), "players": setup.players, "seed": setup.seed,
                  "options": setup.options, "actions": actions, "logs": self.logs.is_some(),
                  "state_hash": state_hash}))
    }
    fn clone_box(&self) -> Box<dyn AnyRl> {
        Box::new(self.clone())
    }
    fn redeal(&self, seed: u64) -> Result<Box<dyn AnyRl>, GameError> {
        let setup = self.game.setup();
        let game = G::new(&Setup { players: setup.players, seed, options: setup.options.clone() })?;
        Ok(Box::new(RlState::around_like(game, self)))
    }
    fn determinize(&self, observer: Option<Seat>, seed: u64) -> Box<dyn AnyRl> {
        let mut rng = Rng::new(seed);
        let keep = |s: Seat| Some(s) == observer;
        let logs = self.logs.as_ref().map(|logs| {
            logs.iter().enumerate().map(|(s, log)| if keep(s) { log.clone() } else { Vec::new() }).collect()
        });
        let history: Vec<(Seat, usize)> = self.history.iter().copied().filter(|&(s, _)| keep(s)).collect();
        let origin = Origin { source: self.clone(), observer, seed, since: history.len() };
        Box::new(RlState {
            game: self.game.determinize(observer, &mut rng),
            logs,
            history,
            obs_len: self.obs_len,
            actions: self.actions,
            origin: Some(Arc::new(origin)),
        })
    }
    fn logs_events(&self) -> bool {
        self.logs.is_some()
    }
    fn choose_action(&self, seat: Seat, player: Player, seed: u64) -> Result<usize, GameError> {
        check_turn(&self.game, seat)?;
        let index = player.choose(&self.game, seat, &mut Rng::new(seed))?;
        let setup = self.game.setup();
        self.game.legal_move(seat, index).and_then(|mv| G::action_id(setup, &mv)).ok_or_else(|| {
            GameError::Internal(format!(
                "{} picked legal move {index} of seat {seat}, which has no action id",
                player.name()
            ))
        })
    }
}

/// The error for a game without an RL environment (or no game at all).
fn no_rl(name: &str) -> GameError {
    match crate::registry::info(name) {
        Ok(info) => GameError::UnknownGame(format!("{} has no RL environment", info.name)),
        Err(e) => e,
    }
}

macro_rules! rl_games {
    ($($ty:ty),* $(,)?) => {
        /// Starts an RL state of the game called `name`.
        pub fn new_rl(name: &str, players: Option<usize>, seed: u64, options: &Value, log_events: bool)
            -> Result<Box<dyn AnyRl>, GameError> {
            $(if name == <$ty as Game>::info().name {
                return Ok(Box::new(RlState::<$ty>::start(players, seed, options, log_events)?));
            })*
            Err(no_rl(name))
        }

        /// `n` games of the game called `name` for a [`VecEnv`], game `k` dealt from `derive(seed, k)`.
        fn new_batch(name: &str, players: Option<usize>, options: &Value, n: usize, seed: u64)
            -> Result<Box<dyn vector::Batch>, GameError> {
            $(if name == <$ty as Game>::info().name {
                return Ok(Box::new(vector::Games::<$ty>::new(players, options, n, seed)?));
            })*
            Err(no_rl(name))
        }
    };
}

crate::games::with_games!(rl_games);

/// Replays an RL save (from [`AnyRl::to_json`]): every action is re-applied and the final state checked.
/// The save of a determinized copy replays the state it was drawn from, determinizes it again with the
/// same seed, then replays the actions made since.
pub fn load_rl(text: &str) -> Result<Box<dyn AnyRl>, GameError> {
    let doc = crate::json::parse(text).map_err(|e| GameError::CorruptState(format!("not JSON: {e}")))?;
    load_doc(&doc)
}

fn load_doc(doc: &Value) -> Result<Box<dyn AnyRl>, GameError> {
    let corrupt = |what: &str| GameError::CorruptState(what.to_string());
    let format = doc.get("format").and_then(Value::as_u64);
    if !format.is_some_and(|f| (u64::from(OLDEST_SAVE_LAYOUT)..=u64::from(LAYOUT_VERSION)).contains(&f)) {
        return Err(corrupt("not an RL save of a layout version with these action ids"));
    }
    let mut state = match doc.get("determinized") {
        Some(from) => redeterminize(from)?,
        None => new_from_doc(doc)?,
    };
    let name = doc.get("game").and_then(Value::as_str);
    if name != Some(state.name()) {
        return Err(corrupt("the game name differs from the state it was drawn from"));
    }
    let actions = doc.get("actions").and_then(Value::as_array).ok_or_else(|| corrupt("no action list"))?;
    for (i, pair) in actions.iter().enumerate() {
        let seat = pair.get(0).and_then(Value::as_u64);
        let id = pair.get(1).and_then(Value::as_u64);
        let (Some(seat), Some(id)) = (seat, id) else {
            return Err(GameError::CorruptState(format!("action {i} is not [seat, id]")));
        };
        state
            .apply_action_id(seat as usize, id as usize)
            .map_err(|e| GameError::CorruptState(format!("action {i} does not replay: {e}")))?;
    }
    let hash = hex_sha256(canonical(&state.state_json()).as_bytes());
    if doc.get("state_hash").and_then(Value::as_str) != Some(hash.as_str()) {
        return Err(corrupt("the replayed state differs from the saved one"));
    }
    Ok(state)
}

/// The starting position of a save's setup.
fn new_from_doc(doc: &Value) -> Result<Box<dyn AnyRl>, GameError> {
    let corrupt = |what: &str| GameError::CorruptState(what.to_string());
    let name = doc.get("game").and_then(Value::as_str).ok_or_else(|| corrupt("no game name"))?;
    let players = doc.get("players").and_then(Value::as_u64).ok_or_else(|| corrupt("no player count"))?;
    let seed = doc.get("seed").and_then(Value::as_u64).ok_or_else(|| corrupt("no seed"))?;
    let logs = doc.get("logs").and_then(Value::as_bool).unwrap_or(true);
    let options = doc.get("options").cloned().unwrap_or(Value::Null);
    new_rl(name, Some(players as usize), seed, &options, logs)
        .map_err(|e| GameError::CorruptState(format!("setup: {}", e.reason())))
}

/// The determinized copy a save's `determinized` part describes: its source replayed, then re-dealt.
fn redeterminize(from: &Value) -> Result<Box<dyn AnyRl>, GameError> {
    let corrupt = |what: &str| GameError::CorruptState(what.to_string());
    let source = load_doc(from.get("state").ok_or_else(|| corrupt("no source state"))?)?;
    let seed = from.get("seed").and_then(Value::as_u64).ok_or_else(|| corrupt("no determinization seed"))?;
    let observer = match from.get("observer") {
        Some(Value::Null) | None => None,
        Some(seat) => match seat.as_u64() {
            Some(s) if (s as usize) < source.setup().players => Some(s as usize),
            _ => return Err(corrupt("the observer is not a seat of the game")),
        },
    };
    Ok(source.determinize(observer, seed))
}
