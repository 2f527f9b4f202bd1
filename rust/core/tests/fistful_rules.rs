//! One test per rule section and numbered decision of `docs/rules/fistful.md`, driven through the JSON
//! API with chosen moves (the `colours` option fixes which seat is Pink).

use cardnet_core::games::fistful::Fistful;
use cardnet_core::rng::Rng;
use cardnet_core::{new_game, AnyGame, Game, GameError, OutcomeKind, Setup};
use serde_json::{json, Value};

fn start(colours: &str, length: &str) -> Box<dyn AnyGame> {
    new_game("fistful", Some(2), 7, &json!({"colours": colours, "length": length})).expect("new game")
}

/// Seat 0 Pink, seat 1 Green, short match.
fn pink0() -> Box<dyn AnyGame> {
    start("seat0_pink", "short")
}

fn act(g: &mut Box<dyn AnyGame>, seat: usize, mv: Value) {
    if let Err(e) = g.apply(seat, &mv) {
        panic!("seat {seat} move {mv}: {e}\nview {}", g.view(None).unwrap());
    }
}

fn refuse(g: &dyn AnyGame, seat: usize, mv: Value) -> String {
    g.index_of(seat, &mv).expect_err("the move should be refused").code().to_string()
}

fn discard(g: &mut Box<dyn AnyGame>, seat: usize, cards: &[u8]) {
    act(g, seat, json!({"type": "discard", "cards": cards}));
}

/// Both seats' setup discards.
fn setup(g: &mut Box<dyn AnyGame>, d0: &[u8], d1: &[u8]) {
    discard(g, 0, d0);
    discard(g, 1, d1);
}

/// One duel: seat 0 picks `a`, seat 1 picks `b`; returns the spectator's events of the reveal.
fn duel(g: &mut Box<dyn AnyGame>, a: u8, b: u8) -> Vec<Value> {
    act(g, 0, json!({"type": "pick", "card": a}));
    act(g, 1, json!({"type": "pick", "card": b}));
    g.events(None).unwrap()
}

fn public(g: &dyn AnyGame) -> Value {
    g.view(None).unwrap()["public"].clone()
}

fn types(events: &[Value]) -> Vec<String> {
    events.iter().map(|e| e["type"].as_str().unwrap_or("").to_string()).collect()
}

fn hand(g: &dyn AnyGame, seat: usize) -> Vec<u8> {
    serde_json::from_value(g.view(Some(seat)).unwrap()["private"]["hand"].clone()).expect("hand")
}

/// Gold won by the row card against the column card, typed from the table of §2.6 (ids: 1–8, 9 = D).
/// Positive: row wins; negative: column wins; 0: tie.
const TABLE: [[i32; 9]; 9] = [
    [0, -1, -2, -3, 4, 5, 6, 7, -3],
    [1, 0, -1, -2, -3, 4, 5, 6, -3],
    [2, 1, 0, -1, -2, -3, 4, 5, -3],
    [3, 2, 1, 0, -1, -2, -3, 4, -3],
    [-4, 3, 2, 1, 0, -1, -2, -3, 3],
    [-5, -4, 3, 2, 1, 0, -1, -2, 3],
    [-6, -5, -4, 3, 2, 1, 0, -1, 3],
    [-7, -6, -5, -4, 3, 2, 1, 0, 3],
    [3, 3, 3, 3, -3, -3, -3, -3, 0],
];

/// Two cards of 1..=9 other than `keep`, for a setup discard.
fn others(keep: u8) -> Vec<u8> {
    let rest: Vec<u8> = (1..=9).filter(|&c| c != keep).collect();
    rest[rest.len() - 2..].to_vec()
}

fn check_matrix(colours: &str) {
    let pink = if colours == "seat0_pink" { 0 } else { 1 };
    for x in 1..=9u8 {
        for y in 1..=9u8 {
            let mut g = start(colours, "short");
            setup(&mut g, &others(x), &others(y));
            duel(&mut g, x, y);
            let p = public(&*g);
            let mut want = TABLE[usize::from(x) - 1][usize::from(y) - 1];
            let cards = [x, y];
            if cards[pink] == 8 && cards[1 - pink] == 1 {
                want = if pink == 0 { 3 } else { -3 };
            }
            let (gold, pot) = match want {
                0 => ([0, 0], 2),
                w if w > 0 => ([w, 0], 0),
                w => ([0, -w], 0),
            };
            // Only the first 6 of the round is in play here and it takes the (empty or tie) pot.
            let (gold, pot) = if (x == 6) != (y == 6) { (gold, 0) } else { (gold, pot) };
            assert_eq!(p["gold"], json!(gold), "{colours}: {x} against {y}");
            assert_eq!(p["pot"], json!(pot), "{colours}: {x} against {y}");
        }
    }
}

#[test]
fn r2_6_duel_matrix_seat0_pink() {
    check_matrix("seat0_pink");
}

#[test]
fn r2_6_duel_matrix_seat0_green() {
    check_matrix("seat0_green");
}

#[test]
fn r2_2_d1_each_deck_is_1_to_8_and_dynamite() {
    let g = pink0();
    for seat in 0..2 {
        assert_eq!(hand(&*g, seat), vec![1, 2, 3, 4, 5, 6, 7, 8, 9]);
        assert_eq!(g.legal_count(seat), 36, "any 2 of 9 at setup");
    }
    assert_eq!(public(&*g)["colours"], json!(["pink", "green"]));
}

#[test]
fn r2_3_match_length_and_colours_options() {
    assert_eq!(public(start("seat0_pink", "short").as_ref())["target_stars"], json!(2));
    assert_eq!(public(start("seat0_pink", "long").as_ref())["target_stars"], json!(3));
    let default = new_game("fistful", None, 1, &Value::Null).expect("defaults");
    assert_eq!(public(&*default)["target_stars"], json!(2));
    assert_eq!(public(start("seat0_green", "short").as_ref())["colours"], json!(["green", "pink"]));
    let drawn: Vec<Value> = (0..16)
        .map(|seed| public(&*new_game("fistful", None, seed, &Value::Null).expect("game"))["colours"].clone())
        .collect();
    assert!(drawn.contains(&json!(["pink", "green"])) && drawn.contains(&json!(["green", "pink"])));
    assert!(new_game("fistful", Some(3), 1, &Value::Null).is_err(), "2 players only");
    assert!(new_game("fistful", None, 1, &json!({"length": "medium"})).is_err());
}

#[test]
fn r2_4_setup_discard_is_simultaneous_and_face_down() {
    let mut g = pink0();
    assert_eq!(g.to_act(), vec![0, 1]);
    assert_eq!(public(&*g)["phase"], json!("setup_discard"));
    assert_eq!(refuse(&*g, 0, json!({"type": "discard", "cards": [1]})), "wrong_count");
    assert_eq!(refuse(&*g, 0, json!({"type": "pick", "card": 1})), "wrong_phase");
    discard(&mut g, 1, &[2, 3]);
    assert_eq!(g.to_act(), vec![0]);
    assert_eq!(
        g.events(None).unwrap(),
        vec![json!({"type": "discard", "seat": 1, "count": 2, "when": "setup", "auto": false})]
    );
    assert_eq!(g.events(Some(0)).unwrap(), g.events(None).unwrap());
    assert_eq!(g.events(Some(1)).unwrap()[0]["cards"], json!([2, 3]));
    discard(&mut g, 0, &[8, 9]);
    let p = public(&*g);
    assert_eq!(p["phase"], json!("pick"));
    assert_eq!(p["hand_sizes"], json!([7, 7]));
    assert_eq!(p["discard_sizes"], json!([2, 2]));
    assert_eq!(g.view(Some(1)).unwrap()["private"]["discard"], json!([2, 3]));
}

#[test]
fn r2_5_duel_picks_are_simultaneous_and_hidden() {
    let mut g = pink0();
    setup(&mut g, &[8, 9], &[8, 9]);
    assert_eq!(g.to_act(), vec![0, 1]);
    act(&mut g, 1, json!({"type": "pick", "card": 5}));
    let p = public(&*g);
    assert_eq!(p["picked"], json!([false, true]));
    assert_eq!(p["played"], json!([[], []]));
    assert_eq!(g.events(None).unwrap(), vec![json!({"type": "pick", "seat": 1})]);
    assert_eq!(g.events(Some(1)).unwrap(), vec![json!({"type": "pick", "seat": 1, "card": 5})]);
    assert_eq!(g.view(Some(0)).unwrap()["private"]["pick"], Value::Null);
    assert_eq!(g.view(Some(1)).unwrap()["private"]["pick"], json!(5));
    act(&mut g, 0, json!({"type": "pick", "card": 3}));
    let p = public(&*g);
    assert_eq!(p["played"], json!([[3], [5]]));
    assert_eq!(p["picked"], json!([false, false]));
    assert_eq!(p["last_duel"]["cards"], json!([3, 5]));
    assert_eq!(types(&g.events(None).unwrap()), vec!["pick", "reveal", "base"]);
}

#[test]
fn r2_5_d3_plus_one_bars_only_the_card_after_the_previous_one() {
    let mut g = pink0();
    setup(&mut g, &[7, 8], &[7, 8]);
    assert_eq!(public(&*g)["barred"], json!([null, null]), "no restriction in the first duel");
    duel(&mut g, 3, 1);
    assert_eq!(public(&*g)["barred"], json!([4, 2]));
    assert_eq!(refuse(&*g, 0, json!({"type": "pick", "card": 4})), "plus_one");
    assert_eq!(refuse(&*g, 0, json!({"type": "pick", "card": 3})), "not_in_hand");
    assert_eq!(g.legal_moves(0).len(), 5, "hand 1,2,4,5,6,9 minus the 4");
    duel(&mut g, 9, 4);
    assert_eq!(public(&*g)["barred"], json!([null, 5]), "nothing is barred after the Dynamite");
    // The 4 was barred only right after the 3: now it is legal again.
    duel(&mut g, 4, 6);
    assert_eq!(public(&*g)["barred"], json!([5, 7]));
}

#[test]
fn r2_5_d3_plus_one_after_an_8_never_bars_the_dynamite_and_resets_each_round() {
    let mut g = pink0();
    setup(&mut g, &[1, 2], &[1, 2]);
    duel(&mut g, 8, 3);
    assert_eq!(public(&*g)["barred"], json!([null, 4]));
    assert!(g.legal_moves(0).contains(&json!({"type": "pick", "card": 9})));
    for (a, b) in [(9, 9), (5, 5), (4, 4), (6, 7), (3, 6)] {
        duel(&mut g, a, b);
    }
    // Round 1 is over; seat 0 ended it with a 3, yet its 4 is legal in the first duel of round 2.
    let p = public(&*g);
    assert_eq!(p["round"], json!(2));
    assert_eq!(p["barred"], json!([null, null]));
    assert!(g.legal_moves(0).contains(&json!({"type": "pick", "card": 4})));
}

/// Seat 0 wins every duel of round 1 with hands 1–6 + Dynamite (the 6 stays unplayed), of round 2 with
/// hands 1–5 + Dynamite, and of round 3 with hands 1–5; both seats respect the +1 rule.
const ROUND1_WINS: &[(u8, u8)] = &[(1, 5), (3, 2), (2, 1), (5, 9), (9, 4), (4, 3)];
const ROUND2_WINS: &[(u8, u8)] = &[(1, 5), (3, 2), (2, 1), (5, 4), (4, 3)];
const ROUND3_WINS: &[(u8, u8)] = &[(1, 5), (3, 2), (2, 1), (4, 3)];

/// Both seats play the same card each duel (the lowest legal one), discarding the same cards.
fn mirror_round(g: &mut Box<dyn AnyGame>) {
    let round = public(&**g)["round"].clone();
    while public(&**g)["round"] == round && !g.is_over() {
        let card = g.legal_moves(0)[0]["card"].as_u64().expect("card") as u8;
        duel(g, card, card);
    }
}

#[test]
fn r2_5_d2_round_lengths_and_hand_sizes() {
    let mut g = pink0();
    setup(&mut g, &[7, 8], &[7, 8]);
    for (round, duels, hand_size) in [(1, 6, 7), (2, 5, 6), (3, 4, 5), (4, 3, 4), (5, 2, 3), (6, 1, 2)] {
        let p = public(&*g);
        assert_eq!(p["round"], json!(round));
        assert_eq!(p["duels_in_round"], json!(duels));
        assert_eq!(p["hand_sizes"], json!([hand_size, hand_size]));
        assert_eq!(p["discard_sizes"], json!([2 + round - 1, 2 + round - 1]));
        let mut played = 0;
        while public(&*g)["round"] == json!(round) && !g.is_over() {
            let card = g.legal_moves(0)[0]["card"].as_u64().expect("card") as u8;
            duel(&mut g, card, card);
            played += 1;
        }
        assert_eq!(played, duels, "round {round}");
    }
}

#[test]
fn r2_5_d9_tied_rounds_give_no_star_and_d_r_zero_is_a_draw() {
    let mut g = pink0();
    setup(&mut g, &[7, 8], &[7, 8]);
    for _ in 0..5 {
        mirror_round(&mut g);
        assert_eq!(public(&*g)["stars"], json!([0, 0]));
    }
    mirror_round(&mut g);
    let outcome = g.outcome().expect("round 7 would have no duel");
    assert_eq!(outcome.kind, OutcomeKind::Draw);
    assert_eq!(outcome.scores, vec![0, 0]);
    assert!(outcome.winners.is_empty());
    assert_eq!(outcome.detail["reason"], json!("no_duels_left"));
    let last = g.events(None).unwrap();
    assert!(types(&last).ends_with(&["round_end".to_string(), "match_end".to_string()]));
    assert_eq!(last[last.len() - 2]["star"], Value::Null);
}

#[test]
fn r2_5_round_winner_star_gold_reset_and_forced_discard_take_back() {
    let mut g = pink0();
    setup(&mut g, &[7, 8], &[7, 8]);
    // Seat 0 wins every duel.
    for (a, b) in ROUND1_WINS[..5].iter().copied() {
        duel(&mut g, a, b);
    }
    let p = public(&*g);
    assert_eq!(p["gold"], json!([4 + 1 + 1 + 3 + 3, 0]));
    duel(&mut g, 4, 3);
    let events = g.events(None).unwrap();
    let t = types(&events);
    let want = ["pick", "reveal", "base", "round_end", "discard", "discard", "take_back", "round_start"];
    assert_eq!(t, want.map(String::from));
    let end = events.iter().find(|e| e["type"] == "round_end").expect("round end");
    assert_eq!(end["star"], json!(0));
    assert_eq!(end["gold"], json!([13, 0]));
    let auto = events.iter().find(|e| e["type"] == "discard").expect("discard");
    assert_eq!(auto["auto"], json!(true));
    assert!(auto.get("cards").is_none(), "the spectator never sees discarded cards");
    let p = public(&*g);
    assert_eq!(p["stars"], json!([1, 0]));
    assert_eq!(p["gold"], json!([0, 0]));
    assert_eq!(p["pot"], json!(0));
    assert_eq!(p["round"], json!(2));
    assert_eq!(hand(&*g, 0), vec![1, 2, 3, 4, 5, 9], "the 6 was the one unplayed card");
    assert_eq!(g.view(Some(0)).unwrap()["private"]["discard"], json!([6, 7, 8]));
}

#[test]
fn r2_5_d9_match_ends_on_the_target_star_before_any_discard() {
    let mut g = pink0();
    setup(&mut g, &[7, 8], &[7, 8]);
    for (a, b) in ROUND1_WINS.iter().chain(ROUND2_WINS).copied() {
        duel(&mut g, a, b);
    }
    assert!(g.is_over());
    let outcome = g.outcome().expect("over");
    assert_eq!(outcome.kind, OutcomeKind::Match);
    assert_eq!(outcome.winners, vec![0]);
    assert_eq!(outcome.scores, vec![2, 0]);
    assert_eq!(types(&g.events(None).unwrap())[3..], ["round_end", "match_end"].map(String::from));
    assert_eq!(public(&*g)["discard_sizes"], json!([3, 3]), "no round-end discard after the last round");
    assert_eq!(public(&*g)["phase"], json!("match_over"));
}

#[test]
fn r2_6_step1_d4_ties_fill_the_pot_and_dynamites_tie() {
    let mut g = pink0();
    setup(&mut g, &[7, 8], &[7, 8]);
    let ev = duel(&mut g, 9, 9);
    assert_eq!(ev[2], json!({"type": "tie", "pot": 2}));
    duel(&mut g, 3, 3);
    assert_eq!(public(&*g)["pot"], json!(4));
    assert_eq!(public(&*g)["gold"], json!([0, 0]));
}

#[test]
fn r2_6_step2_d5_pink8_beats_a_1() {
    let mut g = pink0();
    setup(&mut g, &[6, 7], &[6, 7]);
    let ev = duel(&mut g, 8, 1);
    // The Pink 8's step replaces the base result: no `base` step pays the 1 its 7 first, so a client
    // adding up the steps' gold gets the gold actually paid.
    assert_eq!(ev[2], json!({"type": "pink8", "seat": 0, "gold": 3}));
    assert!(ev.iter().all(|e| e["type"] != "base"), "{ev:?}");
    assert_eq!(public(&*g)["gold"], json!([3, 0]));
    assert_eq!(public(&*g)["last_duel"]["steps"], json!([{"step": "pink8", "seat": 0, "gold": 3}]));
    // The Green 8 has no such power: against the Pink 1 it loses 7.
    let mut g = pink0();
    setup(&mut g, &[6, 7], &[6, 7]);
    duel(&mut g, 1, 8);
    assert_eq!(public(&*g)["gold"], json!([7, 0]));
}

#[test]
fn r2_6_step3_d6_green7_bonus_from_the_next_duel_on() {
    let mut g = pink0();
    setup(&mut g, &[8, 9], &[8, 9]);
    // Green 7 against a 6 wins 1 and gets no bonus in its own duel.
    let ev = duel(&mut g, 6, 7);
    assert_eq!(types(&ev), vec!["pick", "reveal", "base", "six_takes_pot"]);
    assert_eq!(public(&*g)["gold"], json!([0, 1]));
    assert_eq!(public(&*g)["green7_played_at"], json!(1));
    // A later Green win earns +1; a Green loss earns nothing.
    let ev = duel(&mut g, 1, 2);
    assert_eq!(ev[3], json!({"type": "green7_bonus", "seat": 1, "gold": 1}));
    assert_eq!(public(&*g)["gold"], json!([0, 1 + 1 + 1]));
    duel(&mut g, 3, 1);
    assert_eq!(public(&*g)["gold"], json!([2, 3]));
    // The Pink 7 has no bonus.
    let mut g = pink0();
    setup(&mut g, &[8, 9], &[8, 9]);
    duel(&mut g, 7, 6);
    duel(&mut g, 2, 1);
    assert_eq!(public(&*g)["gold"], json!([2, 0]));
}

#[test]
fn r2_6_step4_d4_first_six_takes_the_pot_once() {
    let mut g = pink0();
    setup(&mut g, &[8, 9], &[8, 9]);
    duel(&mut g, 1, 1);
    duel(&mut g, 3, 3);
    assert_eq!(public(&*g)["pot"], json!(4));
    // The Pink 6 loses 1 to the Green 7 but, as the round's first 6, takes the pot.
    let ev = duel(&mut g, 6, 7);
    assert_eq!(ev[3], json!({"type": "six_takes_pot", "seat": 0, "gold": 4}));
    assert_eq!(public(&*g)["gold"], json!([4, 1]));
    assert_eq!(public(&*g)["pot"], json!(0));
    // Ties after the first 6 refill a pot that the second 6 cannot take and that is lost at round end.
    duel(&mut g, 2, 2);
    let ev = duel(&mut g, 4, 6);
    assert!(!types(&ev).contains(&"six_takes_pot".to_string()));
    assert_eq!(public(&*g)["pot"], json!(2));
}

#[test]
fn r2_6_step4_two_sixes_tie_and_an_empty_pot_gives_nothing() {
    let mut g = pink0();
    setup(&mut g, &[8, 9], &[8, 9]);
    let ev = duel(&mut g, 6, 6);
    assert_eq!(types(&ev), vec!["pick", "reveal", "tie"]);
    assert_eq!(public(&*g)["pot"], json!(2));
    assert_eq!(public(&*g)["six_played"], json!(true));
    let mut g = pink0();
    setup(&mut g, &[8, 9], &[8, 9]);
    let ev = duel(&mut g, 5, 6);
    assert_eq!(ev[3], json!({"type": "six_takes_pot", "seat": 1, "gold": 0}));
    assert_eq!(public(&*g)["gold"], json!([0, 1]), "6 beats 5 by 1, the pot is empty");
}

#[test]
fn r2_6_step5_d7_green8_retrieves_a_shown_card_and_discards_two() {
    let mut g = pink0();
    setup(&mut g, &[8, 9], &[3, 9]);
    let ev = duel(&mut g, 7, 8);
    assert_eq!(types(&ev), vec!["pick", "reveal", "base"]);
    let p = public(&*g);
    assert_eq!(p["phase"], json!("green8_retrieve"));
    assert_eq!(g.to_act(), vec![1]);
    assert_eq!(p["gold"], json!([0, 1]), "steps 1–4 are paid before the pick");
    assert_eq!(g.legal_moves(1), vec![json!({"type": "retrieve", "card": 3}), json!({"type": "retrieve", "card": 9})]);
    assert_eq!(refuse(&*g, 1, json!({"type": "retrieve", "card": 4})), "not_in_discard");
    act(&mut g, 1, json!({"type": "retrieve", "card": 9}));
    assert_eq!(g.events(None).unwrap(), vec![json!({"type": "green8_retrieve", "seat": 1, "card": 9})]);
    let p = public(&*g);
    assert_eq!(p["retrieved"], json!({"seat": 1, "card": 9}));
    assert_eq!(p["hand_sizes"], json!([6, 7]));
    assert_eq!(p["discard_sizes"], json!([2, 1]));
    assert_eq!(p["phase"], json!("pick"));
    assert_eq!(p["duel"], json!(2));
    for (a, b) in [(1, 1), (3, 4), (2, 2), (5, 9), (4, 5)] {
        duel(&mut g, a, b);
    }
    let p = public(&*g);
    assert_eq!(p["round"], json!(2));
    assert_eq!(p["discard_sizes"], json!([3, 3]), "Green discarded its 2 unplayed cards");
    assert_eq!(p["hand_sizes"], json!([6, 6]));
    assert_eq!(p["retrieved"], Value::Null);
}

#[test]
fn r2_6_step6_d8_pink7_ends_the_round_from_duel_3() {
    let mut g = pink0();
    setup(&mut g, &[8, 9], &[8, 9]);
    duel(&mut g, 1, 1);
    let ev = duel(&mut g, 7, 3);
    assert!(!types(&ev).contains(&"pink7_end".to_string()));
    assert_eq!(public(&*g)["duel"], json!(3), "a Pink 7 in duel 2 does nothing");
    let mut g = pink0();
    setup(&mut g, &[8, 9], &[8, 9]);
    duel(&mut g, 1, 1);
    duel(&mut g, 3, 3);
    let ev = duel(&mut g, 7, 5);
    assert!(types(&ev).contains(&"pink7_end".to_string()), "{ev:?}");
    let p = public(&*g);
    assert_eq!(p["phase"], json!("round_end_discard"));
    assert_eq!(g.to_act(), vec![0, 1], "4 unplayed cards: both choose 1 to discard");
    assert_eq!(g.legal_count(0), 4);
    assert_eq!(p["stars"], json!([1, 0]), "the Pink 7 beat the Green 5 by 2");
}

#[test]
fn r2_5_d2_round_end_discard_choice_then_take_back() {
    let mut g = pink0();
    setup(&mut g, &[8, 9], &[8, 9]);
    duel(&mut g, 1, 1);
    duel(&mut g, 3, 3);
    duel(&mut g, 7, 5);
    assert_eq!(hand(&*g, 0), vec![2, 4, 5, 6]);
    assert_eq!(refuse(&*g, 0, json!({"type": "discard", "cards": [2, 4]})), "wrong_count");
    assert_eq!(refuse(&*g, 0, json!({"type": "discard", "cards": [7]})), "not_in_hand");
    discard(&mut g, 1, &[2]);
    assert_eq!(g.to_act(), vec![0]);
    assert_eq!(
        g.events(None).unwrap(),
        vec![json!({"type": "discard", "seat": 1, "count": 1, "when": "round_end", "auto": false})]
    );
    discard(&mut g, 0, &[5]);
    assert_eq!(types(&g.events(None).unwrap()), vec!["discard", "take_back", "round_start"]);
    assert_eq!(hand(&*g, 0), vec![1, 2, 3, 4, 6, 7]);
    assert_eq!(hand(&*g, 1), vec![1, 3, 4, 5, 6, 7]);
    assert_eq!(public(&*g)["duels_in_round"], json!(5));
}

#[test]
fn d10_d11_order_base_green7_green8_pink7() {
    let mut g = pink0();
    setup(&mut g, &[8, 9], &[4, 9]);
    duel(&mut g, 2, 7);
    duel(&mut g, 1, 1);
    let ev = duel(&mut g, 7, 8);
    assert_eq!(types(&ev), vec!["pick", "reveal", "base", "green7_bonus"]);
    act(&mut g, 1, json!({"type": "retrieve", "card": 4}));
    assert_eq!(types(&g.events(None).unwrap())[..2], ["green8_retrieve", "pink7_end"].map(String::from));
    let view = g.view(None).unwrap();
    let steps: Vec<&str> = view["public"]["last_duel"]["steps"]
        .as_array()
        .expect("steps")
        .iter()
        .map(|s| s["step"].as_str().unwrap_or(""))
        .collect();
    assert_eq!(steps, vec!["base", "green7_bonus", "green8_retrieve", "pink7_end"]);
    // Green 8's 2-card discard: Green holds the retrieved 4 and 2, 3, 5, 6 unplayed, so it chooses.
    assert_eq!(public(&*g)["phase"], json!("round_end_discard"));
    assert_eq!(hand(&*g, 1), vec![2, 3, 4, 5, 6]);
    assert_eq!(g.legal_count(1), 10);
    assert_eq!(g.legal_moves(1)[0], json!({"type": "discard", "cards": [2, 3]}));
}

#[test]
fn d10_order_base_green7_then_six() {
    let mut g = pink0();
    setup(&mut g, &[8, 9], &[8, 9]);
    duel(&mut g, 1, 7);
    duel(&mut g, 3, 3);
    let ev = duel(&mut g, 5, 6);
    assert_eq!(types(&ev)[2..], ["base", "green7_bonus", "six_takes_pot"].map(String::from));
    assert_eq!(public(&*g)["gold"], json!([6, 1 + 1 + 2]));
}

#[test]
fn r2_3_d9_long_match_needs_three_stars() {
    let mut g = start("seat0_green", "long");
    setup(&mut g, &[7, 8], &[7, 8]);
    for (round, wins) in [ROUND1_WINS, ROUND2_WINS, ROUND3_WINS].into_iter().enumerate() {
        for &(a, b) in wins {
            duel(&mut g, a, b);
        }
        if round < 2 {
            assert!(!g.is_over(), "two stars are not enough in the long game");
        }
    }
    let outcome = g.outcome().expect("three stars");
    assert_eq!(outcome.scores, vec![3, 0]);
    assert_eq!(outcome.winners, vec![0]);
}

#[test]
fn r2_5_d9_long_match_can_reach_a_fourth_round() {
    let mut g = start("seat0_pink", "long");
    setup(&mut g, &[7, 8], &[7, 8]);
    for &(a, b) in ROUND1_WINS {
        duel(&mut g, a, b);
    }
    mirror_round(&mut g);
    mirror_round(&mut g);
    assert!(!g.is_over());
    assert_eq!(public(&*g)["round"], json!(4));
    assert_eq!(public(&*g)["duels_in_round"], json!(3));
    assert_eq!(public(&*g)["stars"], json!([1, 0]));
}

#[test]
fn r2_7_moves_parse_strictly() {
    let g = pink0();
    let bad = [
        json!({"type": "discard", "cards": [1, 1]}),
        json!({"type": "discard", "cards": [0, 1]}),
        json!({"type": "discard", "cards": [1, 10]}),
        json!({"type": "discard", "cards": [1, 2], "card": 3}),
        json!({"type": "pick", "card": "7"}),
        json!({"type": "pick"}),
        json!({"type": "shoot", "card": 1}),
        json!([1, 2]),
    ];
    for mv in bad {
        assert_eq!(g.index_of(0, &mv).expect_err("refused").code(), "invalid_move", "{mv}");
    }
    // Discards may list their cards in any order; the legal list is canonical (sorted).
    assert_eq!(g.index_of(0, &json!({"type": "discard", "cards": [9, 1]})).ok(), Some(7));
    assert_eq!(g.legal_moves(0)[7], json!({"type": "discard", "cards": [1, 9]}));
}

#[test]
fn r2_7_refusals_name_the_rule() {
    let mut g = pink0();
    setup(&mut g, &[8, 9], &[8, 9]);
    act(&mut g, 0, json!({"type": "pick", "card": 2}));
    assert_eq!(g.index_of(0, &json!({"type": "pick", "card": 3})).expect_err("picked").code(), "not_your_turn");
    assert_eq!(refuse(&*g, 1, json!({"type": "retrieve", "card": 8})), "wrong_phase");
    assert_eq!(refuse(&*g, 1, json!({"type": "pick", "card": 8})), "not_in_hand");
}

#[test]
fn r2_5_d4_d6_the_pot_the_first_six_and_the_green7_start_afresh_each_round() {
    let mut g = pink0();
    setup(&mut g, &[8, 9], &[8, 9]);
    // Round 1: the Green 7 comes out first, both 6s tie, and 8 gold is left in the pot.
    for (a, b) in [(1, 7), (3, 3), (6, 6), (2, 2), (4, 4)] {
        duel(&mut g, a, b);
    }
    assert_eq!(public(&*g)["pot"], json!(8));
    duel(&mut g, 7, 1);
    let p = public(&*g);
    assert_eq!(p["round"], json!(2));
    assert_eq!(p["pot"], json!(0), "the pot left at the round's end is lost");
    assert_eq!(p["six_played"], json!(false));
    assert_eq!(p["green7_played_at"], Value::Null);
    // Round 2: a Green win earns no bonus for last round's 7.
    let ev = duel(&mut g, 2, 3);
    assert_eq!(types(&ev), vec!["pick", "reveal", "base"]);
    assert_eq!(public(&*g)["gold"], json!([0, 1]));
    duel(&mut g, 1, 1);
    // Round 2's first 6 takes round 2's pot although a 6 came out in round 1.
    let ev = duel(&mut g, 6, 4);
    assert_eq!(ev[3], json!({"type": "six_takes_pot", "seat": 0, "gold": 2}));
    assert_eq!(public(&*g)["gold"], json!([4, 1]));
}

#[test]
fn r2_5_d7_the_green8_two_card_discard_is_for_its_round_only() {
    let mut g = pink0();
    setup(&mut g, &[8, 9], &[3, 9]);
    duel(&mut g, 7, 8);
    act(&mut g, 1, json!({"type": "retrieve", "card": 9}));
    for (a, b) in [(1, 1), (3, 4), (2, 2), (5, 9), (4, 5)] {
        duel(&mut g, a, b);
    }
    assert_eq!(public(&*g)["round"], json!(2));
    assert_eq!(public(&*g)["green8_played"], json!(false));
    // Round 2 ends early on the Pink 7: Green keeps 5, 8 and 9 unplayed and discards one of them, not two.
    for (a, b) in [(1, 1), (3, 4), (7, 2)] {
        duel(&mut g, a, b);
    }
    assert_eq!(public(&*g)["phase"], json!("round_end_discard"));
    assert_eq!(hand(&*g, 1), vec![5, 8, 9]);
    let moves = g.legal_moves(1);
    assert_eq!(
        moves,
        vec![
            json!({"type": "discard", "cards": [5]}),
            json!({"type": "discard", "cards": [8]}),
            json!({"type": "discard", "cards": [9]})
        ]
    );
}

#[test]
fn r2_6_d1_pink8_never_retrieves_and_green7_never_ends_the_round() {
    let mut g = pink0();
    setup(&mut g, &[6, 9], &[8, 9]);
    duel(&mut g, 8, 2);
    let p = public(&*g);
    assert_eq!(p["phase"], json!("pick"), "only the Green 8 retrieves");
    assert_eq!(p["green8_played"], json!(false));
    assert_eq!(g.to_act(), vec![0, 1]);
    assert_eq!(p["gold"], json!([0, 6]), "the Pink 8 has no power against a 2: the lower card wins 6");
    duel(&mut g, 1, 1);
    let ev = duel(&mut g, 3, 7);
    assert!(!types(&ev).contains(&"pink7_end".to_string()));
    let p = public(&*g);
    assert_eq!((p["round"].clone(), p["duel"].clone()), (json!(1), json!(4)), "only the Pink 7 ends a round");
}

#[test]
fn r2_5_d9_no_duels_left_the_player_with_more_stars_wins() {
    let mut g = pink0();
    setup(&mut g, &[7, 8], &[7, 8]);
    for &(a, b) in ROUND1_WINS {
        duel(&mut g, a, b);
    }
    for _ in 2..=6 {
        mirror_round(&mut g);
    }
    let outcome = g.outcome().expect("round 7 would have no duel");
    assert_eq!(outcome.kind, OutcomeKind::Match);
    assert_eq!(outcome.winners, vec![0]);
    assert_eq!(outcome.scores, vec![1, 0]);
    assert_eq!(outcome.detail["reason"], json!("no_duels_left"));
}

/// Seat 0 Pink, seat 1 Green, by the typed API: round 1 with a Green 8 retrieval (in the public history
/// afterwards), then round 2 with a tie and seat 0's hidden pick pending.
fn typed_mid_game() -> Fistful {
    let options = json!({"colours": "seat0_pink", "length": "short"}).as_object().cloned().unwrap_or_default();
    let mut g = Fistful::new(&Setup { players: 2, seed: 11, options }).expect("new game");
    let mut play = |seat: usize, mv: Value| {
        let typed = g.move_from_json(seat, &mv).expect("a well-formed move");
        let index = g.index_of(seat, &typed).unwrap_or_else(|| panic!("seat {seat}: {mv} is not legal"));
        g.apply_index(seat, index).expect("a legal move applies");
    };
    play(0, json!({"type": "discard", "cards": [8, 9]}));
    play(1, json!({"type": "discard", "cards": [4, 7]}));
    for (i, (a, b)) in [(7, 8), (5, 6), (3, 3), (1, 1), (6, 9), (4, 5)].into_iter().enumerate() {
        play(0, json!({"type": "pick", "card": a}));
        play(1, json!({"type": "pick", "card": b}));
        if i == 0 {
            play(1, json!({"type": "retrieve", "card": 4}));
        }
    }
    play(0, json!({"type": "pick", "card": 5}));
    play(1, json!({"type": "pick", "card": 5}));
    play(0, json!({"type": "pick", "card": 3}));
    g
}

fn same_for(original: &Fistful, built: &Fistful, seat: Option<usize>) {
    assert_eq!(built.view(seat), original.view(seat));
    assert_eq!(built.to_act(), original.to_act());
    if let Some(s) = seat {
        let moves = |g: &Fistful| (0..g.legal_count(s)).map(|i| g.legal_move(s, i)).collect::<Vec<_>>();
        assert_eq!(moves(built), moves(original));
    }
}

#[test]
fn from_view_a_mid_game_view_round_trips_for_each_seat() {
    let g = typed_mid_game();
    let public = g.public_view();
    assert_eq!(public["round"], json!(2));
    assert_eq!(public["picked"], json!([true, false]));
    assert_eq!(
        public["history"],
        json!([{"round": 1, "played": [[1, 3, 4, 5, 6, 7], [1, 3, 5, 6, 8, 9]], "retrieved": {"seat": 1, "card": 4}}])
    );
    let mut rng = Rng::new(5);
    for seat in [0, 1] {
        let built = Fistful::from_view(g.setup(), Some(seat), &g.view(Some(seat)), &mut rng).expect("from_view");
        same_for(&g, &built, Some(seat));
        let [hand, discard, played, pick] = built.partition(1 - seat);
        assert_eq!(hand | discard | played | pick, 0b11_1111_1110, "the opponent's dealt cards make one deck");
        assert_eq!(pick.count_ones(), u32::from(seat == 1), "seat 0's pick is dealt only when hidden");
        // Green played 1, 3, 5, 6, 8, 9 in round 1 and retrieved its 4: its setup discard was the 4 and one
        // of 2 and 7, and the round end forced out the other two, so the history pins its pile to 2, 4, 7.
        assert_eq!(built.partition(1)[1], (1 << 2) | (1 << 4) | (1 << 7));
    }
    let mut built = Fistful::from_view(g.setup(), Some(1), &g.view(Some(1)), &mut rng).expect("from_view");
    built.apply_index(1, 0).expect("the built state plays on");
    assert_eq!(built.public_view()["played"][0].as_array().map(Vec::len), Some(2), "the dealt pick is revealed");
}

#[test]
fn from_view_a_spectator_view_round_trips() {
    let g = typed_mid_game();
    let built = Fistful::from_view(g.setup(), None, &g.view(None), &mut Rng::new(9)).expect("from_view");
    same_for(&g, &built, None);
    assert!(built.events(None).is_empty());
    for seat in [0, 1] {
        let [hand, discard, played, pick] = built.partition(seat);
        assert_eq!(hand | discard | played | pick, 0b11_1111_1110);
    }
}

#[test]
fn from_view_a_garbage_or_tampered_view_is_corrupt_state() {
    let g = typed_mid_game();
    let corrupt = |seat: Option<usize>, view: &Value| match Fistful::from_view(g.setup(), seat, view, &mut Rng::new(1))
    {
        Err(GameError::CorruptState(reason)) => reason,
        other => panic!("expected CorruptState for {view}, got {other:?}"),
    };
    corrupt(None, &json!(null));
    corrupt(None, &json!({"public": 3, "private": null}));
    corrupt(None, &json!({"public": {"phase": "bidding"}, "private": null}));
    let mut view = g.view(Some(0));
    view["public"]["hand_sizes"] = json!([5, 5]);
    corrupt(Some(0), &view);
    let mut view = g.view(Some(0));
    view["private"]["discard"] = json!([2, 5]);
    let reason = corrupt(Some(0), &view);
    assert!(reason.contains("whole deck"), "{reason}");
    let mut view = g.view(None);
    view["public"]["history"] = json!([]);
    corrupt(None, &view);
    let mut view = g.view(None);
    view["public"]["played"] = json!([[5, 12], [5, 3]]);
    corrupt(None, &view);
    corrupt(Some(0), &g.view(None));
    corrupt(Some(2), &g.view(None));
}
