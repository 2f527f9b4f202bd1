//! One module per game, each split the same way by concern, and the one list of games: `with_games!`
//! (crate-internal: every per-game dispatch expands it).
//!
//! A game's files, the same in all four (a game may add its own helpers, such as Cherki's discard log or
//! TEN's card data and scoring):
//! - `mod.rs`: the rules summary, and the [`crate::game::Game`] impl, which only delegates;
//! - `rules.rs`: the state, moves and events, and how a legal move changes the state;
//! - `legal.rs`: the legal moves, counted, ranked and unranked without building the set;
//! - `explain.rs`: why a move is refused (runs only after the move was found illegal);
//! - `wire.rs`: the JSON, written once by direct writers (views, events, moves), moves parsed, saves;
//! - `view.rs`: a state rebuilt from one seat's view, and determinization;
//! - `bot.rs`: the built-in heuristic player.
//!
//! Each file imports only the files above it in that list (`rules` imports none of the others), so no two
//! modules import each other.

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

/// Implements `Serialize` and `Deserialize` for a game's move type through its wire functions, so that a
/// move's serde form is exactly the core's written move JSON. Reading a move checks its form (the same
/// refusal as `Game::move_from_json`), not its legality: that is the game's to judge when it is applied.
#[cfg(feature = "serde")]
macro_rules! serde_via_wire {
    ($move:ty, $write:expr, $parse:expr) => {
        impl serde::Serialize for $move {
            fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
                let mut out = String::new();
                ($write)(&mut out, self);
                let value = crate::json::parse(&out).map_err(<S::Error as serde::ser::Error>::custom)?;
                serde::Serialize::serialize(&value, serializer)
            }
        }

        impl<'de> serde::Deserialize<'de> for $move {
            fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
                let value = <serde_json::Value as serde::Deserialize>::deserialize(deserializer)?;
                ($parse)(&value).map_err(<D::Error as serde::de::Error>::custom)
            }
        }
    };
}
#[cfg(feature = "serde")]
pub(crate) use serde_via_wire;
