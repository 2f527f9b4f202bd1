//! Matchstick Tycoon: one test per rule of §1.4–§1.9 and per numbered decision of §1.11
//! (docs/rules/matchstick.md), plus a brute-force oracle for the legal-move order.

use cardnet_core::game::{Game, OutcomeKind};
use cardnet_core::games::matchstick::{Matchstick, MatchstickMove};
use cardnet_core::json::canonical;
use cardnet_core::rng::Rng;
use cardnet_core::segments::{min_cost, CardType, Value};
use cardnet_core::session::Session;
use cardnet_core::GameError;
use serde_json::{json, Value as Json};

mod matchstick_common;
use matchstick_common::{act, c, event_types, new_game, pass, play, pos, pos_exp};

fn val(name: &str) -> Value {
    Value::parse(name).expect("value name")
}

fn code(result: Result<(), GameError>) -> &'static str {
    match result {
        Ok(()) => "ok",
        Err(e) => e.code(),
    }
}

fn legal_json(game: &Matchstick, seat: usize) -> Vec<Json> {
    (0..game.legal_count(seat)).map(|i| game.move_to_json(&game.legal_move(seat, i).expect("in range"))).collect()
}

fn public(game: &Matchstick) -> Json {
    game.public_view()
}

fn hand_sizes(game: &Matchstick) -> Vec<usize> {
    (0..game.setup().players).map(|s| game.hand_ids(s).len()).collect()
}

// ---------------------------------------------------------------------------------------------------
// §1.4 Setup

#[test]
fn r1_4_1_two_to_eight_players_and_a_random_first_player() {
    assert!(Session::<Matchstick>::start(Some(1), 1, &Json::Null).is_err());
    assert!(Session::<Matchstick>::start(Some(9), 1, &Json::Null).is_err());
    let info = Matchstick::info();
    assert_eq!((info.min_players, info.max_players, info.default_players), (2, 8, 4));
    let mut seen = [false; 4];
    for seed in 0..64 {
        seen[new_game(4, 0, false, seed).current_seat()] = true;
    }
    assert_eq!(seen, [true; 4], "every seat starts in some game");
}

#[test]
fn r1_4_2_the_deck_is_shuffled_56_cards_plus_the_expansion() {
    for (expansion, size) in [(0u64, 56u32), (2, 60), (4, 64)] {
        let game = new_game(4, expansion, false, 3);
        let (hands, pile, removed, aside) = game.card_masks();
        let all = hands.iter().fold(pile | removed | aside, |m, h| m | h);
        assert_eq!(all.count_ones(), size);
        let g_h = (56..64).filter(|id| all & (1u64 << id) != 0).count() as u64;
        assert_eq!(g_h, 2 * expansion);
    }
    assert_ne!(new_game(4, 0, false, 1).hand_ids(0), new_game(4, 0, false, 2).hand_ids(0));
}

#[test]
fn r1_4_3_two_or_three_players_get_15_cards_and_the_rest_is_set_aside() {
    for players in [2, 3] {
        for expansion in [0, 4] {
            let game = new_game(players, expansion, false, 5);
            assert!(hand_sizes(&game).iter().all(|&n| n == 15));
            let deck = 56 + 2 * expansion as usize;
            assert_eq!(public(&game)["set_aside"], json!(deck - 15 * players));
        }
    }
}

#[test]
fn r1_4_3_four_to_eight_players_deal_everything_one_at_a_time_from_the_first_player() {
    for players in 4..=8 {
        for expansion in [0, 2, 4] {
            let game = new_game(players, expansion, false, 11);
            let deck = 56 + 2 * expansion as usize;
            let first = game.current_seat();
            let sizes = hand_sizes(&game);
            assert_eq!(sizes.iter().sum::<usize>(), deck);
            for i in 0..players {
                let extra = usize::from(i < deck % players);
                assert_eq!(sizes[(first + i) % players], deck / players + extra, "{players}p exp {expansion}");
            }
            assert_eq!(public(&game)["set_aside"], json!(0));
        }
    }
}

#[test]
fn r1_4_3_deal_all_option_at_two_or_three_players_and_ignored_at_four() {
    let game = new_game(3, 0, true, 9);
    let first = game.current_seat();
    let sizes = hand_sizes(&game);
    assert_eq!(sizes[first], 19);
    assert_eq!(sizes.iter().sum::<usize>(), 56);
    assert_eq!(hand_sizes(&new_game(2, 2, true, 9)), vec![30, 30]);
    assert_eq!(new_game(5, 0, true, 9).state_json(), new_game(5, 0, false, 9).state_json());
    assert!(Matchstick::info().options.iter().any(|o| o.name == "deal_all" && o.house_rules));
}

#[test]
fn r1_4_4_each_player_starts_with_one_matchstick() {
    for players in 2..=8 {
        let game = new_game(players, 0, false, 2);
        assert!((0..players).all(|s| game.matchsticks_of(s) == 1));
    }
}

#[test]
fn r1_4_5_no_revolution_empty_table_and_the_first_player_leads() {
    let game = new_game(4, 0, false, 4);
    let view = public(&game);
    assert_eq!(view["revolution"], json!(false));
    assert_eq!(view["table"], Json::Null);
    assert_eq!(view["turn"], json!(game.current_seat()));
    assert!(legal_json(&game, game.current_seat()).iter().all(|m| m["type"] == "play"));
}

// ---------------------------------------------------------------------------------------------------
// §1.5 State

#[test]
fn r1_5_state_is_visible_as_the_rules_describe_it() {
    let mut game = pos(3, &[&[c("8", 0)], &[c("A", 0)], &[c("2", 0), c("2", 1)]], &[1, 0, 2], None, false, 0);
    play(&mut game, 0, "8", &[c("8", 0)]).expect("lead");
    let view = game.view(Some(2));
    let p = &view["public"];
    assert_eq!(p["players"][2], json!({"seat": 2, "hand_size": 2, "matchsticks": 2, "out": false, "finish": null}));
    assert_eq!(p["table"]["value"], json!("8"));
    assert_eq!(p["last_play_seat"], json!(0));
    assert_eq!(p["turn"], json!(1));
    assert_eq!(p["passed"], json!([]));
    assert_eq!(p["finish_order"], json!([]));
    assert_eq!(view["private"]["hand"], json!([{"id": 8, "card": "2"}, {"id": 9, "card": "2"}]));
    let state = game.state_json();
    assert_eq!(state["players"][2]["hand"], json!([8, 9]));
    assert!(state["rng"].as_str().is_some_and(|s| s.len() == 64));
}

// ---------------------------------------------------------------------------------------------------
// §1.6 Strength order

#[test]
fn r1_6_stronger_is_strict_in_the_normal_order() {
    let game = pos(2, &[&[c("8", 1), c("69", 0)], &[c("2", 0)]], &[0, 1], Some((1, "8", &[c("8", 0)])), false, 0);
    let moves = legal_json(&game, 0);
    assert_eq!(moves, vec![json!({"type": "pass"}), json!({"type": "play", "value": "9", "cards": [c("69", 0)]})]);
    let mut g = game.clone();
    assert_eq!(code(play(&mut g, 0, "8", &[c("8", 1)])), "not_stronger");
}

#[test]
fn r1_6_revolution_reverses_the_whole_order() {
    let hand = [c("0", 0), c("5", 0), c("8", 0), c("F", 0)];
    let game = pos(2, &[&hand, &[c("2", 0)]], &[0, 1], Some((1, "5", &[c("5", 1)])), true, 0);
    let values: Vec<Json> = legal_json(&game, 0).iter().skip(1).map(|m| m["value"].clone()).collect();
    assert_eq!(values, vec![json!("0")]);
}

// ---------------------------------------------------------------------------------------------------
// §1.7 Legal actions

#[test]
fn r1_7_a_an_empty_hand_with_matchsticks_must_discard_one() {
    let mut game = pos(3, &[&[], &[c("2", 0)], &[c("8", 0)]], &[2, 1, 1], Some((2, "4", &[c("4", 0)])), false, 0);
    assert_eq!(legal_json(&game, 0), vec![json!({"type": "discard_matchstick"})]);
    assert_eq!(code(pass(&mut game.clone(), 0)), "must_discard");
    assert_eq!(code(play(&mut game.clone(), 0, "2", &[c("2", 0)])), "must_discard");
    act(&mut game, 0, json!({"type": "discard_matchstick"})).expect("discard");
    assert_eq!(game.matchsticks_of(0), 1);
    assert_eq!(public(&game)["players"][0]["out"], json!(false));
    assert_eq!(public(&game)["passed"], json!([0]));
}

#[test]
fn r1_7_b_a_leader_plays_one_to_five_cards_and_cannot_pass() {
    let hand: Vec<u8> = (0..4).map(|i| c("8", i)).chain([c("0", 0), c("0", 1)]).collect();
    let mut game = pos(2, &[&hand, &[c("2", 0)]], &[1, 1], None, false, 0);
    let moves = legal_json(&game, 0);
    let counts: Vec<usize> = moves.iter().map(|m| m["cards"].as_array().map_or(0, Vec::len)).collect();
    assert!(moves.iter().all(|m| m["type"] == "play"));
    assert_eq!(counts.iter().min(), Some(&1));
    assert_eq!(counts.iter().max(), Some(&5));
    assert_eq!(code(pass(&mut game.clone(), 0)), "must_lead");
    let six = json!({"type": "play", "value": "8", "cards": hand});
    assert_eq!(game.move_from_json(0, &six).map(|_| ()).map_err(|e| e.code()), Err("invalid_move"));
    play(&mut game, 0, "8", &hand[..5]).expect("five 8s, the 0 with a matchstick");
}

#[test]
fn r1_7_c_a_follower_plays_the_same_count_stronger_or_passes() {
    let hand = [c("A", 0), c("A", 1), c("b", 0), c("3E", 0)];
    let game = pos(2, &[&hand, &[c("2", 0)]], &[0, 1], Some((1, "9", &[c("69", 0), c("69", 1)])), false, 0);
    let moves = legal_json(&game, 0);
    assert_eq!(moves[0], json!({"type": "pass"}));
    for m in &moves[1..] {
        assert_eq!(m["cards"].as_array().map(Vec::len), Some(2));
        assert!(val(m["value"].as_str().unwrap_or("")).beats(val("9"), false));
    }
    assert_eq!(moves.len(), 2, "only the pair of As: {moves:?}");
    assert_eq!(code(play(&mut game.clone(), 0, "A", &[c("A", 0)])), "wrong_count");
}

#[test]
fn r1_7_play_1_cards_must_be_in_hand_and_distinct() {
    let game = pos(2, &[&[c("7", 0), c("7", 1)], &[c("7", 2)]], &[0, 0], None, false, 0);
    assert_eq!(code(play(&mut game.clone(), 0, "7", &[c("7", 2)])), "not_in_hand");
    assert_eq!(code(play(&mut game.clone(), 0, "7", &[c("7", 0), c("7", 0)])), "duplicate_card");
}

#[test]
fn r1_7_play_2_shape_plus_added_segments_must_be_exactly_a_glyph() {
    let one = c("1", 0);
    let game = pos(2, &[&[one], &[c("2", 0)]], &[2, 1], None, false, 0);
    let try_play = |mv: Json| code(act(&mut game.clone(), 0, mv));
    // A turned 1 with no matchstick reads `e f`: no glyph, so the 1 must stay upright.
    assert_eq!(try_play(json!({"type": "play", "value": "1", "cards": [one], "rotated": [true]})), "bad_detail");
    assert_eq!(try_play(json!({"type": "play", "value": "1", "cards": [one], "rotated": [false]})), "ok");
    // Turned 1 + a + g = F.
    assert_eq!(try_play(json!({"type": "play", "value": "F", "cards": [one], "add": ["ag"]})), "ok");
    assert_eq!(try_play(json!({"type": "play", "value": "F", "cards": [one], "rotated": [true], "add": ["ag"]})), "ok");
    // Adding onto a lit segment, or adding too little, is refused.
    assert_eq!(try_play(json!({"type": "play", "value": "7", "cards": [one], "add": ["ab"]})), "bad_detail");
    assert_eq!(try_play(json!({"type": "play", "value": "F", "cards": [one], "add": ["a"]})), "bad_detail");
    assert_eq!(try_play(json!({"type": "play", "value": "F", "cards": [one], "rotated": [false]})), "bad_detail");
    assert_eq!(try_play(json!({"type": "play", "value": "2", "cards": [one]})), "cannot_show");
}

#[test]
fn r1_7_play_3_mixed_printed_types_show_one_value() {
    let zero = c("0", 0);
    let four = c("4", 0);
    let mut game = pos(2, &[&[zero, four], &[c("2", 0)]], &[4, 1], None, false, 0);
    assert!(legal_json(&game, 0).contains(&json!({"type": "play", "value": "8", "cards": [zero, four]})));
    let mv = json!({"type": "play", "value": "8", "cards": [zero, four], "add": ["g", "ade"]});
    act(&mut game, 0, mv).expect("0+g and 4+a,d,e are two 8s");
    assert_eq!(game.matchsticks_of(0), 0);
    let table = &public(&game)["table"];
    assert_eq!(table["value"], json!("8"));
    assert_eq!(table["cards"][1], json!({"id": four, "card": "4", "rotated": false, "lit": "bcfg", "added": "ade"}));
}

#[test]
fn r1_7_play_4_matchsticks_used_are_at_most_those_held_and_turning_is_free() {
    let one = c("1", 0);
    let game = pos(2, &[&[one], &[c("2", 0)]], &[2, 1], None, false, 0);
    let values: Vec<Json> = legal_json(&game, 0).iter().map(|m| m["value"].clone()).collect();
    assert_eq!(values, vec![json!("1"), json!("4"), json!("7"), json!("C"), json!("F")]);
    assert_eq!(code(play(&mut game.clone(), 0, "3", &[one])), "too_few_matchsticks");
}

#[test]
fn r1_7_play_effects_pay_matchsticks_set_the_table_and_clear_passes() {
    let mut game =
        pos(3, &[&[c("7", 0), c("8", 0)], &[c("2", 0), c("3E", 0)], &[c("b", 0)]], &[3, 1, 1], None, false, 0);
    play(&mut game, 0, "3", &[c("7", 0)]).expect("7 + d g = 3");
    assert_eq!(game.matchsticks_of(0), 1);
    pass(&mut game, 1).expect("pass");
    assert_eq!(public(&game)["passed"], json!([1]));
    play(&mut game, 2, "b", &[c("b", 0)]).expect("b beats 3");
    let view = public(&game);
    assert_eq!(view["table"]["seat"], json!(2));
    assert_eq!(view["passed"], json!([]));
    assert_eq!(view["pile_size"], json!(2));
}

#[test]
fn r1_7_play_five_cards_flip_the_revolution_at_once() {
    let threes: Vec<u8> = (0..4).map(|i| c("3E", i)).chain([c("7", 0)]).collect();
    let zeros: Vec<u8> = (0..4).map(|i| c("0", i)).chain([c("C", 0)]).collect();
    let mut game = pos(2, &[&[&threes[..], &[c("2", 0)]].concat(), &zeros], &[2, 2], None, false, 0);
    play(&mut game, 0, "3", &threes).expect("five 3s, the 7 with two matchsticks");
    assert!(game.revolution());
    assert_eq!(event_types(&game), ["play", "revolution"]);
    let moves = legal_json(&game, 1);
    assert_eq!(moves.len(), 2, "pass, or five 0s (the C with two matchsticks): {moves:?}");
    play(&mut game, 1, "0", &zeros).expect("five 0s beat five 3s under the revolution");
    assert!(!game.revolution());
}

#[test]
fn r1_7_pass_takes_a_matchstick_and_the_player_may_play_later_in_the_trick() {
    let mut game = pos(
        3,
        &[&[c("2", 0), c("5", 0)], &[c("4", 0), c("A", 0)], &[c("3E", 0), c("8", 0)]],
        &[0, 0, 0],
        None,
        false,
        0,
    );
    play(&mut game, 0, "2", &[c("2", 0)]).expect("lead 2");
    pass(&mut game, 1).expect("pass");
    assert_eq!(game.matchsticks_of(1), 1);
    play(&mut game, 2, "3", &[c("3E", 0)]).expect("3 beats 2");
    play(&mut game, 0, "5", &[c("5", 0)]).expect("5 beats 3");
    play(&mut game, 1, "A", &[c("A", 0)]).expect("the passer plays again in the same trick");
}

// ---------------------------------------------------------------------------------------------------
// §1.8 Turn order and end of trick

#[test]
fn r1_8_the_trick_ends_when_everyone_else_passed_and_the_last_player_leads() {
    let mut game = pos(3, &[&[c("2", 0), c("5", 0)], &[c("4", 0)], &[c("3E", 0)]], &[0, 0, 0], None, false, 0);
    play(&mut game, 0, "5", &[c("5", 0)]).expect("lead");
    pass(&mut game, 1).expect("pass");
    pass(&mut game, 2).expect("pass");
    assert_eq!(event_types(&game), ["pass", "trick_cleared"]);
    let view = public(&game);
    assert_eq!(view["table"], Json::Null);
    assert_eq!(view["removed"], json!(1));
    assert_eq!(view["turn"], json!(0));
    assert_eq!(view["leader"], Json::Null);
}

#[test]
fn r1_8_play_moves_clockwise_skipping_players_who_are_out() {
    let mut game =
        pos(3, &[&[c("2", 0), c("5", 0)], &[c("4", 0)], &[c("3E", 0), c("8", 0)]], &[0, 0, 0], None, false, 0);
    play(&mut game, 0, "2", &[c("2", 0)]).expect("lead");
    play(&mut game, 1, "4", &[c("4", 0)]).expect("seat 1 goes out");
    assert_eq!(public(&game)["players"][1]["finish"], json!(1));
    play(&mut game, 2, "8", &[c("8", 0)]).expect("8");
    assert_eq!(game.current_seat(), 0, "seat 1 is skipped");
}

#[test]
fn r1_8_a_leader_who_went_out_hands_the_lead_clockwise() {
    let mut game = pos(3, &[&[c("F", 0)], &[c("4", 0)], &[c("3E", 0)]], &[0, 0, 0], None, false, 0);
    play(&mut game, 0, "F", &[c("F", 0)]).expect("seat 0 goes out with its last card");
    pass(&mut game, 1).expect("pass");
    pass(&mut game, 2).expect("pass");
    assert_eq!(event_types(&game), ["pass", "trick_cleared"]);
    assert_eq!(public(&game)["turn"], json!(1));
    assert_eq!(public(&game)["table"], Json::Null);
}

#[test]
fn r1_8_a_leader_holding_only_matchsticks_discards_and_the_next_player_leads() {
    let mut game = pos(3, &[&[c("F", 0)], &[c("4", 0), c("5", 0)], &[c("3E", 0)]], &[2, 0, 0], None, false, 0);
    play(&mut game, 0, "F", &[c("F", 0)]).expect("last card, two matchsticks left");
    pass(&mut game, 1).expect("pass");
    pass(&mut game, 2).expect("pass");
    assert_eq!(game.current_seat(), 0);
    assert_eq!(legal_json(&game, 0), vec![json!({"type": "discard_matchstick"})]);
    act(&mut game, 0, json!({"type": "discard_matchstick"})).expect("discard");
    assert_eq!(public(&game)["table"], Json::Null);
    assert_eq!(game.current_seat(), 1);
    assert!(legal_json(&game, 1).iter().all(|m| m["type"] == "play"), "seat 1 leads");
}

#[test]
fn r1_8_the_revolution_stays_when_the_table_is_cleared() {
    let eights: Vec<u8> = (0..4).map(|i| c("8", i)).chain([c("69", 0)]).collect();
    let mut game = pos(2, &[&[&eights[..], &[c("2", 0)]].concat(), &[c("2", 1)]], &[1, 0], None, false, 0);
    play(&mut game, 0, "8", &eights).expect("four 8s and a 6 with one matchstick");
    assert!(game.revolution());
    pass(&mut game, 1).expect("pass");
    assert_eq!(event_types(&game), ["pass", "trick_cleared"]);
    assert!(game.revolution(), "the revolution outlives the trick");
    assert_eq!(public(&game)["revolution"], json!(true));
}

// ---------------------------------------------------------------------------------------------------
// §1.9 Going out, game end, ranking

#[test]
fn r1_9_a_player_goes_out_with_no_card_and_no_matchstick() {
    let mut game = pos(3, &[&[c("7", 0)], &[c("4", 0), c("2", 0)], &[c("3E", 0)]], &[1, 0, 0], None, false, 0);
    play(&mut game, 0, "7", &[c("7", 0)]).expect("last card, one matchstick left");
    assert_eq!(public(&game)["players"][0]["out"], json!(false));
    let mut game = pos(3, &[&[c("1", 0)], &[c("4", 0), c("2", 0)], &[c("3E", 0)]], &[1, 0, 0], None, false, 0);
    play(&mut game, 0, "7", &[c("1", 0)]).expect("1 + a = 7 spends the last matchstick");
    assert_eq!(event_types(&game), ["play", "went_out"]);
    assert_eq!(public(&game)["players"][0]["finish"], json!(1));
    assert_eq!(game.legal_count(0), 0);
}

#[test]
fn r1_9_the_game_ends_with_one_player_left_who_is_ranked_last() {
    let mut game = pos(3, &[&[c("F", 0)], &[c("4", 0)], &[c("3E", 0), c("2", 0)]], &[0, 0, 0], None, false, 0);
    play(&mut game, 0, "F", &[c("F", 0)]).expect("out first");
    pass(&mut game, 1).expect("pass");
    pass(&mut game, 2).expect("pass");
    // Seat 1 leads its 4 while holding one matchstick from the pass: it must still discard it.
    play(&mut game, 1, "4", &[c("4", 0)]).expect("lead");
    pass(&mut game, 2).expect("pass");
    act(&mut game, 1, json!({"type": "discard_matchstick"})).expect("discard");
    assert_eq!(event_types(&game), ["discard_matchstick", "went_out", "went_out", "game_over"]);
    let outcome = game.outcome().expect("over");
    assert_eq!(outcome.kind, OutcomeKind::Ranking);
    assert_eq!(outcome.order, vec![0, 1, 2]);
    assert_eq!(outcome.scores, vec![1, 2, 3]);
    assert_eq!(outcome.winners, vec![0]);
    assert!(game.to_act().is_empty());
}

// ---------------------------------------------------------------------------------------------------
// §1.11 Decisions

#[test]
fn d01_the_deck_is_14_printed_types_times_4_with_no_9_or_e_card() {
    let game = new_game(4, 0, false, 8);
    let (hands, ..) = game.card_masks();
    let all = hands.iter().fold(0u64, |m, h| m | h);
    assert_eq!(all, (1u64 << 56) - 1);
    assert_eq!(CardType::parse("9"), None);
    assert_eq!(CardType::parse("E"), None);
    let names: Vec<&str> = (0..56u8).step_by(4).map(|id| CardType::ALL[usize::from(id / 4)].name()).collect();
    assert_eq!(names, ["0", "1", "2", "3E", "4", "5", "69", "7", "8", "A", "b", "C", "d", "F"]);
}

#[test]
fn d02_the_published_transformations_are_legal_plays() {
    let cases = [
        ("69", "8", json!(["b"]), 1),
        ("69", "9", json!([""]), 0),
        ("1", "F", json!(["ag"]), 2),
        ("3E", "9", json!(["f"]), 1),
        ("7", "3", json!(["dg"]), 2),
        ("0", "8", json!(["g"]), 1),
        ("4", "8", json!(["ade"]), 3),
    ];
    for (card, value, add, cost) in cases {
        let id = c(card, 0);
        let mut game = pos(2, &[&[id, c("2", 0)], &[c("2", 1)]], &[3, 0], None, false, 0);
        act(&mut game, 0, json!({"type": "play", "value": value, "cards": [id], "add": add}))
            .unwrap_or_else(|e| panic!("{card} -> {value}: {e}"));
        assert_eq!(game.matchsticks_of(0), 3 - cost, "{card} -> {value}");
    }
}

#[test]
fn d03_matchsticks_only_fill_empty_segments_to_make_an_exact_glyph() {
    let id = c("C", 0);
    let game = pos(2, &[&[id], &[c("2", 0)]], &[3, 0], None, false, 0);
    let try_add = |value: &str, add: &str| {
        code(act(&mut game.clone(), 0, json!({"type": "play", "value": value, "cards": [id], "add": [add]})))
    };
    assert_eq!(try_add("E", "g"), "ok");
    assert_eq!(try_add("E", "ag"), "bad_detail", "a is already lit");
    assert_eq!(try_add("8", "bcg"), "ok");
    assert_eq!(try_add("8", "bc"), "bad_detail", "adef+bc shows 0, not 8");
    assert_eq!(try_add("G", "c"), "no_such_value", "G needs the expansion");
}

#[test]
fn d04_one_matchstick_per_added_segment_and_turning_is_free() {
    let one = c("1", 0);
    let mut game = pos(2, &[&[one, c("2", 0)], &[c("2", 1)]], &[5, 0], None, false, 0);
    play(&mut game, 0, "8", &[one]).expect("1 + five segments = 8");
    assert_eq!(game.matchsticks_of(0), 0);
    let mut game = pos(2, &[&[c("3E", 0), c("2", 0)], &[c("2", 1)]], &[0, 0], None, false, 0);
    act(&mut game, 0, json!({"type": "play", "value": "E", "cards": [c("3E", 0)], "rotated": [true]}))
        .expect("turned 3 = E");
    assert_eq!(game.matchsticks_of(0), 0);
    assert_eq!(public(&game)["table"]["cards"][0]["rotated"], json!(true));
}

#[test]
fn d05_cards_of_different_types_combine_once_they_show_the_same_value() {
    let cards = [c("3E", 0), c("69", 0), c("b", 0)];
    let mut game = pos(2, &[&cards, &[c("2", 0)]], &[2, 0], None, false, 0);
    assert!(legal_json(&game, 0).contains(&json!({"type": "play", "value": "9", "cards": cards})));
    act(&mut game, 0, json!({"type": "play", "value": "9", "cards": cards, "rotated": [false, true, true]}))
        .expect("3+f, turned 6, turned b+d: three 9s");
    assert_eq!(game.matchsticks_of(0), 0);
}

#[test]
fn d06_leads_of_one_to_five_and_the_revolution_lasts_until_the_next_five() {
    let eights: Vec<u8> = (0..4).map(|i| c("8", i)).chain([c("69", 0)]).collect();
    let threes: Vec<u8> = (0..4).map(|i| c("3E", i)).chain([c("7", 0)]).collect();
    let hand = [&eights[..], &threes, &[c("2", 0)]].concat();
    let mut game = pos(2, &[&hand, &[c("4", 0), c("5", 0)]], &[3, 0], None, false, 0);
    play(&mut game, 0, "8", &eights).expect("five 8s: revolution");
    pass(&mut game, 1).expect("pass; the trick ends");
    assert!(game.revolution());
    play(&mut game, 0, "3", &threes).expect("five 3s, the 7 with two matchsticks");
    assert!(!game.revolution(), "a second five-card play flips the order back");
}

#[test]
fn d07_stronger_is_strict_and_the_revolution_reverses_g_and_h_too() {
    let hand = [c("G", 0), c("H", 0), c("F", 0)];
    let normal = pos_exp(2, 2, &[&hand, &[c("2", 0)]], &[0, 0], Some((1, "G", &[c("G", 1)])), false, 0);
    let values: Vec<Json> = legal_json(&normal, 0).iter().skip(1).map(|m| m["value"].clone()).collect();
    assert_eq!(values, vec![json!("H")]);
    let reversed = pos_exp(2, 2, &[&hand, &[c("2", 0)]], &[0, 0], Some((1, "G", &[c("G", 1)])), true, 0);
    let values: Vec<Json> = legal_json(&reversed, 0).iter().skip(1).map(|m| m["value"].clone()).collect();
    assert_eq!(values, vec![json!("F")]);
}

#[test]
fn d08_matchsticks_on_played_cards_leave_the_game_with_them() {
    let mut game = pos(2, &[&[c("0", 0), c("2", 0)], &[c("3E", 0)]], &[1, 0], None, false, 0);
    play(&mut game, 0, "8", &[c("0", 0)]).expect("0 + g");
    pass(&mut game, 1).expect("pass: the trick ends");
    assert_eq!(event_types(&game), ["pass", "trick_cleared"]);
    assert_eq!((game.matchsticks_of(0), game.matchsticks_of(1)), (0, 1), "only the pass gained one");
    assert_eq!(public(&game)["removed"], json!(1));
}

#[test]
fn d09_passing_takes_one_matchstick_but_never_when_leading_or_with_no_card() {
    let mut game = pos(2, &[&[c("2", 0), c("5", 0)], &[c("3E", 0)]], &[0, 0], None, false, 0);
    assert_eq!(code(pass(&mut game.clone(), 0)), "must_lead");
    play(&mut game, 0, "2", &[c("2", 0)]).expect("lead");
    pass(&mut game, 1).expect("pass");
    assert_eq!(game.matchsticks_of(1), 1);
    let mut empty = pos(2, &[&[], &[c("3E", 0)]], &[1, 0], Some((1, "3", &[c("3E", 1)])), false, 0);
    assert_eq!(code(pass(&mut empty, 0)), "must_discard");
}

#[test]
fn d10_the_last_player_to_play_leads_the_next_trick() {
    let mut game = pos(
        4,
        &[&[c("2", 0), c("5", 0)], &[c("3E", 0), c("8", 0)], &[c("4", 0), c("7", 0)], &[c("b", 0), c("d", 0)]],
        &[0; 4],
        None,
        false,
        0,
    );
    play(&mut game, 0, "2", &[c("2", 0)]).expect("lead");
    play(&mut game, 1, "3", &[c("3E", 0)]).expect("3");
    pass(&mut game, 2).expect("pass");
    pass(&mut game, 3).expect("pass");
    pass(&mut game, 0).expect("pass");
    assert_eq!(event_types(&game), ["pass", "trick_cleared"]);
    assert_eq!(game.current_seat(), 1);
    assert_eq!(game.events(None)[1], json!({"type": "trick_cleared", "removed": 2, "leader": 1}));
}

#[test]
fn d11_a_forced_discard_counts_as_a_pass_and_gives_nothing() {
    let mut game = pos(3, &[&[c("2", 0), c("5", 0)], &[], &[c("3E", 0)]], &[0, 2, 0], None, false, 0);
    play(&mut game, 0, "5", &[c("5", 0)]).expect("lead");
    act(&mut game, 1, json!({"type": "discard_matchstick"})).expect("forced discard");
    assert_eq!(game.matchsticks_of(1), 1);
    pass(&mut game, 2).expect("pass");
    assert_eq!(event_types(&game), ["pass", "trick_cleared"]);
    assert_eq!(game.current_seat(), 0);
}

#[test]
fn d12_fifteen_cards_at_two_or_three_players_all_at_four_to_eight() {
    assert_eq!(hand_sizes(&new_game(2, 0, false, 1)), vec![15, 15]);
    assert_eq!(hand_sizes(&new_game(3, 2, false, 1)), vec![15, 15, 15]);
    assert_eq!(hand_sizes(&new_game(8, 0, false, 1)), vec![7; 8]);
    assert_eq!(hand_sizes(&new_game(4, 4, false, 1)), vec![16; 4]);
    assert_eq!(hand_sizes(&new_game(2, 0, true, 1)), vec![28, 28]);
}

#[test]
fn d13_the_first_player_comes_from_the_game_rng() {
    assert_eq!(new_game(5, 0, false, 77).current_seat(), new_game(5, 0, false, 77).current_seat());
    let firsts: std::collections::BTreeSet<usize> = (0..100).map(|s| new_game(8, 0, false, s).current_seat()).collect();
    assert_eq!(firsts.len(), 8);
}

#[test]
fn d14_the_game_stops_with_one_player_left_and_ranks_by_going_out() {
    for seed in 0..20 {
        let mut game = new_game(5, 2, false, seed);
        let mut rng = Rng::new(seed);
        let mut outs = Vec::new();
        while let Some(seat) = game.to_act().first() {
            let index = rng.index(game.legal_count(seat));
            game.apply_index(seat, index).expect("legal index");
            for e in game.events(None) {
                if e["type"] == "went_out" {
                    outs.push(e["seat"].as_u64().unwrap_or(99) as usize);
                }
            }
        }
        let outcome = game.outcome().expect("over");
        assert_eq!(outcome.order, outs);
        assert_eq!(outcome.winners, vec![outs[0]]);
        for (pos, &seat) in outs.iter().enumerate() {
            assert_eq!(outcome.scores[seat], pos as i64 + 1);
        }
    }
}

// ---------------------------------------------------------------------------------------------------
// The legal-move engine against a brute force of the documented order.

/// Every legal play listed by brute force: sizes, then values in normal order, then type multisets as
/// sorted type lists in lexicographic order; lowest ids of each type.
fn brute_force(game: &Matchstick, seat: usize, expansion: bool) -> Vec<Json> {
    let hand = game.hand_ids(seat);
    let sticks = game.matchsticks_of(seat);
    let view = public(game);
    let table = &view["table"];
    let revolution = game.revolution();
    let mut counts = [0usize; 16];
    for &id in &hand {
        counts[usize::from(id / 4)] += 1;
    }
    let mut out = Vec::new();
    if hand.is_empty() {
        return vec![json!({"type": "discard_matchstick"})];
    }
    let sizes: Vec<usize> = if table.is_null() {
        (1..=5).collect()
    } else {
        out.push(json!({"type": "pass"}));
        vec![table["count"].as_u64().unwrap_or(0) as usize]
    };
    let values = if expansion { 18 } else { 16 };
    for k in sizes {
        for v in Value::ALL[..values].iter().copied() {
            if !table.is_null() && !v.beats(val(table["value"].as_str().unwrap_or("")), revolution) {
                continue;
            }
            let mut lists = Vec::new();
            multisets(&counts, 0, k, &mut Vec::new(), &mut lists);
            for list in lists {
                let cost: Option<u32> = list.iter().map(|&t| min_cost(CardType::ALL[t], v).map(u32::from)).sum();
                if cost.is_some_and(|c| c <= sticks) {
                    let mut ids = Vec::new();
                    let mut used = [0usize; 16];
                    for &t in &list {
                        let id = hand.iter().filter(|&&id| usize::from(id / 4) == t).nth(used[t]).copied();
                        ids.push(id.unwrap_or(255));
                        used[t] += 1;
                    }
                    out.push(json!({"type": "play", "value": v.name(), "cards": ids}));
                }
            }
        }
    }
    out
}

fn multisets(counts: &[usize; 16], from: usize, k: usize, current: &mut Vec<usize>, out: &mut Vec<Vec<usize>>) {
    if k == 0 {
        out.push(current.clone());
        return;
    }
    for t in from..16 {
        let used = current.iter().filter(|&&x| x == t).count();
        if used < counts[t] {
            current.push(t);
            multisets(counts, t, k - 1, current, out);
            current.pop();
        }
    }
}

#[test]
fn legal_moves_match_a_brute_force_of_the_documented_order() {
    let mut rng = Rng::new(2024);
    for trial in 0..300u64 {
        let players = 2 + (trial % 3) as usize;
        let expansion = [0u64, 2, 4][(trial % 3) as usize];
        let mut game = new_game(players, expansion, true, trial);
        let steps = rng.index(40);
        for _ in 0..steps {
            let Some(seat) = game.to_act().first() else { break };
            game.apply_index(seat, rng.index(game.legal_count(seat))).expect("legal");
        }
        let Some(seat) = game.to_act().first() else { continue };
        // Give the player a random number of matchsticks, up to many, to exercise the budget.
        let sticks = [0u32, 1, 2, 3, 5, 8, 13, 30][rng.index(8)];
        let hands: Vec<Vec<u8>> = (0..players).map(|s| game.hand_ids(s)).collect();
        let mut all_sticks: Vec<u32> = (0..players).map(|s| game.matchsticks_of(s)).collect();
        all_sticks[seat] = sticks.max(u32::from(hands[seat].is_empty()));
        let view = public(&game);
        let table_cards: Vec<u8> = view["table"]["cards"]
            .as_array()
            .map(|a| a.iter().map(|c| c["id"].as_u64().unwrap_or(0) as u8).collect())
            .unwrap_or_default();
        let table = view["table"]["value"].as_str().map(|v| (view["table"]["seat"].as_u64().unwrap_or(0) as usize, v));
        let game = new_game(players, expansion, true, trial).test_position(
            &hands,
            &all_sticks,
            table.map(|(s, v)| (s, val(v), &table_cards[..])),
            game.revolution(),
            seat,
        );
        let expected = brute_force(&game, seat, expansion > 0);
        assert_eq!(legal_json(&game, seat), expected, "trial {trial}");
        for (i, mv) in expected.iter().enumerate() {
            let typed = game.move_from_json(seat, mv).expect("parses");
            assert_eq!(game.index_of(seat, &typed), Some(i));
        }
    }
}

#[test]
fn any_copies_of_the_same_types_rank_the_same_and_are_the_ones_played() {
    let hand = [c("8", 0), c("8", 1), c("8", 2), c("0", 3)];
    let mut game = pos(2, &[&hand, &[c("2", 0)]], &[1, 0], None, false, 0);
    let listed =
        game.move_from_json(0, &json!({"type": "play", "value": "8", "cards": [c("8", 0), c("0", 3)]})).expect("parse");
    let other = game
        .move_from_json(0, &json!({"type": "play", "value": "8", "cards": [c("0", 3), c("8", 2)], "add": ["g", ""]}))
        .expect("parse");
    assert!(game.index_of(0, &listed).is_some());
    assert_eq!(game.index_of(0, &listed), game.index_of(0, &other));
    game.apply_legal(0, &other);
    assert_eq!(game.hand_ids(0), vec![c("8", 0), c("8", 1)]);
    assert!(matches!(game.legal_move(1, 0), Some(MatchstickMove::Pass)));
}

#[test]
fn many_matchsticks_give_thousands_of_counted_plays() {
    let hand: Vec<u8> = (0..14u8).map(|t| t * 4).chain((0..14u8).map(|t| t * 4 + 1)).collect();
    let game = pos(2, &[&hand, &[c("2", 2)]], &[40, 0], None, false, 0);
    let count = game.legal_count(0);
    assert!(count > 5000, "{count}");
    let last = game.legal_move(0, count - 1).expect("last");
    assert_eq!(game.index_of(0, &last), Some(count - 1));
    assert_eq!(game.legal_move(0, count), None);
}

#[test]
#[cfg(feature = "ai")]
fn built_in_players_finish_games() {
    let summary =
        cardnet_core::registry::simulate("matchstick", &["heuristic", "random", "ismcts:20"], 3, 5, &json!({}))
            .expect("simulate");
    assert_eq!(summary.games, 3);
    assert_eq!(summary.wins.iter().sum::<u64>(), 3);
    let mut game = new_game(4, 0, false, 21);
    let mut rng = Rng::new(1);
    while let Some(seat) = game.to_act().first() {
        let index = game.heuristic_index(seat, &mut rng);
        assert!(index < game.legal_count(seat));
        game.apply_index(seat, index).expect("heuristic index is legal");
    }
    assert!(game.outcome().is_some());
}

// ---------------------------------------------------------------------------------------------------
// Game::from_view: a full state from one seat's view

/// Plays the heuristic player's moves for `moves` turns (or until the game ends).
fn play_on(game: &mut Matchstick, moves: usize, seed: u64) {
    let mut rng = Rng::new(seed);
    for _ in 0..moves {
        let Some(seat) = game.to_act().iter().next() else { break };
        let index = game.heuristic_index(seat, &mut rng);
        game.apply_index(seat, index).expect("a legal index");
    }
}

#[test]
fn from_view_round_trips_a_mid_game_seat_view_and_deals_the_rest_consistently() {
    let mut game = new_game(4, 2, false, 11);
    play_on(&mut game, 9, 5);
    assert!(game.public_view()["table"].is_object(), "a trick is in progress");
    let seat = game.current_seat();
    let view = game.view(Some(seat));
    let built = Matchstick::from_view(game.setup(), Some(seat), &view, &mut Rng::new(99)).expect("from_view");
    assert_eq!(built.view(Some(seat)), view);
    assert_eq!(built.to_act(), game.to_act());
    assert_eq!(legal_json(&built, seat), legal_json(&game, seat));
    assert_eq!(built.hand_ids(seat), game.hand_ids(seat));
    assert_eq!(hand_sizes(&built), hand_sizes(&game));
    let (hands, pile, removed, aside) = built.card_masks();
    let all = hands.iter().fold(0u64, |m, h| m | h);
    assert_eq!((all | pile | removed | aside).count_ones(), 60, "every card of the deck is somewhere");
    assert_eq!(all.count_ones() + pile.count_ones() + removed.count_ones() + aside.count_ones(), 60);
}

#[test]
fn from_view_of_a_spectator_at_two_players_deals_the_set_aside_cards_too() {
    let mut game = new_game(2, 0, false, 4);
    play_on(&mut game, 6, 8);
    let view = game.view(None);
    let built = Matchstick::from_view(game.setup(), None, &view, &mut Rng::new(3)).expect("from_view");
    assert_eq!(built.view(None), view);
    assert_eq!(built.to_act(), game.to_act());
    assert_eq!(hand_sizes(&built), hand_sizes(&game));
    let aside = built.card_masks().3;
    assert_eq!(aside.count_ones(), 26, "56 cards less 2 x 15 dealt stay set aside");
    let other = Matchstick::from_view(game.setup(), None, &view, &mut Rng::new(4)).expect("from_view");
    assert_ne!(other.hand_ids(0), built.hand_ids(0), "hidden hands are dealt from the rng");
}

#[test]
fn from_view_refuses_garbage_and_tampered_views_as_corrupt_state() {
    let mut game = new_game(3, 0, false, 2);
    play_on(&mut game, 4, 1);
    let setup = game.setup().clone();
    let view = game.view(Some(0));
    let corrupt = |seat: Option<usize>, v: &Json| match Matchstick::from_view(&setup, seat, v, &mut Rng::new(1)) {
        Err(e) => e.code(),
        Ok(_) => "ok",
    };
    assert_eq!(corrupt(Some(0), &view), "ok");
    assert_eq!(corrupt(Some(0), &Json::Null), "corrupt_state");
    assert_eq!(corrupt(Some(0), &json!({"public": {}, "private": null})), "corrupt_state");
    assert_eq!(corrupt(None, &view), "corrupt_state", "a seat's view is not a spectator's");
    assert_eq!(corrupt(Some(1), &view), "corrupt_state", "seat 0's view is not seat 1's");
    assert_eq!(corrupt(Some(7), &view), "corrupt_state");
    let mut tampered = view.clone();
    tampered["public"]["players"][1]["hand_size"] = json!(40);
    assert_eq!(corrupt(Some(0), &tampered), "corrupt_state", "the counts no longer fit the deck");
    let mut tampered = view.clone();
    tampered["public"]["players"][2]["matchsticks"] = json!(-1);
    assert_eq!(corrupt(Some(0), &tampered), "corrupt_state");
    let mut tampered = view.clone();
    tampered["public"]["extra"] = json!(1);
    assert_eq!(corrupt(Some(0), &tampered), "corrupt_state", "an unknown field");
    let mut tampered = view;
    tampered["private"]["hand"][0]["id"] = json!(200);
    assert_eq!(corrupt(Some(0), &tampered), "corrupt_state");
}

#[test]
fn written_moves_are_the_canonical_json_of_every_detail() {
    let game = new_game(4, 2, false, 1);
    let moves = [
        json!({"type": "pass"}),
        json!({"type": "discard_matchstick"}),
        json!({"type": "play", "value": "7", "cards": [3, 9]}),
        json!({"type": "play", "value": "F", "cards": [5], "rotated": [true]}),
        json!({"type": "play", "value": "8", "cards": [2, 8], "add": ["g", "ade"]}),
        json!({"type": "play", "value": "8", "cards": [2, 8], "rotated": [false, true], "add": ["", "ade"]}),
    ];
    for mv in moves {
        let typed = game.move_from_json(0, &mv).expect("a well-formed move");
        let mut written = String::new();
        game.write_move(&typed, &mut written);
        assert_eq!(written, canonical(&game.move_to_json(&typed)), "{mv}");
    }
}
