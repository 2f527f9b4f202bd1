//! One module per game, each split the same way by concern (see any game's `mod.rs`), and the one list of
//! games: [`with_games`].

pub mod cherki;
pub mod fistful;
pub mod matchstick;
pub mod ten;

/// Calls the macro `$then` with every game's type, in menu order: the one list of games, read by the
/// registry (games by name) and the RL faces (RL states and batches by name).
macro_rules! with_games {
    ($then:ident) => {
        $then!(
            crate::games::matchstick::Matchstick,
            crate::games::fistful::Fistful,
            crate::games::cherki::Cherki,
            crate::games::ten::Ten,
        );
    };
}
pub(crate) use with_games;
