//! Views given to `game_from_view`, what a network bot builds its search from.
//!
//! Input: game, options, players, observer and seed bytes, then the view's JSON text. Promises: a view that
//! is refused is `corrupt_state` (`bad_options` for an observer seat the table does not have); a view that
//! is accepted is rebuilt into a state whose view for that observer is the view given, which passes the
//! core's consistency check, on which the built-in heuristic can pick a move, and which keeps playing.

use crate::check::{consistent, for_game, play_on, typed, ForGame};
use crate::input::{self, Input};
use cardnet_core::ai::Player;
use cardnet_core::json::{self, canonical};
use cardnet_core::rng::Rng;
use cardnet_core::{game_from_view, Game, GameInfo, JsonValue, Seat, Setup};

/// Random moves played on from an accepted view.
const PLAY_ON: usize = 60;

/// The target.
pub fn run(data: &[u8]) {
    let mut input = Input::new(data);
    let info = input::game(input.byte());
    let options = input::options(&info, input.byte());
    let players = input::players(&info, input.byte());
    let seat_byte = input.byte();
    let seed = u64::from(input.byte());
    let Ok(text) = std::str::from_utf8(input.rest()) else { return };
    let Ok(view) = json::parse(text) else { return };
    // Every seat, the spectator, and a seat the table does not have.
    let observer = match usize::from(seat_byte) % (players + 2) {
        s if s < players => Some(s),
        s if s == players => None,
        _ => Some(players),
    };
    let what = format!("{} view for {observer:?} of {players}", info.name);
    match game_from_view(info.name, Some(players), &options, observer, &view, seed) {
        Ok(mut game) => {
            for_game(info.name, Rebuilt { info: &info, players, options: &options, observer, view: &view, seed });
            if let Some(seat) = observer.filter(|&s| game.to_act().contains(&s)) {
                let index = game
                    .choose(seat, Player::Heuristic, seed)
                    .unwrap_or_else(|e| panic!("{what}: the heuristic cannot move: {e}"));
                assert!(index < game.legal_count(seat), "{what}: the heuristic picked move {index}, not a legal one");
            }
            play_on(game.as_mut(), PLAY_ON, seed, &what);
        }
        Err(e) if observer == Some(players) => typed(&e, &["bad_options"], &what),
        Err(e) => typed(&e, &["corrupt_state"], &what),
    }
}

/// The typed rebuild of an accepted view, checked.
struct Rebuilt<'a> {
    info: &'a GameInfo,
    players: usize,
    options: &'a JsonValue,
    observer: Option<Seat>,
    view: &'a JsonValue,
    seed: u64,
}

impl ForGame for Rebuilt<'_> {
    type Out = ();
    fn call<G: Game>(self) -> Self::Out {
        let what = format!("{} view for {:?} of {}", self.info.name, self.observer, self.players);
        let options = self.info.resolve_options(self.options).unwrap_or_else(|e| panic!("{what}: a preset: {e}"));
        let setup = Setup { players: self.players, seed: 0, options };
        let built = G::from_view(&setup, self.observer, self.view, &mut Rng::new(self.seed))
            .unwrap_or_else(|e| panic!("{what}: accepted by name, refused by type: {e}"));
        let shown = built.view(self.observer);
        assert!(
            &shown == self.view,
            "{what}: the rebuilt state shows another view\n  given  {}\n  shown  {}",
            canonical(self.view),
            canonical(&shown)
        );
        consistent(&built, &what);
    }
}
