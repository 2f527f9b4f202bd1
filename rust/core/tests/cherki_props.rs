//! Random games of Cherki through the conformance harness, for every player count and for one and three
//! deals, with card conservation and a direct check that no hand or pair kind leaks.

use cardnet_core::conformance::{check_random_game, Depth};
use cardnet_core::games::cherki::{Cherki, DECK_SIZE};
use cardnet_core::rng::Rng;
use cardnet_core::Game;
use proptest::prelude::*;
use serde_json::{json, Value};

/// Every card is in exactly one place: a hand, the stock or the discard pile.
fn conservation(game: &Cherki) -> Result<(), String> {
    let mut seen = [0u8; DECK_SIZE];
    let players = game.setup().players;
    let mut places: Vec<u8> = game.stock().to_vec();
    places.extend(game.discard_pile());
    for seat in 0..players {
        places.extend(game.hand(seat));
    }
    for card in places {
        let slot = seen.get_mut(card as usize).ok_or(format!("card id {card} out of range"))?;
        *slot += 1;
    }
    match seen.iter().position(|&n| n != 1) {
        Some(card) => Err(format!("card {card} is in {} places", seen[card])),
        None => Ok(()),
    }
}

/// The per-seat face counts the game keeps as moves are applied equal the public discard history counted
/// afresh, in the game and in a state rebuilt from its spectator view.
fn face_counts_match_history(game: &Cherki) -> Result<(), String> {
    let view = game.view(None);
    let rebuilt = Cherki::from_view(game.setup(), None, &view, &mut Rng::new(5)).map_err(|e| e.to_string())?;
    for seat in 0..game.setup().players {
        let (mut discarded, mut taken) = ([0u8; DECK_SIZE / 4], [0u8; DECK_SIZE / 4]);
        for d in view["public"]["discards"].as_array().into_iter().flatten() {
            let face = d["card"].as_u64().ok_or("a discard without a card")? as usize / 4;
            if d["seat"] == json!(seat) {
                discarded[face] += 1;
            }
            if d["taken_by"] == json!(seat) {
                taken[face] += 1;
            }
        }
        for state in [game, &rebuilt] {
            if state.discard_face_counts(seat) != Some((&discarded, &taken)) {
                return Err(format!("seat {seat}'s kept face counts differ from its discard history"));
            }
        }
    }
    Ok(())
}

fn invariant(game: &Cherki) -> Result<(), String> {
    conservation(game)?;
    face_counts_match_history(game)?;
    for seat in 0..game.setup().players {
        if game.has_called(seat) && game.locked_pair_kind(seat).is_none() {
            return Err(format!("seat {seat} called without a pair kind"));
        }
    }
    Ok(())
}

fn run(players: usize, deals: u64, seed: u64, move_seed: u64) -> Result<u64, String> {
    let depth = Depth { moves_checked: 24, save_every: 40, determinizations: 1 };
    check_random_game::<Cherki>(players, seed, &json!({"deals": deals}), move_seed, depth, &invariant)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(12))]

    #[test]
    fn random_games_one_deal(players in 2usize..=6, seed in any::<u64>(), move_seed in any::<u64>()) {
        run(players, 1, seed, move_seed).map_err(TestCaseError::fail)?;
    }

    #[test]
    fn random_games_three_deals(players in 2usize..=6, seed in any::<u64>(), move_seed in any::<u64>()) {
        run(players, 3, seed, move_seed).map_err(TestCaseError::fail)?;
    }
}

/// The keys of a public view that may name cards: none of them may hold a card of a live hand.
fn public_cards(public: &Value) -> Vec<u64> {
    let mut cards = Vec::new();
    if let Some(top) = public["top_discard"].get("card").and_then(Value::as_u64) {
        cards.push(top);
    }
    for d in public["discards"].as_array().into_iter().flatten() {
        if d["taken_by"].is_null() {
            cards.extend(d["card"].as_u64());
        }
    }
    cards
}

#[test]
fn views_and_events_hold_no_other_hand_or_pair_kind() {
    for (players, deals, seed) in [(2usize, 1u64, 11u64), (3, 3, 12), (4, 1, 13), (6, 3, 14)] {
        let mut game = Cherki::new(&cardnet_core::Setup {
            players,
            seed,
            options: json!({"deals": deals}).as_object().cloned().unwrap_or_default(),
        })
        .expect("a valid setup");
        let mut rng = Rng::new(seed ^ 99);
        while let Some(actor) = game.to_act().first() {
            let mv = game.legal_move(actor, rng.index(game.legal_count(actor))).expect("a legal move");
            game.apply_legal(actor, &mv);
            for observer in 0..players {
                let view = game.view(Some(observer));
                let private = &view["private"];
                let own: Vec<u64> = game.hand(observer).iter().map(|&c| c as u64).collect();
                assert_eq!(private["hand"], json!(own));
                let own_kind = game.locked_pair_kind(observer).map(cardnet_core::games::cherki::kind_name);
                assert_eq!(private["pair_kind"], json!(own_kind));
                let public = &view["public"];
                assert!(public.get("hands").is_none() && public.get("pair_kinds").is_none());
                for p in public["players"].as_array().expect("players") {
                    let mut keys: Vec<&String> = p.as_object().expect("object").keys().collect();
                    keys.sort();
                    assert_eq!(keys, ["called", "hand_size", "took_last"]);
                }
                for card in public_cards(public) {
                    for seat in 0..players {
                        assert!(!game.hand(seat).contains(&(card as u8)), "a pile card is also in a hand");
                    }
                }
                for event in game.events(Some(observer)) {
                    if event["type"] == "draw_stock" && event["seat"] != json!(observer) {
                        assert!(event.get("card").is_none(), "another seat's draw shows its card: {event}");
                    }
                    if event["type"] == "new_deal" {
                        assert_eq!(event["hand"], json!(own));
                    }
                }
            }
            for event in game.events(None) {
                assert!(event.get("card").is_none() || event["type"] != "draw_stock");
                if event["type"] == "new_deal" {
                    assert!(event["hand"].is_null());
                }
            }
            assert!(game.view(None)["private"].is_null());
        }
    }
}
