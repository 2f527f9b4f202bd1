//! Property tests of Matchstick Tycoon: random games over every player count and option, checked at every
//! step by the conformance harness plus the game's conservation laws.

use cardnet_core::conformance::{check_random_game, Depth};
use cardnet_core::games::matchstick::Matchstick;
use cardnet_core::Game;
use proptest::prelude::*;
use serde_json::json;
use std::cell::RefCell;

/// Cards: every card of the deck is in exactly one place (a hand, the table, removed, set aside).
fn cards_conserved(game: &Matchstick) -> Result<(), String> {
    let (hands, pile, removed, set_aside) = game.card_masks();
    let expansion = game.setup().int_option("expansion") as u64;
    let mut deck = (1u64 << 56) - 1;
    for c in 0..expansion {
        deck |= (1u64 << (56 + c)) | (1u64 << (60 + c));
    }
    let mut seen = 0u64;
    let mut total = 0u32;
    for part in hands.iter().copied().chain([pile, removed, set_aside]) {
        if seen & part != 0 {
            return Err(format!("a card is in two places: {:#x}", seen & part));
        }
        seen |= part;
        total += part.count_ones();
    }
    if seen != deck || total != deck.count_ones() {
        return Err(format!("cards {seen:#x} are not the deck {deck:#x}"));
    }
    Ok(())
}

/// Matchsticks: the supply is unlimited, so each seat's count may only change by +1 (a pass), -1 (a
/// forced discard) or -cost (its own play); checked against the previous step's state.
fn matchsticks_tracked(prev: &Matchstick, game: &Matchstick) -> Result<(), String> {
    let players = game.setup().players;
    for seat in 0..players {
        let before = i64::from(prev.matchsticks_of(seat));
        let after = i64::from(game.matchsticks_of(seat));
        if before == after {
            continue;
        }
        if prev.current_seat() != seat {
            return Err(format!("seat {seat} changed matchsticks {before} -> {after} off turn"));
        }
        let events = game.events(None);
        let kind = events.first().and_then(|e| e["type"].as_str()).unwrap_or("");
        let ok = match kind {
            "pass" => after == before + 1,
            "discard_matchstick" => after == before - 1,
            "play" => after == before - events[0]["cost"].as_i64().unwrap_or(-1),
            _ => false,
        };
        if !ok {
            return Err(format!("seat {seat}: matchsticks {before} -> {after} after a {kind:?}"));
        }
    }
    Ok(())
}

fn run(players: usize, expansion: u64, deal_all: bool, seed: u64, move_seed: u64) -> Result<u64, String> {
    let prev: RefCell<Option<Matchstick>> = RefCell::new(None);
    let invariant = |game: &Matchstick| -> Result<(), String> {
        cards_conserved(game)?;
        if let Some(p) = prev.borrow().as_ref() {
            matchsticks_tracked(p, game)?;
        }
        *prev.borrow_mut() = Some(game.clone());
        Ok(())
    };
    let options = json!({"expansion": expansion, "deal_all": deal_all});
    check_random_game::<Matchstick>(players, seed, &options, move_seed, Depth::default(), &invariant)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(24))]

    #[test]
    fn random_games_conform(players in 2usize..=8, expansion in prop::sample::select(vec![0u64, 2, 4]),
                            deal_all: bool, seed: u64, move_seed: u64) {
        let steps = run(players, expansion, deal_all, seed, move_seed).map_err(TestCaseError::fail)?;
        prop_assert!(steps > 0);
    }

    #[test]
    fn small_tables_conform(players in 2usize..=3, deal_all: bool, seed: u64, move_seed: u64) {
        let steps = run(players, 0, deal_all, seed, move_seed).map_err(TestCaseError::fail)?;
        prop_assert!(steps > 0);
    }
}

#[test]
fn every_player_count_and_option_once() {
    for players in 2..=8 {
        for expansion in [0, 2, 4] {
            for deal_all in [false, true] {
                let seed = (players * 100 + expansion as usize * 10 + usize::from(deal_all)) as u64;
                if let Err(e) = run(players, expansion, deal_all, seed, seed + 1) {
                    panic!("{players} players, expansion {expansion}, deal_all {deal_all}: {e}");
                }
            }
        }
    }
}
