//! The fuzz targets, one module each; `run(data)` panics when a promise breaks.

pub mod ffi;
pub mod moves;
pub mod rl_saves;
pub mod saves;
pub mod setups;
pub mod views;

use crate::input::{self, Input};
use cardnet_core::rng::Rng;
use cardnet_core::session::Session;
use cardnet_core::{new_game, AnyGame, Game, GameInfo, JsonValue};

/// Most moves played to reach a position, so that one input stays fast.
pub const MAX_STEPS: u16 = 400;

/// A real position picked by six header bytes: game, options, players, deal seed, move seed, and (two
/// bytes) how many random legal moves were played from the deal.
#[derive(Clone, Debug)]
pub struct Position {
    /// The game.
    pub info: GameInfo,
    /// Its options (a preset of [`input::option_presets`]).
    pub options: JsonValue,
    /// Its player count.
    pub players: usize,
    /// The deal's seed.
    pub seed: u64,
    /// The seed of the random moves played from the deal.
    pub move_seed: u64,
    /// How many moves to play (fewer when the game ends first).
    pub steps: u16,
}

impl Position {
    /// Reads the header bytes of a position.
    pub fn read(input: &mut Input<'_>) -> Self {
        let info = input::game(input.byte());
        let options = input::options(&info, input.byte());
        let players = input::players(&info, input.byte());
        let seed = u64::from(input.byte());
        let move_seed = u64::from(input.byte());
        let steps = input.u16() % (MAX_STEPS + 1);
        Position { info, options, players, seed, move_seed, steps }
    }

    /// The header bytes that [`Position::read`] reads back as this position (the game by its menu index).
    pub fn header(game: u8, options: u8, players: u8, seed: u8, move_seed: u8, steps: u16) -> Vec<u8> {
        let [low, high] = steps.to_le_bytes();
        vec![game, options, players, seed, move_seed, low, high]
    }

    /// The game started and played to the position.
    ///
    /// # Panics
    /// When a preset does not start, or a listed move is refused: bugs, since both come from the core.
    pub fn reach<G: Game>(&self) -> Session<G> {
        let mut session = Session::<G>::start(Some(self.players), self.seed, &self.options)
            .unwrap_or_else(|e| panic!("{} with {} does not start: {e}", self.info.name, self.options));
        let mut rng = Rng::new(self.move_seed);
        for _ in 0..self.steps {
            let Some(seat) = session.game().to_act().first() else { break };
            let count = session.game().legal_count(seat);
            session.apply_index(seat, rng.index(count)).unwrap_or_else(|e| panic!("a listed move is refused: {e}"));
        }
        session
    }
}

impl Position {
    /// The same position behind [`AnyGame`], started by name.
    ///
    /// # Panics
    /// As [`Position::reach`].
    pub fn reach_any(&self) -> Box<dyn AnyGame> {
        let mut game = new_game(self.info.name, Some(self.players), self.seed, &self.options)
            .unwrap_or_else(|e| panic!("{} with {} does not start: {e}", self.info.name, self.options));
        let mut rng = Rng::new(self.move_seed);
        for _ in 0..self.steps {
            let Some((seat, count)) = game.decision() else { break };
            game.apply_index(seat, rng.index(count)).unwrap_or_else(|e| panic!("a listed move is refused: {e}"));
        }
        game
    }
}
