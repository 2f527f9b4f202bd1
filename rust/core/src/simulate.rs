//! Batch self-play in Rust: the fastest way to run many games with built-in players.
//!
//! Game `i` of a batch with seed `S` is dealt with `derive(S, i)` — the same game as
//! `new_game(seed = derive(S, i))` — and its players draw their own choices from `derive(derive(S, i), 1)`.
//!
//! [`play_games`] plays a list of single games, each with its own deal seed and seating, and records each
//! one (rewards, winners, and how long every decision took): what `cardnet arena` builds its statistics on.

use crate::ai::Player;
use crate::error::GameError;
use crate::game::{Game, Setup};
use crate::rng::{derive, Rng};
use crate::session::Session;
use serde_json::{json, Value};
#[cfg(not(unix))]
use std::time::Instant;

pub use crate::game::DECISION_LIMIT;

/// Totals of a batch.
#[derive(Clone, Debug, PartialEq)]
pub struct SimSummary {
    /// Games played.
    pub games: u64,
    /// Decisions made in them, all seats together.
    pub decisions: u64,
    /// Per seat: the sum over games of [`crate::game::Outcome::rewards`] (wins, shares of wins, half draws).
    pub rewards: Vec<f64>,
    /// Per seat: games won outright or shared.
    pub wins: Vec<u64>,
    /// Games that ended with no winner.
    pub no_winner: u64,
}

impl SimSummary {
    /// The summary as JSON (rewards in thousandths, to keep JSON integer-only).
    pub fn to_json(&self) -> Value {
        let milli: Vec<i64> = self.rewards.iter().map(|r| (r * 1000.0).round() as i64).collect();
        json!({"games": self.games, "decisions": self.decisions, "wins": self.wins,
               "no_winner": self.no_winner, "reward_milli": milli})
    }
}

/// Plays `games` games of `G` with one built-in player per seat.
pub fn simulate<G: Game>(
    players: Option<usize>,
    options: &Value,
    seats: &[Player],
    games: u64,
    seed: u64,
) -> Result<SimSummary, GameError> {
    let template = Session::<G>::start(players, seed, options)?;
    let setup = template.game().setup().clone();
    if seats.len() != setup.players {
        return Err(GameError::BadOptions(format!("{} seats given for a {}-player game", seats.len(), setup.players)));
    }
    let mut summary = SimSummary {
        games,
        decisions: 0,
        rewards: vec![0.0; setup.players],
        wins: vec![0; setup.players],
        no_winner: 0,
    };
    let mut game_setup = setup.clone();
    for i in 0..games {
        game_setup.seed = derive(seed, i);
        let record = play_one::<G>(&game_setup, seats, false).map_err(|e| at_game(e, i))?;
        summary.decisions += record.decisions;
        for (total, r) in summary.rewards.iter_mut().zip(&record.rewards) {
            *total += r;
        }
        for &w in &record.winners {
            summary.wins[w] += 1;
        }
        if record.winners.is_empty() {
            summary.no_winner += 1;
        }
    }
    Ok(summary)
}

/// One finished game of [`play_games`].
#[derive(Clone, Debug, PartialEq)]
pub struct GameRecord {
    /// Decisions made, all seats together.
    pub decisions: u64,
    /// Per seat: [`crate::game::Outcome::rewards`].
    pub rewards: Vec<f64>,
    /// Seats that won (outright or shared).
    pub winners: Vec<usize>,
    /// Per seat: CPU nanoseconds each of its decisions took (empty lists unless timed).
    pub think_ns: Vec<Vec<u64>>,
}

/// Nanoseconds of CPU time the calling thread has used: what a decision costs on one core, however loaded
/// the machine is (the built-in players are single-threaded).
#[cfg(all(unix, feature = "clock"))]
fn thread_cpu_ns() -> u64 {
    let mut t = libc::timespec { tv_sec: 0, tv_nsec: 0 };
    // SAFETY: `t` is a valid, writable timespec and the clock id is a constant the platform defines.
    let rc = unsafe { libc::clock_gettime(libc::CLOCK_THREAD_CPUTIME_ID, &mut t) };
    if rc != 0 {
        return 0;
    }
    u64::try_from(t.tv_sec)
        .unwrap_or(0)
        .saturating_mul(1_000_000_000)
        .saturating_add(u64::try_from(t.tv_nsec).unwrap_or(0))
}

/// Elsewhere, or without the `clock` feature, wall-clock time since the first call stands in for it.
#[cfg(not(all(unix, feature = "clock")))]
fn thread_cpu_ns() -> u64 {
    static START: std::sync::OnceLock<std::time::Instant> = std::sync::OnceLock::new();
    u64::try_from(START.get_or_init(std::time::Instant::now).elapsed().as_nanos()).unwrap_or(u64::MAX)
}

/// Plays one game from `setup` (dealt exactly as `new_game(seed = setup.seed)`), `seats[s]` choosing for
/// seat `s` with choices drawn from `derive(setup.seed, 1)`. With `timed`, every decision's CPU time is
/// measured; that costs two clock reads per decision, which is why plain batches do without.
pub fn play_one<G: Game>(setup: &Setup, seats: &[Player], timed: bool) -> Result<GameRecord, GameError> {
    let mut game = G::new(setup)?;
    let mut rng = Rng::new(derive(setup.seed, 1));
    let mut decisions = 0u64;
    let mut think_ns = vec![Vec::new(); setup.players];
    while let Some(seat) = game.to_act().first() {
        let index = if timed {
            let start = thread_cpu_ns();
            let index = seats[seat].choose(&game, seat, &mut rng)?;
            think_ns[seat].push(thread_cpu_ns().saturating_sub(start));
            index
        } else {
            seats[seat].choose(&game, seat, &mut rng)?
        };
        game.apply_index(seat, index)?;
        decisions += 1;
        if decisions > DECISION_LIMIT {
            return Err(GameError::Internal(format!("did not end within {DECISION_LIMIT} decisions")));
        }
    }
    let outcome = game.outcome().ok_or_else(|| GameError::Internal("stopped unfinished".into()))?;
    Ok(GameRecord { decisions, rewards: outcome.rewards(setup.players), winners: outcome.winners.clone(), think_ns })
}

/// One game to play in [`play_games`]: its deal seed and which player sits at each seat.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Seating {
    /// The deal's seed.
    pub seed: u64,
    /// `players[s]` is the index (into the `players` list of [`play_games`]) of the player at seat `s`.
    pub players: Vec<usize>,
}

/// Plays each game of `games` in order, timing every decision (CPU time): game `g` is dealt with `g.seed` for
/// `players.len()` seats and seat `s` is played by `players[g.players[s]]`. Options and seatings are
/// checked before any game is played.
pub fn play_games<G: Game>(
    options: &Value,
    players: &[Player],
    games: &[Seating],
) -> Result<Vec<GameRecord>, GameError> {
    let template = Session::<G>::start(Some(players.len()), 0, options)?;
    let mut setup = template.game().setup().clone();
    let mut seatings = Vec::with_capacity(games.len());
    for g in games {
        let mut taken = vec![false; players.len()];
        for &p in &g.players {
            if p >= players.len() || std::mem::replace(&mut taken[p], true) {
                return Err(GameError::BadOptions(format!(
                    "seating {:?} is not an order of the {} players",
                    g.players,
                    players.len()
                )));
            }
        }
        if g.players.len() != players.len() {
            return Err(GameError::BadOptions(format!("seating {:?} leaves seats empty", g.players)));
        }
        seatings.push(g.players.iter().map(|&p| players[p]).collect::<Vec<_>>());
    }
    let mut records = Vec::with_capacity(games.len());
    for (i, (g, seats)) in games.iter().zip(&seatings).enumerate() {
        setup.seed = g.seed;
        records.push(play_one::<G>(&setup, seats, true).map_err(|e| at_game(e, i as u64))?);
    }
    Ok(records)
}

/// Names the game of a batch in an internal error (the rules engines never fail on their own moves).
fn at_game(error: GameError, i: u64) -> GameError {
    match error {
        GameError::Internal(m) => GameError::Internal(format!("game {i}: {m}")),
        other => other,
    }
}
