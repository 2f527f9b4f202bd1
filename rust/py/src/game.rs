//! `cardnet.Game`: any game of the registry behind one Python class.
//!
//! The class is the public game object itself (no Python wrapper), so the fast path — `decision()` then
//! `apply_index(seat, i)` — costs two native calls per decision and builds no Python object per legal move.

use crate::convert::{from_py, map_to_py, to_py};
use crate::errors::{check, guard, internal, to_pyerr};
use crate::host_move::{ack_json, decisions_after, move_record, parse_move_line, After, Held, Ref};
use crate::lane::{host_lane, LaneLimits, LaneRun, LaneTable};
use crate::lines::{state_line, DecisionLine, Shared};
use cardnet_core::ai::Player;
use cardnet_core::json::{canonical, parse};
use cardnet_core::session::{AnyGame, FanOut as CoreFanOut, MoveInput};
use cardnet_core::{registry, GameError, Outcome, Seat};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::sync::PyOnceLock;
use pyo3::types::{PyBool, PyBytes, PyDict, PyInt, PyList, PyString, PyTuple};
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

    fn usable(&self, py: Python<'_>) -> PyResult<&dyn AnyGame> {
        if self.poisoned {
            return Err(internal(py, "this game hit an internal error during a move and can no longer be used".into()));
        }
        Ok(self.inner.as_ref())
    }

    /// Runs a mutation; a panic inside it poisons the game.
    fn mutate<T>(&mut self, py: Python<'_>, body: impl FnOnce(&mut dyn AnyGame) -> PyResult<T>) -> PyResult<T> {
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

    /// The next game of this one's table (`Table.start_next_game`): same game and seats, dealt from `seed`
    /// with the table's `options`, and its fan-out for every observer (`[0, .., players - 1, None]`). Nothing
    /// changes here: [`Game::replace`] puts it in place.
    pub(crate) fn next_game(&self, py: Python<'_>, seed: u64, options: &Value) -> PyResult<(Box<dyn AnyGame>, FanOut)> {
        let name = self.usable(py)?.name();
        let players = self.players();
        guard(py, || {
            let next = check(py, registry::new_game(name, Some(players), seed, options))?;
            let observers = every_observer(players);
            let fan = FanOut::new(next.as_ref(), next.fan_out(&observers), None);
            Ok((next, fan))
        })
    }

    /// Puts `next` (from [`Game::next_game`]) in place of this game: the Python object stays the same.
    pub(crate) fn replace(&mut self, next: Box<dyn AnyGame>) {
        self.inner = next;
        self.poisoned = false;
    }

    /// The fast lane's move (`host_move`, and the native lane's every move), in Rust values: None, changing
    /// nothing, unless `line` is an index `move` (any key order and spacing) of a listed move of
    /// `asked.decision_id`; an error, the game unchanged, when the core refuses it.
    pub(crate) fn quick_move<'l>(
        &mut self,
        py: Python<'_>,
        line: &'l [u8],
        seat: i64,
        asked: &QuickMove<'_>,
    ) -> PyResult<Option<Moved<'l>>> {
        let Some(parsed) = parse_move_line(line) else { return Ok(None) };
        if parsed.decision_id != asked.decision_id || parsed.index < 0 || parsed.index as u64 >= asked.count {
            return Ok(None);
        }
        let game = self.usable(py)?;
        let mover = seat_of(py, game, seat)?;
        let players = self.players();
        if asked.seq.len() != players {
            // Checked before the move: nothing may fail between the move and the answer (allocation aside).
            return Err(PyValueError::new_err("one decision count is needed per seat"));
        }
        let observers = every_observer(players);
        let (fan, move_json) = self.mutate(py, |game| {
            let move_json = check(py, game.apply_recorded(mover, MoveInput::Index(parsed.index as usize)))?;
            Ok((FanOut::new(&*game, game.fan_out(&observers), None), move_json))
        })?;
        let acting = if fan.over { &[][..] } else { &fan.legal[..] };
        let decisions = decisions_after(mover, acting, asked.held, asked.seq, asked.stride);
        let to_act: Vec<u64> = decisions.iter().map(|(s, ..)| *s as u64).collect();
        let head = fan.head("update", asked.game_no, asked.state_id, &to_act);
        let ack = ack_json(asked.decision_id, parsed.peer_ref);
        let lines = fan
            .seats
            .iter()
            .map(|(observer, view, events)| {
                if observer.is_none() && !asked.spectator_line {
                    return None;
                }
                let decision = observer.and_then(|o| decisions.iter().position(|(s, ..)| *s == o)).map(|i| {
                    let (_, id, count, _) = decisions[i];
                    let legal = acting[i].2.as_str();
                    DecisionLine {
                        id,
                        count: count as u64,
                        deadline_ms: None,
                        legal: (legal.len() <= asked.inline_limit).then_some(legal),
                    }
                });
                let mine = (*observer == Some(mover)).then_some(ack.as_str());
                let text = state_line(&head, true, mine, decision.as_ref(), events, view);
                (text.len() <= asked.limit + 1).then_some(text)
            })
            .collect();
        let record = move_record(asked.game_no, asked.state_id, mover, &move_json);
        Ok(Some(Moved { fan, record, lines, decisions, peer_ref: parsed.peer_ref }))
    }
}

/// What a fast-lane move is asked against: see `Game.host_move`.
pub(crate) struct QuickMove<'a> {
    pub decision_id: u64,
    pub count: u64,
    pub held: &'a [Held<'a>],
    pub seq: &'a [u64],
    pub stride: u64,
    pub game_no: u64,
    pub state_id: u64,
    pub inline_limit: usize,
    pub limit: usize,
    /// Whether to build the spectators' line: when false (no spectator is there to read it), it is None.
    pub spectator_line: bool,
}

/// What an accepted fast-lane move produced (see `Game.host_move`).
pub(crate) struct Moved<'l> {
    pub fan: FanOut,
    /// The move's journal payload.
    pub record: String,
    /// Every observer's `update` line (`[0, .., players - 1, None]`), newline included; None when too long, and
    /// the spectators' when `QuickMove::spectator_line` did not ask for it.
    pub lines: Vec<Option<String>>,
    /// The acting seats' decisions.
    pub decisions: Vec<After>,
    pub peer_ref: Ref<'l>,
}

impl Moved<'_> {
    /// The legal list of acting seat `seat` (one of `decisions`).
    pub fn legal_of(&self, seat: Seat) -> String {
        self.fan.legal.iter().find(|(s, ..)| *s == seat).map(|(.., list)| list.clone()).unwrap_or_default()
    }
}

/// Every observer of a table of `players` seats, in the fan-out's order: the seats, then the spectators (None).
fn every_observer(players: usize) -> Vec<Option<Seat>> {
    (0..players).map(Some).chain([None]).collect()
}

/// A peer's `ref` as Python sees it.
pub(crate) fn ref_to_py<'py>(py: Python<'py>, peer_ref: Ref<'_>) -> PyResult<Bound<'py, PyAny>> {
    Ok(match peer_ref {
        Ref::None => py.None().into_bound(py),
        Ref::Int(n) => n.into_pyobject(py)?.into_any(),
        Ref::Str(text) => PyString::new(py, text).into_any(),
    })
}

/// Checks a seat number against the player count (negative numbers included).
fn seat_of(py: Python<'_>, game: &dyn AnyGame, seat: i64) -> PyResult<Seat> {
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

fn observer_of(py: Python<'_>, game: &dyn AnyGame, seat: Option<i64>) -> PyResult<Option<Seat>> {
    seat.map(|s| seat_of(py, game, s)).transpose()
}

fn index_of(py: Python<'_>, game: &dyn AnyGame, seat: Seat, index: i64) -> PyResult<usize> {
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
fn move_value(py: Python<'_>, mv: &Bound<'_, PyAny>) -> PyResult<Value> {
    from_py(mv).map_err(|e| to_pyerr(py, &GameError::invalid(format!("not a move: {}", e.message()))))
}

fn events_value(game: &dyn AnyGame, seat: Option<Seat>) -> Result<Value, GameError> {
    game.events(seat).map(Value::Array)
}

static MAKE_OUTCOME: PyOnceLock<Py<PyAny>> = PyOnceLock::new();

/// The outcome as the Python dataclass of its kind (built by `cardnet.games`).
fn outcome_to_py<'py>(py: Python<'py>, outcome: &Outcome) -> PyResult<Bound<'py, PyAny>> {
    let make = MAKE_OUTCOME.get_or_try_init(py, || {
        py.import("cardnet.games").and_then(|m| m.getattr("outcome_from_dict")).map(Bound::unbind)
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
            let list = PyList::empty(py);
            for mv in game.legal_moves(seat) {
                list.append(to_py(py, &mv)?)?;
            }
            Ok(list)
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
            to_py(py, &check(py, game.view(observer_of(py, game, seat)?))?)
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

    /// Everything a host sends after a state change, for `observers` (seats, None = spectator), as canonical
    /// JSON text: one native call, the public view encoded once and hashed from the same bytes.
    fn fan_out(&self, py: Python<'_>, observers: Vec<Option<i64>>) -> PyResult<FanOut> {
        guard(py, || {
            let game = self.usable(py)?;
            let observers = observers.into_iter().map(|o| observer_of(py, game, o)).collect::<PyResult<Vec<_>>>()?;
            Ok(FanOut::new(game, game.fan_out(&observers), None))
        })
    }

    /// Plays `move` for `seat` and returns the fan-out of the new state for `observers` in the same call.
    /// `move` is a move dict or the index of a listed legal move (an `int`). Raises as `apply` /
    /// `apply_index` would, and the game is then unchanged. `FanOut.move_json` holds the applied move's
    /// canonical JSON for the host's journal (the move as given, or the listed move of the index).
    fn play(
        &mut self,
        py: Python<'_>,
        seat: i64,
        r#move: &Bound<'_, PyAny>,
        observers: Vec<Option<i64>>,
    ) -> PyResult<FanOut> {
        let game = self.usable(py)?;
        let seat = seat_of(py, game, seat)?;
        let observers = observers.into_iter().map(|o| observer_of(py, game, o)).collect::<PyResult<Vec<_>>>()?;
        let input = if r#move.is_instance_of::<PyInt>() && !r#move.is_instance_of::<PyBool>() {
            let index: i64 = r#move.extract().map_err(|_| {
                to_pyerr(py, &GameError::illegal("no_such_move", format!("index {} is out of range", r#move)))
            })?;
            Given::Index(index_of(py, game, seat, index)?)
        } else {
            Given::Move(move_value(py, r#move)?)
        };
        self.mutate(py, |game| {
            let recorded = match &input {
                Given::Index(index) => game.apply_recorded(seat, MoveInput::Index(*index)),
                Given::Move(value) => game.apply_recorded(seat, MoveInput::Json(value)),
            };
            let recorded = check(py, recorded)?;
            Ok(FanOut::new(&*game, game.fan_out(&observers), Some(recorded)))
        })
    }

    /// The host's fast lane: one native call per accepted move of a peer's index `move` line.
    ///
    /// `line` answers `seat`'s open decision `decision_id` (with `count` legal moves); `held` holds the other
    /// seats' open decisions as `(seat, id, legal list)`, `seq` each seat's count of decisions opened so far
    /// (a new decision of seat `s` gets id `(seq[s] + 1) * stride + s`); `game_no` and `state_id` (the new
    /// state's) go into the lines and the record. Returns None, changing nothing, unless `line` is an index
    /// `move` (`parse_move_line`: any key order and spacing) for that decision and the index is listed (the
    /// general path then answers it); raises as `play` would, the game then unchanged. Otherwise plays the
    /// move and returns `(fan, record, lines, decisions, ref)`: the new state's `FanOut` for observers
    /// `[0, .., players - 1, None]`, the move's journal payload (canonical JSON), every observer's `update`
    /// line in that order (newline included, the mover's carrying its ack; None when longer than `limit`
    /// bytes), the acting seats' decisions `(seat, id, count, legal list)` (the list None for a kept
    /// decision) and the line's `ref`. A legal list longer than `inline_limit` bytes is paged rather than
    /// inlined. No turn timer: the decisions have no deadline.
    #[allow(clippy::too_many_arguments)]
    #[pyo3(signature = (line, seat, decision_id, count, held, seq, stride, game_no, state_id, inline_limit, limit))]
    fn host_move<'py>(
        &mut self,
        py: Python<'py>,
        line: &[u8],
        seat: i64,
        decision_id: u64,
        count: u64,
        held: Vec<(Seat, u64, String)>,
        seq: Vec<u64>,
        stride: u64,
        game_no: u64,
        state_id: u64,
        inline_limit: usize,
        limit: usize,
    ) -> PyResult<Option<Bound<'py, PyTuple>>> {
        let held: Vec<Held> = held.iter().map(|(s, id, legal)| (*s, *id, legal.as_str())).collect();
        let asked = QuickMove {
            decision_id,
            count,
            held: &held,
            seq: &seq,
            stride,
            game_no,
            state_id,
            inline_limit,
            limit,
            spectator_line: true,
        };
        let Some(moved) = self.quick_move(py, line, seat, &asked)? else { return Ok(None) };
        let lines = PyList::empty(py);
        for text in &moved.lines {
            match text {
                Some(text) => lines.append(PyBytes::new(py, text.as_bytes()))?,
                None => lines.append(py.None())?,
            }
        }
        let record = PyBytes::new(py, moved.record.as_bytes());
        let peer_ref = ref_to_py(py, moved.peer_ref)?;
        let decisions = PyList::new(
            py,
            moved.decisions.iter().map(|&(s, id, count, kept)| (s, id, count, (!kept).then(|| moved.legal_of(s)))),
        )?;
        let fan = Bound::new(py, moved.fan)?;
        PyTuple::new(py, [fan.into_any(), record.into_any(), lines.into_any(), decisions.into_any(), peer_ref])
            .map(Some)
    }

    /// The host's native lane: serves this table's players' `move` lines, and their rematch votes once the
    /// game is over (the next game replaces this one in place), until something needs Python (see
    /// `cardnet.net.lane`). `table` and `limits` are dicts with the keys of `LaneTable` and `LaneLimits`
    /// (rust/py/src/lane.rs); returns what it did as a `LaneRun`. Only for trio's thread, with every other
    /// task blocked: it blocks the calling thread (not the GIL) while it waits.
    fn host_lane(&mut self, py: Python<'_>, table: LaneTable, limits: LaneLimits) -> PyResult<LaneRun> {
        host_lane(self, py, table, limits)
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

    /// Pickles as the saved game (a determinized copy cannot be pickled, as it cannot be saved).
    fn __reduce__<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyTuple>> {
        let text = self.to_json(py)?;
        let load = py.import("cardnet._core")?.getattr("load_game")?;
        PyTuple::new(py, [load, PyTuple::new(py, [PyString::new(py, &text)])?.into_any()])
    }

    /// A copy in which every hidden fact `observer` cannot know (None: only public knowledge) is dealt
    /// anew from `seed`; `observer`'s view and events are unchanged. Such a copy cannot be saved.
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
    /// Deterministic for a given seed; the search runs without holding the GIL.
    #[pyo3(signature = (seat, player = "random", level = None, seed = 0))]
    fn choose(&self, py: Python<'_>, seat: i64, player: &str, level: Option<&str>, seed: u64) -> PyResult<usize> {
        guard(py, || {
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

/// One seat's decision as `FanOut.lines` takes it: (id, count, deadline_ms, legal list or None when paged).
type DecisionParts = (u64, u64, Option<u64>, Option<String>);

/// A move as `Game.play` received it.
enum Given {
    Index(usize),
    Move(Value),
}

/// The fragments a host needs after a state change (see `Game.fan_out` and `Game.play`), every one
/// canonical JSON text ready to splice into a protocol line.
#[pyclass(module = "cardnet._core", name = "FanOut", frozen, get_all)]
pub struct FanOut {
    /// Hex SHA-256 of the canonical public view.
    state_hash: String,
    /// Seats that must act now, in increasing order.
    to_act: Vec<Seat>,
    /// Whether the game is over.
    over: bool,
    /// The outcome as canonical JSON once over, else None.
    outcome_json: Option<String>,
    /// `(seat, legal_count, legal_moves_json)` for every seat in `to_act`.
    pub(crate) legal: Vec<(Seat, usize, String)>,
    /// `(observer, view_json, events_json)` for every observer asked for, in the order asked.
    pub(crate) seats: Vec<(Option<Seat>, String, String)>,
    /// The applied move as canonical JSON (from `play`; None from `fan_out`).
    move_json: Option<String>,
}

impl FanOut {
    /// Whether the game is over in this state.
    pub(crate) fn is_over(&self) -> bool {
        self.over
    }

    pub(crate) fn new(game: &dyn AnyGame, core: CoreFanOut, move_json: Option<String>) -> Self {
        FanOut {
            state_hash: core.state_hash,
            to_act: core.to_act,
            over: game.is_over(),
            outcome_json: core.outcome,
            legal: core.legal,
            seats: core.seats,
            move_json,
        }
    }

    /// The start of every `kind` line of this state (everything before the seat's own parts).
    pub(crate) fn head(&self, kind: &str, game_no: u64, state_id: u64, to_act: &[u64]) -> String {
        let shared = Shared {
            kind,
            game_no,
            state_id,
            state_hash: &self.state_hash,
            to_act,
            over: self.over,
            outcome: self.outcome_json.as_deref(),
        };
        let mut head = String::with_capacity(256);
        shared.write(&mut head);
        head
    }
}

#[pymethods]
impl FanOut {
    /// The `kind` (`update` or `snapshot`) state lines of the observers at positions `wanted` of `seats`,
    /// each newline-terminated bytes (the bytes of `StateMessage.splice`), in one call for every seat of a
    /// move. `decisions[i]` is `(id, count, deadline_ms, legal_json or None when paged)` for `wanted[i]`, or
    /// None; `ack` is `(i, ack_json)` for the mover's line. A line longer than `limit` bytes (newline
    /// excluded) comes back as None, like a seat whose line cannot be built.
    #[allow(clippy::too_many_arguments)]
    #[pyo3(signature = (kind, game_no, state_id, to_act, wanted, decisions, ack, limit))]
    fn lines<'py>(
        &self,
        py: Python<'py>,
        kind: &str,
        game_no: u64,
        state_id: u64,
        to_act: Vec<u64>,
        wanted: Vec<usize>,
        decisions: Vec<Option<DecisionParts>>,
        ack: Option<(usize, String)>,
        limit: usize,
    ) -> PyResult<Vec<Option<Bound<'py, PyBytes>>>> {
        if kind != "update" && kind != "snapshot" {
            return Err(PyValueError::new_err(format!("a state line is an update or a snapshot, not {kind:?}")));
        }
        if decisions.len() != wanted.len() {
            return Err(PyValueError::new_err("one decision entry is needed per wanted observer"));
        }
        let head = self.head(kind, game_no, state_id, &to_act);
        let mut out = Vec::with_capacity(wanted.len());
        for (i, (&at, decision)) in wanted.iter().zip(&decisions).enumerate() {
            let Some((_, view, events)) = self.seats.get(at) else {
                return Err(PyValueError::new_err(format!("no observer at position {at}")));
            };
            let decision = decision.as_ref().map(|(id, count, deadline_ms, legal)| DecisionLine {
                id: *id,
                count: *count,
                deadline_ms: *deadline_ms,
                legal: legal.as_deref(),
            });
            let ack = ack.as_ref().filter(|(to, _)| *to == i).map(|(_, text)| text.as_str());
            let line = state_line(&head, kind == "update", ack, decision.as_ref(), events, view);
            out.push((line.len() <= limit + 1).then(|| PyBytes::new(py, line.as_bytes())));
        }
        Ok(out)
    }

    fn __repr__(&self) -> String {
        format!("<cardnet.FanOut hash={} to_act={:?} seats={}>", &self.state_hash[..12], self.to_act, self.seats.len())
    }
}
