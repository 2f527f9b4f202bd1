//! The list of games, and everything that picks a game by name: new games, loading saves, batch play.

#[cfg(feature = "ai")]
use crate::ai::{Level, Player};
use crate::error::GameError;
use crate::game::{Game, GameInfo, Seat, Setup};
use crate::json;
use crate::session::{replay, AnyGame, Session, SAVE_FORMAT};
#[cfg(feature = "ai")]
use crate::simulate::{play_games as play_games_typed, simulate as simulate_typed, GameRecord, Seating, SimSummary};
use serde_json::Value;

macro_rules! games {
    ($($ty:ty),* $(,)?) => {
        /// Every game's description, in menu order.
        pub fn infos() -> Vec<GameInfo> {
            vec![$(<$ty as Game>::info()),*]
        }

        fn start(name: &str, players: Option<usize>, seed: u64, options: &Value)
            -> Result<Box<dyn AnyGame>, GameError> {
            $(if name == <$ty as Game>::info().name {
                return Ok(Box::new(Session::<$ty>::start(players, seed, options)?));
            })*
            Err(unknown(name))
        }

        fn replay_named(name: &str, doc: &serde_json::Map<String, Value>)
            -> Result<Box<dyn AnyGame>, GameError> {
            $(if name == <$ty as Game>::info().name {
                return Ok(Box::new(replay::<$ty>(doc)?));
            })*
            Err(GameError::CorruptState(format!("unknown game {name:?}")))
        }

        fn from_view_named(name: &str, setup: &Setup, seat: Option<Seat>, view: &Value, seed: u64)
            -> Result<Box<dyn AnyGame>, GameError> {
            $(if name == <$ty as Game>::info().name {
                let mut rng = crate::rng::Rng::new(seed);
                return Ok(Box::new(Session::from_game(<$ty as Game>::from_view(setup, seat, view, &mut rng)?)));
            })*
            Err(unknown(name))
        }

        #[cfg(feature = "ai")]
        fn simulate_named(name: &str, players: Option<usize>, options: &Value, seats: &[Player],
                          games: u64, seed: u64) -> Result<SimSummary, GameError> {
            $(if name == <$ty as Game>::info().name {
                return simulate_typed::<$ty>(players, options, seats, games, seed);
            })*
            Err(unknown(name))
        }

        #[cfg(feature = "ai")]
        fn level_player_named(name: &str, level: Level) -> Result<Player, GameError> {
            $(if name == <$ty as Game>::info().name {
                return Ok(Player::Level(level).resolve::<$ty>());
            })*
            Err(unknown(name))
        }

        #[cfg(feature = "ai")]
        fn play_games_named(name: &str, options: &Value, players: &[Player], games: &[Seating])
            -> Result<Vec<GameRecord>, GameError> {
            $(if name == <$ty as Game>::info().name {
                return play_games_typed::<$ty>(options, players, games);
            })*
            Err(unknown(name))
        }
    };
}

crate::games::with_games!(games);

fn unknown(name: &str) -> GameError {
    let known: Vec<&str> = infos().iter().map(|i| i.name).collect();
    GameError::UnknownGame(format!("no game named {name:?} (games: {})", known.join(", ")))
}

/// The description of the game called `name`.
pub fn info(name: &str) -> Result<GameInfo, GameError> {
    infos().into_iter().find(|i| i.name == name).ok_or_else(|| unknown(name))
}

/// Starts the game called `name` (`players: None` = the game's default; `options` a JSON object or null).
pub fn new_game(name: &str, players: Option<usize>, seed: u64, options: &Value) -> Result<Box<dyn AnyGame>, GameError> {
    start(name, players, seed, options)
}

/// Loads a saved game (the text of [`AnyGame::to_json`]): replays every move and checks the stored state.
/// Anything wrong is `CorruptState` naming the first bad point; nothing panics.
pub fn load_game(text: &str) -> Result<Box<dyn AnyGame>, GameError> {
    let doc = json::parse(text).map_err(|e| GameError::CorruptState(format!("not JSON: {e}")))?;
    let map = doc.as_object().ok_or_else(|| GameError::CorruptState("not a JSON object".into()))?;
    match map.get("format").and_then(Value::as_u64) {
        Some(SAVE_FORMAT) => {}
        Some(other) => return Err(GameError::CorruptState(format!("unsupported save format {other}"))),
        None => return Err(GameError::CorruptState("no save format version".into())),
    }
    let name = map.get("game").and_then(Value::as_str).ok_or_else(|| GameError::CorruptState("no game name".into()))?;
    replay_named(name, map)
}

#[cfg(feature = "ai")]
/// Batch self-play of the game called `name` with one player name per seat (see [`Player::parse`]). See
/// [`crate::simulate`] for how seeds are derived.
pub fn simulate(name: &str, seats: &[&str], games: u64, seed: u64, options: &Value) -> Result<SimSummary, GameError> {
    let players: Vec<Player> = seats.iter().map(|s| Player::parse(s)).collect::<Result<_, _>>()?;
    simulate_named(name, Some(seats.len()), options, &players, games, seed)
}

#[cfg(feature = "ai")]
/// The built-in player that difficulty `level` (`easy`, `normal`, `hard`) stands for in the game called
/// `name` ([`Game::LEVELS`]): `heuristic`, `careless:P` or `ismcts:N` by [`Player::name`]. `UnknownGame` or
/// `BadOptions` for an unknown game or level.
pub fn level_player(name: &str, level: &str) -> Result<Player, GameError> {
    let level = Level::parse(level)?;
    level_player_named(name, level)
}

#[cfg(feature = "ai")]
/// Plays single games of `name`, each with its own deal seed and seating of `players` (names as
/// [`Player::parse`] reads them; their number is the player count), timing every decision. See
/// [`crate::simulate::play_games`].
pub fn play_games(
    name: &str,
    players: &[&str],
    games: &[Seating],
    options: &Value,
) -> Result<Vec<GameRecord>, GameError> {
    let parsed: Vec<Player> = players.iter().map(|s| Player::parse(s)).collect::<Result<_, _>>()?;
    play_games_named(name, options, &parsed, games)
}

/// A game of `name` built from what `seat` sees (`view` as returned by `view(seat)`; `None` = a spectator),
/// every hidden fact dealt from `seed`: what a network bot searches on. The result is a determinized copy
/// with no deal to replay, so it cannot be saved (`IllegalMove` with code `determinized`), nor can the
/// copies determinized from it. `players` and `options` are the table's.
pub fn from_view(
    name: &str,
    players: Option<usize>,
    options: &Value,
    seat: Option<Seat>,
    view: &Value,
    seed: u64,
) -> Result<Box<dyn AnyGame>, GameError> {
    let info = info(name)?;
    let players = info.resolve_players(players)?;
    if let Some(s) = seat.filter(|&s| s >= players) {
        return Err(GameError::BadOptions(format!("seat {s} does not exist in a {players}-player game")));
    }
    let setup = Setup { players, seed: 0, options: info.resolve_options(options)? };
    let game = from_view_named(name, &setup, seat, view, seed)?;
    check_playable(game.as_ref())?;
    Ok(game)
}

/// What every state of every game keeps (the conformance suite checks it after each move): nobody acts exactly
/// when the game is over, and a seat acts exactly when it has a legal move. A view that builds a state breaking
/// it (`to_act: []` in a game still on) is no view of this game, and a bot searching on it would be stuck.
fn check_playable(game: &dyn AnyGame) -> Result<(), GameError> {
    let to_act = game.to_act();
    if to_act.is_empty() != game.outcome().is_some() {
        return Err(GameError::CorruptState(format!(
            "the view says seats {to_act:?} act in a game that is {}",
            if game.is_over() { "over" } else { "still on" }
        )));
    }
    for seat in 0..game.setup().players {
        if to_act.contains(&seat) != (game.legal_count(seat) > 0) {
            return Err(GameError::CorruptState(format!(
                "the view's seat {seat} acts without a legal move, or the reverse"
            )));
        }
    }
    Ok(())
}
