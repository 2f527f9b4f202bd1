//! Built-in players over the [`Game`] trait: they see a game only through its legal-move engine, views
//! and `determinize`, never through another seat's hidden cards.
//!
//! **Budgets.** A search level spends a [`Budget`] per decision: a fixed number of iterations by default,
//! so that a seed decides a bot's every move on any machine (tests, replays and the arena's paired deals
//! rely on that), or a think time (`hard@500`, [`Player::choose_within`] with [`Budget::Think`]), which
//! buys more search on a fast machine at the price of reproducibility. The levels' counts are calibrated
//! so that `hard` stays well under half a second per decision on one core (`bench/RESULTS.md`). Either
//! way a search stops early when the rest of its budget could not change its choice.

pub mod budget;
pub mod flat;
pub mod ismcts;
pub mod matrix;
mod playout;
mod simtree;

pub use budget::Budget;

use crate::error::GameError;
use crate::game::{Game, Search, Seat};
use crate::rng::Rng;
use budget::Meter;
use std::time::Duration;

/// A built-in player and its budget.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Player {
    /// Uniform among the legal moves.
    Random,
    /// The game's own rule of thumb ([`Game::heuristic_index`]).
    Heuristic,
    /// The game's search ([`Game::SEARCH`]) with this budget per decision: iterations of information-set
    /// MCTS, as many playouts of the flat search, or `playouts` times as many of the matrix search.
    Ismcts {
        /// Iterations (or playouts) per decision.
        iterations: u32,
    },
    /// The game's search with a wall-clock think time per decision instead of a count: not reproducible.
    Timed {
        /// Think time per decision in milliseconds.
        millis: u32,
    },
}

/// Iterations of the `normal` level.
pub const NORMAL_ITERATIONS: u32 = 300;
/// Iterations of the `hard` level.
pub const HARD_ITERATIONS: u32 = 1500;
/// The longest think time a player name may ask for, in milliseconds.
pub const MAX_THINK_MS: u32 = 600_000;

impl Player {
    /// Parses `random`, `heuristic`, `ismcts`, `ismcts:N` (N iterations, 1–1 000 000) or a difficulty level
    /// (`easy`, `normal`, `hard`; see [`Player::for_level`]), each search player optionally followed by
    /// `@MS`: a think time of MS milliseconds (1–600 000) per decision instead of its iteration count
    /// (`hard@500`).
    pub fn parse(text: &str) -> Result<Self, GameError> {
        let unknown = || {
            GameError::BadOptions(format!(
                "unknown player {text:?} (random, heuristic, ismcts, ismcts:N, easy, normal, hard; a search \
                 player may end in @MS for a think time of MS milliseconds)"
            ))
        };
        if let Some((base, millis)) = text.split_once('@') {
            let searches = matches!(Self::parse(base), Ok(Player::Ismcts { .. }));
            return match millis.parse::<u32>() {
                Ok(ms) if searches && (1..=MAX_THINK_MS).contains(&ms) => Ok(Player::Timed { millis: ms }),
                _ => Err(unknown()),
            };
        }
        match text {
            "easy" | "normal" | "hard" => Self::for_level(text),
            "random" => Ok(Player::Random),
            "heuristic" => Ok(Player::Heuristic),
            "ismcts" => Ok(Player::Ismcts { iterations: NORMAL_ITERATIONS }),
            _ => {
                let budget = text.strip_prefix("ismcts:").and_then(|n| n.parse::<u32>().ok());
                match budget {
                    Some(n) if (1..=1_000_000).contains(&n) => Ok(Player::Ismcts { iterations: n }),
                    _ => Err(unknown()),
                }
            }
        }
    }

    /// The player behind a difficulty level: `easy` = heuristic, `normal` and `hard` = the game's search
    /// with a growing budget.
    pub fn for_level(level: &str) -> Result<Self, GameError> {
        match level {
            "easy" => Ok(Player::Heuristic),
            "normal" => Ok(Player::Ismcts { iterations: NORMAL_ITERATIONS }),
            "hard" => Ok(Player::Ismcts { iterations: HARD_ITERATIONS }),
            _ => Err(GameError::BadOptions(format!("unknown level {level:?} (easy, normal, hard)"))),
        }
    }

    /// The player's name as `parse` reads it.
    pub fn name(self) -> String {
        match self {
            Player::Random => "random".into(),
            Player::Heuristic => "heuristic".into(),
            Player::Ismcts { iterations } => format!("ismcts:{iterations}"),
            Player::Timed { millis } => format!("ismcts@{millis}"),
        }
    }

    /// The search budget per decision, `None` for the players that do not search.
    pub fn budget(self) -> Option<Budget> {
        match self {
            Player::Random | Player::Heuristic => None,
            Player::Ismcts { iterations } => Some(Budget::Iterations(iterations)),
            Player::Timed { millis } => Some(Budget::Think(Duration::from_millis(u64::from(millis)))),
        }
    }

    /// The index of the legal move this player picks for `seat` with its own budget. `seat` must be to act.
    pub fn choose<G: Game>(self, game: &G, seat: Seat, rng: &mut Rng) -> Result<usize, GameError> {
        let budget = self.budget().unwrap_or(Budget::Iterations(0));
        self.choose_within(game, seat, budget, rng)
    }

    /// [`Player::choose`] with `budget` in place of the player's own (the players that do not search
    /// ignore it). With [`Budget::Iterations`] the choice depends only on the position and `rng`.
    pub fn choose_within<G: Game>(
        self,
        game: &G,
        seat: Seat,
        budget: Budget,
        rng: &mut Rng,
    ) -> Result<usize, GameError> {
        let count = game.legal_count(seat);
        if count == 0 {
            return Err(GameError::illegal("not_your_turn", format!("seat {seat} has nothing to decide")));
        }
        Ok(match self {
            Player::Random => rng.index(count),
            Player::Heuristic => game.heuristic_index(seat, rng),
            Player::Ismcts { .. } | Player::Timed { .. } => search(game, seat, budget, rng),
        })
    }
}

/// The index of the legal move the game's search ([`Game::SEARCH`]) picks for `seat` within `budget`.
/// `seat` must be to act.
pub fn search<G: Game>(game: &G, seat: Seat, budget: Budget, rng: &mut Rng) -> usize {
    if game.legal_count(seat) <= 1 {
        return 0;
    }
    match G::SEARCH {
        Search::Tree => ismcts::search(game, seat, &mut Meter::new(budget), rng),
        Search::Flat { playout_cost } => flat::search(game, seat, &mut Meter::new(budget), playout_cost, rng),
        Search::Matrix { tree_below: Some(limit), .. } if matches!(budget, Budget::Iterations(n) if n < limit) => {
            ismcts::search(game, seat, &mut Meter::new(budget), rng)
        }
        Search::Matrix { playouts, .. } => {
            // The budget counts playouts here: a count is scaled to them, a think time is not.
            let scaled = match budget {
                Budget::Iterations(n) => Budget::Iterations(n.saturating_mul(playouts.max(1))),
                think => think,
            };
            match matrix::search(game, seat, &mut Meter::new(scaled), rng) {
                Some(index) => index,
                None => ismcts::search(game, seat, &mut Meter::new(budget), rng),
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_think_time_follows_a_search_player_and_round_trips() {
        assert_eq!(Player::parse("hard@500").ok(), Some(Player::Timed { millis: 500 }));
        assert_eq!(Player::parse("ismcts:20@40").ok(), Some(Player::Timed { millis: 40 }));
        let timed = Player::Timed { millis: 250 };
        assert_eq!(Player::parse(&timed.name()).ok(), Some(timed));
        assert_eq!(timed.budget(), Some(Budget::Think(Duration::from_millis(250))));
        assert_eq!(Player::Heuristic.budget(), None);
    }

    #[test]
    fn a_think_time_on_a_player_that_does_not_search_or_out_of_range_is_refused() {
        for bad in ["easy@100", "random@5", "hard@0", "hard@600001", "hard@", "hard@1.5", "@100", "hard@100@100"] {
            assert!(matches!(Player::parse(bad), Err(GameError::BadOptions(_))), "{bad}");
        }
    }
}
