//! What every target asserts: errors of the documented kind, the core's consistency check on every state
//! built from outside data, and the dispatch from a game's name to its type.

use cardnet_core::conformance::{check_state, Depth};
use cardnet_core::games::{cherki::Cherki, fistful::Fistful, matchstick::Matchstick, ten::Ten};
use cardnet_core::rng::Rng;
use cardnet_core::{AnyGame, Game, GameError};

/// Something to do with a game's type, once it is known from the game's name.
pub trait ForGame {
    /// What it returns.
    type Out;
    /// Does it with the game type `G`.
    fn call<G: Game>(self) -> Self::Out;
}

/// Runs `task` with the type of the game called `name`.
///
/// # Panics
/// For a name that is no game of the core: a game was added without a line here.
pub fn for_game<T: ForGame>(name: &str, task: T) -> T::Out {
    match name {
        "matchstick" => task.call::<Matchstick>(),
        "fistful" => task.call::<Fistful>(),
        "cherki" => task.call::<Cherki>(),
        "ten" => task.call::<Ten>(),
        other => panic!("the fuzz targets do not know the game {other:?}: add it to check::for_game"),
    }
}

/// The kind of an error as one word (its variant, whatever its code).
pub fn kind(error: &GameError) -> &'static str {
    match error {
        GameError::UnknownGame(_) => "unknown_game",
        GameError::BadOptions(_) => "bad_options",
        GameError::InvalidMove(_) => "invalid_move",
        GameError::IllegalMove { .. } => "illegal_move",
        GameError::CorruptState(_) => "corrupt_state",
        GameError::Internal(_) => "internal",
        _ => "unlisted",
    }
}

/// Panics unless `error` is of one of the `allowed` kinds (see [`kind`]); `what` names the call.
pub fn typed(error: &GameError, allowed: &[&str], what: &str) {
    assert!(
        allowed.contains(&kind(error)),
        "{what} failed with a {} error, not one of {allowed:?}: {error}",
        kind(error)
    );
}

/// How deep the targets check a state: a few legal moves per seat, one determinization per observer.
const DEPTH: Depth = Depth { moves_checked: 6, save_every: 0, determinizations: 1 };

/// Panics unless `game` passes the core's own consistency check (`conformance::check_state`).
pub fn consistent<G: Game>(game: &G, what: &str) {
    if let Err(problem) = check_state(game, &mut Rng::new(0x5eed), DEPTH) {
        panic!("{what}: the state fails the core's consistency check: {problem}");
    }
}

/// The same promises for a game behind [`AnyGame`] (a loaded save, a game started by name): nobody acts
/// exactly when the game is over, a seat acts exactly when it has a legal move, every listed move is found
/// again at its index, and every observer's view holds the same public part.
pub fn any_consistent(game: &dyn AnyGame, what: &str) {
    let players = game.setup().players;
    let to_act = game.to_act();
    assert_eq!(
        to_act.is_empty(),
        game.outcome().is_some(),
        "{what}: seats {to_act:?} act; outcome {:?}",
        game.outcome()
    );
    for seat in 0..players {
        let count = game.legal_count(seat);
        assert_eq!(
            to_act.contains(&seat),
            count > 0,
            "{what}: seat {seat} has {count} legal moves; to act: {to_act:?}"
        );
        assert!(game.legal_move(seat, count).is_none(), "{what}: seat {seat} has a legal move past its count");
        for index in [0, count / 2, count.saturating_sub(1)].into_iter().filter(|&i| i < count) {
            let listed =
                game.legal_move(seat, index).unwrap_or_else(|| panic!("{what}: legal move {index} is missing"));
            assert_eq!(
                game.index_of(seat, &listed).ok(),
                Some(index),
                "{what}: listed move {listed} is not found again"
            );
        }
    }
    let spectator = game.view(None).unwrap_or_else(|e| panic!("{what}: the spectator's view: {e}"));
    assert!(spectator["private"].is_null(), "{what}: the spectator sees private data");
    for seat in 0..players {
        let view = game.view(Some(seat)).unwrap_or_else(|e| panic!("{what}: seat {seat}'s view: {e}"));
        assert_eq!(view["public"], spectator["public"], "{what}: seat {seat}'s public view differs");
    }
}

/// Plays up to `moves` random legal moves from `game`, checking after each that the seats to act are those
/// with legal moves: a state built from outside data must keep playing like any other.
pub fn play_on(game: &mut dyn AnyGame, moves: usize, seed: u64, what: &str) {
    let mut rng = Rng::new(seed);
    for step in 0..moves {
        let Some((seat, count)) = game.decision() else { return };
        assert!(count > 0, "{what}: seat {seat} acts without a legal move after {step} moves");
        game.apply_index(seat, rng.index(count)).unwrap_or_else(|e| panic!("{what}: a listed move is refused: {e}"));
    }
}
