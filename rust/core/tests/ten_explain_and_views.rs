//! TEN: refusal codes and their explanations, and whole games rebuilt from one seat's view (`from_view`).

mod ten_common;
use ten_common::*;

/// The stable refusal codes of TEN, each a snake_case word list.
fn is_snake_case(code: &str) -> bool {
    !code.is_empty() && code.split('_').all(|w| !w.is_empty() && w.chars().all(|c| c.is_ascii_lowercase()))
}

// `explain`: every refusal names a precise snake_case code, and the reason carries the numbers involved.
#[test]
fn explain_codes_are_precise_and_snake_case() {
    let mut p = Pick::default();
    let wild = p.cw(Red);
    let cards = [wild, filler(&mut p)];
    let mut g = position(3, &cards, &[(5, 0, &[]), (1, 0, &[]), (5, 0, &[])], &[], 0);
    let mut codes = vec![
        refused(&mut g, 1, json!({"type": "draw"})),
        refused(&mut g, 0, json!({"type": "stop"})),
        refused(&mut g, 0, json!({"type": "skip_buy"})),
    ];
    draw(&mut g, 0);
    let reason = g.explain(1, &g.move_from_json(1, &json!({"type": "bid", "amount": 2})).unwrap());
    assert_eq!(reason.code(), "cannot_afford");
    assert!(reason.to_string().contains("purchasing power of 1"), "{reason}");
    codes.push(reason.code());
    ok(&mut g, 1, json!({"type": "bid", "amount": 1}));
    codes.push(refused(&mut g, 2, json!({"type": "bid", "amount": 1})));
    assert_eq!(codes, ["not_your_turn", "empty_tableau", "wrong_phase", "cannot_afford", "bid_too_low"]);
    for code in codes {
        assert!(is_snake_case(code), "{code}");
    }
}

// `explain` for refused pay moves: the reason names the amounts (what the bust token would make the payment,
// or what would be left to pay and with what), not a choice of two possible causes.
#[test]
fn explain_pay_refusals_name_the_amounts() {
    let mut g = paying(3, 2, 1);
    ok(&mut g, 0, json!({"type": "pay_token"}));
    let reason = g.explain(0, &g.move_from_json(0, &json!({"type": "pay_bust"})).unwrap());
    assert_eq!(reason.code(), "overpayment");
    assert!(reason.to_string().contains("4 for a price of 3"), "{reason}");

    let g = paying(6, 1, 2);
    let reason = g.explain(0, &g.move_from_json(0, &json!({"type": "pay_token"})).unwrap());
    assert_eq!(reason.code(), "not_minimal");
    let text = reason.to_string();
    assert!(text.contains("5 would be left") && text.contains("0 tokens, 2 bust tokens and 1 card"), "{text}");
}

/// Plays seeded heuristic moves until `stop` says so (or the game ends); returns the game.
fn heuristic_until(players: usize, stop: impl Fn(&Ten) -> bool) -> Ten {
    let mut g = Ten::new(&Setup { players, seed: 11, options: setup(players, Value::Null).options }).unwrap();
    let mut rng = Rng::new(5);
    while !stop(&g) {
        let Some(seat) = g.to_act().first() else { break };
        let index = g.heuristic_index(seat, &mut rng);
        g.apply_index(seat, index).unwrap();
    }
    g
}

/// `from_view` rebuilt `g` for `observer`: same view, same seat to act, same legal moves, and the draw pile
/// holds the same cards (re-dealt).
fn assert_rebuilt(g: &Ten, observer: Option<Seat>) {
    let view = g.view(observer);
    let mut rng = Rng::new(3);
    let built = Ten::from_view(g.setup(), observer, &view, &mut rng).unwrap();
    assert_eq!(built.view(observer), view);
    assert_eq!(built.to_act(), g.to_act());
    for seat in 0..g.setup().players {
        assert_eq!(legal(&built, seat), legal(g, seat), "seat {seat}");
    }
    let (mut a, mut b) = (g.draw_pile().to_vec(), built.draw_pile().to_vec());
    a.sort_unstable();
    b.sort_unstable();
    assert_eq!(a, b, "the draw pile holds exactly the cards seen nowhere");
}

// from_view: a mid-game seat's view (a payment with a card already paid, so the discard pile's top is part of
// it) rebuilds the position; only the draw pile is dealt.
#[test]
fn from_view_mid_game_payment_round_trips() {
    let g =
        heuristic_until(3, |g| g.phase() == Phase::Pay && !view(g)["payment"]["cards"].as_array().unwrap().is_empty());
    assert_eq!(g.phase(), Phase::Pay, "the seeded game reaches a payment with a card");
    let payer = g.to_act().first().unwrap();
    assert_rebuilt(&g, Some(payer));
    assert_rebuilt(&g, Some((payer + 1) % 3));
}

// from_view with a spectator's view, in the final buy round, in a solo offer and once the game is over.
#[test]
fn from_view_spectator_final_round_solo_and_over() {
    let g = heuristic_until(4, |g| g.phase() == Phase::FinalBuy);
    assert_eq!(g.phase(), Phase::FinalBuy);
    assert_rebuilt(&g, None);
    let g = heuristic_until(1, |g| g.phase() == Phase::SoloOffer);
    assert_eq!(g.phase(), Phase::SoloOffer);
    assert_rebuilt(&g, None);
    let g = heuristic_until(2, |_| false);
    assert_eq!(g.phase(), Phase::Over);
    assert_rebuilt(&g, None);
    let built = Ten::from_view(g.setup(), None, &g.view(None), &mut Rng::new(1)).unwrap();
    assert_eq!(built.outcome().map(|o| o.to_json()), g.outcome().map(|o| o.to_json()));
}

// from_view refuses what is not a TEN view of this table, naming the problem, and never panics.
#[test]
fn from_view_garbage_is_corrupt_state() {
    let g = heuristic_until(3, |g| g.turn() >= 6 && g.phase() == Phase::Draw);
    let good = g.view(Some(0));
    let mut cases: Vec<(Value, &str)> = vec![
        (json!(null), "not an object"),
        (json!({"public": good["public"].clone(), "private": {"hand": []}}), "private"),
        (json!({"public": {}, "private": null}), "missing field"),
    ];
    let mut edit = |f: &dyn Fn(&mut Value), why: &'static str| {
        let mut v = good.clone();
        f(&mut v["public"]);
        cases.push((v, why));
    };
    edit(&|p| p["phase"] = json!("bidding"), "unknown phase");
    edit(&|p| p["draw_pile"] = json!(3), "seen nowhere");
    edit(&|p| p["bust_supply"] = json!(2), "bust tokens held");
    edit(&|p| p["seats"][1]["tokens"] = json!(250), "\"tokens\"");
    edit(&|p| p["seats"].as_array_mut().unwrap().truncate(2), "2 seats");
    edit(&|p| p["to_act"] = json!([2]), "derived fields");
    edit(
        &|p| {
            let card = p["seats"][0]["collection"][0].clone();
            p["seats"][1]["collection"].as_array_mut().unwrap().push(card);
        },
        "two places",
    );
    edit(&|p| p["discard"]["cards"][0]["id"] = json!(200), "\"id\"");
    edit(&|p| p["auction"] = json!({"card": 5}), "an auction during phase draw");
    let setup3 = g.setup().clone();
    for (view, why) in cases {
        let err = Ten::from_view(&setup3, Some(0), &view, &mut Rng::new(1)).expect_err("refused");
        assert_eq!(err.code(), "corrupt_state", "{why}: {err}");
        assert!(err.to_string().contains(why), "expected {why:?} in {err}");
    }
    let four = heuristic_until(4, |g| g.turn() >= 2);
    let err = Ten::from_view(&setup3, None, &four.view(None), &mut Rng::new(1)).expect_err("refused");
    assert_eq!(err.code(), "corrupt_state", "a 4-player view at a 3-player table: {err}");
    let err = Ten::from_view(&setup3, Some(3), &good, &mut Rng::new(1)).expect_err("refused");
    assert_eq!(err.code(), "corrupt_state", "seat 3 at a table of 3: {err}");
}
