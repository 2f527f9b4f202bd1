//! Property tests of A Fistful of Gold: random games through the conformance harness (which checks that
//! `determinize` leaves every observer's view and events unchanged, so no view leaks a hidden pick or
//! discard), card conservation, and direct no-leak checks of the simultaneous picks.

use cardnet_core::conformance::{check_random_game, Depth};
use cardnet_core::games::fistful::Fistful;
use cardnet_core::json::canonical;
use cardnet_core::{new_game, AnyGame};
use proptest::prelude::*;
use serde_json::{json, Value};

const FULL_DECK: u16 = 0b11_1111_1110;

/// Each seat's 9 cards are exactly partitioned among hand, discard pile, played cards and pending pick.
fn conservation(game: &Fistful) -> Result<(), String> {
    for seat in 0..2 {
        let parts = game.partition(seat);
        let mut union = 0u16;
        for part in parts {
            if union & part != 0 {
                return Err(format!("seat {seat}: a card is in two places: {parts:?}"));
            }
            union |= part;
        }
        if union != FULL_DECK {
            return Err(format!("seat {seat}: cards {union:#b} are not the whole deck ({parts:?})"));
        }
    }
    Ok(())
}

fn options(length: &str, colours: &str) -> Value {
    json!({"length": length, "colours": colours})
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(24))]

    #[test]
    fn random_short_games_conform(seed in any::<u64>(), move_seed in any::<u64>()) {
        let steps = check_random_game::<Fistful>(2, seed, &options("short", "random"), move_seed,
                                                 Depth::default(), &conservation);
        prop_assert!(steps.is_ok(), "{}", steps.unwrap_err());
    }

    #[test]
    fn random_long_games_conform(seed in any::<u64>(), move_seed in any::<u64>(), pink0 in any::<bool>()) {
        let colours = if pink0 { "seat0_pink" } else { "seat0_green" };
        let steps = check_random_game::<Fistful>(2, seed, &options("long", colours), move_seed,
                                                 Depth::default(), &conservation);
        prop_assert!(steps.is_ok(), "{}", steps.unwrap_err());
    }
}

/// Everything an observer other than `seat` sees after `seat` picks: view, events and hash.
fn seen_by_others(game: &dyn AnyGame, seat: usize) -> Vec<String> {
    let other = 1 - seat;
    vec![
        canonical(&game.view(None)),
        canonical(&game.view(Some(other))),
        canonical(&Value::Array(game.events(None))),
        canonical(&Value::Array(game.events(Some(other)))),
        game.state_hash(),
    ]
}

/// Plays `seed` with uniformly drawn moves; at every first pick of a duel, tries every legal card for the picking seat
/// and checks that the spectator and the opponent see byte-identical views, events and hashes.
fn check_pick_hidden(seed: u64) {
    let mut game = new_game("fistful", Some(2), seed, &json!({"colours": "random"})).expect("new game");
    let mut rng = cardnet_core::rng::Rng::new(seed ^ 0x5eed);
    let mut picks_checked = 0;
    while let Some(&seat) = game.to_act().first() {
        let moves = game.legal_moves(seat);
        // Only a first pick stays hidden; the second one reveals the duel.
        if moves[0]["type"] == "pick" && game.to_act().len() == 2 {
            for actor in game.to_act() {
                let mut seen: Option<Vec<String>> = None;
                for mv in game.legal_moves(actor) {
                    let mut copy = game.clone_box();
                    copy.apply(actor, &mv).expect("legal pick");
                    let now = seen_by_others(copy.as_ref(), actor);
                    if let Some(before) = &seen {
                        assert_eq!(before, &now, "seed {seed}: seat {actor}'s pick {mv} is visible");
                    }
                    seen = Some(now);
                    picks_checked += 1;
                }
            }
        }
        if moves[0]["type"] == "discard" && moves.len() > 1 {
            // A face-down discard must not show which cards went down either.
            let mut seen: Option<Vec<String>> = None;
            for mv in &moves {
                let mut copy = game.clone_box();
                copy.apply(seat, mv).expect("legal discard");
                let now = seen_by_others(copy.as_ref(), seat);
                if let Some(before) = &seen {
                    assert_eq!(before, &now, "seed {seed}: seat {seat}'s discard {mv} is visible");
                }
                seen = Some(now);
            }
        }
        let index = rng.index(moves.len());
        game.apply_index(seat, index).expect("apply");
    }
    assert!(picks_checked > 0);
}

#[test]
fn first_pick_is_invisible_to_spectator_and_opponent() {
    for seed in 0..6 {
        check_pick_hidden(seed);
    }
}
