//! The conformance harness every game's property tests run: random games checked at every step.
//!
//! It is public for the crate's integration tests (and a game written outside the crate may run it), but
//! hidden from the documentation and outside the semver promise: it reads `CARDNET_BLESS` and writes
//! golden files. At every decision it checks that the legal-move engine agrees with itself (unrank/rank
//! round trips, moves survive JSON), that clones and saves reproduce the state, that `public` is the same
//! for every observer, and that `determinize` leaves each observer's view and events unchanged — which also
//! proves that a view holds no hidden fact of another seat, since `determinize` re-deals exactly those
//! facts.

use crate::game::DECISION_LIMIT;
use crate::game::{Game, Seat};
use crate::json::canonical;
use crate::rng::Rng;
use crate::session::{AnyGame, Session};
use serde_json::Value;

/// How thoroughly to check each step.
#[derive(Clone, Copy, Debug)]
pub struct Depth {
    /// Legal moves ranked/unranked per seat and step (all of them when fewer).
    pub moves_checked: usize,
    /// Save → load round trip every this many decisions (and at the end); 0 = only at the end.
    pub save_every: u64,
    /// Determinizations per observer per step.
    pub determinizations: usize,
}

impl Default for Depth {
    fn default() -> Self {
        Depth { moves_checked: 24, save_every: 25, determinizations: 1 }
    }
}

/// Plays one random game of `G` (players, seed, options as for a new game; moves drawn from `move_seed`),
/// runs every check at every step plus `invariant` (a game's own conservation laws), and returns the number
/// of decisions. The error names the step and what failed.
pub fn check_random_game<G: Game>(
    players: usize,
    seed: u64,
    options: &Value,
    move_seed: u64,
    depth: Depth,
    invariant: &dyn Fn(&G) -> Result<(), String>,
) -> Result<u64, String> {
    let mut session = Session::<G>::start(Some(players), seed, options).map_err(|e| e.to_string())?;
    let mut rng = Rng::new(move_seed);
    let mut step = 0u64;
    loop {
        let game = session.game();
        let at = |what: String| format!("step {step}: {what}");
        check_state(game, &mut rng, depth).map_err(at)?;
        invariant(game).map_err(at)?;
        if depth.save_every > 0 && step.is_multiple_of(depth.save_every) {
            check_save(&session).map_err(at)?;
        }
        let Some(seat) = game.to_act().first() else { break };
        let count = game.legal_count(seat);
        session.apply_index(seat, rng.index(count)).map_err(|e| at(format!("apply_index failed: {e}")))?;
        step += 1;
        if step > DECISION_LIMIT {
            return Err(format!("no end after {DECISION_LIMIT} decisions"));
        }
    }
    check_save(&session).map_err(|e| format!("end: {e}"))?;
    Ok(step)
}

/// Every check of one state (the legal-move engine against itself, moves through JSON, clones, the public
/// part of every observer's view, views rebuilt by `from_view`, determinization), with the error naming what
/// failed: what [`check_random_game`] runs at each step, and the fuzzers (`rust/fuzz`) on every state they
/// reach from outside data.
pub fn check_state<G: Game>(game: &G, rng: &mut Rng, depth: Depth) -> Result<(), String> {
    let players = game.setup().players;
    let to_act = game.to_act();
    if to_act.is_empty() != game.outcome().is_some() {
        return Err(format!("to_act {:?} but outcome {:?}", to_act, game.outcome()));
    }
    for seat in 0..players {
        let count = game.legal_count(seat);
        if to_act.contains(seat) != (count > 0) {
            return Err(format!("seat {seat}: to_act {} but {count} legal moves", to_act.contains(seat)));
        }
        if game.legal_move(seat, count).is_some() {
            return Err(format!("seat {seat}: legal_move({count}) past the end exists"));
        }
        for index in sample_indices(count, depth.moves_checked, rng) {
            let mv = game.legal_move(seat, index).ok_or(format!("seat {seat}: legal_move({index}) is None"))?;
            if game.index_of(seat, &mv) != Some(index) {
                return Err(format!("seat {seat}: index_of(legal_move({index})) = {:?}", game.index_of(seat, &mv)));
            }
            let json = game.move_to_json(&mv);
            let back = game.move_from_json(seat, &json).map_err(|e| format!("move {json} does not parse: {e}"))?;
            if game.index_of(seat, &back) != Some(index) {
                return Err(format!("seat {seat}: move {json} changed meaning through JSON"));
            }
        }
    }
    let clone = game.clone();
    if clone.state_json() != game.state_json() {
        return Err("clone differs from the original".into());
    }
    let public = game.public_view();
    let observers: Vec<Option<Seat>> = std::iter::once(None).chain((0..players).map(Some)).collect();
    for &observer in &observers {
        let view = game.view(observer);
        if view.get("public") != Some(&public) {
            return Err(format!("observer {observer:?}: view.public differs from public_view"));
        }
        if observer.is_none() && view.get("private") != Some(&Value::Null) {
            return Err("the spectator's view has private data".into());
        }
        let text = canonical(&view);
        if !text.is_ascii() {
            return Err("a view is not ASCII".into());
        }
        let built = G::from_view(game.setup(), observer, &view, &mut rng.fork())
            .map_err(|e| format!("observer {observer:?}: from_view failed: {e}"))?;
        if built.view(observer) != view {
            return Err(format!(
                "observer {observer:?}: from_view changed the view\n  before {}\n  after  {}",
                canonical(&view),
                canonical(&built.view(observer))
            ));
        }
        if built.to_act() != to_act {
            return Err(format!("observer {observer:?}: from_view changed to_act"));
        }
        if let Some(seat) = observer {
            let count = game.legal_count(seat);
            if built.legal_count(seat) != count
                || (0..count).any(|i| built.legal_move(seat, i) != game.legal_move(seat, i))
            {
                return Err(format!("seat {seat}: from_view changed its legal moves"));
            }
        }
        let events = game.events(observer);
        for _ in 0..depth.determinizations {
            let det = game.determinize(observer, &mut rng.fork());
            if det.view(observer) != view {
                return Err(format!(
                    "observer {observer:?}: determinize changed the view\n  before {}\n  after  {}",
                    canonical(&view),
                    canonical(&det.view(observer))
                ));
            }
            if det.events(observer) != events {
                return Err(format!("observer {observer:?}: determinize changed the events"));
            }
            if det.to_act() != to_act {
                return Err(format!("observer {observer:?}: determinize changed to_act"));
            }
            if let Some(seat) = observer {
                if det.legal_count(seat) != game.legal_count(seat) {
                    return Err(format!("seat {seat}: determinize changed its own legal moves"));
                }
            }
        }
    }
    Ok(())
}

fn check_save<G: Game>(session: &Session<G>) -> Result<(), String> {
    let saved = AnyGame::to_json(session).map_err(|e| e.to_string())?;
    let text = canonical(&saved);
    let loaded = crate::registry::load_game(&text).map_err(|e| format!("save does not load: {e}"))?;
    let again = loaded.to_json().map_err(|e| e.to_string())?;
    if canonical(&again) != text {
        return Err("save → load → save changed the document".into());
    }
    if loaded.state_hash() != session.state_hash() {
        return Err("save → load changed the state hash".into());
    }
    Ok(())
}

fn sample_indices(count: usize, limit: usize, rng: &mut Rng) -> Vec<usize> {
    if count <= limit {
        (0..count).collect()
    } else {
        let mut picked: Vec<usize> = (0..limit).map(|_| rng.index(count)).collect();
        picked.push(0);
        picked.push(count - 1);
        picked
    }
}

/// A golden playthrough: one canonical JSON line for the setup, then one per decision with the seat, the
/// move and the public hash after it; a `full` transcript also records the acting seat's view before the
/// move and the spectator's and actor's events after it. Moves are drawn uniformly from `move_seed`, so a
/// transcript changes only when the rules (or the generator) change.
pub fn golden_transcript(
    name: &str,
    players: usize,
    seed: u64,
    options: &Value,
    move_seed: u64,
    full: bool,
) -> Result<String, crate::GameError> {
    let mut game = crate::registry::new_game(name, Some(players), seed, options)?;
    let mut rng = Rng::new(move_seed);
    let header = serde_json::json!({"game": name, "players": players, "seed": seed,
        "options": game.setup().options, "move_seed": move_seed, "hash": game.state_hash()});
    let mut out = canonical(&header);
    out.push('\n');
    let mut step = 0u64;
    while let Some(&seat) = game.to_act().first() {
        let index = rng.index(game.legal_count(seat));
        let mv = game.legal_move(seat, index).unwrap_or(Value::Null);
        let view = if full { game.view(Some(seat))? } else { Value::Null };
        game.apply_index(seat, index)?;
        let mut line = serde_json::json!({"step": step, "seat": seat, "move": mv, "hash": game.state_hash()});
        if full {
            line["view"] = view;
            line["events"] = serde_json::json!({"spectator": game.events(None)?, "seat": game.events(Some(seat))?});
        }
        out.push_str(&canonical(&line));
        out.push('\n');
        step += 1;
        if step > DECISION_LIMIT {
            return Err(crate::GameError::Internal("golden game did not end".into()));
        }
    }
    let outcome = game.outcome().map(|o| o.to_json()).unwrap_or(Value::Null);
    out.push_str(&canonical(&serde_json::json!({"outcome": outcome})));
    out.push('\n');
    Ok(out)
}

/// Compares `transcript` with the golden file at `path`, or rewrites the file when the environment
/// variable `CARDNET_BLESS` is set (regenerating goldens is always a deliberate act).
pub fn check_golden(path: &std::path::Path, transcript: &str) -> Result<(), String> {
    if std::env::var_os("CARDNET_BLESS").is_some() {
        if let Some(dir) = path.parent() {
            std::fs::create_dir_all(dir).map_err(|e| e.to_string())?;
        }
        return std::fs::write(path, transcript).map_err(|e| e.to_string());
    }
    let stored = std::fs::read_to_string(path)
        .map_err(|e| format!("{}: {e} (run with CARDNET_BLESS=1 to create it)", path.display()))?;
    for (i, (want, got)) in stored.lines().zip(transcript.lines()).enumerate() {
        if want != got {
            return Err(format!("{} line {}: differs\n  golden {want}\n  now    {got}", path.display(), i + 1));
        }
    }
    if stored.lines().count() != transcript.lines().count() {
        return Err(format!(
            "{}: {} lines golden, {} now",
            path.display(),
            stored.lines().count(),
            transcript.lines().count()
        ));
    }
    Ok(())
}

/// One golden playthrough of a game: the setup and move seed of a transcript and the name of its file.
#[derive(Clone, Debug)]
pub struct GoldenCase {
    /// The file is `<game>-<label>.jsonl` in the golden directory.
    pub label: &'static str,
    /// Seats at the table.
    pub players: usize,
    /// The deal seed.
    pub seed: u64,
    /// Game options as for a new game.
    pub options: Value,
    /// The seed moves are drawn from.
    pub move_seed: u64,
    /// Whether the transcript records views and events (see [`golden_transcript`]).
    pub full: bool,
}

impl GoldenCase {
    /// A case in the order a table of cases reads best: file label, then the setup, then the moves.
    pub fn new(label: &'static str, players: usize, seed: u64, options: Value, move_seed: u64, full: bool) -> Self {
        GoldenCase { label, players, seed, options, move_seed, full }
    }
}

/// Plays every case of `game` and compares (or, with `CARDNET_BLESS`, rewrites) its file in `dir`. Every
/// case is checked even after one fails, so the error lists all that differ, one case a line.
pub fn check_golden_cases(dir: &std::path::Path, game: &str, cases: &[GoldenCase]) -> Result<(), String> {
    let failures: Vec<String> = cases
        .iter()
        .filter_map(|case| {
            let transcript = golden_transcript(game, case.players, case.seed, &case.options, case.move_seed, case.full);
            let path = dir.join(format!("{game}-{}.jsonl", case.label));
            match transcript {
                Ok(transcript) => check_golden(&path, &transcript).err(),
                Err(e) => Some(format!("{}: no transcript: {e}", path.display())),
            }
        })
        .collect();
    if failures.is_empty() {
        Ok(())
    } else {
        Err(failures.join("\n"))
    }
}
