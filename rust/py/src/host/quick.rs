//! One move played for the host's fast paths: a peer's index `move` line checked, played, and turned into its
//! journal record and every observer's `update` line (`host.play_line`, and each move of the native lane).

use super::fanout::{every_observer, FanOut};
use super::lines::{state_line, DecisionLine};
use super::move_line::{ack_json, decisions_after, move_record, parse_move_line, After, Held, Ref};
use crate::errors::check;
use crate::game::{seat_of, Game};
use cardnet_core::session::MoveInput;
use cardnet_core::Seat;
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::PyString;

/// The fast lane's move (`host.play_line`, and the native lane's every move), in Rust values: None, changing
/// nothing, unless `line` is an index `move` (any key order and spacing) of a listed move of
/// `asked.decision_id`; an error, the game unchanged, when the core refuses it.
pub(crate) fn quick_move<'l>(
    game: &mut Game,
    py: Python<'_>,
    line: &'l [u8],
    seat: i64,
    asked: &QuickMove<'_>,
) -> PyResult<Option<Moved<'l>>> {
    let Some(parsed) = parse_move_line(line) else { return Ok(None) };
    if parsed.decision_id != asked.decision_id || parsed.index < 0 || parsed.index as u64 >= asked.count {
        return Ok(None);
    }
    let current = game.usable(py)?;
    let mover = seat_of(py, current, seat)?;
    let players = game.players();
    if asked.seq.len() != players {
        // Checked before the move: nothing may fail between the move and the answer (allocation aside).
        return Err(PyValueError::new_err("one decision count is needed per seat"));
    }
    let observers = every_observer(players);
    let (fan, move_json) = game.mutate(py, |game| {
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

/// What a fast-lane move is asked against: see `host.play_line`.
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

/// What an accepted fast-lane move produced (see `host.play_line`).
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

/// A peer's `ref` as Python sees it.
pub(crate) fn ref_to_py<'py>(py: Python<'py>, peer_ref: Ref<'_>) -> PyResult<Bound<'py, PyAny>> {
    Ok(match peer_ref {
        Ref::None => py.None().into_bound(py),
        Ref::Int(n) => n.into_pyobject(py)?.into_any(),
        Ref::Str(text) => PyString::new(py, text).into_any(),
    })
}
