//! Matchstick Tycoon: a rules audit against docs/rules/matchstick.md. Each test pins a rule at a
//! corner the per-section tests of `matchstick_rules.rs` leave open (players going out mid-trick, leads
//! that fall to players holding only matchsticks, explicit per-card details, hidden set-aside cards, and
//! the wording of refusals).

use std::collections::BTreeSet;

use cardnet_core::game::Game;
use cardnet_core::games::matchstick::Matchstick;
use cardnet_core::rng::Rng;
use cardnet_core::GameError;
use serde_json::{json, Value as Json};

mod matchstick_common;
use matchstick_common::{act, c, event_types, new_game, pass, play, pos, pos_exp};

fn discard(game: &mut Matchstick, seat: usize) -> Result<(), GameError> {
    act(game, seat, json!({"type": "discard_matchstick"}))
}

/// The refusal of a move that must be illegal: (code, reason).
fn refusal(game: &Matchstick, seat: usize, mv: Json) -> (&'static str, String) {
    match act(&mut game.clone(), seat, mv) {
        Ok(()) => ("ok", String::new()),
        Err(e) => (e.code(), e.reason().to_string()),
    }
}

fn legal_values(game: &Matchstick, seat: usize) -> Vec<String> {
    (0..game.legal_count(seat))
        .filter_map(|i| game.legal_move(seat, i))
        .map(|m| game.move_to_json(&m))
        .filter(|m| m["type"] == "play")
        .map(|m| m["value"].as_str().unwrap_or("").to_string())
        .collect()
}

// ---------------------------------------------------------------------------------------------------
// §1.8 End of trick

#[test]
fn r1_8_owner_out_mid_trick_and_a_forced_discard_that_goes_out_count_as_passes() {
    // Seat 1 goes out with its play, seat 2 discards its last matchstick (a pass that also takes it out);
    // the trick ends once the two players left have passed, and seat 3 (clockwise from seat 1, skipping the
    // out seat 2) leads.
    let mut game =
        pos(4, &[&[c("2", 0), c("5", 0)], &[c("3E", 0)], &[], &[c("4", 0), c("8", 0)]], &[0, 0, 1, 0], None, false, 0);
    play(&mut game, 0, "2", &[c("2", 0)]).expect("lead");
    play(&mut game, 1, "3", &[c("3E", 0)]).expect("seat 1 goes out");
    assert_eq!(event_types(&game), ["play", "went_out"]);
    discard(&mut game, 2).expect("forced discard of the last matchstick");
    assert_eq!(event_types(&game), ["discard_matchstick", "went_out"]);
    pass(&mut game, 3).expect("pass");
    assert!(!game.public_view()["table"].is_null(), "seat 0 has not had its turn since the play");
    pass(&mut game, 0).expect("pass");
    assert_eq!(event_types(&game), ["pass", "trick_cleared"]);
    assert_eq!(game.events(None)[1]["leader"], json!(3));
    assert_eq!(game.current_seat(), 3);
    assert!(legal_values(&game, 3).len() == game.legal_count(3), "seat 3 leads: plays only");
}

#[test]
fn r1_8_a_forced_discard_alone_does_not_end_the_trick_while_someone_has_not_had_a_turn() {
    let mut game = pos(3, &[&[c("2", 0), c("5", 0)], &[], &[c("4", 0), c("8", 0)]], &[0, 3, 0], None, false, 0);
    play(&mut game, 0, "5", &[c("5", 0)]).expect("lead");
    discard(&mut game, 1).expect("forced discard");
    assert_eq!(event_types(&game), ["discard_matchstick"]);
    assert_eq!(game.current_seat(), 2);
    play(&mut game, 2, "8", &[c("8", 0)]).expect("seat 2 still may beat the 5");
}

#[test]
fn r1_8_leads_falling_to_players_with_only_matchsticks_are_discards_until_someone_can_lead() {
    // Seat 0 wins the trick with its last card but keeps a matchstick; seat 1 holds only matchsticks too.
    let mut game =
        pos(4, &[&[c("F", 0)], &[], &[c("4", 0), c("5", 0)], &[c("2", 0), c("7", 0)]], &[1, 2, 0, 0], None, false, 0);
    play(&mut game, 0, "F", &[c("F", 0)]).expect("last card");
    discard(&mut game, 1).expect("forced discard counts as a pass");
    pass(&mut game, 2).expect("pass");
    pass(&mut game, 3).expect("pass");
    assert_eq!(event_types(&game), ["pass", "trick_cleared"]);
    assert_eq!(game.current_seat(), 0, "the last player to play leads");
    discard(&mut game, 0).expect("its lead is a forced discard");
    assert_eq!(event_types(&game), ["discard_matchstick", "went_out"]);
    assert!(game.public_view()["table"].is_null());
    assert_eq!(game.current_seat(), 1);
    discard(&mut game, 1).expect("seat 1 too");
    assert_eq!(event_types(&game), ["discard_matchstick", "went_out"]);
    assert_eq!(game.current_seat(), 2);
    assert!(game.legal_count(2) > 0 && legal_values(&game, 2).len() == game.legal_count(2), "seat 2 leads");
    assert_eq!(game.public_view()["finish_order"], json!([0, 1]));
}

#[test]
fn r1_8_the_last_player_holding_only_matchsticks_as_the_game_ends() {
    // Two players: the winner of the trick discards its way out; the other is ranked last at once.
    let mut game = pos(2, &[&[c("F", 0)], &[c("4", 0), c("5", 0)]], &[1, 0], None, false, 0);
    play(&mut game, 0, "F", &[c("F", 0)]).expect("last card");
    pass(&mut game, 1).expect("pass: trick over");
    discard(&mut game, 0).expect("lead turn is a discard");
    assert_eq!(event_types(&game), ["discard_matchstick", "went_out", "went_out", "game_over"]);
    let outcome = game.outcome().expect("over");
    assert_eq!(outcome.order, vec![0, 1]);
}

// ---------------------------------------------------------------------------------------------------
// §1.7 Passing and playing again; revolutions

#[test]
fn r1_7_a_pass_before_a_later_play_does_not_count_towards_the_end_of_the_trick() {
    let mut game = pos(
        3,
        &[&[c("2", 0), c("5", 0)], &[c("4", 0), c("A", 0)], &[c("3E", 0), c("8", 0)]],
        &[0, 0, 0],
        None,
        false,
        0,
    );
    play(&mut game, 0, "2", &[c("2", 0)]).expect("lead");
    pass(&mut game, 1).expect("pass");
    play(&mut game, 2, "3", &[c("3E", 0)]).expect("3");
    assert_eq!(game.public_view()["passed"], json!([]));
    pass(&mut game, 0).expect("pass");
    assert_eq!(event_types(&game), ["pass"], "seat 1's old pass is void after seat 2's play");
    assert_eq!(game.current_seat(), 1);
    play(&mut game, 1, "4", &[c("4", 0)]).expect("the earlier passer plays again");
    pass(&mut game, 2).expect("pass");
    pass(&mut game, 0).expect("pass");
    assert_eq!(event_types(&game), ["pass", "trick_cleared"]);
    assert_eq!(game.current_seat(), 1);
}

#[test]
fn r1_7_a_five_card_follow_flips_back_and_the_order_holds_into_the_next_trick() {
    let eights: Vec<u8> = (0..4).map(|i| c("8", i)).chain([c("69", 0)]).collect();
    let zeros: Vec<u8> = (0..4).map(|i| c("0", i)).chain([c("C", 0)]).collect();
    let mut game = pos(
        2,
        &[&[&eights[..], &[c("4", 0), c("5", 0)]].concat(), &[&zeros[..], &[c("3E", 0), c("7", 0)]].concat()],
        &[1, 2],
        None,
        false,
        0,
    );
    play(&mut game, 0, "8", &eights).expect("five 8s: revolution");
    assert!(game.revolution());
    play(&mut game, 1, "0", &zeros).expect("five 0s beat five 8s under the revolution and flip it back");
    assert!(!game.revolution());
    assert_eq!(event_types(&game), ["play", "revolution"]);
    pass(&mut game, 0).expect("pass: the trick ends");
    assert!(!game.revolution(), "the flipped-back order stays");
    play(&mut game, 1, "3", &[c("3E", 0)]).expect("lead");
    assert_eq!(legal_values(&game, 0), ["4", "5", "6", "9", "b"], "normal order again: only values above 3");
    let mut game = pos(
        2,
        &[&[&eights[..], &[c("5", 0), c("d", 0)]].concat(), &[c("2", 0), c("3E", 0), c("7", 0), c("A", 0)]],
        &[1, 1],
        None,
        false,
        0,
    );
    play(&mut game, 0, "8", &eights).expect("five 8s: revolution");
    pass(&mut game, 1).expect("pass: the trick ends");
    assert!(game.revolution(), "the revolution outlives the trick");
    play(&mut game, 0, "5", &[c("5", 0)]).expect("lead under the revolution");
    assert_eq!(
        legal_values(&game, 1),
        ["2", "3", "3"],
        "only weaker values beat 5: the 2, the 3, the 7 + d g (A cannot)"
    );
}

// ---------------------------------------------------------------------------------------------------
// §1.7 PLAY 2: the exact glyph, with explicit per-card details

#[test]
fn r1_7_play_2_a_turned_1_without_matchsticks_is_refused_even_with_matchsticks_in_hand() {
    let one = c("1", 0);
    let game = pos(2, &[&[one, c("2", 0)], &[c("2", 1)]], &[3, 0], None, false, 0);
    for mv in [
        json!({"type": "play", "value": "1", "cards": [one], "rotated": [true]}),
        json!({"type": "play", "value": "1", "cards": [one], "rotated": [true], "add": [""]}),
    ] {
        let (code, reason) = refusal(&game, 0, mv);
        assert_eq!(code, "bad_detail");
        assert!(reason.contains("turned") && reason.contains("ef"), "{reason}");
    }
    let (code, _) = refusal(&game, 0, json!({"type": "play", "value": "1", "cards": [one], "add": [""]}));
    assert_eq!(code, "ok", "upright with nothing added is the 1 itself");
}

#[test]
fn r1_7_play_2_an_added_segment_that_is_already_lit_is_refused_with_the_segment_named() {
    let seven = c("7", 0);
    let game = pos(2, &[&[seven, c("2", 0)], &[c("2", 1)]], &[7, 0], None, false, 0);
    let (code, reason) = refusal(&game, 0, json!({"type": "play", "value": "8", "cards": [seven], "add": ["abcdefg"]}));
    assert_eq!(code, "bad_detail");
    assert!(reason.contains("already lit") && reason.contains("abc"), "{reason}");
    let (code, reason) = refusal(
        &game,
        0,
        json!({"type": "play", "value": "8", "cards": [seven], "rotated": [false], "add": ["adefg"]}),
    );
    assert_eq!(code, "bad_detail");
    assert_eq!(
        reason,
        "card 28 (7) upright cannot show 8: segment a is already lit (matchsticks only fill empty segments); \
         it needs defg added"
    );
    let (code, reason) = refusal(&game, 0, json!({"type": "play", "value": "8", "cards": [seven], "add": ["def"]}));
    assert_eq!(code, "bad_detail");
    assert!(reason.contains("defg") || reason.contains("needs"), "the missing segments are named: {reason}");
    let (code, _) = refusal(&game, 0, json!({"type": "play", "value": "8", "cards": [seven], "add": ["defg"]}));
    assert_eq!(code, "ok");
}

// ---------------------------------------------------------------------------------------------------
// §1.2 / §1.3: G and H only with the expansion

#[test]
fn r1_3_g_and_h_are_values_only_with_the_expansion() {
    let one = c("1", 0);
    let base = pos(2, &[&[one, c("2", 0)], &[c("2", 1)]], &[3, 0], None, false, 0);
    let values = legal_values(&base, 0);
    assert!(!values.iter().any(|v| v == "G" || v == "H"), "{values:?}");
    let (code, reason) = refusal(&base, 0, json!({"type": "play", "value": "H", "cards": [one], "add": ["efg"]}));
    assert_eq!(code, "no_such_value");
    assert!(reason.contains("expansion"), "{reason}");
    let exp = pos_exp(2, 2, &[&[one, c("2", 0)], &[c("2", 1)]], &[3, 0], None, false, 0);
    let values = legal_values(&exp, 0);
    assert!(values.contains(&"G".to_string()) && values.contains(&"H".to_string()), "{values:?}");
    let (code, _) = refusal(&exp, 0, json!({"type": "play", "value": "H", "cards": [one], "add": ["efg"]}));
    assert_eq!(code, "ok");
    // Without the expansion a 4 plus e is the shape of H, but H is no value: only A, 8, 9, ... remain.
    let four = c("4", 0);
    let base = pos(2, &[&[four, c("2", 0)], &[c("2", 1)]], &[1, 0], None, false, 0);
    assert_eq!(legal_values(&base, 0), ["2", "4", "b"]);
}

// ---------------------------------------------------------------------------------------------------
// §1.7 PLAY 4: payment

#[test]
fn r1_7_play_4_the_total_cost_of_a_play_may_not_exceed_the_matchsticks_held() {
    let ones = [c("1", 0), c("1", 1)];
    let mut game = pos(2, &[&[ones[0], ones[1], c("2", 0)], &[c("2", 1)]], &[1, 0], None, false, 0);
    let (code, reason) = refusal(&game, 0, json!({"type": "play", "value": "7", "cards": ones}));
    assert_eq!(code, "too_few_matchsticks");
    assert_eq!(reason, "you have 1 matchstick; this play needs 2");
    let detailed = json!({"type": "play", "value": "7", "cards": ones, "rotated": [false, false], "add": ["a", "a"]});
    let (code, _) = refusal(&game, 0, detailed);
    assert_eq!(code, "too_few_matchsticks");
    play(&mut game, 0, "7", &ones[..1]).expect("one 7 costs one matchstick");
    assert_eq!(game.matchsticks_of(0), 0);
}

// ---------------------------------------------------------------------------------------------------
// §1.4 Setup: the set-aside cards stay unseen

/// Every card id mentioned anywhere in `json` (keys `id` and `cards`, and `hand` entries).
fn ids_in(json: &Json, out: &mut BTreeSet<u64>) {
    match json {
        Json::Object(map) => {
            for (key, value) in map {
                match (key.as_str(), value) {
                    ("id", Json::Number(n)) => {
                        out.extend(n.as_u64());
                    }
                    ("cards", Json::Array(list)) => out.extend(list.iter().filter_map(Json::as_u64)),
                    _ => ids_in(value, out),
                }
            }
        }
        Json::Array(list) => list.iter().for_each(|v| ids_in(v, out)),
        _ => {}
    }
}

#[test]
fn r1_4_3_no_view_or_event_ever_shows_a_set_aside_card() {
    for (players, expansion) in [(2, 0), (3, 4), (2, 2)] {
        for seed in 0..6 {
            let mut game = new_game(players, expansion, false, seed);
            let (.., aside) = game.card_masks();
            assert_eq!(aside.count_ones() as usize, 56 + 2 * expansion as usize - 15 * players);
            let mut rng = Rng::new(seed);
            let mut seen = BTreeSet::new();
            loop {
                for seat in (0..players).map(Some).chain([None]) {
                    ids_in(&game.view(seat), &mut seen);
                    for e in game.events(seat) {
                        ids_in(&e, &mut seen);
                    }
                }
                let Some(seat) = game.to_act().first() else { break };
                game.apply_index(seat, rng.index(game.legal_count(seat))).expect("legal");
            }
            assert!(seen.iter().all(|&id| aside & (1u64 << id) == 0), "{players}p seed {seed}");
            assert_eq!(game.card_masks().3, aside, "set-aside cards never move");
            let text = game.public_view().to_string();
            assert!(text.contains(&format!("\"set_aside\":{}", aside.count_ones())));
        }
    }
}

#[test]
fn r1_4_3_determinize_redeals_the_set_aside_cards_with_the_unseen_hands() {
    let game = new_game(2, 0, false, 3);
    let (hands, _, _, aside) = game.card_masks();
    let mut rng = Rng::new(9);
    let mut asides = BTreeSet::new();
    for _ in 0..8 {
        let guess = game.determinize(Some(0), &mut rng);
        let (g_hands, _, _, g_aside) = guess.card_masks();
        assert_eq!(g_hands[0], hands[0], "the observer's own hand is kept");
        assert_eq!(g_hands[1] | g_aside, hands[1] | aside, "the unseen cards are re-dealt among themselves");
        assert_eq!(g_hands[1].count_ones(), 15);
        asides.insert(g_aside);
    }
    assert!(asides.len() > 1, "the observer cannot know the set-aside cards");
}

// ---------------------------------------------------------------------------------------------------
// explain: precise reasons

#[test]
fn explain_says_what_would_beat_the_table() {
    let hand = [c("A", 0), c("7", 0), c("F", 0), c("0", 0)];
    let normal = pos(2, &[&hand, &[c("2", 0)]], &[1, 0], Some((1, "9", &[c("69", 0)])), false, 0);
    let (code, reason) = refusal(&normal, 0, json!({"type": "play", "value": "7", "cards": [c("7", 0)]}));
    assert_eq!(code, "not_stronger");
    assert_eq!(reason, "the table shows 9: you need A or stronger (7 is not)");
    let reversed = pos(2, &[&hand, &[c("2", 0)]], &[1, 0], Some((1, "9", &[c("69", 0)])), true, 0);
    let (code, reason) = refusal(&reversed, 0, json!({"type": "play", "value": "A", "cards": [c("A", 0)]}));
    assert_eq!(code, "not_stronger");
    assert_eq!(reason, "the table shows 9 under a revolution: you need 8 or weaker (A is not)");
    let top = pos(2, &[&hand, &[c("2", 0)]], &[1, 0], Some((1, "F", &[c("F", 1)])), false, 0);
    let (_, reason) = refusal(&top, 0, json!({"type": "play", "value": "F", "cards": [c("F", 0)]}));
    assert_eq!(reason, "the table shows F, the strongest value: nothing beats it, so pass");
    let bottom = pos(2, &[&hand, &[c("2", 0)]], &[1, 0], Some((1, "0", &[c("0", 1)])), true, 0);
    let (_, reason) = refusal(&bottom, 0, json!({"type": "play", "value": "0", "cards": [c("0", 0)]}));
    assert_eq!(reason, "the table shows 0 under a revolution, the strongest value: nothing beats it, so pass");
    let (code, reason) = refusal(&normal, 0, json!({"type": "play", "value": "2", "cards": [c("7", 0)]}));
    assert_eq!((code, reason.as_str()), ("not_stronger", "the table shows 9: you need A or stronger (2 is not)"));
    let lead = pos(2, &[&hand, &[c("2", 0)]], &[1, 0], None, false, 0);
    let (code, reason) = refusal(&lead, 0, json!({"type": "play", "value": "2", "cards": [c("7", 0)]}));
    assert_eq!(code, "cannot_show");
    assert!(reason.starts_with("a 7 card can never show 2"), "{reason}");
    let (code, reason) = refusal(&lead, 0, json!({"type": "play", "value": "0", "cards": [c("7", 0)]}));
    assert_eq!((code, reason.as_str()), ("too_few_matchsticks", "you have 1 matchstick; this play needs 3"));
}

#[test]
fn explain_says_how_many_cards_a_follow_needs() {
    let hand = [c("A", 0), c("A", 1), c("F", 0)];
    let single = pos(2, &[&hand, &[c("2", 0)]], &[0, 0], Some((1, "9", &[c("69", 0)])), false, 0);
    let (code, reason) = refusal(&single, 0, json!({"type": "play", "value": "A", "cards": [c("A", 0), c("A", 1)]}));
    assert_eq!((code, reason.as_str()), ("wrong_count", "the table holds 1 card: you must play exactly 1 or pass"));
    let pair = pos(2, &[&hand, &[c("2", 0)]], &[0, 0], Some((1, "9", &[c("69", 0), c("69", 1)])), false, 0);
    let (code, reason) = refusal(&pair, 0, json!({"type": "play", "value": "F", "cards": [c("F", 0)]}));
    assert_eq!((code, reason.as_str()), ("wrong_count", "the table holds 2 cards: you must play exactly 2 or pass"));
}
