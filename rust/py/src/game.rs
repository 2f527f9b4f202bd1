//! `cardnet.Game`: any game of the registry behind one Python class.
//!
//! The class is the public game object itself (no Python wrapper), so the fast path — `decision()` then
//! `apply_index(seat, i)` — costs two native calls per decision and builds no Python object per legal move.
//! What only a host needs (a move and every seat's lines in one call, the native lane) is in `crate::host`.

use crate::convert::{from_py, map_to_py, text_to_py, to_py};
use crate::errors::{check, guard, internal, to_pyerr};
use cardnet_core::ai::Player;
use cardnet_core::json::{canonical, parse};
use cardnet_core::session::AnyGame;
use cardnet_core::{GameError, Outcome, Seat};
use pyo3::prelude::*;
use pyo3::sync::PyOnceLock;
use pyo3::types::{PyDict, PyList, PyString, PyTuple};
use serde_json::Value;
use std::panic::{catch_unwind, AssertUnwindSafe};

/// A game in progress: whose turn it is, the legal moves, views and events per seat, saving and copying.
#[pyclass(module = "cardnet._core", name = "Game")]
pub struct Game {
    inner: Box<dyn AnyGame>,
    /// Set when the core panicked half-way through a move: the state may be torn, so every later call
    /// refuses rather than act on it.
    poisoned: bool,
}

impl Game {
    /// Wraps a core game.
    pub fn wrap(inner: Box<dyn AnyGame>) -> Self {
        Game { inner, poisoned: false }
    }

    /// The game, unless an earlier panic left it unusable.
    pub(crate) fn usable(&self, py: Python<'_>) -> PyResult<&dyn AnyGame> {
        if self.poisoned {
            return Err(internal(py, "this game hit an internal error during a move and can no longer be used".into()));
        }
        Ok(self.inner.as_ref())
    }

    /// Runs a mutation; a panic inside it poisons the game.
    pub(crate) fn mutate<T>(
        &mut self,
        py: Python<'_>,
        body: impl FnOnce(&mut dyn AnyGame) -> PyResult<T>,
    ) -> PyResult<T> {
        self.usable(py)?;
        let inner = self.inner.as_mut();
        match catch_unwind(AssertUnwindSafe(|| body(inner))) {
            Ok(result) => result,
            Err(_) => {
                self.poisoned = true;
                Err(internal(py, "internal error in cardnet-core while applying a move".into()))
            }
        }
    }

    /// The number of seats.
    pub(crate) fn players(&self) -> usize {
        self.inner.setup().players
    }

    /// Puts `next` (the host's next game of the same table) in place of this game: the Python object stays
    /// the same.
    pub(crate) fn replace(&mut self, next: Box<dyn AnyGame>) {
        self.inner = next;
        self.poisoned = false;
    }
}

/// Checks a seat number against the player count (negative numbers included).
pub(crate) fn seat_of(py: Python<'_>, game: &dyn AnyGame, seat: i64) -> PyResult<Seat> {
    check_seat(py, game.setup().players, seat)
}

/// `seat` as an index when it exists in a `players`-player game, else `IllegalMove` (`no_such_seat`).
pub(crate) fn check_seat(py: Python<'_>, players: usize, seat: i64) -> PyResult<Seat> {
    if seat < 0 || seat as u64 >= players as u64 {
        return Err(to_pyerr(
            py,
            &GameError::illegal("no_such_seat", format!("seat {seat} does not exist in a {players}-player game")),
        ));
    }
    Ok(seat as Seat)
}

/// A seat that must act now; `IllegalMove` (`no_such_seat`, `game_over`, `not_your_turn`) otherwise.
fn acting(py: Python<'_>, game: &dyn AnyGame, seat: i64) -> PyResult<Seat> {
    let seat = seat_of(py, game, seat)?;
    game.check_turn(seat).map_err(|e| to_pyerr(py, &e))?;
    Ok(seat)
}

pub(crate) fn observer_of(py: Python<'_>, game: &dyn AnyGame, seat: Option<i64>) -> PyResult<Option<Seat>> {
    seat.map(|s| seat_of(py, game, s)).transpose()
}

pub(crate) fn index_of(py: Python<'_>, game: &dyn AnyGame, seat: Seat, index: i64) -> PyResult<usize> {
    if index < 0 {
        return Err(to_pyerr(
            py,
            &GameError::illegal(
                "no_such_move",
                format!("seat {seat} has {} legal moves; index {index} is out of range", game.legal_count(seat)),
            ),
        ));
    }
    Ok(index as usize)
}

/// A move given by Python: anything that is not a JSON-like object is `InvalidMove`.
pub(crate) fn move_value(py: Python<'_>, mv: &Bound<'_, PyAny>) -> PyResult<Value> {
    from_py(mv).map_err(|e| to_pyerr(py, &GameError::invalid(format!("not a move: {}", e.message()))))
}

fn events_value(game: &dyn AnyGame, seat: Option<Seat>) -> Result<Value, GameError> {
    game.events(seat).map(Value::Array)
}

/// `cardnet.games.outcome_from_dict`, handed over by `cardnet` at its import (`_core.bind_python`).
static MAKE_OUTCOME: PyOnceLock<Py<PyAny>> = PyOnceLock::new();

/// Takes the function that builds an outcome's dataclass; a second call changes nothing.
pub fn bind_outcome(py: Python<'_>, make: &Bound<'_, PyAny>) -> PyResult<()> {
    if !make.is_callable() {
        return Err(pyo3::exceptions::PyTypeError::new_err("the outcome maker must be callable"));
    }
    let _ = MAKE_OUTCOME.set(py, make.clone().unbind());
    Ok(())
}

/// The outcome as the Python dataclass of its kind (built by `cardnet.games`).
fn outcome_to_py<'py>(py: Python<'py>, outcome: &Outcome) -> PyResult<Bound<'py, PyAny>> {
    let make = MAKE_OUTCOME.get(py).ok_or_else(|| {
        pyo3::exceptions::PyRuntimeError::new_err("cardnet._core is used before `import cardnet` bound its outcomes")
    })?;
    let dict = to_py(py, &outcome.to_json())?;
    make.bind(py).call1((dict,))
}

#[pymethods]
impl Game {
    /// The game's machine name (`"matchstick"`, ...).
    #[getter]
    fn game(&self, py: Python<'_>) -> PyResult<&'static str> {
        Ok(self.usable(py)?.name())
    }

    /// Number of seats.
    #[getter(players)]
    fn get_players(&self, py: Python<'_>) -> PyResult<usize> {
        self.usable(py)?;
        Ok(self.players())
    }

    /// The seed the game was dealt from.
    #[getter]
    fn seed(&self, py: Python<'_>) -> PyResult<u64> {
        Ok(self.usable(py)?.setup().seed)
    }

    /// The resolved options (every option, defaults filled in).
    #[getter]
    fn options<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        guard(py, || map_to_py(py, &self.usable(py)?.setup().options))
    }

    /// Seats that must act now, in increasing order (two at once in a simultaneous decision; empty once over).
    fn to_act(&self, py: Python<'_>) -> PyResult<Vec<Seat>> {
        guard(py, || Ok(self.usable(py)?.to_act()))
    }

    /// The fast path's first call: `(seat, legal_count)` for the lowest seat to act, or None once over.
    fn decision(&self, py: Python<'_>) -> PyResult<Option<(Seat, usize)>> {
        guard(py, || {
            let game = self.usable(py)?;
            Ok(game.to_act().first().map(|&seat| (seat, game.legal_count(seat))))
        })
    }

    /// Whether the game is over.
    pub(crate) fn is_over(&self, py: Python<'_>) -> PyResult<bool> {
        guard(py, || Ok(self.usable(py)?.is_over()))
    }

    /// The result once over (a `cardnet.Outcome` subclass per kind), else None.
    fn outcome<'py>(&self, py: Python<'py>) -> PyResult<Option<Bound<'py, PyAny>>> {
        guard(py, || self.usable(py)?.outcome().map(|o| outcome_to_py(py, &o)).transpose())
    }

    /// The result once over as canonical JSON, else None.
    fn outcome_json(&self, py: Python<'_>) -> PyResult<Option<String>> {
        guard(py, || Ok(self.usable(py)?.outcome().map(|o| canonical(&o.to_json()))))
    }

    /// How many moves were made so far (cheaper than `len(history())`).
    fn move_count(&self, py: Python<'_>) -> PyResult<usize> {
        Ok(self.usable(py)?.move_count())
    }

    /// How many legal moves `seat` has (0 when it is not to act).
    fn legal_count(&self, py: Python<'_>, seat: i64) -> PyResult<usize> {
        guard(py, || {
            let game = self.usable(py)?;
            Ok(game.legal_count(seat_of(py, game, seat)?))
        })
    }

    /// The `index`-th legal move of `seat`; `IllegalMove` (code `no_such_move`) past the end, and as
    /// `legal_moves` for a seat that is not to act.
    fn legal_move<'py>(&self, py: Python<'py>, seat: i64, index: i64) -> PyResult<Bound<'py, PyAny>> {
        guard(py, || {
            let game = self.usable(py)?;
            let seat = acting(py, game, seat)?;
            let i = index_of(py, game, seat, index)?;
            match game.legal_move(seat, i) {
                Some(mv) => to_py(py, &mv),
                None => Err(to_pyerr(
                    py,
                    &GameError::illegal(
                        "no_such_move",
                        format!(
                            "seat {seat} has {} legal moves; index {index} is out of range",
                            game.legal_count(seat)
                        ),
                    ),
                )),
            }
        })
    }

    /// Every legal move of `seat`, in index order. A seat that is not to act gets `IllegalMove`
    /// (`not_your_turn`, or `game_over` once over), as `apply` would: an empty list would read as "stuck".
    fn legal_moves<'py>(&self, py: Python<'py>, seat: i64) -> PyResult<Bound<'py, PyList>> {
        guard(py, || {
            let game = self.usable(py)?;
            let seat = acting(py, game, seat)?;
            let written = check(py, game.legal_moves_json(seat))?;
            Ok(text_to_py(py, &written)?.cast_into::<PyList>()?)
        })
    }

    /// Every legal move of `seat` as one canonical JSON array (bytes for the wire, never re-serialised);
    /// refuses a seat that is not to act as `legal_moves` does.
    fn legal_moves_json(&self, py: Python<'_>, seat: i64) -> PyResult<String> {
        guard(py, || {
            let game = self.usable(py)?;
            let seat = acting(py, game, seat)?;
            check(py, game.legal_moves_json(seat))
        })
    }

    /// The index of `move` among `seat`'s legal moves; raises as `apply` would when it is refused.
    fn index_of(&self, py: Python<'_>, seat: i64, r#move: &Bound<'_, PyAny>) -> PyResult<usize> {
        guard(py, || {
            let game = self.usable(py)?;
            let seat = seat_of(py, game, seat)?;
            let mv = move_value(py, r#move)?;
            check(py, game.index_of(seat, &mv))
        })
    }

    /// Plays `move` (a dict) for `seat`. Raises `InvalidMove` for a malformed move and `IllegalMove`
    /// (with the core's code and reason) for one the rules refuse; the game is then unchanged.
    fn apply(&mut self, py: Python<'_>, seat: i64, r#move: &Bound<'_, PyAny>) -> PyResult<()> {
        let seat = seat_of(py, self.usable(py)?, seat)?;
        let mv = move_value(py, r#move)?;
        self.mutate(py, |game| check(py, game.apply(seat, &mv)))
    }

    /// Plays a move given as JSON text (as it arrives from the network).
    fn apply_json(&mut self, py: Python<'_>, seat: i64, text: &str) -> PyResult<()> {
        let seat = seat_of(py, self.usable(py)?, seat)?;
        let mv = parse(text).map_err(|e| to_pyerr(py, &GameError::invalid(format!("move is not JSON: {e}"))))?;
        self.mutate(py, |game| check(py, game.apply(seat, &mv)))
    }

    /// Plays the `index`-th legal move of `seat`: the fast path's second call.
    fn apply_index(&mut self, py: Python<'_>, seat: i64, index: i64) -> PyResult<()> {
        let game = self.usable(py)?;
        let seat = seat_of(py, game, seat)?;
        let index = index_of(py, game, seat, index)?;
        self.mutate(py, |game| check(py, game.apply_index(seat, index)))
    }

    /// The events of the last move as `seat` may learn them (None = a spectator); Rust's `AnyGame::events`.
    #[pyo3(signature = (seat))]
    fn events<'py>(&self, py: Python<'py>, seat: Option<i64>) -> PyResult<Bound<'py, PyAny>> {
        guard(py, || {
            let game = self.usable(py)?;
            to_py(py, &check(py, events_value(game, observer_of(py, game, seat)?))?)
        })
    }

    /// The old name of `events`, kept for existing callers (deprecated: the stub marks it so).
    #[pyo3(signature = (seat))]
    fn events_for<'py>(&self, py: Python<'py>, seat: Option<i64>) -> PyResult<Bound<'py, PyAny>> {
        self.events(py, seat)
    }

    /// `events(seat)` as canonical JSON.
    #[pyo3(signature = (seat))]
    fn events_json(&self, py: Python<'_>, seat: Option<i64>) -> PyResult<String> {
        guard(py, || {
            let game = self.usable(py)?;
            check(py, game.events_json(observer_of(py, game, seat)?))
        })
    }

    /// What `seat` may see: `{"public": ..., "private": ...}`; None = a spectator (`private` is None).
    #[pyo3(signature = (seat))]
    fn view<'py>(&self, py: Python<'py>, seat: Option<i64>) -> PyResult<Bound<'py, PyAny>> {
        guard(py, || {
            let game = self.usable(py)?;
            text_to_py(py, &check(py, game.view_json(observer_of(py, game, seat)?))?)
        })
    }

    /// `view(seat)` as canonical JSON.
    #[pyo3(signature = (seat))]
    fn view_json(&self, py: Python<'_>, seat: Option<i64>) -> PyResult<String> {
        guard(py, || {
            let game = self.usable(py)?;
            check(py, game.view_json(observer_of(py, game, seat)?))
        })
    }

    /// Hex SHA-256 of the canonical public view; any peer can recompute it from what it sees.
    fn state_hash(&self, py: Python<'_>) -> PyResult<String> {
        guard(py, || Ok(self.usable(py)?.state_hash()))
    }

    /// The moves so far as `(seat, move)` pairs.
    fn history<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyList>> {
        guard(py, || {
            let list = PyList::empty(py);
            for (seat, mv) in self.usable(py)?.history() {
                list.append(PyTuple::new(py, [seat.into_pyobject(py)?.into_any(), to_py(py, &mv)?])?)?;
            }
            Ok(list)
        })
    }

    /// The saved game as canonical JSON: format, setup, every move and the full state (hidden cards too).
    fn to_json(&self, py: Python<'_>) -> PyResult<String> {
        guard(py, || Ok(canonical(&check(py, self.usable(py)?.to_json())?)))
    }

    /// An independent copy.
    fn clone(&self, py: Python<'_>) -> PyResult<Game> {
        guard(py, || Ok(Game::wrap(self.usable(py)?.clone_box())))
    }

    fn __copy__(&self, py: Python<'_>) -> PyResult<Game> {
        self.clone(py)
    }

    fn __deepcopy__(&self, py: Python<'_>, _memo: &Bound<'_, PyAny>) -> PyResult<Game> {
        self.clone(py)
    }

    /// Pickles as the saved game (a game rebuilt from a view cannot be pickled, as it cannot be saved).
    fn __reduce__<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyTuple>> {
        let text = self.to_json(py)?;
        let load = py.import("cardnet._core")?.getattr("load_game")?;
        PyTuple::new(py, [load, PyTuple::new(py, [PyString::new(py, &text)])?.into_any()])
    }

    /// A copy in which every hidden fact `observer` cannot know (None: only public knowledge) is dealt
    /// anew from `seed`; `observer`'s view and events are unchanged. Such a copy plays on, and saves and
    /// loads: its save holds the recipe (this game's save, the observer and the seed, then its own moves).
    #[pyo3(signature = (observer, seed))]
    fn determinize(&self, py: Python<'_>, observer: Option<i64>, seed: u64) -> PyResult<Game> {
        guard(py, || {
            let game = self.usable(py)?;
            let observer = observer_of(py, game, observer)?;
            Ok(Game::wrap(game.determinize(observer, seed)))
        })
    }

    /// The index of the legal move a built-in player picks for `seat`. `player` is `random`, `heuristic`,
    /// `ismcts` or `ismcts:N`; a `level` (`easy`, `normal`, `hard`), when given, chooses the player instead.
    /// The same seed gives the same choice (as in Rust and C); `seed=None`, the default, draws a fresh
    /// one, as everywhere in the package. The search runs without holding the GIL.
    #[pyo3(signature = (seat, player = "random", level = None, seed = None))]
    fn choose(
        &self,
        py: Python<'_>,
        seat: i64,
        player: &str,
        level: Option<&str>,
        seed: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<usize> {
        guard(py, || {
            let seed = crate::seed::checked_seed(py, seed)?;
            let game = self.usable(py)?;
            let seat = seat_of(py, game, seat)?;
            let chosen = match level {
                Some(level) => Player::for_level(level),
                None => Player::parse(player),
            };
            let chosen = check(py, chosen)?;
            let result = py.detach(|| catch_unwind(AssertUnwindSafe(|| game.choose(seat, chosen, seed))));
            match result {
                Ok(r) => check(py, r),
                Err(_) => Err(internal(py, "internal error in cardnet-core while choosing a move".into())),
            }
        })
    }

    fn __repr__(&self) -> String {
        if self.poisoned {
            return "<cardnet.Game (unusable after an internal error)>".into();
        }
        let g = self.inner.as_ref();
        format!(
            "<cardnet.Game {} players={} seed={} to_act={:?}>",
            g.name(),
            self.players(),
            g.setup().seed,
            g.to_act()
        )
    }
}
