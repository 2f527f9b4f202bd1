//! A vectorized environment: N games of one setup stepped by one call, writing observations, masks,
//! rewards and done flags into caller-owned buffers (numpy arrays on the Python side, no copy).
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
    name: String,
    players: usize,
    options: Value,
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
        let options = Value::Object(first.setup().options.clone());
        let mut env =
            VecEnv { envs: vec![first], name: name.to_string(), players, options, seed, dealt: 1, finished: 0 };
        for _ in 1..n {
            let game = env.deal()?;
            env.envs.push(game);
        }
        Ok(env)
    }

    fn deal(&mut self) -> Result<Box<dyn AnyRl>, GameError> {
        let game = new_rl(&self.name, Some(self.players), derive(self.seed, self.dealt), &self.options, false)?;
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
        game.to_act().first().copied().unwrap_or(0)
    }

    fn check_len(what: &str, got: usize, want: usize) -> Result<(), GameError> {
        if got == want {
            Ok(())
        } else {
            Err(GameError::BadOptions(format!("{what} holds {got} values, expected {want}")))
        }
    }

    /// Writes every game's current seat, its observation (`[N, obs_len]`) and mask (`[N, actions]`).
    pub fn observe(&self, obs: &mut [f32], mask: &mut [u8], seats: &mut [i64]) -> Result<(), GameError> {
        let (n, o, a) = (self.envs.len(), self.observation_len(), self.action_space_size());
        Self::check_len("the observation buffer", obs.len(), n * o)?;
        Self::check_len("the mask buffer", mask.len(), n * a)?;
        Self::check_len("the seat buffer", seats.len(), n)?;
        for (i, game) in self.envs.iter().enumerate() {
            let seat = Self::seat(game.as_ref());
            seats[i] = seat as i64;
            game.write_observation(seat, &mut obs[i * o..(i + 1) * o]);
            game.write_legal_mask(seat, &mut mask[i * a..(i + 1) * a]);
        }
        Ok(())
    }

    /// Applies `actions[i]` to game `i` for its current seat, then writes the next observations and masks,
    /// `rewards` (`[N, players]`: each seat's return when game `i` just ended, else 0) and `dones`.
    /// Every action is checked before any is applied: an illegal one changes nothing.
    pub fn step(
        &mut self,
        actions: &[i64],
        obs: &mut [f32],
        mask: &mut [u8],
        rewards: &mut [f32],
        dones: &mut [u8],
        seats: &mut [i64],
    ) -> Result<(), GameError> {
        let n = self.envs.len();
        Self::check_len("the action buffer", actions.len(), n)?;
        Self::check_len("the reward buffer", rewards.len(), n * self.players)?;
        Self::check_len("the done buffer", dones.len(), n)?;
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
        for i in 0..n {
            let seat = Self::seat(self.envs[i].as_ref());
            self.envs[i].apply_action_id(seat, actions[i] as usize)?;
            if self.envs[i].is_over() {
                for (slot, r) in
                    rewards[i * self.players..(i + 1) * self.players].iter_mut().zip(self.envs[i].returns())
                {
                    *slot = r as f32;
                }
                dones[i] = 1;
                self.finished += 1;
                self.envs[i] = self.deal()?;
            }
        }
        self.observe(obs, mask, seats)
    }
}
