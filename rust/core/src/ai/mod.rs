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
pub mod level;
pub mod matrix;
mod playout;
mod simtree;

pub use budget::Budget;
pub use level::Level;

use crate::error::GameError;
use crate::game::{Game, LevelPlay, Search, Seat};
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
    /// The rule of thumb with `random_percent` % of its moves drawn uniformly among the legal ones
    /// ([`LevelPlay::Careless`]).
    Careless {
        /// Share of the moves played at random, 1–100.
        random_percent: u8,
    },
    /// A difficulty level, played as the game being played defines it ([`Game::LEVELS`]): the same name
    /// may be the heuristic in one game and a search in another.
    Level(Level),
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

/// Iterations of the `normal` level in the games that use [`Levels::STANDARD`](crate::game::Levels::STANDARD),
/// and of the plain `ismcts` player.
pub const NORMAL_ITERATIONS: u32 = crate::game::Levels::STANDARD_NORMAL;
/// Iterations of the `hard` level in the games that use [`Levels::STANDARD`](crate::game::Levels::STANDARD).
pub const HARD_ITERATIONS: u32 = crate::game::Levels::STANDARD_HARD;
/// The longest think time a player name may ask for, in milliseconds.
pub const MAX_THINK_MS: u32 = 600_000;

impl Player {
    /// Parses `random`, `heuristic`, `careless:P` (the heuristic with P % of its moves random, 1–100),
    /// `ismcts`, `ismcts:N` (N iterations, 1–1 000 000) or a difficulty level (`easy`, `normal`, `hard`;
    /// see [`Player::for_level`]); `normal`, `hard` and the `ismcts` players may end in `@MS`: the game's
    /// search with a think time of MS milliseconds (1–600 000) per decision instead of an iteration count
    /// (`hard@500`).
    pub fn parse(text: &str) -> Result<Self, GameError> {
        let unknown = || {
            GameError::BadOptions(format!(
                "unknown player {text:?} (random, heuristic, careless:P, ismcts, ismcts:N, easy, normal, hard; \
                 a search player may end in @MS for a think time of MS milliseconds)"
            ))
        };
        if let Some((base, millis)) = text.split_once('@') {
            let searches =
                matches!(Self::parse(base), Ok(Player::Ismcts { .. } | Player::Level(Level::Normal | Level::Hard)));
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
                if let Some(percent) = text.strip_prefix("careless:") {
                    return match percent.parse::<u8>() {
                        Ok(p) if (1..=100).contains(&p) => Ok(Player::Careless { random_percent: p }),
                        _ => Err(unknown()),
                    };
                }
                let budget = text.strip_prefix("ismcts:").and_then(|n| n.parse::<u32>().ok());
                match budget {
                    Some(n) if (1..=1_000_000).contains(&n) => Ok(Player::Ismcts { iterations: n }),
                    _ => Err(unknown()),
                }
            }
        }
    }

    /// A difficulty level (`easy`, `normal`, `hard`) as a player: what it plays is looked up in the game
    /// it plays ([`Game::LEVELS`], [`Player::resolve`]) when it chooses.
    pub fn for_level(level: &str) -> Result<Self, GameError> {
        Level::parse(level).map(Player::Level)
    }

    /// The player this one stands for in game `G`: a level becomes what `G`'s ladder makes it
    /// ([`Game::LEVELS`]); every other player is itself.
    pub fn resolve<G: Game>(self) -> Player {
        match self {
            Player::Level(level) => match level.play(&G::LEVELS) {
                LevelPlay::Heuristic => Player::Heuristic,
                LevelPlay::Careless { random_percent } => Player::Careless { random_percent },
                LevelPlay::Search { iterations } => Player::Ismcts { iterations },
            },
            other => other,
        }
    }

    /// The player's name as `parse` reads it (a level keeps its name: `hard`).
    pub fn name(self) -> String {
        match self {
            Player::Random => "random".into(),
            Player::Heuristic => "heuristic".into(),
            Player::Careless { random_percent } => format!("careless:{random_percent}"),
            Player::Level(level) => level.name().into(),
            Player::Ismcts { iterations } => format!("ismcts:{iterations}"),
            Player::Timed { millis } => format!("ismcts@{millis}"),
        }
    }

    /// The search budget per decision, `None` for the players that do not search and for a level, whose
    /// budget depends on the game ([`Player::resolve`] first).
    pub fn budget(self) -> Option<Budget> {
        match self {
            Player::Random | Player::Heuristic | Player::Careless { .. } | Player::Level(_) => None,
            Player::Ismcts { iterations } => Some(Budget::Iterations(iterations)),
            Player::Timed { millis } => Some(Budget::Think(Duration::from_millis(u64::from(millis)))),
        }
    }

    /// The index of the legal move this player picks for `seat` with its own budget (a level's as game
    /// `G` defines it). `seat` must be to act.
    pub fn choose<G: Game>(self, game: &G, seat: Seat, rng: &mut Rng) -> Result<usize, GameError> {
        let player = self.resolve::<G>();
        let budget = player.budget().unwrap_or(Budget::Iterations(0));
        player.choose_within(game, seat, budget, rng)
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
        Ok(match self.resolve::<G>() {
            Player::Random => rng.index(count),
            Player::Heuristic => game.heuristic_index(seat, rng),
            Player::Careless { random_percent } => {
                // One draw decides whether this move slips, so a careless player's choices follow its seed.
                if rng.index(100) < usize::from(random_percent) {
                    rng.index(count)
                } else {
                    game.heuristic_index(seat, rng)
                }
            }
            // `resolve` leaves no level behind.
            Player::Level(_) => game.heuristic_index(seat, rng),
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
    fn a_careless_player_reads_back_and_its_share_must_be_a_percentage() {
        let careless = Player::parse("careless:30");
        assert_eq!(careless.ok(), Some(Player::Careless { random_percent: 30 }));
        assert_eq!(Player::Careless { random_percent: 7 }.name(), "careless:7");
        assert_eq!(Player::Careless { random_percent: 7 }.budget(), None);
        for bad in
            ["careless", "careless:", "careless:0", "careless:101", "careless:-5", "careless:x", "careless:50@100"]
        {
            assert!(matches!(Player::parse(bad), Err(GameError::BadOptions(_))), "{bad}");
        }
    }

    #[test]
    fn a_level_plays_what_its_game_defines_for_it() {
        use crate::games::cherki::Cherki;
        let game = Cherki::start(Some(3), 11, &serde_json::json!({})).unwrap_or_else(|e| panic!("{e}"));
        let Some(seat) = game.to_act().first() else { panic!("nobody to act") };
        for level in Level::ALL {
            let player = Player::Level(level);
            let resolved = player.resolve::<Cherki>();
            assert!(!matches!(resolved, Player::Level(_)));
            for seed in 0..20 {
                assert_eq!(
                    player.choose(&game, seat, &mut Rng::new(seed)),
                    resolved.choose(&game, seat, &mut Rng::new(seed)),
                    "{level:?} seed {seed}"
                );
            }
        }
    }

    #[test]
    fn a_careless_player_departs_from_the_heuristic_about_as_often_as_it_says() {
        use crate::games::cherki::Cherki;
        let game = Cherki::start(Some(3), 5, &serde_json::json!({})).unwrap_or_else(|e| panic!("{e}"));
        let Some(seat) = game.to_act().first() else { panic!("nobody to act") };
        let count = game.legal_count(seat);
        let departures = |percent: u8| {
            (0..2000u64)
                .filter(|&seed| {
                    let careless =
                        Player::Careless { random_percent: percent }.choose(&game, seat, &mut Rng::new(seed));
                    let mut rng = Rng::new(seed);
                    // The heuristic's own pick from the same position (its draw follows the slip draw).
                    let _ = rng.index(100);
                    careless != Ok(game.heuristic_index(seat, &mut rng))
                })
                .count()
        };
        // A slip picks uniformly, so it lands on the heuristic's move once in `count`.
        let expected = |percent: f64| 2000.0 * percent / 100.0 * (1.0 - 1.0 / count as f64);
        for percent in [20u8, 80] {
            let seen = departures(percent) as f64;
            assert!((seen - expected(f64::from(percent))).abs() < 80.0, "{percent} %: {seen} departures");
        }
        assert!(departures(100) as f64 > expected(100.0) - 80.0);
    }

    #[test]
    fn a_think_time_on_a_player_that_does_not_search_or_out_of_range_is_refused() {
        for bad in ["easy@100", "random@5", "hard@0", "hard@600001", "hard@", "hard@1.5", "@100", "hard@100@100"] {
            assert!(matches!(Player::parse(bad), Err(GameError::BadOptions(_))), "{bad}");
        }
    }
}
