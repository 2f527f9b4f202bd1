//! Every game writes its JSON once, with direct writers; the `Value`s the rest of the core reads are those
//! bytes parsed. The writers must therefore produce canonical JSON (the parsed value re-encodes to the same
//! bytes), and the host's fan-out must agree with the per-call accessors, for every game, observer and state.

use cardnet_core::games::cherki::Cherki;
use cardnet_core::json::canonical;
use cardnet_core::rng::Rng;
use cardnet_core::session::{hex_sha256, AnyGame, MoveInput, Session};
use cardnet_core::{new_game, Seat};
use serde_json::{json, Value};
use std::collections::BTreeSet;

fn observers(game: &dyn AnyGame) -> Vec<Option<Seat>> {
    let mut all: Vec<Option<Seat>> = (0..game.setup().players).map(Some).collect();
    all.push(None);
    all
}

/// Checks every direct fragment of `game` is canonical and agrees with the accessors; the event types it saw.
fn check_state(game: &dyn AnyGame, what: &str) -> BTreeSet<String> {
    let public = canonical(&game.view(None).unwrap()["public"]);
    assert_eq!(game.state_hash(), hex_sha256(public.as_bytes()), "{what}: hash");
    let seen = observers(game);
    let fan = game.fan_out(&seen);
    assert_eq!(fan.state_hash, game.state_hash(), "{what}: fan-out hash");
    assert_eq!(fan.to_act, game.to_act(), "{what}: to_act");
    assert_eq!(fan.outcome, game.outcome().map(|o| canonical(&o.to_json())), "{what}: outcome");
    let mut kinds = BTreeSet::new();
    for (observer, view, events) in &fan.seats {
        assert_eq!(*view, canonical(&game.view(*observer).unwrap()), "{what}: view of {observer:?}");
        assert_eq!(*view, game.view_json(*observer).unwrap(), "{what}: view_json of {observer:?}");
        let values = game.events(*observer).unwrap();
        assert_eq!(*events, canonical(&Value::Array(values.clone())), "{what}: events of {observer:?}");
        kinds.extend(values.iter().filter_map(|e| e["type"].as_str().map(str::to_string)));
    }
    assert_eq!(fan.seats.len(), seen.len(), "{what}: one entry per observer");
    for (seat, count, legal) in &fan.legal {
        assert_eq!(*count, game.legal_count(*seat), "{what}: count of {seat}");
        assert_eq!(*legal, canonical(&Value::Array(game.legal_moves(*seat))), "{what}: legal of {seat}");
    }
    kinds
}

/// Plays `games` random games, checking every state; the event types seen.
fn play(name: &str, players: usize, games: u64) -> BTreeSet<String> {
    play_with(name, players, games, &json!({}))
}

fn play_with(name: &str, players: usize, games: u64, options: &Value) -> BTreeSet<String> {
    let mut rng = Rng::new(5);
    let mut kinds = BTreeSet::new();
    for g in 0..games {
        let mut game = new_game(name, Some(players), 300 + g, options).expect("new game");
        kinds.extend(check_state(game.as_ref(), &format!("{name} game {g} start")));
        kinds.extend(play_out(game.as_mut(), &mut rng, &format!("{name} game {g}")));
    }
    kinds
}

/// Plays random moves until `game` is over, checking every state; the event types seen.
fn play_out(game: &mut dyn AnyGame, rng: &mut Rng, what: &str) -> BTreeSet<String> {
    let mut kinds = BTreeSet::new();
    let mut moves = 0;
    while let Some(&seat) = game.to_act().first() {
        let count = game.legal_count(seat);
        let index = rng.below(count as u64) as usize;
        let listed = game.legal_move(seat, index).expect("listed move");
        // Alternate the two ways a host receives a move; both journal the listed move's bytes.
        let input = if moves % 2 == 0 { MoveInput::Index(index) } else { MoveInput::Json(&listed) };
        let recorded = game.apply_recorded(seat, input).expect("legal move");
        assert_eq!(recorded, canonical(&listed), "{what}: journalled move");
        moves += 1;
        kinds.extend(check_state(game, &format!("{what} move {moves}")));
    }
    kinds
}

#[test]
fn matchstick_direct_bytes_match_values() {
    play("matchstick", 4, 3);
    play("matchstick", 6, 1);
    // The expansion's cards, and every event kind of a long game (revolutions, discarded matchsticks).
    play_with("matchstick", 3, 4, &json!({"expansion": 4}));
}

#[test]
fn fistful_direct_bytes_match_values() {
    let kinds = play("fistful", 2, 40);
    // Every kind of event, each duel step among them, went through the direct writer.
    let every = "base discard green7_bonus green8_retrieve match_end pick pink7_end pink8 reveal round_end \
                 round_start six_takes_pot take_back tie";
    let missing: Vec<_> = every.split_whitespace().filter(|k| !kinds.contains(*k)).collect();
    assert!(missing.is_empty(), "event kinds never seen: {missing:?} (seen: {kinds:?})");
}

#[test]
fn cherki_direct_bytes_match_values() {
    let mut kinds = BTreeSet::new();
    for players in [2, 3, 6] {
        kinds.extend(play("cherki", players, 2));
    }
    kinds.extend(play_with("cherki", 3, 1, &json!({"deals": 3})));
    // Every kind of event went through the direct writer.
    let every = "call deal_drawn discard draw_stock new_deal take_discard win";
    let missing: Vec<_> = every.split_whitespace().filter(|k| !kinds.contains(*k)).collect();
    assert!(missing.is_empty(), "event kinds never seen: {missing:?} (seen: {kinds:?})");
}

/// A win by drawing from the stock (random games mostly end a deal by a take or a drawn deal): seat 0 holds
/// 7-7-7 9-9-9 Red Flower ×2, calls, and draws the third Red Flower; a second deal follows, played out at random.
#[test]
fn cherki_direct_bytes_match_values_after_a_win_by_draw() {
    let face = |face: u8, copy: u8| face * 4 + copy;
    let ready =
        vec![face(6, 0), face(15, 0), face(24, 0), face(8, 0), face(17, 0), face(26, 0), face(28, 0), face(28, 1)];
    let other =
        vec![face(0, 0), face(1, 0), face(11, 0), face(21, 0), face(4, 0), face(14, 0), face(27, 0), face(29, 0)];
    let stock = [face(28, 2), face(2, 0), face(3, 0), face(18, 0)];
    let position = Cherki::test_position(&[ready, other], &stock, 1, 0, None, 2, 7).expect("position");
    let mut game = Session::from_game(position);
    check_state(&game, "cherki draw win start");
    for mv in [json!({"type": "call"}), json!({"type": "draw_stock"})] {
        game.apply_recorded(0, MoveInput::Json(&mv)).expect("legal move");
        check_state(&game, &format!("cherki draw win after {mv}"));
    }
    let win = game.events(None).unwrap().into_iter().find(|e| e["type"] == "win").expect("a win event");
    assert_eq!(win["by"], "draw_stock", "{win}");
    assert!(game.events(None).unwrap().iter().any(|e| e["type"] == "new_deal"), "the second deal is dealt");
    play_out(&mut game, &mut Rng::new(11), "cherki after a draw win");
}

#[test]
fn ten_direct_bytes_match_values() {
    let mut kinds = BTreeSet::new();
    for players in [1, 3, 5] {
        kinds.extend(play("ten", players, 2));
    }
    // The solo house variant's target is shown in the view.
    kinds.extend(play_with("ten", 1, 1, &json!({"solo_target": 25})));
    let every = "auction auction_won bid bust buy collect draw final_round gain game_over offer pass_bid pay prize \
                 skip_buy stop turn turn_end wild_discarded";
    let missing: Vec<_> = every.split_whitespace().filter(|k| !kinds.contains(*k)).collect();
    assert!(missing.is_empty(), "event kinds never seen: {missing:?} (seen: {kinds:?})");
}

#[test]
fn refused_move_changes_nothing_and_records_nothing() {
    let mut game = new_game("matchstick", Some(4), 1, &json!({})).expect("new game");
    let before = game.view_json(None).unwrap();
    let seat = game.to_act()[0];
    let other = (seat + 1) % 4;
    assert!(game.apply_recorded(other, MoveInput::Index(0)).is_err());
    assert!(game.apply_recorded(seat, MoveInput::Index(usize::MAX)).is_err());
    assert!(game.apply_recorded(seat, MoveInput::Json(&json!({"type": "fly"}))).is_err());
    assert_eq!(game.view_json(None).unwrap(), before);
    assert!(game.history().is_empty());
}
