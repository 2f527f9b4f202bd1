//! A vectorized environment: N games of one setup stepped by one call, writing observations, legal
//! actions (a dense mask, sparse id rows, or both), rewards and done flags into caller-owned buffers (numpy
//! arrays on the Python side, written in place). What is not asked for is not computed: a dense mask of
//! Matchstick's 17 287 ids costs 17 KB per game and step, its sparse rows about six ids.
//!
//! Each game waits for one seat: the lowest seat in `to_act`. In Fistful's simultaneous steps the seats
//! therefore move one after the other, which changes nothing: a pick stays hidden from the other seat's
//! view, hence from its observation, until both picks are in. A finished game is replaced at once by the
//! next game of the stream (game `k` of the stream is dealt from `derive(seed, k)`); its step reports the
//! final returns of every seat and `done = 1`, and the observation is already the new game's.

use super::{append_legal_ids, new_batch, write_legal_mask, AnyRl, Encoder, RlGame, RlState};
use crate::error::GameError;
use crate::game::{Seat, Setup};
use crate::rng::derive;
use serde_json::Value;

/// N games of one (game, players, options), stepped together.
pub struct VecEnv {
    games: Box<dyn Batch>,
    players: usize,
    obs_len: usize,
    actions: usize,
    /// Legal ids the last step wrote: the next step's rows start with room for a few more (the binding
    /// hands every step's rows to numpy, so they start empty; growing them by doubling costs copies).
    last_legal: usize,
}

impl VecEnv {
    /// `n` games of `name` (at least one).
    pub fn new(name: &str, players: Option<usize>, options: &Value, n: usize, seed: u64) -> Result<Self, GameError> {
        if n == 0 {
            return Err(GameError::BadOptions("a vectorized environment needs at least one game".into()));
        }
        let games = new_batch(name, players, options, n, seed)?;
        let first = games.env(0);
        let (players, obs_len, actions) = (first.setup().players, first.observation_len(), first.action_space_size());
        Ok(VecEnv { games, players, obs_len, actions, last_legal: 0 })
    }

    /// How many games run side by side.
    pub fn num_envs(&self) -> usize {
        self.games.len()
    }

    /// Seats per game.
    pub fn players(&self) -> usize {
        self.players
    }

    /// Floats per observation.
    pub fn observation_len(&self) -> usize {
        self.obs_len
    }

    /// Action ids per game.
    pub fn action_space_size(&self) -> usize {
        self.actions
    }

    /// Games finished since the start.
    pub fn episodes_finished(&self) -> u64 {
        self.games.finished()
    }

    /// Game `i` (for inspection).
    pub fn env(&self, i: usize) -> Option<&dyn AnyRl> {
        (i < self.games.len()).then(|| self.games.env(i))
    }

    fn check_len(what: &str, got: usize, want: usize) -> Result<(), GameError> {
        if got == want {
            Ok(())
        } else {
            Err(GameError::BadOptions(format!("{what} holds {got} values, expected {want}")))
        }
    }

    /// Checks the lengths of the buffers `out` holds against this env.
    pub fn check_outputs(&self, out: &Outputs<'_>) -> Result<(), GameError> {
        let n = self.num_envs();
        if let Some(obs) = out.obs.as_deref() {
            Self::check_len("the observation buffer", obs.len(), n * self.obs_len)?;
        }
        if let Some(mask) = out.mask.as_deref() {
            Self::check_len("the mask buffer", mask.len(), n * self.actions)?;
        }
        Self::check_len("the seat buffer", out.seats.len(), n)
    }

    /// Writes every game's current seat and, where `out` asks for them, its observation (`[N, obs_len]`),
    /// dense mask (`[N, actions]`) and sparse legal ids.
    pub fn observe(&self, out: &mut Outputs<'_>) -> Result<(), GameError> {
        self.check_outputs(out)?;
        self.games.observe(out);
        Ok(())
    }

    /// Applies `actions[i]` to game `i` for its current seat, then writes `rewards` (`[N, players]`: each
    /// seat's return when game `i` just ended, else 0), `dones` and what `out` asks for (as
    /// [`VecEnv::observe`]). Every action is checked before any is applied: an illegal one changes nothing.
    pub fn step(
        &mut self,
        actions: &[i64],
        rewards: &mut [f32],
        dones: &mut [u8],
        out: &mut Outputs<'_>,
    ) -> Result<(), GameError> {
        let n = self.num_envs();
        Self::check_len("the action buffer", actions.len(), n)?;
        Self::check_len("the reward buffer", rewards.len(), n * self.players)?;
        Self::check_len("the done buffer", dones.len(), n)?;
        self.check_outputs(out)?;
        if let Some(legal) = out.legal.as_deref_mut() {
            legal.offsets.reserve(n + 1);
            legal.ids.reserve(self.last_legal + self.last_legal / 8);
        }
        self.games.step(actions, rewards, dones, out)?;
        if let Some(legal) = out.legal.as_deref() {
            self.last_legal = legal.ids.len();
        }
        Ok(())
    }
}

/// The games of one env behind one object-safe interface: one dynamic call per step, not several per game.
/// Buffer lengths are checked by [`VecEnv`] before any call.
pub(super) trait Batch: Send + Sync {
    fn len(&self) -> usize;
    fn finished(&self) -> u64;
    fn env(&self, i: usize) -> &dyn AnyRl;
    fn observe(&self, out: &mut Outputs<'_>);
    /// Applies the actions, then observes as [`Batch::observe`]; each game is observed right after its move
    /// (while its state is in cache).
    fn step(
        &mut self,
        actions: &[i64],
        rewards: &mut [f32],
        dones: &mut [u8],
        out: &mut Outputs<'_>,
    ) -> Result<(), GameError>;
}

/// Writes game `i`'s seat and what `out` asks for into row `i` (the legal ids are appended: rows go in order).
#[inline]
fn observe_one<G: RlGame>(i: usize, game: &G, out: &mut Outputs<'_>, obs_len: usize, actions: usize) {
    let seat = game.to_act().first().unwrap_or(0);
    out.seats[i] = seat as i64;
    if let Some(obs) = out.obs.as_deref_mut() {
        game.encode(seat, &mut Encoder::writing(&mut obs[i * obs_len..(i + 1) * obs_len]));
    }
    if let Some(mask) = out.mask.as_deref_mut() {
        write_legal_mask(game, seat, &mut mask[i * actions..(i + 1) * actions]);
    }
    if let Some(legal) = out.legal.as_deref_mut() {
        append_legal_ids(game, seat, &mut legal.ids);
        legal.offsets.push(legal.ids.len() as i64);
    }
}

/// The setup of the next game of the stream of `seed` (the same as `setup` but its seed).
fn next_setup(seed: u64, dealt: &mut u64, setup: &Setup) -> Setup {
    let seed = derive(seed, *dealt);
    *dealt += 1;
    Setup { players: setup.players, seed, options: setup.options.clone() }
}

/// N games of one type side by side in one allocation.
pub(super) struct Games<G: RlGame> {
    states: Vec<RlState<G>>,
    /// The moves of the step being applied (kept to reuse the allocation).
    moves: Vec<G::Move>,
    seed: u64,
    /// Games dealt so far (the next one is dealt from `derive(seed, dealt)`).
    dealt: u64,
    finished: u64,
}

impl<G: RlGame> Games<G> {
    /// `n` games of the stream of `seed`.
    pub(super) fn new(players: Option<usize>, options: &Value, n: usize, seed: u64) -> Result<Self, GameError> {
        let first = RlState::<G>::start(players, derive(seed, 0), options, false)?;
        let mut games =
            Games { states: Vec::with_capacity(n), moves: Vec::with_capacity(n), seed, dealt: 1, finished: 0 };
        games.states.push(first);
        for _ in 1..n {
            let game = G::new(&next_setup(seed, &mut games.dealt, games.states[0].game.setup()))?;
            let state = RlState::around_like(game, &games.states[0]);
            games.states.push(state);
        }
        Ok(games)
    }

    fn seat(game: &G) -> Seat {
        game.to_act().first().unwrap_or(0)
    }
}

impl<G: RlGame> Batch for Games<G> {
    fn len(&self) -> usize {
        self.states.len()
    }

    fn finished(&self) -> u64 {
        self.finished
    }

    fn env(&self, i: usize) -> &dyn AnyRl {
        &self.states[i]
    }

    fn observe(&self, out: &mut Outputs<'_>) {
        if let Some(legal) = out.legal.as_deref_mut() {
            legal.clear();
        }
        for (i, state) in self.states.iter().enumerate() {
            observe_one(i, &state.game, out, state.obs_len, state.actions);
        }
    }

    fn step(
        &mut self,
        actions: &[i64],
        rewards: &mut [f32],
        dones: &mut [u8],
        out: &mut Outputs<'_>,
    ) -> Result<(), GameError> {
        // Every move is resolved (which checks it) before any is applied, and applied without a second check.
        self.moves.clear();
        for (i, (state, &id)) in self.states.iter().zip(actions).enumerate() {
            let seat = Self::seat(&state.game);
            let mv = usize::try_from(id).ok().and_then(|id| state.game.action_move(seat, id));
            let Some(mv) = mv else {
                self.moves.clear();
                return Err(GameError::illegal(
                    "illegal_action",
                    format!("game {i}: action {id} is not legal for seat {seat}; nothing was applied"),
                ));
            };
            self.moves.push(mv);
        }
        rewards.fill(0.0);
        dones.fill(0);
        let players = rewards.len() / self.states.len();
        if let Some(legal) = out.legal.as_deref_mut() {
            legal.clear();
        }
        let mut moves = std::mem::take(&mut self.moves);
        for (i, mv) in moves.drain(..).enumerate() {
            let state = &mut self.states[i];
            let seat = Self::seat(&state.game);
            state.game.apply_legal(seat, &mv);
            state.record(seat, actions[i] as usize);
            if state.game.is_over() {
                state.write_returns(&mut rewards[i * players..(i + 1) * players]);
                dones[i] = 1;
                self.finished += 1;
                let setup = next_setup(self.seed, &mut self.dealt, state.game.setup());
                state.restart(G::new(&setup)?);
            }
            observe_one(i, &state.game, out, state.obs_len, state.actions);
        }
        self.moves = moves;
        Ok(())
    }
}

/// The legal action ids of N games in compressed sparse rows: game `i`'s ids, ascending, are
/// `ids[offsets[i]..offsets[i + 1]]`.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct LegalIds {
    /// N + 1 row offsets into `ids`.
    pub offsets: Vec<i64>,
    /// Every game's legal action ids, row after row.
    pub ids: Vec<i32>,
}

impl LegalIds {
    /// Empties the rows (one offset, 0, stays).
    pub fn clear(&mut self) {
        self.offsets.clear();
        self.offsets.push(0);
        self.ids.clear();
    }
}

/// What [`VecEnv::observe`] and [`VecEnv::step`] write: the seats always, the rest when present.
pub struct Outputs<'a> {
    /// `[N, observation_len]` observations of each game's seat to act.
    pub obs: Option<&'a mut [f32]>,
    /// `[N, action_space_size]` dense masks (1 = legal).
    pub mask: Option<&'a mut [u8]>,
    /// The same legal actions as sparse rows of ids.
    pub legal: Option<&'a mut LegalIds>,
    /// `[N]` the seat each game waits for.
    pub seats: &'a mut [i64],
}
