//! `cardnet._core.host`: what only a host needs of a game, apart from the public `cardnet.Game` — a move and
//! every seat's lines in one call (the general and the fast path) and the native lane that serves a table's
//! sockets (see ARCHITECTURE.md, "The move paths"). This file converts and registers; each job is a module.

mod bucket;
mod fanout;
mod journal;
mod lane;
mod lines;
mod move_line;
mod quick;
mod rematch;
mod websocket;
mod writes;

use crate::errors::{check, guard, to_pyerr};
use crate::game::{index_of, move_value, observer_of, seat_of, Game};
use cardnet_core::session::MoveInput;
use cardnet_core::{GameError, Seat};
use fanout::FanOut;
use lane::{LaneLimits, LaneRun, LaneTable};
use move_line::Held;
use pyo3::prelude::*;
use pyo3::types::{PyBool, PyBytes, PyInt, PyList, PyTuple};
use quick::{quick_move, ref_to_py, QuickMove};
use serde_json::Value;

/// A move as `play` received it.
enum Given {
    Index(usize),
    Move(Value),
}

/// Everything a host sends after `game`'s state changed, for `observers` (seats, None = spectator), as
/// canonical JSON text: one native call, the public view encoded once and hashed from the same bytes.
#[pyfunction]
fn fan_out(py: Python<'_>, game: PyRef<'_, Game>, observers: Vec<Option<i64>>) -> PyResult<FanOut> {
    guard(py, || {
        let game = game.usable(py)?;
        let observers = observers.into_iter().map(|o| observer_of(py, game, o)).collect::<PyResult<Vec<_>>>()?;
        Ok(FanOut::new(game, game.fan_out(&observers), None))
    })
}

/// Plays `move` for `seat` in `game` and returns the fan-out of the new state for `observers` in the same call.
/// `move` is a move dict or the index of a listed legal move (an `int`). Raises as `apply` /
/// `apply_index` would, and the game is then unchanged. `FanOut.move_json` holds the applied move's
/// canonical JSON for the host's journal (the move as given, or the listed move of the index).
#[pyfunction]
fn play(
    py: Python<'_>,
    mut game: PyRefMut<'_, Game>,
    seat: i64,
    r#move: &Bound<'_, PyAny>,
    observers: Vec<Option<i64>>,
) -> PyResult<FanOut> {
    let current = game.usable(py)?;
    let seat = seat_of(py, current, seat)?;
    let observers = observers.into_iter().map(|o| observer_of(py, current, o)).collect::<PyResult<Vec<_>>>()?;
    let input = if r#move.is_instance_of::<PyInt>() && !r#move.is_instance_of::<PyBool>() {
        let index: i64 = r#move.extract().map_err(|_| {
            to_pyerr(py, &GameError::illegal("no_such_move", format!("index {} is out of range", r#move)))
        })?;
        Given::Index(index_of(py, current, seat, index)?)
    } else {
        Given::Move(move_value(py, r#move)?)
    };
    game.mutate(py, |game| {
        let recorded = match &input {
            Given::Index(index) => game.apply_recorded(seat, MoveInput::Index(*index)),
            Given::Move(value) => game.apply_recorded(seat, MoveInput::Json(value)),
        };
        let recorded = check(py, recorded)?;
        Ok(FanOut::new(&*game, game.fan_out(&observers), Some(recorded)))
    })
}

/// The host's fast lane: one native call per accepted move of a peer's index `move` line in `game`.
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
#[pyfunction]
#[pyo3(signature = (game, line, seat, decision_id, count, held, seq, stride, game_no, state_id, inline_limit, limit))]
fn play_line<'py>(
    py: Python<'py>,
    mut game: PyRefMut<'_, Game>,
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
    let Some(moved) = quick_move(&mut game, py, line, seat, &asked)? else { return Ok(None) };
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
    PyTuple::new(py, [fan.into_any(), record.into_any(), lines.into_any(), decisions.into_any(), peer_ref]).map(Some)
}

/// The host's native lane: serves the players' `move` lines of `game`'s table, and their rematch votes once
/// the game is over (the next game replaces this one in place), until something needs Python (see
/// `cardnet.net.lane`). `table` and `limits` are dicts with the keys of `LaneTable` and `LaneLimits`
/// (rust/py/src/host/lane.rs); returns what it did as a `LaneRun`. Only for trio's thread, with every other
/// task blocked: it blocks the calling thread (not the GIL) while it waits.
#[pyfunction]
fn serve_lane(py: Python<'_>, mut game: PyRefMut<'_, Game>, table: LaneTable, limits: LaneLimits) -> PyResult<LaneRun> {
    lane::serve(&mut game, py, table, limits)
}

/// The move of an index `move` line in any key order and spacing (`move_line::parse_move_line`), as
/// `(decision_id, index, ref)`; None for any other line, valid or not (the full decoder decides those). The one
/// definition of the protocol's move-line shortcut: the general path, the fast path and the native lane use it.
#[pyfunction]
fn parse_move_line<'py>(py: Python<'py>, line: &[u8]) -> PyResult<Option<(u64, i64, Bound<'py, PyAny>)>> {
    let Some(parsed) = move_line::parse_move_line(line) else { return Ok(None) };
    Ok(Some((parsed.decision_id, parsed.index, ref_to_py(py, parsed.peer_ref)?)))
}

/// One host line as the text frame the native lane writes to a browser's seat (`cardnet.web.ws.text_frame`'s
/// bytes): for tests, which check it against wsproto.
#[pyfunction]
fn websocket_frame<'py>(py: Python<'py>, line: &[u8]) -> Bound<'py, PyBytes> {
    let mut out = Vec::with_capacity(line.len() + websocket::MAX_HEADER);
    websocket::text_frame(line, &mut out);
    PyBytes::new(py, &out)
}

/// The line (with its newline) that the native lane reads from a browser's `frame` when the frame is exactly one
/// masked text message of at most `limit` bytes and one line; None when the lane leaves the bytes to the web
/// seat's reader (wsproto). For tests, which check it against wsproto.
#[pyfunction]
fn websocket_line<'py>(py: Python<'py>, frame: &[u8], limit: usize) -> Option<Bound<'py, PyBytes>> {
    let mut line = Vec::new();
    websocket::client_line(frame, limit, &mut line).then(|| PyBytes::new(py, &line))
}

/// The seed of game `game_no` (0-based) of a seeded table (docs/PROTOCOL.md § 5): the one definition, for
/// the table's rematches and the native lane's.
#[pyfunction]
fn derive_seed(seed: u64, game_no: u64) -> u64 {
    rematch::derive_seed(seed, game_no)
}

/// The bytes of one journal record: the header (length, CRC-32), then `payload`. Raises `ValueError` for a
/// payload over `MAX_RECORD`. The one definition of the framing: the native lane appends with it too.
#[pyfunction]
fn frame_record<'py>(py: Python<'py>, payload: &[u8]) -> PyResult<Bound<'py, PyBytes>> {
    let mut out = Vec::new();
    journal::frame(payload, &mut out).map_err(pyo3::exceptions::PyValueError::new_err)?;
    Ok(PyBytes::new(py, &out))
}

/// The payload of the journal record at `pos` of `data`: `(start, end, "")`, or `(0, 0, why)` when no intact
/// record starts there.
#[pyfunction]
fn record_span(data: &[u8], pos: usize) -> (usize, usize, String) {
    match journal::payload_at(data, pos) {
        Ok((start, end)) => (start, end, String::new()),
        Err(why) => (0, 0, why),
    }
}

/// The tokens of a message-rate bucket that held `tokens` at `stamp`, at `now` (`rate` a second, at most
/// `burst`): the one definition of the refill, which the native lane uses too.
#[pyfunction]
fn bucket_refill(tokens: f64, stamp: f64, now: f64, rate: f64, burst: f64) -> f64 {
    bucket::refill(tokens, stamp, now, rate, burst)
}

/// What every seat's `kind` line of one state shares (`,"game_no":` through `,"view":`), for `state_line`.
#[pyfunction]
fn state_shared(
    kind: &str,
    game_no: u64,
    state_id: u64,
    state_hash: &str,
    to_act: Vec<u64>,
    over: bool,
    outcome: Option<&str>,
) -> String {
    let mut out = String::new();
    lines::Shared { kind, game_no, state_id, state_hash, to_act: &to_act, over, outcome }.write(&mut out);
    out
}

/// One seat's `update` (`update` true) or `snapshot` line around `shared` (`state_shared`), newline included;
/// `decision` is `(id, count, deadline_ms, legal)`, `legal` None when the list is paged. The one definition of
/// the state line's bytes: the fan-out, the fast path and the native lane build theirs with it too.
#[pyfunction]
#[allow(clippy::type_complexity)]
fn state_line<'py>(
    py: Python<'py>,
    shared: &str,
    update: bool,
    ack: Option<&str>,
    decision: Option<(u64, u64, Option<u64>, Option<String>)>,
    events: &str,
    view: &str,
) -> Bound<'py, PyBytes> {
    let decision = decision.as_ref().map(|(id, count, deadline_ms, legal)| lines::DecisionLine {
        id: *id,
        count: *count,
        deadline_ms: *deadline_ms,
        legal: legal.as_deref(),
    });
    PyBytes::new(py, lines::state_line(shared, update, ack, decision.as_ref(), events, view).as_bytes())
}

/// Adds the `host` submodule to `parent` (`cardnet._core`).
pub fn register(parent: &Bound<'_, PyModule>) -> PyResult<()> {
    let py = parent.py();
    let m = PyModule::new(py, "host")?;
    m.add_class::<FanOut>()?;
    m.add_class::<LaneRun>()?;
    m.add_function(wrap_pyfunction!(fan_out, &m)?)?;
    m.add_function(wrap_pyfunction!(play, &m)?)?;
    m.add_function(wrap_pyfunction!(play_line, &m)?)?;
    m.add_function(wrap_pyfunction!(serve_lane, &m)?)?;
    m.add_function(wrap_pyfunction!(writes::write_lines, &m)?)?;
    m.add_function(wrap_pyfunction!(parse_move_line, &m)?)?;
    m.add_function(wrap_pyfunction!(derive_seed, &m)?)?;
    m.add_function(wrap_pyfunction!(frame_record, &m)?)?;
    m.add_function(wrap_pyfunction!(bucket_refill, &m)?)?;
    m.add_function(wrap_pyfunction!(state_shared, &m)?)?;
    m.add_function(wrap_pyfunction!(state_line, &m)?)?;
    m.add_function(wrap_pyfunction!(record_span, &m)?)?;
    m.add_function(wrap_pyfunction!(websocket_frame, &m)?)?;
    m.add_function(wrap_pyfunction!(websocket_line, &m)?)?;
    m.add("RECORD_HEADER", journal::HEADER)?;
    m.add("MAX_RECORD", journal::MAX_RECORD)?;
    parent.add_submodule(&m)?;
    // `import cardnet._core.host` looks the name up in sys.modules: an extension's submodule is not found on
    // any path.
    py.import("sys")?.getattr("modules")?.set_item("cardnet._core.host", &m)?;
    Ok(())
}
