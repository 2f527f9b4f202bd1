//! The difficulty levels people pick (`easy`, `normal`, `hard`). Their names are the same in every game;
//! what each plays is the game's own choice ([`Game::LEVELS`](crate::game::Game::LEVELS)), so that the
//! levels stay apart in games where a search barely beats the rule of thumb (Cherki) as well as in games
//! where it wins almost every time (TEN).

use crate::error::GameError;
use crate::game::{LevelPlay, Levels};

/// A difficulty level.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Level {
    /// The weakest level.
    Easy,
    /// The middle level.
    Normal,
    /// The strongest level.
    Hard,
}

impl Level {
    /// Every level, easiest first.
    pub const ALL: [Level; 3] = [Level::Easy, Level::Normal, Level::Hard];

    /// Reads `easy`, `normal` or `hard`; `BadOptions` for anything else.
    pub fn parse(text: &str) -> Result<Self, GameError> {
        Self::ALL
            .into_iter()
            .find(|level| level.name() == text)
            .ok_or_else(|| GameError::BadOptions(format!("unknown level {text:?} (easy, normal, hard)")))
    }

    /// The level's name as [`Level::parse`] reads it.
    pub fn name(self) -> &'static str {
        match self {
            Level::Easy => "easy",
            Level::Normal => "normal",
            Level::Hard => "hard",
        }
    }

    /// What this level plays on the ladder `levels`.
    pub fn play(self, levels: &Levels) -> LevelPlay {
        match self {
            Level::Easy => levels.easy,
            Level::Normal => levels.normal,
            Level::Hard => levels.hard,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ai::{Player, HARD_ITERATIONS, NORMAL_ITERATIONS};
    use crate::game::Game;
    use crate::games::cherki::Cherki;
    use crate::games::matchstick::Matchstick;

    #[test]
    fn a_level_reads_back_from_its_name_and_nothing_else_is_a_level() {
        for level in Level::ALL {
            assert_eq!(Level::parse(level.name()).ok(), Some(level));
            assert_eq!(Player::parse(level.name()).ok(), Some(Player::Level(level)));
            assert_eq!(Player::Level(level).name(), level.name());
        }
        for bad in ["", "Easy", "expert", "hard ", "heuristic"] {
            assert!(matches!(Level::parse(bad), Err(GameError::BadOptions(_))), "{bad:?}");
        }
    }

    #[test]
    fn the_standard_ladder_is_the_heuristic_then_the_search_at_the_documented_counts() {
        assert_eq!(Levels::STANDARD.easy, LevelPlay::Heuristic);
        assert_eq!(Levels::STANDARD.normal, LevelPlay::Search { iterations: NORMAL_ITERATIONS });
        assert_eq!(Levels::STANDARD.hard, LevelPlay::Search { iterations: HARD_ITERATIONS });
        assert_eq!(<Matchstick as Game>::LEVELS, Levels::STANDARD);
        assert_eq!(Player::Level(Level::Hard).resolve::<Matchstick>(), Player::Ismcts { iterations: HARD_ITERATIONS });
    }

    #[test]
    fn a_level_resolves_to_what_its_game_defines() {
        for level in Level::ALL {
            let expected = match level.play(&<Cherki as Game>::LEVELS) {
                LevelPlay::Heuristic => Player::Heuristic,
                LevelPlay::Careless { random_percent } => Player::Careless { random_percent },
                LevelPlay::Search { iterations } => Player::Ismcts { iterations },
            };
            assert_eq!(Player::Level(level).resolve::<Cherki>(), expected);
        }
        assert_ne!(<Cherki as Game>::LEVELS, Levels::STANDARD, "Cherki keeps its levels apart with its own ladder");
    }
}
