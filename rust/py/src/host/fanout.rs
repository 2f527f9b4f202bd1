//! A state's fan-out as a host needs it (`cardnet._core.host.FanOut`): every observer's view, events and legal
//! list and the public hash, canonical JSON text ready to splice, and the lines spliced from them.

use super::lines::{state_line, DecisionLine, Shared};
use crate::errors::{check, guard};
use crate::game::Game;
use cardnet_core::registry;
use cardnet_core::session::{AnyGame, FanOut as CoreFanOut};
use cardnet_core::Seat;
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::PyBytes;
use serde_json::Value;

/// Every observer of a table of `players` seats, in the fan-out's order: the seats, then the spectators (None).
pub(crate) fn every_observer(players: usize) -> Vec<Option<Seat>> {
    (0..players).map(Some).chain([None]).collect()
}

/// The next game of `game`'s table (`Table.start_next_game`): same game and seats, dealt from `seed` with the
/// table's `options`, and its fan-out for every observer (`[0, .., players - 1, None]`). Nothing changes here:
/// `Game::replace` puts it in place.
pub(crate) fn next_game(
    game: &Game,
    py: Python<'_>,
    seed: u64,
    options: &Value,
) -> PyResult<(Box<dyn AnyGame>, FanOut)> {
    let name = game.usable(py)?.name();
    let players = game.players();
    guard(py, || {
        let next = check(py, registry::new_game(name, Some(players), seed, options))?;
        let observers = every_observer(players);
        let fan = FanOut::new(next.as_ref(), next.fan_out(&observers), None);
        Ok((next, fan))
    })
}

/// One seat's decision as `FanOut.lines` takes it: (id, count, deadline_ms, legal list or None when paged).
type DecisionParts = (u64, u64, Option<u64>, Option<String>);

/// The fragments a host needs after a state change (see `host.fan_out` and `host.play`), every one
/// canonical JSON text ready to splice into a protocol line.
#[pyclass(module = "cardnet._core.host", name = "FanOut", frozen, get_all)]
pub struct FanOut {
    /// Hex SHA-256 of the canonical public view.
    pub(crate) state_hash: String,
    /// Seats that must act now, in increasing order.
    pub(crate) to_act: Vec<Seat>,
    /// Whether the game is over.
    pub(crate) over: bool,
    /// The outcome as canonical JSON once over, else None.
    pub(crate) outcome_json: Option<String>,
    /// `(seat, legal_count, legal_moves_json)` for every seat in `to_act`.
    pub(crate) legal: Vec<(Seat, usize, String)>,
    /// `(observer, view_json, events_json)` for every observer asked for, in the order asked.
    pub(crate) seats: Vec<(Option<Seat>, String, String)>,
    /// The applied move as canonical JSON (from `play`; None from `fan_out`).
    pub(crate) move_json: Option<String>,
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
        format!(
            "<cardnet._core.host.FanOut hash={} to_act={:?} seats={}>",
            &self.state_hash[..12],
            self.to_act,
            self.seats.len()
        )
    }
}
