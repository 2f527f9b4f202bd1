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

use super::{new_rl, AnyRl};
use crate::error::GameError;
use crate::game::Seat;
use crate::rng::derive;
use serde_json::Value;

/// N games of one (game, players, options), stepped together.
pub struct VecEnv {
    envs: Vec<Box<dyn AnyRl>>,
    players: usize,
    seed: u64,
    /// Games dealt so far (the next one is dealt from `derive(seed, dealt)`).
    dealt: u64,
    finished: u64,
}

impl VecEnv {
    /// `n` games of `name` (at least one).
    pub fn new(name: &str, players: Option<usize>, options: &Value, n: usize, seed: u64) -> Result<Self, GameError> {
        if n == 0 {
            return Err(GameError::BadOptions("a vectorized environment needs at least one game".into()));
        }
        let first = new_rl(name, players, derive(seed, 0), options, false)?;
        let players = first.setup().players;
        let mut env = VecEnv { envs: vec![first], players, seed, dealt: 1, finished: 0 };
        for _ in 1..n {
            let game = env.deal(0)?;
            env.envs.push(game);
        }
        Ok(env)
    }

    /// The next game of the stream, of the same setup as game `i`.
    fn deal(&mut self, i: usize) -> Result<Box<dyn AnyRl>, GameError> {
        let game = self.envs[i].redeal(derive(self.seed, self.dealt))?;
        self.dealt += 1;
        Ok(game)
    }

    /// How many games run side by side.
    pub fn num_envs(&self) -> usize {
        self.envs.len()
    }

    /// Seats per game.
    pub fn players(&self) -> usize {
        self.players
    }

    /// Floats per observation.
    pub fn observation_len(&self) -> usize {
        self.envs[0].observation_len()
    }

    /// Action ids per game.
    pub fn action_space_size(&self) -> usize {
        self.envs[0].action_space_size()
    }

    /// Games finished since the start.
    pub fn episodes_finished(&self) -> u64 {
        self.finished
    }

    /// Game `i` (for inspection).
    pub fn env(&self, i: usize) -> Option<&dyn AnyRl> {
        self.envs.get(i).map(|b| b.as_ref())
    }

    fn seat(game: &dyn AnyRl) -> Seat {
        game.first_to_act().unwrap_or(0)
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
        let (n, o, a) = (self.envs.len(), self.observation_len(), self.action_space_size());
        if let Some(obs) = out.obs.as_deref() {
            Self::check_len("the observation buffer", obs.len(), n * o)?;
        }
        if let Some(mask) = out.mask.as_deref() {
            Self::check_len("the mask buffer", mask.len(), n * a)?;
        }
        Self::check_len("the seat buffer", out.seats.len(), n)
    }

    /// Writes every game's current seat and, where `out` asks for them, its observation (`[N, obs_len]`),
    /// dense mask (`[N, actions]`) and sparse legal ids.
    pub fn observe(&self, out: &mut Outputs<'_>) -> Result<(), GameError> {
        self.check_outputs(out)?;
        let (o, a) = (self.observation_len(), self.action_space_size());
        if let Some(legal) = out.legal.as_deref_mut() {
            legal.clear();
        }
        for (i, game) in self.envs.iter().enumerate() {
            let seat = Self::seat(game.as_ref());
            out.seats[i] = seat as i64;
            if let Some(obs) = out.obs.as_deref_mut() {
                game.write_observation(seat, &mut obs[i * o..(i + 1) * o]);
            }
            if let Some(mask) = out.mask.as_deref_mut() {
                game.write_legal_mask(seat, &mut mask[i * a..(i + 1) * a]);
            }
            if let Some(legal) = out.legal.as_deref_mut() {
                game.append_legal_ids(seat, &mut legal.ids);
                legal.offsets.push(legal.ids.len() as i64);
            }
        }
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
        let n = self.envs.len();
        Self::check_len("the action buffer", actions.len(), n)?;
        Self::check_len("the reward buffer", rewards.len(), n * self.players)?;
        Self::check_len("the done buffer", dones.len(), n)?;
        self.check_outputs(out)?;
        for (i, (game, &id)) in self.envs.iter().zip(actions).enumerate() {
            let seat = Self::seat(game.as_ref());
            if id < 0 || !game.is_legal_action(seat, id as usize) {
                return Err(GameError::illegal(
                    "illegal_action",
                    format!("game {i}: action {id} is not legal for seat {seat}; nothing was applied"),
                ));
            }
        }
        rewards.fill(0.0);
        dones.fill(0);
        let p = self.players;
        for i in 0..n {
            let seat = Self::seat(self.envs[i].as_ref());
            self.envs[i].apply_action_id(seat, actions[i] as usize)?;
            if self.envs[i].is_over() {
                self.envs[i].write_returns(&mut rewards[i * p..(i + 1) * p]);
                dones[i] = 1;
                self.finished += 1;
                self.envs[i] = self.deal(i)?;
            }
        }
        self.observe(out)
    }
}

/// The legal action ids of N games in compressed sparse rows: game `i`'s ids, ascending, are
/// `ids[offsets[i]..offsets[i + 1]]`.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct LegalIds {
    pub offsets: Vec<i64>,
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
