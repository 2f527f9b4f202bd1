//! Cherki: decision 10 and the move format (strict parsing, refusals that explain themselves, options), and
//! whole games rebuilt from one seat's view (`from_view`).

mod cherki_common;
use cherki_common::*;

// ---- Decision 10 and the move format ----

#[test]
fn d10_no_runs_and_no_out_of_turn_claims() {
    let run = [coins(1), coins(2), coins(3), strings(4), strings(5), strings(6), WF, WF];
    assert_eq!(faces_ready(&run), None);
    let mut game = Cherki::new(&setup(3, 31, 1)).expect("valid");
    let a = game.to_act().first().expect("to act");
    draw_and_discard(&mut game, a, 0);
    let skipped = (a + 2) % 3;
    assert_eq!(game.legal_count(skipped), 0);
    assert_eq!(refused(&mut game, skipped, json!({"type": "take_discard"})), "not_your_turn");
}

#[test]
fn moves_parse_strictly() {
    let game = Cherki::new(&setup(3, 32, 1)).expect("valid");
    let parse = |v: Value| game.move_from_json(0, &v);
    assert_eq!(parse(json!({"type": "draw_stock"})), Ok(CherkiMove::DrawStock));
    assert_eq!(parse(json!({"type": "take_discard"})), Ok(CherkiMove::TakeDiscard));
    assert_eq!(parse(json!({"type": "call"})), Ok(CherkiMove::Call));
    assert_eq!(parse(json!({"type": "discard", "card": 5})), Ok(CherkiMove::Discard { card: 5, call: false }));
    assert_eq!(
        parse(json!({"type": "discard", "card": 5, "call": true})),
        Ok(CherkiMove::Discard { card: 5, call: true })
    );
    for bad in [
        json!({"type": "draw_stock", "card": 1}),
        json!({"type": "call", "call": true}),
        json!({"type": "discard"}),
        json!({"type": "discard", "card": 120}),
        json!({"type": "discard", "card": -1}),
        json!({"type": "discard", "card": "7"}),
        json!({"type": "discard", "card": 3, "call": "yes"}),
        json!({"type": "discard", "card": 3, "extra": 1}),
        json!({"type": "pass"}),
        json!({"card": 3}),
        json!("draw_stock"),
    ] {
        assert!(matches!(parse(bad.clone()), Err(GameError::InvalidMove(_))), "{bad} should be invalid");
    }
}

#[test]
fn refusals_explain_themselves() {
    let mut game = Cherki::new(&setup(3, 33, 1)).expect("valid");
    let a = game.to_act().first().expect("to act");
    let card = game.hand(a)[0];
    assert_eq!(refused(&mut game, a, json!({"type": "discard", "card": card})), "draw_first");
    play(&mut game, a, json!({"type": "draw_stock"})).expect("draw");
    assert_eq!(refused(&mut game, a, json!({"type": "draw_stock"})), "already_drawn");
    let absent = (0..120u8).find(|c| !game.hand(a).contains(c)).expect("a card elsewhere");
    assert_eq!(refused(&mut game, a, json!({"type": "discard", "card": absent})), "not_in_hand");
    match play(&mut game, a, json!({"type": "discard", "card": absent})) {
        // The reason names the card as people read it, not by its JSON name.
        Err(e) => {
            assert!(e.reason().contains(&card_words(absent)), "{}", e.reason());
            assert!(!e.reason().contains(card_name(absent).expect("name")), "{}", e.reason());
        }
        Ok(()) => panic!("accepted a card not in hand"),
    }
}

#[test]
fn option_deals_is_one_to_twenty() {
    let info = Cherki::info();
    assert!(info.resolve_options(&json!({"deals": 0})).is_err());
    assert!(info.resolve_options(&json!({"deals": 21})).is_err());
    assert_eq!(info.resolve_options(&Value::Null).expect("defaults")["deals"], json!(1));
    assert!(Cherki::new(&setup(3, 1, 21)).is_err());
    assert_eq!(Cherki::new(&setup(3, 1, 20)).expect("valid").public_view()["deals"], json!(20));
}

#[test]
fn determinized_called_hands_stay_ready_with_their_pair_kind() {
    let mut checked = 0;
    for seed in 0..6u64 {
        let mut game = Cherki::new(&setup(4, seed, 1)).expect("valid");
        let mut rng = Rng::new(seed + 100);
        while let Some(seat) = game.to_act().first() {
            let index = game.heuristic_index(seat, &mut rng);
            assert!(index < game.legal_count(seat));
            game.apply_index(seat, index).expect("legal");
            for observer in [None, Some(0)] {
                let det = game.determinize(observer, &mut rng);
                assert_eq!(det.view(observer), game.view(observer));
                for s in 0..4 {
                    if Some(s) == observer {
                        assert_eq!(det.hand(s), game.hand(s));
                    }
                    if !det.has_called(s) || det.is_over() {
                        continue;
                    }
                    let mut hand = det.hand(s);
                    if det.phase() == Phase::Drawn && det.to_act().first() == Some(s) {
                        let drawn = det.view(Some(s))["private"]["drawn"].as_u64().expect("drawn") as u8;
                        assert_ne!(card_kind(drawn), det.locked_pair_kind(s).expect("kind"));
                        hand.retain(|&c| c != drawn);
                    }
                    assert_eq!(ready_pair_kind(&hand), det.locked_pair_kind(s), "seat {s}");
                    checked += 1;
                }
            }
        }
    }
    assert!(checked > 0, "no called hand was determinized");
}

#[test]
fn reference_random_play_draws_most_deals() {
    // docs/GAMES.md § Reference figures: random play draws 90 %+ of deals (a sanity figure, not a target).
    let deals = 200u64;
    let mut drawn = 0;
    for seed in 0..deals {
        let mut game = Cherki::new(&setup(3, seed, 1)).expect("valid");
        let mut rng = Rng::new(seed ^ 0xC4E);
        while let Some(seat) = game.to_act().first() {
            let index = rng.index(game.legal_count(seat));
            game.apply_index(seat, index).expect("legal");
        }
        drawn += (game.outcome().expect("over").kind == OutcomeKind::Draw) as u64;
    }
    assert!(drawn * 100 >= deals * 82, "{drawn} of {deals} deals drawn");
}

#[test]
fn r3_9_the_dealer_moves_clockwise_and_the_new_dealers_left_starts() {
    // Three players, so clockwise (seat + 1) differs from counter-clockwise.
    let mut game = Cherki::new(&setup(3, 40, 3)).expect("valid");
    let first_dealer = game.dealer();
    let mut starts = vec![game.to_act().first().expect("to act")];
    while let Some(seat) = game.to_act().first() {
        let mv = draw_or_discard_drawn(&game, seat);
        play(&mut game, seat, mv).expect("legal");
        if let Some(new) = game.events(None).iter().find(|e| e["type"] == "new_deal") {
            assert_eq!(new["dealer"], json!(game.dealer()));
            starts.push(game.to_act().first().expect("to act"));
        }
    }
    let dealers: Vec<Value> = game.outcome().expect("over").detail["deals"]
        .as_array()
        .expect("deals")
        .iter()
        .map(|d| d["dealer"].clone())
        .collect();
    let want: Vec<usize> = (0..3).map(|i| (first_dealer + i) % 3).collect();
    assert_eq!(dealers, want.iter().map(|&d| json!(d)).collect::<Vec<_>>());
    assert_eq!(starts, want.iter().map(|&d| (d + 1) % 3).collect::<Vec<_>>());
}

// ---- from_view: a full state from one seat's view ----

/// Seat 0 calls Cherki before drawing, draws, discards; seat 1 takes that discard. Then every observer's
/// view rebuilds a state with the same view and legal moves, where seat 0 (for the others) holds an
/// invented ready hand and seat 1 holds the taken card.
#[test]
fn from_view_mid_game_round_trips_with_a_called_hand_and_a_taken_card() {
    let (mut game, _) = example_position(&[coins(1), coins(2), coins(3)], 1);
    play(&mut game, 0, json!({"type": "call"})).expect("call");
    play(&mut game, 0, json!({"type": "draw_stock"})).expect("draw");
    let drawn = game.view(Some(0))["private"]["drawn"].as_u64().expect("drawn") as u8;
    play(&mut game, 0, json!({"type": "discard", "card": drawn})).expect("discard");
    play(&mut game, 1, json!({"type": "take_discard"})).expect("take");
    for observer in [None, Some(0), Some(1), Some(2)] {
        let view = game.view(observer);
        for seed in 0..5 {
            let built = Cherki::from_view(game.setup(), observer, &view, &mut Rng::new(seed)).expect("from_view");
            assert_eq!(built.view(observer), view);
            assert_eq!(built.to_act(), game.to_act());
            if let Some(seat) = observer {
                assert_eq!(legal(&built, seat), legal(&game, seat));
            }
            assert!(built.hand(1).contains(&drawn), "seat 1 keeps the card it took");
            let hand0 = built.hand(0);
            let kind = ready_pair_kind(&hand0).expect("seat 0's invented hand is ready");
            assert_eq!(built.locked_pair_kind(0), Some(kind));
            assert!(built.events(observer).is_empty());
        }
    }
    assert_eq!(
        Cherki::from_view(game.setup(), Some(1), &game.view(Some(1)), &mut Rng::new(3)).expect("from_view").hand(1),
        game.hand(1)
    );
}

/// A spectator's view of a fresh deal rebuilds a state with eight cards per hand and the right stock.
#[test]
fn from_view_spectator_of_a_new_deal() {
    let game = Cherki::new(&setup(4, 21, 2)).expect("game");
    let view = game.view(None);
    let built = Cherki::from_view(game.setup(), None, &view, &mut Rng::new(9)).expect("from_view");
    assert_eq!(built.view(None), view);
    assert_eq!(built.stock().len(), game.stock().len());
    assert!((0..4).all(|s| built.hand(s).len() == 8));
    assert_eq!(built.to_act(), game.to_act());
}

/// Garbage, a missing private part and edited fields are CorruptState, never a panic.
#[test]
fn from_view_refuses_garbage_as_corrupt_state() {
    let game = Cherki::new(&setup(3, 5, 1)).expect("game");
    let view = game.view(Some(0));
    let mut bad = vec![json!(null), json!([1, 2]), json!({"public": {}, "private": null})];
    let mut edited = view.clone();
    edited["public"]["stock"] = json!(3);
    bad.push(edited);
    let mut edited = view.clone();
    edited["private"]["hand"] = json!([0, 0, 1, 2, 3, 4, 5, 6]);
    bad.push(edited);
    let mut edited = view.clone();
    edited["public"]["extra"] = json!(1);
    bad.push(edited);
    for value in bad {
        match Cherki::from_view(game.setup(), Some(0), &value, &mut Rng::new(1)) {
            Err(GameError::CorruptState(_)) => {}
            other => panic!("expected CorruptState for {value}, got {:?}", other.map(|_| ())),
        }
    }
    assert!(matches!(Cherki::from_view(game.setup(), None, &view, &mut Rng::new(1)), Err(GameError::CorruptState(_))));
}
