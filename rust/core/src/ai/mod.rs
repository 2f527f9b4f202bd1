//! Built-in players over the [`Game`] trait: they see a game only through its legal-move engine, views
//! and `determinize`, never through another seat's hidden cards.

pub mod flat;
pub mod ismcts;
mod playout;

use crate::error::GameError;
use crate::game::{Game, Search, Seat};
use crate::rng::Rng;

/// A built-in player and its budget.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Player {
    /// Uniform among the legal moves.
    Random,
    /// The game's own rule of thumb ([`Game::heuristic_index`]).
    Heuristic,
    /// The game's search ([`Game::SEARCH`]) with this budget per decision: iterations of information-set
    /// MCTS, or as many playouts of the flat search.
    Ismcts {
        /// Iterations (or playouts) per decision.
        iterations: u32,
    },
}

/// Iterations of the `normal` and `hard` levels.
pub const NORMAL_ITERATIONS: u32 = 300;
/// Iterations of the `hard` level.
pub const HARD_ITERATIONS: u32 = 1500;

impl Player {
    /// Parses `random`, `heuristic`, `ismcts`, `ismcts:N` (N iterations, 1–1 000 000) or a difficulty level
    /// (`easy`, `normal`, `hard`; see [`Player::for_level`]).
    pub fn parse(text: &str) -> Result<Self, GameError> {
        match text {
            "easy" | "normal" | "hard" => Self::for_level(text),
            "random" => Ok(Player::Random),
            "heuristic" => Ok(Player::Heuristic),
            "ismcts" => Ok(Player::Ismcts { iterations: NORMAL_ITERATIONS }),
            _ => {
                let budget = text.strip_prefix("ismcts:").and_then(|n| n.parse::<u32>().ok());
                match budget {
                    Some(n) if (1..=1_000_000).contains(&n) => Ok(Player::Ismcts { iterations: n }),
                    _ => Err(GameError::BadOptions(format!(
                        "unknown player {text:?} (random, heuristic, ismcts, ismcts:N, easy, normal, hard)"
                    ))),
                }
            }
        }
    }

    /// The player behind a difficulty level: `easy` = heuristic, `normal` and `hard` = ISMCTS with a
    /// growing budget.
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
        }
    }

    /// The index of the legal move this player picks for `seat`. `seat` must be to act.
    pub fn choose<G: Game>(self, game: &G, seat: Seat, rng: &mut Rng) -> Result<usize, GameError> {
        let count = game.legal_count(seat);
        if count == 0 {
            return Err(GameError::illegal("not_your_turn", format!("seat {seat} has nothing to decide")));
        }
        Ok(match self {
            Player::Random => rng.index(count),
            Player::Heuristic => game.heuristic_index(seat, rng),
            Player::Ismcts { iterations } => match G::SEARCH {
                Search::Tree => ismcts::search(game, seat, iterations, rng),
                Search::Flat { playout_cost } => flat::search(game, seat, iterations / playout_cost.max(1), rng),
            },
        })
    }
}
