//! `cardnet._core`: the Python bindings of cardnet-core. Conversions, error mapping and the panic guard;
//! the rules live in the core and the typed faces in the `cardnet` package. What only a host needs (a move
//! and every seat's lines in one call, the native lane on the table's sockets) is the submodule
//! `cardnet._core.host` (`host/`), apart from the public `Game`.

mod convert;
mod errors;
mod game;
mod host;
mod rl;
mod seed;
mod segments;

use cardnet_core::json::{canonical, parse};
use cardnet_core::simulate::Seating;
use cardnet_core::{registry, GameError};
use convert::{from_py, options_value, to_py, ConvertError};
use errors::{check, guard, internal, to_pyerr};
use game::Game;
use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::PyDict;
use serde_json::Value;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::time::Instant;

/// Starts a game. `players=None` takes the game's default; `options` is a dict (defaults filled in).
#[pyfunction]
#[pyo3(signature = (name, players = None, seed = 0, options = None))]
fn new_game(
    py: Python<'_>,
    name: &str,
    players: Option<usize>,
    seed: u64,
    options: Option<&Bound<'_, PyAny>>,
) -> PyResult<Game> {
    guard(py, || {
        let options = options_value(py, options)?;
        Ok(Game::wrap(check(py, registry::new_game(name, players, seed, &options))?))
    })
}

/// Loads a saved game (the text of `Game.to_json()`), replaying and checking every move.
#[pyfunction]
fn load_game(py: Python<'_>, text: &str) -> PyResult<Game> {
    guard(py, || Ok(Game::wrap(check(py, registry::load_game(text))?)))
}

/// A game built from what `seat` sees (`view` as `Game.view(seat)` returns it; `seat=None` a spectator),
/// every hidden fact dealt from `seed`: what a network bot hands to the built-in players. The result is a
/// determinized copy with no deal to replay, so it cannot be saved (`IllegalMove`, code `determinized`).
#[pyfunction]
#[pyo3(signature = (name, view, seat, players = None, options = None, seed = 0))]
fn game_from_view(
    py: Python<'_>,
    name: &str,
    view: &Bound<'_, PyAny>,
    seat: Option<i64>,
    players: Option<usize>,
    options: Option<&Bound<'_, PyAny>>,
    seed: u64,
) -> PyResult<Game> {
    guard(py, || {
        let options = options_value(py, options)?;
        let view =
            from_py(view).map_err(|e| to_pyerr(py, &GameError::CorruptState(format!("view: {}", e.message()))))?;
        let seat = match seat {
            None => None,
            Some(s) if s >= 0 => Some(s as usize),
            Some(s) => return Err(to_pyerr(py, &GameError::BadOptions(format!("seat {s} does not exist")))),
        };
        Ok(Game::wrap(check(py, registry::from_view(name, players, &options, seat, &view, seed))?))
    })
}

/// TEN's deck for `players` players (1 to 5): every card as views show it (`type`, `colour`, `value`, `id`), in id
/// order. With the public view it tells which cards are still unseen (what the full-screen client counts a
/// draw's bust risk from).
#[pyfunction]
fn ten_deck(py: Python<'_>, players: u8) -> PyResult<Vec<Bound<'_, PyAny>>> {
    use cardnet_core::games::ten::cards::TenData;
    guard(py, || {
        let data = check(py, TenData::embedded().map_err(GameError::CorruptState))?;
        let ids = check(py, data.deck_for(players))?;
        ids.iter()
            .map(|&id| {
                let mut card = serde_json::to_value(data.kind(id)).map_err(|e| internal(py, e.to_string()))?;
                if let Value::Object(map) = &mut card {
                    map.insert("id".into(), Value::from(id));
                }
                to_py(py, &card)
            })
            .collect()
    })
}

/// Every game's description as canonical-ready dicts, in menu order.
#[pyfunction]
fn game_infos(py: Python<'_>) -> PyResult<Vec<Bound<'_, PyAny>>> {
    guard(py, || registry::infos().iter().map(|info| to_py(py, &info.to_json())).collect())
}

/// Batch self-play in Rust without the GIL: totals as a dict (`games`, `decisions`, `wins`, `no_winner`,
/// `rewards`, `seconds`). Game `i` is `new_game(name, seed=derive(seed, i))`.
#[pyfunction]
#[pyo3(signature = (name, seats, games, seed, options = None))]
fn simulate<'py>(
    py: Python<'py>,
    name: &str,
    seats: Vec<String>,
    games: u64,
    seed: u64,
    options: Option<&Bound<'py, PyAny>>,
) -> PyResult<Bound<'py, PyDict>> {
    guard(py, || {
        let options = options_value(py, options)?;
        let seat_names: Vec<&str> = seats.iter().map(String::as_str).collect();
        let run = py.detach(|| {
            catch_unwind(AssertUnwindSafe(|| {
                let start = Instant::now();
                registry::simulate(name, &seat_names, games, seed, &options).map(|s| (s, start.elapsed()))
            }))
        });
        let (summary, elapsed) = match run {
            Ok(result) => check(py, result)?,
            Err(_) => return Err(internal(py, "internal error in cardnet-core during simulate".into())),
        };
        let out = PyDict::new(py);
        out.set_item("games", summary.games)?;
        out.set_item("decisions", summary.decisions)?;
        out.set_item("wins", summary.wins)?;
        out.set_item("no_winner", summary.no_winner)?;
        out.set_item("rewards", summary.rewards)?;
        out.set_item("seconds", elapsed.as_secs_f64())?;
        Ok(out)
    })
}

/// Single games with their own deal seed and seating, played in Rust without the GIL, every decision
/// timed: one dict per game (`decisions`, `rewards` and `winners` by seat, `think_ns`: per seat the
/// nanoseconds of each of its decisions). `games` lists `(seed, seating)`, `seating[s]` being the index in
/// `players` of the player at seat `s`.
#[pyfunction]
#[pyo3(signature = (name, players, games, options = None))]
fn play_games<'py>(
    py: Python<'py>,
    name: &str,
    players: Vec<String>,
    games: Vec<(u64, Vec<usize>)>,
    options: Option<&Bound<'py, PyAny>>,
) -> PyResult<Vec<Bound<'py, PyDict>>> {
    guard(py, || {
        let options = options_value(py, options)?;
        let names: Vec<&str> = players.iter().map(String::as_str).collect();
        let seatings: Vec<Seating> = games.into_iter().map(|(seed, players)| Seating { seed, players }).collect();
        let run =
            py.detach(|| catch_unwind(AssertUnwindSafe(|| registry::play_games(name, &names, &seatings, &options))));
        let records = match run {
            Ok(result) => check(py, result)?,
            Err(_) => return Err(internal(py, "internal error in cardnet-core during play_games".into())),
        };
        records
            .into_iter()
            .map(|r| {
                let out = PyDict::new(py);
                out.set_item("decisions", r.decisions)?;
                out.set_item("rewards", r.rewards)?;
                out.set_item("winners", r.winners)?;
                out.set_item("think_ns", r.think_ns)?;
                Ok(out)
            })
            .collect()
    })
}

/// The built-in player a difficulty level (`easy`, `normal`, `hard`) stands for in game `game`, as
/// `simulate` names it (`heuristic`, `careless:P`, `ismcts:N`); `UnknownGame` or `BadOptions` for an
/// unknown game or level.
#[pyfunction]
fn level_player(py: Python<'_>, game: &str, level: &str) -> PyResult<String> {
    guard(py, || Ok(check(py, cardnet_core::registry::level_player(game, level))?.name()))
}

/// The seed of game `index` of a batch seeded `seed` (the core's documented derivation).
#[pyfunction]
fn derive(seed: u64, index: u64) -> u64 {
    cardnet_core::rng::derive(seed, index)
}

/// Canonical JSON of a Python value: sorted keys, no spaces, integers only, ASCII — byte-identical to
/// what the core writes. Raises `TypeError` for values JSON cannot hold (floats included).
#[pyfunction]
fn json_dumps(py: Python<'_>, obj: &Bound<'_, PyAny>) -> PyResult<String> {
    guard(py, || match from_py(obj) {
        Ok(value) => Ok(canonical(&value)),
        Err(ConvertError::Type(m)) => Err(PyTypeError::new_err(m)),
        Err(ConvertError::Value(m)) => Err(PyValueError::new_err(m)),
    })
}

/// Parses one JSON document strictly (no NaN, no trailing data); `ValueError` otherwise.
#[pyfunction]
fn json_loads<'py>(py: Python<'py>, text: &str) -> PyResult<Bound<'py, PyAny>> {
    guard(py, || match parse(text) {
        Ok(value) => to_py(py, &value),
        Err(e) => Err(PyValueError::new_err(format!("not JSON: {e}"))),
    })
}

/// How this extension was built: version, cargo profile, optimisation level, debug assertions and a
/// digest of the Rust sources it was built from.
#[pyfunction]
fn build_info(py: Python<'_>) -> PyResult<Bound<'_, PyDict>> {
    let info = PyDict::new(py);
    info.set_item("version", env!("CARGO_PKG_VERSION"))?;
    info.set_item("profile", env!("CARDNET_PROFILE"))?;
    info.set_item("opt_level", env!("CARDNET_OPT_LEVEL"))?;
    info.set_item("debug_assertions", cfg!(debug_assertions))?;
    info.set_item("source_digest", env!("CARDNET_SOURCE_DIGEST"))?;
    Ok(info)
}

/// Takes what the binding raises and builds but does not import: cardnet's exception classes (name to class)
/// and the maker of outcome dataclasses. `cardnet` calls it once, at its import.
#[pyfunction]
fn bind_python(py: Python<'_>, errors: &Bound<'_, PyDict>, make_outcome: &Bound<'_, PyAny>) -> PyResult<()> {
    errors::bind(py, errors)?;
    game::bind_outcome(py, make_outcome)
}

#[pymodule]
fn _core(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    m.add_class::<Game>()?;
    m.add_class::<rl::RlState>()?;
    m.add_class::<rl::VecEnv>()?;
    m.add_function(wrap_pyfunction!(rl::rl_new, m)?)?;
    m.add_function(wrap_pyfunction!(rl::rl_load, m)?)?;
    m.add_function(wrap_pyfunction!(new_game, m)?)?;
    m.add_function(wrap_pyfunction!(load_game, m)?)?;
    m.add_function(wrap_pyfunction!(game_from_view, m)?)?;
    m.add_function(wrap_pyfunction!(ten_deck, m)?)?;
    m.add_function(wrap_pyfunction!(game_infos, m)?)?;
    m.add_function(wrap_pyfunction!(simulate, m)?)?;
    m.add_function(wrap_pyfunction!(play_games, m)?)?;
    m.add_function(wrap_pyfunction!(derive, m)?)?;
    m.add_function(wrap_pyfunction!(level_player, m)?)?;
    m.add_function(wrap_pyfunction!(json_dumps, m)?)?;
    m.add_function(wrap_pyfunction!(json_loads, m)?)?;
    m.add_function(wrap_pyfunction!(build_info, m)?)?;
    m.add_function(wrap_pyfunction!(bind_python, m)?)?;
    m.add_function(wrap_pyfunction!(segments::seg_values, m)?)?;
    m.add_function(wrap_pyfunction!(segments::seg_card_types, m)?)?;
    m.add_function(wrap_pyfunction!(segments::seg_glyph, m)?)?;
    m.add_function(wrap_pyfunction!(segments::seg_shape, m)?)?;
    m.add_function(wrap_pyfunction!(segments::seg_rotate, m)?)?;
    m.add_function(wrap_pyfunction!(segments::seg_value_of_shape, m)?)?;
    m.add_function(wrap_pyfunction!(segments::seg_cost, m)?)?;
    m.add_function(wrap_pyfunction!(segments::seg_min_cost, m)?)?;
    m.add_function(wrap_pyfunction!(segments::seg_transforms, m)?)?;
    m.add_function(wrap_pyfunction!(segments::seg_render, m)?)?;
    m.add_function(wrap_pyfunction!(segments::seg_render_cells, m)?)?;
    host::register(m)?;
    Ok(())
}
