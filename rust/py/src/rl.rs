//! `cardnet._core.RlState` and `cardnet._core.VecEnv`: the core's RL face for Python.
//!
//! Tensors and masks go straight into numpy memory through the `numpy` crate: the core writes into the
//! data of arrays the caller owns (`*_into` methods, `VecEnv`), or builds a `Vec` that becomes a numpy
//! array without a copy (`RlState.observe`, sparse legal ids). The crate loads numpy's C API on first
//! use, not at import: `import cardnet` works without numpy, which lives only in the `[rl]` extra.

use crate::convert::{from_py, to_py};
use crate::errors::{check, guard, internal, to_pyerr};
use cardnet_core::ai::Player;
use cardnet_core::json::canonical;
use cardnet_core::rl::{self, AnyRl, LegalIds, Outputs};
use cardnet_core::{GameError, Seat};
use numpy::npyffi::NPY_ARRAY_WRITEABLE;
use numpy::{Element, IntoPyArray, PyArray1, PyArrayDyn, PyArrayMethods, PyReadwriteArray, PyUntypedArrayMethods};
use pyo3::prelude::*;
use serde_json::Value;
use std::panic::{catch_unwind, AssertUnwindSafe};

fn bad_array(py: Python<'_>, what: &str, reason: impl std::fmt::Display) -> PyErr {
    to_pyerr(py, &GameError::BadOptions(format!("{what}: {reason}")))
}

/// Borrows `target` (checked as a [`Target`]) through numpy's borrow tracking, for writing in place while other
/// arrays are borrowed too (`VecEnv`'s outputs, held together for a whole step).
fn borrow_mut<'py, T: Element>(
    py: Python<'py>,
    target: &Bound<'py, PyAny>,
    what: &str,
    len: usize,
) -> PyResult<PyReadwriteArray<'py, T, numpy::IxDyn>> {
    Target::<T>::check(py, target, what, len)?.0.try_readwrite().map_err(|e| bad_array(py, what, e))
}

/// A caller's numpy array, checked to be writeable in place: a C-contiguous array of `len` items of `T`.
///
/// Writing goes around numpy's borrow tracking (`try_readwrite`), which cost more than writing a small
/// observation: a per-step `observe_into` paid it twice. Every array of a call is checked before any is
/// written, so a refused call leaves them all as they were.
struct Target<'a, 'py, T: Element>(&'a Bound<'py, PyArrayDyn<T>>);

impl<'a, 'py, T: Element> Target<'a, 'py, T> {
    fn check(py: Python<'_>, target: &'a Bound<'py, PyAny>, what: &str, len: usize) -> PyResult<Self> {
        let array = target
            .cast::<PyArrayDyn<T>>()
            .map_err(|_| bad_array(py, what, format!("must be a numpy array of {}", std::any::type_name::<T>())))?;
        if !array.is_c_contiguous() {
            return Err(bad_array(py, what, "must be C-contiguous"));
        }
        if array.len() != len {
            return Err(bad_array(py, what, format!("holds {} items, expected {len}", array.len())));
        }
        // SAFETY: `array` is a live numpy array object, so its header may be read.
        if unsafe { (*array.as_array_ptr()).flags } & NPY_ARRAY_WRITEABLE == 0 {
            return Err(bad_array(py, what, "is read-only"));
        }
        Ok(Target(array))
    }

    /// Runs `write` on the array's items.
    fn write(self, write: impl FnOnce(&mut [T])) {
        // SAFETY: the array is writeable, C-contiguous and holds `len` items of `T` (`check`), so its data is
        // one slice. The GIL is held for the whole call, so no Python code runs while the slice lives, and the
        // only other Rust views of numpy memory in this crate are the borrow-tracked ones of `VecEnv`, which
        // never outlive their own call: this slice is the one reference to that memory until `write` returns.
        // (`as_slice_mut` fails only for an array that is not contiguous, which `check` refused.)
        if let Ok(data) = unsafe { self.0.as_slice_mut() } {
            write(data);
        }
    }
}

/// Runs `write` on the items of `target` (see [`Target`]).
fn fill<T: Element>(
    py: Python<'_>,
    target: &Bound<'_, PyAny>,
    what: &str,
    len: usize,
    write: impl FnOnce(&mut [T]),
) -> PyResult<()> {
    Target::check(py, target, what, len)?.write(write);
    Ok(())
}

/// Writes the mask of the ascending legal `ids` into `out` (1 = legal).
fn mask_from_ids<T: From<bool> + Copy>(ids: &[i32], out: &mut [T]) {
    out.fill(T::from(false));
    mark_ids(ids, out);
}

/// Sets the entries of `ids` in `out` to 1 (`out` already all zeros: Matchstick's mask is 17 287 bytes,
/// and a fresh numpy array of zeros need not be cleared twice).
fn mark_ids<T: From<bool> + Copy>(ids: &[i32], out: &mut [T]) {
    for &id in ids {
        if let Some(slot) = out.get_mut(id as usize) {
            *slot = T::from(true);
        }
    }
}

/// A caller's mask array, checked (see [`Target`]): int8, uint8 or bool.
enum MaskTarget<'a, 'py> {
    Int8(Target<'a, 'py, i8>),
    Uint8(Target<'a, 'py, u8>),
    Bool(Target<'a, 'py, bool>),
}

impl<'a, 'py> MaskTarget<'a, 'py> {
    fn check(py: Python<'_>, target: &'a Bound<'py, PyAny>, len: usize) -> PyResult<Self> {
        // int8 first: the arrays `observe` makes, which the PettingZoo adapter reuses.
        Ok(if target.cast::<PyArrayDyn<i8>>().is_ok() {
            MaskTarget::Int8(Target::check(py, target, "mask", len)?)
        } else if target.cast::<PyArrayDyn<u8>>().is_ok() {
            MaskTarget::Uint8(Target::check(py, target, "mask", len)?)
        } else {
            MaskTarget::Bool(Target::check(py, target, "mask (uint8, int8 or bool)", len)?)
        })
    }

    /// Writes the mask of the ascending legal `ids`.
    fn write(self, ids: &[i32]) {
        match self {
            MaskTarget::Int8(t) => t.write(|out| mask_from_ids(ids, out)),
            MaskTarget::Uint8(t) => t.write(|out| mask_from_ids(ids, out)),
            MaskTarget::Bool(t) => t.write(|out| mask_from_ids(ids, out)),
        }
    }
}

/// `seat`'s legal ids.
fn legal_ids(state: &dyn AnyRl, seat: Seat) -> Vec<i32> {
    let mut ids = rl::legal_ids_buffer();
    state.append_legal_ids(seat, &mut ids);
    ids
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

    /// Writes `seat`'s legal-action mask into `out` (uint8, int8 or bool, `action_space_size` long).
    fn legal_action_mask_into(&self, py: Python<'_>, seat: i64, out: &Bound<'_, PyAny>) -> PyResult<()> {
        guard(py, || {
            let state = self.usable(py)?;
            let seat = seat_of(py, state, seat)?;
            MaskTarget::check(py, out, state.action_space_size())?.write(&legal_ids(state, seat));
            Ok(())
        })
    }

    /// Writes `seat`'s observation tensor into `out` (float32, `observation_len` long).
    fn observation_into(&self, py: Python<'_>, seat: i64, out: &Bound<'_, PyAny>) -> PyResult<()> {
        guard(py, || {
            let state = self.usable(py)?;
            let seat = seat_of(py, state, seat)?;
            fill::<f32>(py, out, "observation", state.observation_len(), |buf| state.write_observation(seat, buf))
        })
    }

    /// Writes `seat`'s information-state tensor into `out` (float32, `infostate_len` long).
    fn infostate_into(&self, py: Python<'_>, seat: i64, out: &Bound<'_, PyAny>) -> PyResult<()> {
        guard(py, || {
            let state = self.usable(py)?;
            let seat = seat_of(py, state, seat)?;
            fill::<f32>(py, out, "information state", state.infostate_len(), |buf| state.write_infostate(seat, buf))
        })
    }

    /// `seat`'s observation (new float32 array) and its legal-action mask (new int8 array; all zeros when
    /// `masked` is false or the seat is not to act), built in one call: numpy allocates both arrays and the
    /// core writes into their memory.
    fn observe<'py>(&self, py: Python<'py>, seat: i64, masked: bool) -> PyResult<Observed<'py>> {
        guard(py, || {
            let state = self.usable(py)?;
            let seat = seat_of(py, state, seat)?;
            let obs = PyArray1::<f32>::zeros(py, state.observation_len(), false);
            let mask = PyArray1::<i8>::zeros(py, state.action_space_size(), false);
            let ids = if masked { legal_ids(state, seat) } else { Vec::new() };
            // SAFETY: both arrays were created just above, are contiguous and no other reference to them
            // exists yet, so these are the only views of their memory while they live.
            let (obs_data, mask_data) = unsafe { (obs.as_slice_mut(), mask.as_slice_mut()) };
            let contiguous = |e| bad_array(py, "observe", e);
            state.write_observation(seat, obs_data.map_err(contiguous)?);
            mark_ids(&ids, mask_data.map_err(contiguous)?);
            Ok((obs, mask))
        })
    }

    /// Writes `seat`'s observation into `obs` (float32) and its mask into `mask` (uint8, int8 or bool;
    /// all zeros unless `masked` and the seat is to act) in one call: `observe` into arrays kept by the
    /// caller.
    fn observe_into(
        &self,
        py: Python<'_>,
        seat: i64,
        masked: bool,
        obs: &Bound<'_, PyAny>,
        mask: &Bound<'_, PyAny>,
    ) -> PyResult<()> {
        guard(py, || {
            let state = self.usable(py)?;
            let seat = seat_of(py, state, seat)?;
            let obs = Target::<f32>::check(py, obs, "observation", state.observation_len())?;
            let mask = MaskTarget::check(py, mask, state.action_space_size())?;
            obs.write(|buf| state.write_observation(seat, buf));
            mask.write(&if masked { legal_ids(state, seat) } else { Vec::new() });
            Ok(())
        })
    }

    /// The lowest seat to act, or -1 once the game is over.
    fn first_to_act(&self, py: Python<'_>) -> PyResult<i64> {
        Ok(self.usable(py)?.first_to_act().map_or(-1, |s| s as i64))
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

    /// Applies action `id` for `seat` and returns the lowest seat to act next, or -1 once the game is over
    /// (`apply_action_id` and `first_to_act` in one call). An illegal id raises and changes nothing.
    fn step(&mut self, py: Python<'_>, seat: i64, id: i64) -> PyResult<i64> {
        self.apply_action_id(py, seat, id)?;
        Ok(self.inner.first_to_act().map_or(-1, |s| s as i64))
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

    /// Whether the state keeps the per-seat event logs (`information_state_string` needs them).
    fn logs_events(&self, py: Python<'_>) -> PyResult<bool> {
        Ok(self.usable(py)?.logs_events())
    }

    /// The action id a built-in player picks for `seat`: `player` is `random`, `heuristic`, `ismcts` or
    /// `ismcts:N`; a `level` (`easy`, `normal`, `hard`), when given, chooses the player instead. The same
    /// choice as `Game.choose` in the same position and seed; the player sees only what `seat` may see.
    /// The search runs without holding the GIL. `IllegalMove` when `seat` has nothing to decide.
    /// The same seed gives the same choice; `seed=None`, the default, draws a fresh one.
    #[pyo3(signature = (seat, player = "random", level = None, seed = None))]
    fn choose_action(
        &self,
        py: Python<'_>,
        seat: i64,
        player: &str,
        level: Option<&str>,
        seed: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<usize> {
        guard(py, || {
            let seed = crate::seed::checked_seed(py, seed)?;
            let state = self.usable(py)?;
            let seat = seat_of(py, state, seat)?;
            let chosen = check(py, level.map_or_else(|| Player::parse(player), Player::for_level))?;
            let result = py.detach(|| catch_unwind(AssertUnwindSafe(|| state.choose_action(seat, chosen, seed))));
            match result {
                Ok(r) => check(py, r),
                Err(_) => Err(internal(py, "internal error in cardnet-core while choosing a move".into())),
            }
        })
    }

    fn __copy__(&self, py: Python<'_>) -> PyResult<RlState> {
        self.clone(py)
    }

    fn __deepcopy__(&self, py: Python<'_>, _memo: &Bound<'_, PyAny>) -> PyResult<RlState> {
        self.clone(py)
    }

    /// Pickles as its save (`rl_load(to_json())`; a determinized copy's save holds the state it was drawn from).
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
        let options = crate::convert::options_value(py, options)?;
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
            let options = crate::convert::options_value(py, options)?;
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

    /// Writes each game's seat to act (int64 `[N]`) and, when given, its observation (float32 `[N, obs]`)
    /// and dense mask (uint8 `[N, actions]`). With `legal_ids`, returns the legal ids as sparse rows
    /// `(offsets int64 [N + 1], ids int32)`: game `i`'s ids are `ids[offsets[i]:offsets[i + 1]]`.
    #[pyo3(signature = (obs, mask, seats, legal_ids = false))]
    fn observe<'py>(
        &self,
        py: Python<'py>,
        obs: Option<&Bound<'py, PyAny>>,
        mask: Option<&Bound<'py, PyAny>>,
        seats: &Bound<'py, PyAny>,
        legal_ids: bool,
    ) -> PyResult<Option<SparseIds<'py>>> {
        let mut buffers = Buffers::borrow(py, &self.inner, obs, mask, seats)?;
        let mut legal = legal_ids.then(LegalIds::default);
        guard(py, || {
            let mut out = buffers.outputs(py, legal.as_mut())?;
            check(py, self.inner.observe(&mut out))
        })?;
        Ok(legal.map(|l| sparse(py, l)))
    }

    /// Applies `actions` (int64 `[N]`) for each game's seat to act, writes `rewards` (float32 `[N, players]`,
    /// each seat's return where a game just ended) and `dones` (uint8 `[N]`), then what `observe` writes
    /// (`obs` and `mask` may be None: not computed). A finished game restarts at once. An illegal action
    /// raises and changes nothing.
    #[allow(clippy::too_many_arguments)]
    #[pyo3(signature = (actions, obs, mask, rewards, dones, seats, legal_ids = false))]
    fn step<'py>(
        &mut self,
        py: Python<'py>,
        actions: &Bound<'py, PyAny>,
        obs: Option<&Bound<'py, PyAny>>,
        mask: Option<&Bound<'py, PyAny>>,
        rewards: &Bound<'py, PyAny>,
        dones: &Bound<'py, PyAny>,
        seats: &Bound<'py, PyAny>,
        legal_ids: bool,
    ) -> PyResult<Option<SparseIds<'py>>> {
        let (n, p) = (self.inner.num_envs(), self.inner.players());
        let actions = actions
            .cast::<PyArrayDyn<i64>>()
            .map_err(|_| bad_array(py, "actions", "must be a numpy array of int64"))?
            .try_readonly()
            .map_err(|e| bad_array(py, "actions", e))?;
        let actions = actions.as_slice().map_err(|e| bad_array(py, "actions", e))?;
        let mut rewards = borrow_mut::<f32>(py, rewards, "rewards (float32)", n * p)?;
        let mut dones = borrow_mut::<u8>(py, dones, "dones (uint8)", n)?;
        let mut buffers = Buffers::borrow(py, &self.inner, obs, mask, seats)?;
        let mut legal = legal_ids.then(LegalIds::default);
        let rewards = rewards.as_slice_mut().map_err(|e| bad_array(py, "rewards", e))?;
        let dones = dones.as_slice_mut().map_err(|e| bad_array(py, "dones", e))?;
        let mut out = buffers.outputs(py, legal.as_mut())?;
        let env = &mut self.inner;
        // Batches step without the GIL (other Python threads run meanwhile); one game is not worth the switch.
        let mut run = || catch_unwind(AssertUnwindSafe(|| env.step(actions, rewards, dones, &mut out)));
        let stepped = if n > 1 { py.detach(run) } else { run() };
        match stepped {
            Ok(result) => check(py, result)?,
            Err(_) => return Err(internal(py, "internal error in cardnet-core while stepping".into())),
        }
        Ok(legal.map(|l| sparse(py, l)))
    }

    fn __repr__(&self) -> String {
        format!("<cardnet VecEnv n={} players={}>", self.inner.num_envs(), self.inner.players())
    }
}

/// An observation and its mask as new numpy arrays.
type Observed<'py> = (Bound<'py, PyArray1<f32>>, Bound<'py, PyArray1<i8>>);

/// Sparse legal ids as numpy arrays: `(offsets, ids)`.
type SparseIds<'py> = (Bound<'py, PyArray1<i64>>, Bound<'py, PyArray1<i32>>);

/// Hands the rows to numpy without copying them.
fn sparse(py: Python<'_>, legal: LegalIds) -> SparseIds<'_> {
    (legal.offsets.into_pyarray(py), legal.ids.into_pyarray(py))
}

/// The output arrays of one `VecEnv` call, borrowed for writing (checked before anything is stepped).
struct Buffers<'py> {
    obs: Option<PyReadwriteArray<'py, f32, numpy::IxDyn>>,
    mask: Option<PyReadwriteArray<'py, u8, numpy::IxDyn>>,
    seats: PyReadwriteArray<'py, i64, numpy::IxDyn>,
}

impl<'py> Buffers<'py> {
    fn borrow(
        py: Python<'py>,
        env: &rl::VecEnv,
        obs: Option<&Bound<'py, PyAny>>,
        mask: Option<&Bound<'py, PyAny>>,
        seats: &Bound<'py, PyAny>,
    ) -> PyResult<Self> {
        let n = env.num_envs();
        Ok(Buffers {
            obs: obs.map(|o| borrow_mut::<f32>(py, o, "obs (float32)", n * env.observation_len())).transpose()?,
            mask: mask.map(|m| borrow_mut::<u8>(py, m, "mask (uint8)", n * env.action_space_size())).transpose()?,
            seats: borrow_mut::<i64>(py, seats, "seats (int64)", n)?,
        })
    }

    fn outputs<'a>(&'a mut self, py: Python<'_>, legal: Option<&'a mut LegalIds>) -> PyResult<Outputs<'a>> {
        let contiguous = |e| bad_array(py, "output", e);
        Ok(Outputs {
            obs: self.obs.as_mut().map(|a| a.as_slice_mut()).transpose().map_err(contiguous)?,
            mask: self.mask.as_mut().map(|a| a.as_slice_mut()).transpose().map_err(contiguous)?,
            legal,
            seats: self.seats.as_slice_mut().map_err(contiguous)?,
        })
    }
}
