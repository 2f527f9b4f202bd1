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
        canonical(&game.view(None).unwrap()),
        canonical(&game.view(Some(other)).unwrap()),
        canonical(&Value::Array(game.events(None).unwrap())),
        canonical(&Value::Array(game.events(Some(other)).unwrap())),
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

fn mask(list: &Value) -> u16 {
    list.as_array().into_iter().flatten().filter_map(Value::as_u64).fold(0, |m, c| m | 1 << c)
}

/// Determinizations for seat 0 re-deal seat 1's hidden cards, yet never put into its discard pile a card
/// it played this round or the previous one (it took those back and has not discarded since) or the card
/// its Green 8 retrieved this round (until the round-end discards), and never give it a pending pick the +1 rule bars.
#[test]
fn determinize_respects_the_public_log_and_varies() {
    use cardnet_core::game::Game;
    use cardnet_core::session::Session;
    let mut varied = 0;
    for seed in 0..24u64 {
        let mut session = Session::<Fistful>::start(Some(2), seed, &Value::Null).expect("start");
        let mut rng = cardnet_core::rng::Rng::new(seed);
        let mut previous_round = 0u16;
        let mut this_round = 0u16;
        let mut round = json!(1);
        while let Some(seat) = session.game().to_act().first() {
            let game = session.game();
            let public = game.public_view();
            if public["round"] != round {
                previous_round = this_round;
                round = public["round"].clone();
            }
            this_round = mask(&public["played"][1]);
            let retrieved = public["retrieved"]["seat"].as_u64() == Some(1);
            let retrieved = if retrieved { 1u16 << public["retrieved"]["card"].as_u64().unwrap_or(0) } else { 0 };
            let real = game.partition(1);
            for _ in 0..4 {
                let det = game.determinize(Some(0), &mut rng);
                conservation(&det).expect("conservation");
                let [hand, discard, played, pick] = det.partition(1);
                assert_eq!(played, real[2]);
                // Round-end discards may legitimately bury those cards again.
                if public["phase"] != "round_end_discard" {
                    assert_eq!(discard & (previous_round | this_round | retrieved), 0, "seed {seed}: {public}");
                }
                if pick != 0 {
                    assert_ne!(Some(u64::from(pick.trailing_zeros())), public["barred"][1].as_u64());
                }
                if [hand, discard, pick] != [real[0], real[1], real[3]] {
                    varied += 1;
                }
            }
            session.apply_index(seat, rng.index(game.legal_count(seat))).expect("apply");
        }
    }
    assert!(varied > 100, "determinize hardly re-deals ({varied})");
}

/// The gold a duel's step events give each seat adds up to the gold that seat received (issue 10: the
/// Pink 8's step used to follow a `base` step paying the 1 its 7, so a client summing the steps was wrong).
#[test]
fn step_events_add_up_to_the_gold_paid() {
    let mut pink8_duels = 0;
    for seed in 0..120u64 {
        let mut g = new_game("fistful", None, seed, &options("long", "random")).expect("new game");
        let mut pick = seed;
        while !g.is_over() {
            let before = g.view(None).unwrap()["public"]["gold"].clone();
            let seat = g.to_act()[0];
            pick = pick.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
            let index = (pick >> 33) as usize % g.legal_count(seat);
            g.apply_index(seat, index).expect("legal move");
            let events = g.events(None).unwrap();
            if !events.iter().any(|e| e["type"] == "reveal") {
                continue;
            }
            let mut paid = [0i64; 2];
            for e in &events {
                if matches!(e["type"].as_str(), Some("base" | "pink8" | "green7_bonus" | "six_takes_pot")) {
                    paid[e["seat"].as_u64().expect("seat") as usize] += e["gold"].as_i64().expect("gold");
                }
                pink8_duels += usize::from(e["type"] == "pink8");
            }
            let after = g.view(None).unwrap()["public"]["last_duel"]["gold"].clone();
            for s in 0..2 {
                let moved = after[s].as_i64().expect("gold") - before[s].as_i64().expect("gold");
                assert_eq!(moved, paid[s], "seed {seed}, seat {s}: {events:?}");
            }
        }
    }
    assert!(pink8_duels > 0, "no Pink 8 beat a 1 in these games");
}
