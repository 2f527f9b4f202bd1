//! The seed corpus: inputs for every target taken from real games, so that the fuzzer starts from what the
//! core really reads (listed moves, every observer's views, saves and RL saves along whole games, every
//! game's option presets) and mutates from there.

use crate::input::{option_presets, players};
use crate::targets::{Position, MAX_STEPS};
use cardnet_core::json::canonical;
use cardnet_core::rl::new_rl;
use cardnet_core::rng::Rng;
use cardnet_core::{infos, AnyGame, GameInfo};

/// Moves played before each sampled position (positions past a game's end are left out).
const STEPS: [u16; 4] = [0, 7, 31, 120];

/// The seeds of the target called `target` (a name of [`crate::TARGETS`]); none for another name.
pub fn seeds(target: &str) -> Vec<Vec<u8>> {
    let mut corpus = Vec::new();
    for (game, info) in (0u8..).zip(infos()) {
        for (preset, options) in (0u8..).zip(option_presets(&info)) {
            for players_byte in player_bytes(&info) {
                let position = Position {
                    options: options.clone(),
                    players: players(&info, players_byte),
                    seed: u64::from(game) + 1,
                    move_seed: u64::from(preset) + 3,
                    steps: 0,
                    info: info.clone(),
                };
                let header = |steps| Position::header(game, preset, players_byte, game + 1, preset + 3, steps);
                match target {
                    "moves" => moves(&position, &mut corpus, header),
                    "views" => views(&position, [game, preset, players_byte], &mut corpus),
                    "saves" => saves(&position, &mut corpus),
                    "rl_saves" => rl_saves(&position, &mut corpus),
                    "setups" => setups(&position, &mut corpus),
                    "ffi" => ffi(&position, [game, preset, players_byte], &mut corpus, header),
                    _ => {}
                }
            }
        }
    }
    if target == "setups" {
        for name in ["random", "heuristic", "ismcts", "ismcts:50", "easy", "normal", "hard", "69", "3/E", "b", "8"] {
            corpus.push([&[0, 0][..], name.as_bytes()].concat());
        }
    }
    corpus
}

/// The player counts sampled: the fewest, the usual and the most (as header bytes).
fn player_bytes(info: &GameInfo) -> Vec<u8> {
    let mut counts = vec![info.min_players, info.default_players, info.max_players];
    counts.dedup();
    counts.into_iter().map(|n| u8::try_from(n - info.min_players).unwrap_or(0)).collect()
}

/// The sampled positions of a game: `(steps, game)` for each of [`STEPS`] the game reaches.
fn positions(position: &Position) -> Vec<(u16, Box<dyn AnyGame>)> {
    STEPS
        .iter()
        .map(|&steps| (steps, Position { steps, ..position.clone() }.reach_any()))
        .filter(|(steps, game)| *steps == 0 || game.move_count() == usize::from(*steps))
        .collect()
}

/// A few listed moves of the first seat to act, as JSON after a position header and the seat.
fn moves(position: &Position, corpus: &mut Vec<Vec<u8>>, header: impl Fn(u16) -> Vec<u8>) {
    for (steps, game) in positions(position) {
        let Some((seat, count)) = game.decision() else { continue };
        for index in [0, count / 2, count - 1] {
            if let Some(mv) = game.legal_move(seat, index) {
                corpus.push([header(steps), vec![seat as u8], canonical(&mv).into_bytes()].concat());
            }
        }
    }
}

/// Every observer's view, after game, options, players, observer and seed bytes.
fn views(position: &Position, setup: [u8; 3], corpus: &mut Vec<Vec<u8>>) {
    let players = position.players;
    for (_, game) in positions(position) {
        for (observer_byte, observer) in (0..players).map(|s| (s, Some(s))).chain([(players, None)]) {
            let view = game.view(observer).unwrap_or_else(|e| panic!("a view of a real game: {e}"));
            let header = [&setup[..], &[observer_byte as u8, 9]].concat();
            corpus.push([header, canonical(&view).into_bytes()].concat());
        }
    }
}

/// Saves at the start, in the middle and at the end of a game.
fn saves(position: &Position, corpus: &mut Vec<Vec<u8>>) {
    for game in [Position { steps: 31, ..position.clone() }.reach_any(), finished(position)] {
        corpus.push(canonical(&game.to_json().unwrap_or_else(|e| panic!("{e}"))).into_bytes());
    }
}

/// The game played to its end (or to [`MAX_STEPS`]).
fn finished(position: &Position) -> Box<dyn AnyGame> {
    Position { steps: MAX_STEPS, ..position.clone() }.reach_any()
}

/// RL saves after a few random actions, with and without event logs, and a determinized copy's.
fn rl_saves(position: &Position, corpus: &mut Vec<Vec<u8>>) {
    let info = &position.info;
    for (logs, actions) in [(true, 9), (false, 40)] {
        let mut state = new_rl(info.name, Some(position.players), position.seed, &position.options, logs)
            .unwrap_or_else(|e| panic!("{e}"));
        let mut rng = Rng::new(position.move_seed);
        for _ in 0..actions {
            let Some(seat) = state.first_to_act() else { break };
            let ids = state.legal_action_ids(seat);
            state.apply_action_id(seat, ids[rng.index(ids.len())]).unwrap_or_else(|e| panic!("{e}"));
        }
        corpus.push(canonical(&state.to_json().unwrap_or_else(|e| panic!("{e}"))).into_bytes());
        let copy = state.determinize(state.first_to_act(), 5);
        corpus.push(canonical(&copy.to_json().unwrap_or_else(|e| panic!("{e}"))).into_bytes());
    }
}

/// The game's name and options preset, after a player count and a seed byte.
fn setups(position: &Position, corpus: &mut Vec<Vec<u8>>) {
    let text = format!("{}\n{}", position.info.name, canonical(&position.options));
    corpus.push([&[position.players as u8 + 1, 1][..], text.as_bytes()].concat());
}

/// The C ABI's entry points fed setups, saves, views and moves of real games.
fn ffi(position: &Position, setup: [u8; 3], corpus: &mut Vec<Vec<u8>>, header: impl Fn(u16) -> Vec<u8>) {
    let info = &position.info;
    let doc = format!(
        "{{\"game\":\"{}\",\"options\":{},\"players\":{},\"seed\":{}}}",
        info.name,
        canonical(&position.options),
        position.players,
        position.seed
    );
    corpus.push([&[0u8][..], doc.as_bytes()].concat());
    let save = canonical(&finished(position).to_json().unwrap_or_else(|e| panic!("{e}")));
    corpus.push([&[1u8][..], save.as_bytes()].concat());
    let mut views = Vec::new();
    self::views(position, setup, &mut views);
    corpus.extend(views.into_iter().step_by(3).map(|v| [&[2u8][..], &v].concat()));
    let mut moves = Vec::new();
    self::moves(position, &mut moves, header);
    for (entry, mv) in (3u8..=4).cycle().zip(moves) {
        corpus.push([&[entry][..], &mv].concat());
    }
}
