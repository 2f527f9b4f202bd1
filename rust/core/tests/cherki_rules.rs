//! One test per rule and per numbered decision of `docs/rules/cherki.md` (section numbers in the names).

mod cherki_common;
use cherki_common::*;

// ---- 3.3 Components, decision 1 ----

#[test]
fn r3_3_d1_deck_is_120_cards_of_30_faces() {
    assert_eq!(DECK_SIZE, 120);
    assert_eq!(card_name(0), Some("coins-1"));
    assert_eq!(card_name(27), Some("coins-7"));
    assert_eq!(card_name(35), Some("coins-9"));
    assert_eq!(card_name(36), Some("strings-1"));
    assert_eq!(card_name(71), Some("strings-9"));
    assert_eq!(card_name(72), Some("myriads-1"));
    assert_eq!(card_name(107), Some("myriads-9"));
    assert_eq!(card_name(108), Some("white-flower"));
    assert_eq!(card_name(112), Some("red-flower"));
    assert_eq!(card_name(119), Some("old-thousand"));
    assert_eq!(card_name(120), None);
    let mut per_face = [0; 30];
    for id in 0..120u8 {
        per_face[id as usize / 4] += 1;
    }
    assert!(per_face.iter().all(|&n| n == 4));
    let numbers = (0..120u8).filter(|&c| card_kind(c) < 9).count();
    assert_eq!(numbers, 108);
}

#[test]
fn r3_3_red_stamp_on_strings_9_red_flower_old_thousand() {
    let stamped: Vec<&str> = (0..120u8).filter(|&c| red_stamp(c)).filter_map(card_name).collect();
    assert_eq!(stamped.len(), 12);
    assert!(stamped.iter().all(|n| ["strings-9", "red-flower", "old-thousand"].contains(n)));
    assert_eq!(card_json(68)["red_stamp"], json!(true));
    assert_eq!(card_json(68)["name"], json!("strings-9"));
    assert_eq!(card_json(0)["red_stamp"], json!(false));
    assert_eq!(card_json(200), Value::Null);
}

// ---- 3.4 Definitions ----

#[test]
fn r3_4_kind_is_rank_for_numbers_and_the_honour_itself() {
    assert_eq!(card_kind(24), card_kind(60));
    assert_eq!(card_kind(60), card_kind(96));
    assert_eq!(kind_name(card_kind(24)), "7");
    assert_eq!(kind_name(card_kind(108)), "white-flower");
    assert_eq!(kind_name(card_kind(112)), "red-flower");
    assert_eq!(kind_name(card_kind(116)), "old-thousand");
}

#[test]
fn r3_4_ready_3_3_2() {
    let hand = [coins(2), strings(2), myriads(2), coins(5), coins(5), strings(5), WF, WF];
    assert_eq!(faces_ready(&hand), Some("white-flower"));
}

#[test]
fn r3_4_ready_5_3_pair_kind_is_the_five() {
    let hand = [coins(4), coins(4), strings(4), myriads(4), myriads(4), OT, OT, OT];
    assert_eq!(faces_ready(&hand), Some("4"));
}

#[test]
fn r3_4_ready_6_2_pair_kind_is_the_two() {
    let hand = [coins(8), coins(8), strings(8), strings(8), myriads(8), myriads(8), coins(1), strings(1)];
    assert_eq!(faces_ready(&hand), Some("1"));
}

#[test]
fn r3_4_ready_8_of_one_rank() {
    let hand = [coins(3), coins(3), coins(3), strings(3), strings(3), strings(3), myriads(3), myriads(3)];
    assert_eq!(faces_ready(&hand), Some("3"));
}

#[test]
fn r3_4_not_ready_4_4_and_4_2_2() {
    let four_four = [coins(1), coins(1), strings(1), strings(1), coins(2), coins(2), myriads(2), myriads(2)];
    assert_eq!(faces_ready(&four_four), None);
    let four_two_two = [coins(1), coins(1), strings(1), strings(1), coins(2), coins(2), WF, WF];
    assert_eq!(faces_ready(&four_two_two), None);
}

#[test]
fn r3_4_not_ready_other_shapes() {
    let four_pairs = [coins(1), strings(1), coins(2), strings(2), coins(3), strings(3), WF, WF];
    assert_eq!(faces_ready(&four_pairs), None);
    let singles = [coins(1), coins(1), coins(1), coins(2), coins(2), coins(2), coins(3), coins(4)];
    assert_eq!(faces_ready(&singles), None);
    let seven_one = [coins(5), coins(5), coins(5), coins(5), strings(5), strings(5), strings(5), WF];
    assert_eq!(faces_ready(&seven_one), None);
    let mut cards = Cards::new();
    let seven = cards.many(&[coins(1), coins(1), coins(1), coins(2), coins(2), coins(2), WF]);
    assert_eq!(ready_pair_kind(&seven), None, "seven cards are never ready");
}

#[test]
fn r3_4_d4_honours_never_mix_with_numbers_or_each_other() {
    let honours_mixed = [coins(1), strings(1), myriads(1), coins(2), strings(2), myriads(2), WF, RF];
    assert_eq!(faces_ready(&honours_mixed), None);
    let honour_with_number = [coins(1), strings(1), myriads(1), WF, WF, coins(9), OT, OT];
    assert_eq!(faces_ready(&honour_with_number), None);
    let honour_triples = [WF, WF, WF, RF, RF, RF, OT, OT];
    assert_eq!(faces_ready(&honour_triples), Some("old-thousand"));
    let mixed_suits = [coins(6), strings(6), myriads(6), coins(9), strings(9), myriads(9), coins(2), myriads(2)];
    assert_eq!(faces_ready(&mixed_suits), Some("2"));
}

#[test]
fn r3_4_pair_kind_is_unique_for_every_ready_count_pattern() {
    // Every way to give 8 cards to at most three kinds: ready exactly for the four patterns, with the
    // pair kind the one kind whose count is 2, 5 or 8.
    for a in 0..=8usize {
        for b in 0..=(8 - a) {
            let c = 8 - a - b;
            let mut faces = Vec::new();
            let kinds = [(a, [coins(1), strings(1), myriads(1)]), (b, [coins(2), strings(2), myriads(2)])];
            for (count, pool) in kinds {
                faces.extend((0..count).map(|i| pool[i % 3]));
            }
            faces.extend((0..c).map(|i| [coins(3), strings(3), myriads(3)][i % 3]));
            let mut counts = vec![a, b, c];
            counts.retain(|&n| n > 0);
            counts.sort_unstable_by(|x, y| y.cmp(x));
            let expect_ready = matches!(counts.as_slice(), [3, 3, 2] | [5, 3] | [6, 2] | [8]);
            let got = faces_ready(&faces);
            assert_eq!(got.is_some(), expect_ready, "counts {a},{b},{c}");
            if let Some(kind) = got {
                let pair_count = match kind {
                    "1" => a,
                    "2" => b,
                    _ => c,
                };
                assert!(matches!(pair_count, 2 | 5 | 8), "counts {a},{b},{c}: pair kind {kind}");
            }
        }
    }
}

#[test]
fn r3_4_card_points_rank_or_one_for_honours() {
    assert_eq!(card_points(27), 7);
    assert_eq!(card_points(71), 9);
    assert_eq!(card_points(72), 1);
    assert_eq!(card_points(108), 1);
    assert_eq!(card_points(119), 1);
}

// ---- 3.5 Setup, decisions 2 and 3 ----

#[test]
fn r3_5_d2_two_to_six_players_default_three() {
    let info = Cherki::info();
    assert_eq!((info.min_players, info.max_players, info.default_players), (2, 6, 3));
    assert!(Cherki::new(&setup(1, 1, 1)).is_err());
    assert!(Cherki::new(&setup(7, 1, 1)).is_err());
    for n in 2..=6 {
        let game = Cherki::new(&setup(n, 5, 1)).expect("valid");
        assert_eq!(game.stock().len(), 120 - 8 * n);
        assert!((0..n).all(|s| game.hand(s).len() == 8));
        assert!(game.discard_pile().is_empty());
    }
}

#[test]
fn r3_5_d3_deal_in_twos_clockwise_from_the_dealers_left_four_times() {
    for (players, seed) in [(3usize, 21u64), (5, 22)] {
        let game = Cherki::new(&setup(players, seed, 1)).expect("valid");
        // Re-create the shuffle: the game's RNG picks the dealer, then shuffles 0..120; cards come off
        // the top (the end of the shuffled list).
        let mut rng = Rng::new(seed);
        let dealer = rng.index(players);
        let mut deck: Vec<u8> = (0..120).collect();
        rng.shuffle(&mut deck);
        assert_eq!(game.dealer(), dealer);
        let mut hands = vec![Vec::new(); players];
        for _ in 0..4 {
            for offset in 1..=players {
                let seat = (dealer + offset) % players;
                hands[seat].push(deck.pop().expect("card"));
                hands[seat].push(deck.pop().expect("card"));
            }
        }
        for (seat, mut hand) in hands.into_iter().enumerate() {
            hand.sort_unstable();
            assert_eq!(game.hand(seat), hand, "seat {seat}");
        }
        assert_eq!(game.stock(), deck.as_slice());
    }
}

#[test]
fn r3_5_random_dealer_and_the_dealers_left_starts() {
    let mut dealers = std::collections::BTreeSet::new();
    for seed in 0..40 {
        let game = Cherki::new(&setup(4, seed, 1)).expect("valid");
        dealers.insert(game.dealer());
        assert_eq!(game.to_act().first(), Some((game.dealer() + 1) % 4));
        assert_eq!(game.phase(), Phase::Start);
    }
    assert_eq!(dealers.len(), 4);
}

// ---- 3.7 Turn of a player who has not called ----

#[test]
fn r3_7_1_call_before_drawing_only_with_a_ready_hand() {
    let (mut game, _) = example_position(&[coins(1)], 1);
    assert_eq!(legal(&game, 0), vec![json!({"type": "draw_stock"}), json!({"type": "call"})]);
    play(&mut game, 0, json!({"type": "call"})).expect("ready hand may call");
    assert!(game.has_called(0));
    assert_eq!(game.locked_pair_kind(0).map(kind_name), Some("red-flower"));
    assert_eq!(event_types(&game, None), ["call"]);
    assert_eq!(refused(&mut game, 0, json!({"type": "call"})), "already_called");
    // Seat 1 holds junk: no call.
    play(&mut game, 0, json!({"type": "draw_stock"})).expect("draw");
    let drawn = game.view(Some(0))["private"]["drawn"].as_u64().expect("drawn card") as u8;
    play(&mut game, 0, json!({"type": "discard", "card": drawn})).expect("discard");
    assert_eq!(refused(&mut game, 1, json!({"type": "call"})), "not_ready");
}

#[test]
fn r3_7_2_no_discard_to_take_on_the_first_turn() {
    let game = Cherki::new(&setup(3, 3, 1)).expect("valid");
    let seat = game.to_act().first().expect("to act");
    let mut game = game;
    assert!(!legal(&game, seat).contains(&json!({"type": "take_discard"})));
    assert_eq!(refused(&mut game, seat, json!({"type": "take_discard"})), "no_discard");
}

#[test]
fn r3_7_2_d5_only_the_latest_discard_can_be_taken() {
    let mut game = Cherki::new(&setup(3, 4, 1)).expect("valid");
    let first = game.to_act().first().expect("to act");
    let older = draw_and_discard(&mut game, first, 0);
    let second = (first + 1) % 3;
    assert_eq!(game.public_view()["top_discard"], json!({"card": older, "seat": first, "takeable": true}));
    let newer = draw_and_discard(&mut game, second, 0);
    let third = (second + 1) % 3;
    play(&mut game, third, json!({"type": "take_discard"})).expect("take the latest");
    assert!(game.hand(third).contains(&newer));
    assert!(!game.hand(third).contains(&older));
    assert_eq!(game.public_view()["top_discard"], Value::Null, "no top discard after a take");
    assert!(game.discard_pile().contains(&older));
    let take = game.events(None);
    assert_eq!(take, vec![json!({"type": "take_discard", "seat": third, "card": newer, "from": second})]);
}

#[test]
fn r3_6_the_discard_history_is_public_with_who_took_what() {
    let mut game = Cherki::new(&setup(3, 4, 1)).expect("valid");
    let first = game.to_act().first().expect("to act");
    let (second, third) = ((first + 1) % 3, (first + 2) % 3);
    let a = draw_and_discard(&mut game, first, 0);
    play(&mut game, second, json!({"type": "take_discard"})).expect("take");
    let b = game.hand(second).into_iter().find(|&c| c != a).expect("another card");
    play(&mut game, second, json!({"type": "discard", "card": b})).expect("discard");
    play(&mut game, third, json!({"type": "draw_stock"})).expect("draw");
    let want = json!([{"card": a, "seat": first, "taken_by": second}, {"card": b, "seat": second, "taken_by": null}]);
    for observer in [None, Some(first), Some(third)] {
        assert_eq!(game.view(observer)["public"]["discards"], want);
    }
    assert_eq!(game.view(None)["public"]["top_discard"], json!({"card": b, "seat": second, "takeable": false}));
}

#[test]
fn r3_7_2_d11_no_taking_the_discard_two_turns_running() {
    let mut game = Cherki::new(&setup(2, 6, 1)).expect("valid");
    let a = game.to_act().first().expect("to act");
    let b = 1 - a;
    let card = draw_and_discard(&mut game, a, 0);
    play(&mut game, b, json!({"type": "take_discard"})).expect("take");
    let card = game.hand(b).into_iter().find(|&c| c != card).expect("another card");
    play(&mut game, b, json!({"type": "discard", "card": card})).expect("discard");
    draw_and_discard(&mut game, a, 0);
    assert_eq!(game.public_view()["top_discard"]["takeable"], json!(false));
    assert_eq!(game.public_view()["players"][b]["took_last"], json!(true));
    assert_eq!(legal(&game, b), vec![json!({"type": "draw_stock"})]);
    assert_eq!(refused(&mut game, b, json!({"type": "take_discard"})), "took_last_turn");
    play(&mut game, b, json!({"type": "draw_stock"})).expect("draw");
    assert_eq!(game.public_view()["players"][b]["took_last"], json!(false));
}

#[test]
fn r3_7_3_d11_the_taken_card_cannot_be_discarded_that_turn() {
    let mut game = Cherki::new(&setup(3, 8, 1)).expect("valid");
    let a = game.to_act().first().expect("to act");
    let card = draw_and_discard(&mut game, a, 3);
    let b = (a + 1) % 3;
    play(&mut game, b, json!({"type": "take_discard"})).expect("take");
    assert!(game.legal_count(b) >= 8);
    assert!(!legal(&game, b).iter().any(|m| m["card"] == json!(card)));
    assert_eq!(refused(&mut game, b, json!({"type": "discard", "card": card})), "just_taken");
}

#[test]
fn r3_7_3_a_card_drawn_from_the_stock_may_be_discarded_at_once() {
    let mut game = Cherki::new(&setup(3, 9, 1)).expect("valid");
    let a = game.to_act().first().expect("to act");
    let top = *game.stock().last().expect("stock");
    play(&mut game, a, json!({"type": "draw_stock"})).expect("draw");
    assert_eq!(game.events(Some(a)), vec![json!({"type": "draw_stock", "seat": a, "card": top, "stock": 95})]);
    assert_eq!(game.events(None), vec![json!({"type": "draw_stock", "seat": a, "stock": 95})]);
    assert_eq!(game.legal_count(a), 9, "nine plain discards, no call");
    play(&mut game, a, json!({"type": "discard", "card": top})).expect("discard the drawn card");
    assert_eq!(game.hand(a).len(), 8);
}

#[test]
fn r3_7_3_calling_with_the_discard_only_if_the_rest_is_ready() {
    let mut cards = Cards::new();
    // 7-7-7 9-9-9 RF and a stray coins-1; drawing the second RF allows a call by discarding the stray.
    let hand = cards.many(&[coins(7), strings(7), myriads(7), coins(9), strings(9), myriads(9), RF, coins(1)]);
    let stray = hand[7];
    let others =
        [junk(&mut cards), cards.many(&[coins(2), coins(3), strings(4), myriads(5), coins(6), strings(8), WF, OT])];
    let rf = cards.take(RF);
    let stock = vec![rf, cards.take(coins(4)), cards.take(coins(4))];
    let mut game = Cherki::test_position(&[hand, others[0].clone(), others[1].clone()], &stock, 2, 0, None, 1, 1)
        .expect("position");
    play(&mut game, 0, json!({"type": "draw_stock"})).expect("draw");
    let moves = legal(&game, 0);
    assert_eq!(moves.len(), 10, "nine discards and one call: {moves:?}");
    assert_eq!(moves[9], json!({"type": "discard", "card": stray, "call": true}));
    assert_eq!(refused(&mut game, 0, json!({"type": "discard", "card": rf, "call": true})), "not_ready");
    assert_eq!(refused(&mut game, 0, json!({"type": "call"})), "call_with_discard");
    play(&mut game, 0, json!({"type": "discard", "card": stray, "call": true})).expect("call");
    assert_eq!(event_types(&game, None), ["discard", "call"]);
    assert!(game.has_called(0));
    assert_eq!(game.locked_pair_kind(0).map(kind_name), Some("red-flower"));
}

#[test]
fn r3_7_4_turn_passes_clockwise() {
    let mut game = Cherki::new(&setup(4, 10, 1)).expect("valid");
    let mut seat = game.to_act().first().expect("to act");
    for _ in 0..8 {
        draw_and_discard(&mut game, seat, 0);
        seat = (seat + 1) % 4;
        assert_eq!(game.to_act().first(), Some(seat));
    }
}

// ---- 3.8 Turn of a called player, decisions 6 and 7 ----

#[test]
fn r3_8_d6_a_called_player_must_discard_the_drawn_card() {
    let (mut game, ready) = example_position(&[coins(1)], 1);
    play(&mut game, 0, json!({"type": "call"})).expect("call");
    play(&mut game, 0, json!({"type": "draw_stock"})).expect("draw");
    let drawn = game.view(Some(0))["private"]["drawn"].as_u64().expect("drawn") as u8;
    assert_eq!(legal(&game, 0), vec![json!({"type": "discard", "card": drawn})]);
    assert_eq!(refused(&mut game, 0, json!({"type": "discard", "card": ready[0]})), "must_discard_drawn");
    assert_eq!(refused(&mut game, 0, json!({"type": "discard", "card": drawn, "call": true})), "already_called");
    play(&mut game, 0, json!({"type": "discard", "card": drawn})).expect("discard");
    let mut held = game.hand(0);
    let mut want = ready.clone();
    held.sort_unstable();
    want.sort_unstable();
    assert_eq!(held, want, "the locked hand never changes");
}

#[test]
fn r3_8_d7_a_called_player_may_take_only_a_discard_of_the_pair_kind() {
    let mut cards = Cards::new();
    let ready = cards.many(&[coins(7), strings(7), myriads(7), coins(9), strings(9), myriads(9), RF, RF]);
    let other = junk(&mut cards);
    let wrong = cards.take(coins(3));
    let stock = vec![cards.take(coins(4)), cards.take(coins(4))];
    let mut game =
        Cherki::test_position(&[ready.clone(), other.clone()], &stock, 1, 0, Some((wrong, 1)), 1, 1).expect("position");
    play(&mut game, 0, json!({"type": "call"})).expect("call");
    assert_eq!(legal(&game, 0), vec![json!({"type": "draw_stock"})]);
    assert_eq!(refused(&mut game, 0, json!({"type": "take_discard"})), "not_pair_kind");
    assert_eq!(game.view(Some(0))["private"]["can_take"], json!(false));
    // Publicly the top discard is takeable by the rules everyone sees; the pair-kind test stays private.
    assert_eq!(game.public_view()["top_discard"]["takeable"], json!(true));

    let mut cards = Cards::new();
    let ready = cards.many(&[coins(7), strings(7), myriads(7), coins(9), strings(9), myriads(9), RF, RF]);
    let other = junk(&mut cards);
    let right = cards.take(RF);
    let stock = vec![cards.take(coins(4)), cards.take(coins(4))];
    let mut game = Cherki::test_position(&[ready, other], &stock, 1, 0, Some((right, 1)), 1, 1).expect("position");
    play(&mut game, 0, json!({"type": "call"})).expect("call");
    assert_eq!(legal(&game, 0), vec![json!({"type": "draw_stock"}), json!({"type": "take_discard"})]);
    play(&mut game, 0, json!({"type": "take_discard"})).expect("take the winning card");
    assert!(game.is_over());
    assert_eq!(event_types(&game, None), ["take_discard", "win"]);
    assert_eq!(game.events(None)[1]["by"], json!("take_discard"));
}

/// Seat 0 held 7-7-7 9-9-9 RF and a stray coins-1, took seat 1's Red Flower and called discarding the
/// stray; seat 1, holding a second Red Flower, has just drawn a coins-4 from the stock. Returns the game,
/// seat 1's Red Flower and the coins-4.
fn called_after_a_take() -> (Cherki, u8, u8) {
    let mut cards = Cards::new();
    let hand = cards.many(&[coins(7), strings(7), myriads(7), coins(9), strings(9), myriads(9), RF, coins(1)]);
    let stray = hand[7];
    let other = cards.many(&[coins(2), strings(3), myriads(4), coins(5), strings(6), WF, OT, RF]);
    let other_rf = other[7];
    let top = cards.take(RF);
    let four = cards.take(coins(4));
    let stock = vec![four, cards.take(coins(4)), cards.take(coins(8))];
    let mut game = Cherki::test_position(&[hand, other], &stock, 1, 0, Some((top, 1)), 1, 1).expect("position");
    play(&mut game, 0, json!({"type": "take_discard"})).expect("take");
    play(&mut game, 0, json!({"type": "discard", "card": stray, "call": true})).expect("call with the discard");
    play(&mut game, 1, json!({"type": "draw_stock"})).expect("draw");
    (game, other_rf, four)
}

#[test]
fn r3_8_d7_d11_a_called_player_may_take_a_winning_discard_right_after_a_take() {
    // Seat 0 takes a discard, then calls with its discard: on its next turn it took the discard last turn,
    // yet a discard of its pair kind wins (3.8, decision 7). Decision 11 exists to end stalling, and a
    // winning take ends the deal, so it does not apply.
    let (mut game, other_rf, _) = called_after_a_take();
    play(&mut game, 1, json!({"type": "discard", "card": other_rf})).expect("discard the Red Flower");
    assert_eq!(game.public_view()["players"][0]["took_last"], json!(true));
    assert_eq!(game.public_view()["top_discard"]["takeable"], json!(true));
    assert_eq!(game.view(Some(0))["private"]["can_take"], json!(true));
    assert_eq!(legal(&game, 0), vec![json!({"type": "draw_stock"}), json!({"type": "take_discard"})]);
    play(&mut game, 0, json!({"type": "take_discard"})).expect("the winning take");
    assert!(game.is_over());
    assert_eq!(game.events(None)[1]["by"], json!("take_discard"));
    assert_eq!(game.outcome().expect("over").winners, vec![0]);
}

#[test]
fn r3_8_d11_a_called_player_after_a_take_is_refused_a_discard_of_another_kind() {
    let (mut game, _, four) = called_after_a_take();
    play(&mut game, 1, json!({"type": "discard", "card": four})).expect("discard the coins-4");
    assert_eq!(refused(&mut game, 0, json!({"type": "take_discard"})), "not_pair_kind");
    assert_eq!(game.view(Some(0))["private"]["can_take"], json!(false));
    // The public flag cannot depend on the secret pair kind: it reads the same as above.
    assert_eq!(game.public_view()["top_discard"]["takeable"], json!(true));
}

#[test]
fn r3_8_calling_before_the_draw_and_winning_with_that_draw() {
    let (mut game, ready) = example_position(&[RF], 1);
    play(&mut game, 0, json!({"type": "call"})).expect("call");
    play(&mut game, 0, json!({"type": "draw_stock"})).expect("draw");
    assert!(game.is_over(), "the win is automatic, with no discard");
    assert_eq!(game.legal_count(0), 0);
    assert_eq!(event_types(&game, None), ["draw_stock", "win"]);
    let win = &game.events(Some(1))[1];
    assert_eq!(win["seat"], json!(0));
    let mut shown: Vec<u8> =
        win["hand"].as_array().expect("hand").iter().filter_map(Value::as_u64).map(|c| c as u8).collect();
    assert_eq!(shown.len(), 9);
    let mut want = ready;
    want.push(game.events(Some(0))[0]["card"].as_u64().expect("card") as u8);
    shown.sort_unstable();
    want.sort_unstable();
    assert_eq!(shown, want, "the revealed nine cards");
    assert_eq!(game.public_view()["last_deal"]["hand"], json!(shown));
}

#[test]
fn r3_8_a_player_who_has_not_called_cannot_win() {
    let (mut game, _) = example_position(&[RF], 1);
    play(&mut game, 0, json!({"type": "draw_stock"})).expect("draw");
    assert!(!game.is_over());
    assert_eq!(game.phase(), Phase::Drawn);
    assert_eq!(event_types(&game, None), ["draw_stock"]);
    assert_eq!(game.hand(0).len(), 9, "nine cards of three triples, but no call, so no win");
}

#[test]
fn r3_8_the_called_flag_is_public_the_hand_and_pair_kind_are_not() {
    let (mut game, ready) = example_position(&[coins(1)], 1);
    play(&mut game, 0, json!({"type": "call"})).expect("call");
    let public = game.public_view();
    assert_eq!(public["players"][0], json!({"called": true, "hand_size": 8, "took_last": false}));
    let text = public.to_string();
    assert!(!text.contains("red-flower"), "the pair kind leaks: {text}");
    assert_eq!(game.view(Some(0))["private"]["pair_kind"], json!("red-flower"));
    assert_eq!(game.view(Some(1))["private"]["pair_kind"], Value::Null);
    let mut shown: Vec<u8> = game.view(Some(0))["private"]["hand"]
        .as_array()
        .expect("hand")
        .iter()
        .filter_map(Value::as_u64)
        .map(|c| c as u8)
        .collect();
    let mut want = ready;
    shown.sort_unstable();
    want.sort_unstable();
    assert_eq!(shown, want);
    assert_eq!(game.view(None)["private"], Value::Null);
    assert_eq!(game.events(Some(1)), vec![json!({"type": "call", "seat": 0})]);
}

#[test]
fn r3_8_several_called_players_the_first_to_match_wins() {
    let mut cards = Cards::new();
    // Seat 0 waits on 5s, seat 1 on 2s; both have called. Seat 0 draws a 2 (not its kind) and must
    // discard it; seat 1 takes it and wins.
    let a = cards.many(&[coins(1), strings(1), myriads(1), coins(3), strings(3), myriads(3), coins(5), strings(5)]);
    let b = cards.many(&[coins(6), strings(6), myriads(6), coins(8), strings(8), myriads(8), coins(2), strings(2)]);
    let c = cards.many(&[coins(4), coins(7), strings(4), myriads(7), WF, RF, OT, coins(9)]);
    let two = cards.take(myriads(2));
    let stock = vec![two, cards.take(myriads(5)), cards.take(coins(4))];
    let mut game = Cherki::test_position(&[a, b, c], &stock, 2, 0, None, 1, 1).expect("position");
    play(&mut game, 0, json!({"type": "call"})).expect("seat 0 calls");
    play(&mut game, 0, json!({"type": "draw_stock"})).expect("draw");
    play(&mut game, 0, json!({"type": "discard", "card": two})).expect("forced discard");
    play(&mut game, 1, json!({"type": "call"})).expect("seat 1 calls");
    assert!(game.public_view()["players"]
        .as_array()
        .expect("players")
        .iter()
        .take(2)
        .all(|p| p["called"] == json!(true)));
    play(&mut game, 1, json!({"type": "take_discard"})).expect("seat 1 takes its pair kind");
    assert!(game.is_over());
    let outcome = game.outcome().expect("over");
    assert_eq!(outcome.winners, vec![1]);
    // 6+6+6+8+8+8+2+2+2 = 48; each opponent pays 48.
    assert_eq!(outcome.scores, vec![-48, 96, -48]);
}

// ---- 3.9 End of deal and scoring, decisions 8 and 9 ----

#[test]
fn r3_9_d8_settlement_example_51_points() {
    let (mut game, _) = example_position(&[RF], 1);
    play(&mut game, 0, json!({"type": "call"})).expect("call");
    play(&mut game, 0, json!({"type": "draw_stock"})).expect("draw the third Red Flower");
    let outcome = game.outcome().expect("over");
    assert_eq!(outcome.kind, OutcomeKind::Settlement);
    assert_eq!(outcome.scores, vec![102, -51, -51]);
    assert_eq!(outcome.winners, vec![0]);
    assert_eq!(outcome.order[0], 0);
    let win = &game.events(None)[1];
    assert_eq!(win["total"], json!(51));
    assert_eq!(win["payments"], json!([102, -51, -51]));
    assert_eq!(win["pair_kind"], json!("red-flower"));
    assert_eq!(game.public_view()["scores"], json!([102, -51, -51]));
}

#[test]
fn r3_9_d8_each_opponent_pays_the_total_for_two_and_six_players() {
    for players in [2usize, 6] {
        let mut cards = Cards::new();
        let ready = cards.many(&[WF, WF, WF, OT, OT, OT, coins(9), strings(9)]);
        let mut hands = vec![ready];
        let fillers = [
            [coins(1), coins(2), strings(3), myriads(4), coins(5), strings(6), RF, coins(8)],
            [strings(1), strings(2), myriads(3), coins(4), strings(5), myriads(6), RF, strings(8)],
            [myriads(1), myriads(2), coins(3), strings(4), myriads(5), coins(6), RF, myriads(8)],
            [coins(1), coins(2), strings(3), myriads(4), coins(5), strings(6), RF, coins(8)],
            [strings(1), strings(2), myriads(3), coins(4), strings(5), myriads(6), coins(7), strings(8)],
        ];
        for filler in fillers.iter().take(players - 1) {
            hands.push(cards.many(filler));
        }
        let stock = vec![cards.take(myriads(9)), cards.take(coins(7))];
        let mut game = Cherki::test_position(&hands, &stock, players - 1, 0, None, 1, 1).expect("position");
        play(&mut game, 0, json!({"type": "call"})).expect("call");
        play(&mut game, 0, json!({"type": "draw_stock"})).expect("draw");
        // 1+1+1 + 1+1+1 + 9+9+9 = 33.
        let mut want = vec![-33i64; players];
        want[0] = 33 * (players as i64 - 1);
        assert_eq!(game.outcome().expect("over").scores, want);
        assert_eq!(game.outcome().expect("over").scores.iter().sum::<i64>(), 0);
    }
}

/// Two players, stock of `stock_faces` (top first); seat 0 holds `hand0` and acts first.
fn short_stock(hand0: &[usize], stock_faces: &[usize], deals: u8) -> Cherki {
    let mut cards = Cards::new();
    let a = cards.many(hand0);
    let b = cards.many(&[coins(2), strings(2), myriads(3), coins(4), strings(5), myriads(6), WF, OT]);
    let stock = cards.many(stock_faces);
    Cherki::test_position(&[a, b], &stock, 1, 0, None, deals, 3).expect("position")
}

#[test]
fn r3_9_d9_stock_exhaustion_draws_the_deal_after_the_last_discard() {
    let hand = [coins(1), strings(1), myriads(1), coins(3), strings(3), myriads(3), coins(5), strings(5)];
    let mut game = short_stock(&hand, &[coins(8)], 1);
    play(&mut game, 0, json!({"type": "draw_stock"})).expect("draw the last card");
    assert!(!game.is_over(), "the player still discards");
    assert_eq!(game.public_view()["stock"], json!(0));
    let last = game.view(Some(0))["private"]["drawn"].as_u64().expect("drawn");
    play(&mut game, 0, json!({"type": "discard", "card": last})).expect("discard");
    assert!(game.is_over());
    assert_eq!(event_types(&game, None), ["discard", "deal_drawn"]);
    let outcome = game.outcome().expect("over");
    assert_eq!(outcome.kind, OutcomeKind::Draw);
    assert_eq!(outcome.scores, vec![0, 0]);
    assert!(outcome.winners.is_empty());
    assert_eq!(game.public_view()["top_discard"], Value::Null, "the final discard cannot be taken");
    assert_eq!(game.legal_count(1), 0);
    assert_eq!(game.public_view()["last_deal"]["result"], json!("drawn"));
}

#[test]
fn r3_9_the_last_stock_card_can_still_win() {
    let hand = [coins(1), strings(1), myriads(1), coins(3), strings(3), myriads(3), coins(5), strings(5)];
    let mut game = short_stock(&hand, &[myriads(5)], 1);
    play(&mut game, 0, json!({"type": "call"})).expect("call");
    play(&mut game, 0, json!({"type": "draw_stock"})).expect("draw the last card");
    assert!(game.is_over());
    assert_eq!(game.outcome().expect("over").scores, vec![27, -27]);
}

#[test]
fn r3_9_next_deal_moves_the_dealer_and_adds_up_scores() {
    let hand = [coins(1), strings(1), myriads(1), coins(3), strings(3), myriads(3), coins(5), strings(5)];
    let mut game = short_stock(&hand, &[myriads(5), coins(8)], 3);
    assert_eq!((game.deal_number(), game.dealer()), (1, 1));
    play(&mut game, 0, json!({"type": "call"})).expect("call");
    play(&mut game, 0, json!({"type": "draw_stock"})).expect("win");
    assert!(!game.is_over());
    assert_eq!(event_types(&game, None), ["draw_stock", "win", "new_deal"]);
    assert_eq!(game.events(None)[2], json!({"type": "new_deal", "deal": 2, "dealer": 0, "hand": null}));
    let mine = game.events(Some(1))[2]["hand"].clone();
    assert_eq!(mine, json!(game.hand(1)));
    assert_eq!((game.deal_number(), game.dealer()), (2, 0));
    assert_eq!(game.to_act().first(), Some(1), "the new dealer's left starts");
    assert_eq!(game.scores(), &[27, -27]);
    assert_eq!(game.public_view()["last_deal"]["winner"], json!(0));
    assert_eq!(game.stock().len(), 104);
    assert!((0..2).all(|s| !game.has_called(s) && game.hand(s).len() == 8));
    // Play deals 2 and 3 out by always drawing from the stock and discarding the drawn card.
    while let Some(seat) = game.to_act().first() {
        let mv = draw_or_discard_drawn(&game, seat);
        play(&mut game, seat, mv).expect("legal");
    }
    let outcome = game.outcome().expect("over");
    assert_eq!(outcome.kind, OutcomeKind::Settlement);
    assert_eq!(outcome.scores, vec![27, -27]);
    assert_eq!(outcome.winners, vec![0]);
    assert_eq!(outcome.detail["deals"].as_array().map(Vec::len), Some(3));
    assert_eq!(outcome.detail["deals"][2]["dealer"], json!(1));
}

#[test]
fn r3_9_the_next_deal_is_shuffled_from_the_game_rng_and_determinize_reseeds_it() {
    let game = Cherki::new(&setup(3, 30, 2)).expect("valid");
    let det = game.determinize(Some(0), &mut Rng::new(1));
    assert_ne!(det.state_json()["rng"], game.state_json()["rng"]);
    assert_eq!(det.view(Some(0)), game.view(Some(0)));
}
