//! `cardnet._core.RlState` and `cardnet._core.VecEnv`: the core's RL face for Python.
//!
//! Tensors and masks are written into buffers the caller owns (numpy arrays made by `cardnet.rl`), through
//! the buffer protocol of the stable ABI (Python ≥ 3.11). This module never imports numpy, so
//! `import cardnet` works without it; numpy lives only in the `[rl]` extra.

use crate::convert::{from_py, to_py};
use crate::errors::{check, guard, internal, to_pyerr};
use cardnet_core::json::canonical;
use cardnet_core::rl::{self, AnyRl};
use cardnet_core::{GameError, Seat};
use pyo3::buffer::{Element, PyBuffer};
use pyo3::prelude::*;
use serde_json::Value;
use std::panic::{catch_unwind, AssertUnwindSafe};

/// Fills the writable, C-contiguous buffer `target` of exactly `len` items of `T` with `write`'s output.
fn fill<T: Element + Copy + Default>(
    py: Python<'_>,
    target: &Bound<'_, PyAny>,
    what: &str,
    len: usize,
    write: impl FnOnce(&mut [T]) -> Result<(), GameError>,
) -> PyResult<()> {
    let bad = |reason: String| to_pyerr(py, &GameError::BadOptions(format!("{what}: {reason}")));
    let buffer = PyBuffer::<T>::get(target).map_err(|e| bad(format!("not a buffer of the right type ({e})")))?;
    let writable = buffer.as_mut_slice(py).ok_or_else(|| bad("must be writable and C-contiguous".into()))?.len();
    if writable != len {
        return Err(bad(format!("holds {writable} items, expected {len}")));
    }
    let mut scratch = vec![T::default(); len];
    check(py, write(&mut scratch))?;
    // One memcpy through the buffer protocol (a cell-by-cell store costs several times more).
    buffer.copy_from_slice(py, &scratch)
}

/// Copies `data` into the writable, C-contiguous buffer `target` of the same length.
fn put<T: Element + Copy + Default>(py: Python<'_>, target: &Bound<'_, PyAny>, what: &str, data: &[T]) -> PyResult<()> {
    fill::<T>(py, target, what, data.len(), |buf| {
        buf.copy_from_slice(data);
        Ok(())
    })
}

/// Reads a C-contiguous buffer of `T`.
fn read<T: Element + Copy>(py: Python<'_>, source: &Bound<'_, PyAny>, what: &str) -> PyResult<Vec<T>> {
    let bad = |reason: String| to_pyerr(py, &GameError::BadOptions(format!("{what}: {reason}")));
    let buffer = PyBuffer::<T>::get(source).map_err(|e| bad(format!("not a buffer of the right type ({e})")))?;
    buffer.to_vec(py).map_err(|e| bad(e.to_string()))
}

fn seat_of(py: Python<'_>, state: &dyn AnyRl, seat: i64) -> PyResult<Seat> {
    crate::game::check_seat(py, state.setup().players, seat)
}

/// A game seen as an RL environment: action ids, masks, tensors, information states, returns.
#[pyclass(module = "cardnet._core", name = "RlState")]
pub struct RlState {
    inner: Box<dyn AnyRl>,
    poisoned: bool,
}

impl RlState {
    fn usable(&self, py: Python<'_>) -> PyResult<&dyn AnyRl> {
        if self.poisoned {
            return Err(internal(
                py,
                "this state hit an internal error during a move and can no longer be used".into(),
            ));
        }
        Ok(self.inner.as_ref())
    }
}

#[pymethods]
impl RlState {
    /// The game's machine name.
    #[getter]
    fn game(&self, py: Python<'_>) -> PyResult<&'static str> {
        Ok(self.usable(py)?.name())
    }

    /// Number of seats.
    #[getter]
    fn players(&self, py: Python<'_>) -> PyResult<usize> {
        Ok(self.usable(py)?.setup().players)
    }

    /// The seed the game was dealt from.
    #[getter]
    fn seed(&self, py: Python<'_>) -> PyResult<u64> {
        Ok(self.usable(py)?.setup().seed)
    }

    /// The resolved options as canonical JSON.
    fn options_json(&self, py: Python<'_>) -> PyResult<String> {
        Ok(canonical(&Value::Object(self.usable(py)?.setup().options.clone())))
    }

    /// Number of action ids of this (game, players, options).
    fn action_space_size(&self, py: Python<'_>) -> PyResult<usize> {
        Ok(self.usable(py)?.action_space_size())
    }

    /// Length of the observation tensor.
    fn observation_len(&self, py: Python<'_>) -> PyResult<usize> {
        Ok(self.usable(py)?.observation_len())
    }

    /// Length of the information-state tensor (observation, then own action counts per id).
    fn infostate_len(&self, py: Python<'_>) -> PyResult<usize> {
        Ok(self.usable(py)?.infostate_len())
    }

    /// The observation tensor's blocks as `(name, offset, length)`.
    fn observation_layout(&self, py: Python<'_>) -> PyResult<Vec<(String, usize, usize)>> {
        Ok(self.usable(py)?.observation_layout().into_iter().map(|b| (b.name, b.offset, b.len)).collect())
    }

    /// Upper bound on the moves of one game.
    fn max_game_length(&self, py: Python<'_>) -> PyResult<usize> {
        Ok(self.usable(py)?.max_game_length())
    }

    /// `(min, max)` of each seat's return.
    fn reward_bounds(&self, py: Python<'_>) -> PyResult<(f64, f64)> {
        Ok(self.usable(py)?.reward_bounds())
    }

    /// What each card id is (a list of dicts in id order).
    fn card_table<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        guard(py, || to_py(py, &Value::Array(self.usable(py)?.card_table())))
    }

    /// Seats to act, ascending (empty once over).
    fn to_act(&self, py: Python<'_>) -> PyResult<Vec<Seat>> {
        Ok(self.usable(py)?.to_act())
    }

    /// Whether the game is over.
    fn is_over(&self, py: Python<'_>) -> PyResult<bool> {
        Ok(self.usable(py)?.is_over())
    }

    /// Each seat's return (within `reward_bounds`) once over, zeros before.
    fn returns(&self, py: Python<'_>) -> PyResult<Vec<f64>> {
        Ok(self.usable(py)?.returns())
    }

    /// Number of moves made so far.
    fn move_count(&self, py: Python<'_>) -> PyResult<usize> {
        Ok(self.usable(py)?.move_count())
    }

    /// `(seat, action id)` of every move so far.
    fn action_history(&self, py: Python<'_>) -> PyResult<Vec<(Seat, usize)>> {
        Ok(self.usable(py)?.action_history())
    }

    /// Legal action ids of `seat`, ascending.
    fn legal_action_ids(&self, py: Python<'_>, seat: i64) -> PyResult<Vec<usize>> {
        guard(py, || {
            let state = self.usable(py)?;
            Ok(state.legal_action_ids(seat_of(py, state, seat)?))
        })
    }

    /// Writes `seat`'s legal-action mask into `out` (uint8, `action_space_size` long; 1 = legal).
    fn legal_action_mask_into(&self, py: Python<'_>, seat: i64, out: &Bound<'_, PyAny>) -> PyResult<()> {
        guard(py, || {
            let state = self.usable(py)?;
            let seat = seat_of(py, state, seat)?;
            fill::<u8>(py, out, "mask", state.action_space_size(), |buf| {
                state.write_legal_mask(seat, buf);
                Ok(())
            })
        })
    }

    /// Writes `seat`'s observation tensor into `out` (float32, `observation_len` long).
    fn observation_into(&self, py: Python<'_>, seat: i64, out: &Bound<'_, PyAny>) -> PyResult<()> {
        guard(py, || {
            let state = self.usable(py)?;
            let seat = seat_of(py, state, seat)?;
            fill::<f32>(py, out, "observation", state.observation_len(), |buf| {
                state.write_observation(seat, buf);
                Ok(())
            })
        })
    }

    /// Writes `seat`'s information-state tensor into `out` (float32, `infostate_len` long).
    fn infostate_into(&self, py: Python<'_>, seat: i64, out: &Bound<'_, PyAny>) -> PyResult<()> {
        guard(py, || {
            let state = self.usable(py)?;
            let seat = seat_of(py, state, seat)?;
            fill::<f32>(py, out, "information state", state.infostate_len(), |buf| {
                state.write_infostate(seat, buf);
                Ok(())
            })
        })
    }

    /// `seat`'s information state as text: its view, then each batch of events it received.
    fn information_state_string(&self, py: Python<'_>, seat: i64) -> PyResult<String> {
        guard(py, || {
            let state = self.usable(py)?;
            check(py, state.information_state_string(seat_of(py, state, seat)?))
        })
    }

    /// Applies action `id` for `seat`. An illegal id raises `IllegalMove` and changes nothing.
    fn apply_action_id(&mut self, py: Python<'_>, seat: i64, id: i64) -> PyResult<()> {
        let seat = seat_of(py, self.usable(py)?, seat)?;
        let id = usize::try_from(id).unwrap_or(usize::MAX);
        let inner = self.inner.as_mut();
        match catch_unwind(AssertUnwindSafe(|| inner.apply_action_id(seat, id))) {
            Ok(result) => check(py, result),
            Err(_) => {
                self.poisoned = true;
                Err(internal(py, "internal error in cardnet-core while applying an action".into()))
            }
        }
    }

    /// The action id of a move of `seat` (a dict as `Game.legal_moves` gives); `InvalidMove` if malformed.
    fn move_to_action_id(&self, py: Python<'_>, seat: i64, r#move: &Bound<'_, PyAny>) -> PyResult<usize> {
        guard(py, || {
            let state = self.usable(py)?;
            let seat = seat_of(py, state, seat)?;
            let mv = from_py(r#move)
                .map_err(|e| to_pyerr(py, &GameError::invalid(format!("not a move: {}", e.message()))))?;
            check(py, state.move_to_action_id(seat, &mv))
        })
    }

    /// The legal move of `seat` with action `id` (the engine's representative), or None if not legal now.
    fn action_id_to_move<'py>(&self, py: Python<'py>, seat: i64, id: i64) -> PyResult<Option<Bound<'py, PyAny>>> {
        guard(py, || {
            let state = self.usable(py)?;
            let seat = seat_of(py, state, seat)?;
            let Ok(id) = usize::try_from(id) else { return Ok(None) };
            state.action_id_to_move(seat, id).map(|mv| to_py(py, &mv)).transpose()
        })
    }

    /// The view of `seat` (None = spectator), as `Game.view` gives it.
    #[pyo3(signature = (seat))]
    fn view<'py>(&self, py: Python<'py>, seat: Option<i64>) -> PyResult<Bound<'py, PyAny>> {
        guard(py, || {
            let state = self.usable(py)?;
            let seat = seat.map(|s| seat_of(py, state, s)).transpose()?;
            to_py(py, &state.view(seat))
        })
    }

    /// The full state (hidden cards included) as canonical JSON, for equality checks.
    fn state_json(&self, py: Python<'_>) -> PyResult<String> {
        guard(py, || Ok(canonical(&self.usable(py)?.state_json())))
    }

    /// The save: setup and action history, replayed by `rl_load`.
    fn to_json(&self, py: Python<'_>) -> PyResult<String> {
        guard(py, || Ok(canonical(&check(py, self.usable(py)?.to_json())?)))
    }

    /// An independent copy.
    fn clone(&self, py: Python<'_>) -> PyResult<RlState> {
        Ok(RlState { inner: self.usable(py)?.clone_box(), poisoned: false })
    }

    /// A copy re-dealing everything `observer` cannot know (None = only public knowledge) from `seed`.
    #[pyo3(signature = (observer, seed))]
    fn determinize(&self, py: Python<'_>, observer: Option<i64>, seed: u64) -> PyResult<RlState> {
        guard(py, || {
            let state = self.usable(py)?;
            let observer = observer.map(|s| seat_of(py, state, s)).transpose()?;
            Ok(RlState { inner: state.determinize(observer, seed), poisoned: false })
        })
    }

    fn __copy__(&self, py: Python<'_>) -> PyResult<RlState> {
        self.clone(py)
    }

    fn __deepcopy__(&self, py: Python<'_>, _memo: &Bound<'_, PyAny>) -> PyResult<RlState> {
        self.clone(py)
    }

    /// Pickles as its save (`rl_load(to_json())`); a determinized copy cannot be pickled.
    fn __reduce__<'py>(&self, py: Python<'py>) -> PyResult<(Bound<'py, PyAny>, (String,))> {
        let load = py.import("cardnet._core")?.getattr("rl_load")?;
        Ok((load, (self.to_json(py)?,)))
    }

    fn __repr__(&self) -> String {
        let setup = self.inner.setup();
        format!("<cardnet RlState {} players={} moves={}>", self.inner.name(), setup.players, self.inner.move_count())
    }
}

/// Starts an RL state. `log_events=False` skips the per-seat event logs (no information-state string).
#[pyfunction]
#[pyo3(signature = (name, players = None, seed = 0, options = None, log_events = true))]
pub fn rl_new(
    py: Python<'_>,
    name: &str,
    players: Option<usize>,
    seed: u64,
    options: Option<&Bound<'_, PyAny>>,
    log_events: bool,
) -> PyResult<RlState> {
    guard(py, || {
        let options = crate::options_value(py, options)?;
        Ok(RlState { inner: check(py, rl::new_rl(name, players, seed, &options, log_events))?, poisoned: false })
    })
}

/// Loads an RL save (`RlState.to_json()`), replaying every action; `CorruptState` if anything differs.
#[pyfunction]
pub fn rl_load(py: Python<'_>, text: &str) -> PyResult<RlState> {
    guard(py, || Ok(RlState { inner: check(py, rl::load_rl(text))?, poisoned: false }))
}

/// N games of one setup stepped together; buffers are numpy arrays owned by the caller.
#[pyclass(module = "cardnet._core", name = "VecEnv")]
pub struct VecEnv {
    inner: rl::VecEnv,
}

#[pymethods]
impl VecEnv {
    /// `n` games of `name`; game `k` of the stream is dealt from `derive(seed, k)`.
    #[new]
    #[pyo3(signature = (name, n, players = None, seed = 0, options = None))]
    fn new(
        py: Python<'_>,
        name: &str,
        n: usize,
        players: Option<usize>,
        seed: u64,
        options: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<Self> {
        guard(py, || {
            let options = crate::options_value(py, options)?;
            Ok(VecEnv { inner: check(py, rl::VecEnv::new(name, players, &options, n, seed))? })
        })
    }

    /// Number of games.
    #[getter]
    fn num_envs(&self) -> usize {
        self.inner.num_envs()
    }

    /// Seats per game.
    #[getter]
    fn players(&self) -> usize {
        self.inner.players()
    }

    /// Floats per observation.
    #[getter]
    fn observation_len(&self) -> usize {
        self.inner.observation_len()
    }

    /// Action ids per game.
    #[getter]
    fn action_space_size(&self) -> usize {
        self.inner.action_space_size()
    }

    /// Games finished so far.
    #[getter]
    fn episodes_finished(&self) -> u64 {
        self.inner.episodes_finished()
    }

    /// Writes each game's seat to act (int64 `[N]`), observation (float32 `[N, obs]`) and mask (uint8
    /// `[N, actions]`).
    fn observe(
        &self,
        py: Python<'_>,
        obs: &Bound<'_, PyAny>,
        mask: &Bound<'_, PyAny>,
        seats: &Bound<'_, PyAny>,
    ) -> PyResult<()> {
        guard(py, || {
            let env = &self.inner;
            let n = env.num_envs();
            let mut mask_buf = vec![0u8; n * env.action_space_size()];
            let mut seat_buf = vec![0i64; n];
            fill::<f32>(py, obs, "obs", n * env.observation_len(), |o| env.observe(o, &mut mask_buf, &mut seat_buf))?;
            put(py, mask, "mask", &mask_buf)?;
            put(py, seats, "seats", &seat_buf)
        })
    }

    /// Applies `actions` (int64 `[N]`) for each game's seat to act, then writes the next observations and
    /// masks, `rewards` (float32 `[N, players]`, each seat's return where a game just ended) and `dones`
    /// (uint8 `[N]`). A finished game restarts at once. An illegal action raises and changes nothing.
    #[allow(clippy::too_many_arguments)]
    fn step(
        &mut self,
        py: Python<'_>,
        actions: &Bound<'_, PyAny>,
        obs: &Bound<'_, PyAny>,
        mask: &Bound<'_, PyAny>,
        rewards: &Bound<'_, PyAny>,
        dones: &Bound<'_, PyAny>,
        seats: &Bound<'_, PyAny>,
    ) -> PyResult<()> {
        let actions = read::<i64>(py, actions, "actions")?;
        let env = &mut self.inner;
        let n = env.num_envs();
        let (o, a, p) = (env.observation_len(), env.action_space_size(), env.players());
        let (mut obs_buf, mut mask_buf) = (vec![0f32; n * o], vec![0u8; n * a]);
        let (mut reward_buf, mut done_buf, mut seat_buf) = (vec![0f32; n * p], vec![0u8; n], vec![0i64; n]);
        // Check every output buffer before stepping, so a bad buffer never leaves the games half-stepped.
        let checks = [
            ("obs (float32)", writable_len::<f32>(py, obs), n * o),
            ("mask (uint8)", writable_len::<u8>(py, mask), n * a),
            ("rewards (float32)", writable_len::<f32>(py, rewards), n * p),
            ("dones (uint8)", writable_len::<u8>(py, dones), n),
            ("seats (int64)", writable_len::<i64>(py, seats), n),
        ];
        if let Some((what, _, len)) = checks.iter().find(|(_, got, len)| *got != Some(*len)) {
            let reason = format!("{what} must be a writable C-contiguous array of {len} items");
            return Err(to_pyerr(py, &GameError::BadOptions(reason)));
        }
        // The games step without the GIL: other Python threads run meanwhile.
        let stepped = py.detach(|| {
            catch_unwind(AssertUnwindSafe(|| {
                env.step(&actions, &mut obs_buf, &mut mask_buf, &mut reward_buf, &mut done_buf, &mut seat_buf)
            }))
        });
        match stepped {
            Ok(result) => check(py, result)?,
            Err(_) => return Err(internal(py, "internal error in cardnet-core while stepping".into())),
        }
        put(py, obs, "obs", &obs_buf)?;
        put(py, mask, "mask", &mask_buf)?;
        put(py, rewards, "rewards", &reward_buf)?;
        put(py, dones, "dones", &done_buf)?;
        put(py, seats, "seats", &seat_buf)
    }

    fn __repr__(&self) -> String {
        format!("<cardnet VecEnv n={} players={}>", self.inner.num_envs(), self.inner.players())
    }
}

/// The item count of `target` when it is a writable C-contiguous buffer of `T`.
fn writable_len<T: Element>(py: Python<'_>, target: &Bound<'_, PyAny>) -> Option<usize> {
    PyBuffer::<T>::get(target).ok().and_then(|b| b.as_mut_slice(py).map(<[_]>::len))
}
