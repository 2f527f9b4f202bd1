//! TEN rules tests, one per rule and numbered decision of `docs/rules/ten.md` (§4.2–§4.13).
//! Positions are built with `Ten::test_position`; the draw pile is given in drawing order.

mod ten_common;
use ten_common::*;

// §4.2 / decisions 2, 3: deck sizes by player count.
#[test]
fn r4_2_deck_sizes_89_105_129() {
    for (players, size) in [(1, 89), (2, 89), (3, 105), (4, 129), (5, 129)] {
        let g = Ten::new(&setup(players, Value::Null)).unwrap();
        assert_eq!(view(&g)["draw_pile"], json!(size), "{players} players");
        assert_eq!(g.card_locations().len(), size);
    }
    assert!(Ten::new(&Setup { players: 6, seed: 1, options: Map::new() }).is_err());
}

// §4.3: five tokens each, empty market, discard and tableau, 15 bust tokens, a random start player.
#[test]
fn r4_3_setup() {
    let g = Ten::new(&setup(4, Value::Null)).unwrap();
    let v = view(&g);
    assert_eq!(tokens(&g), vec![5, 5, 5, 5]);
    assert_eq!(v["market"], json!([]));
    assert_eq!(v["discard"], json!({"size": 0, "top": null, "cards": []}));
    assert_eq!(v["tableau"]["cards"], json!([]));
    assert_eq!(v["bust_supply"], json!(15));
    assert_eq!(v["token_supply"], json!(30));
    assert_eq!(v["phase"], json!("draw"));
    let starts: std::collections::BTreeSet<u64> = (0..40)
        .map(|seed| {
            let g = Ten::new(&Setup { seed, ..setup(4, Value::Null) }).unwrap();
            view(&g)["active"].as_u64().unwrap()
        })
        .collect();
    assert_eq!(starts.len(), 4, "every seat can start");
}

// §4.5 / decision 4: numbers − currency ≥ 11 busts; 10 does not.
#[test]
fn r4_5_number_bust_at_11_not_10() {
    let mut p = Pick::default();
    let cards = [p.n(Red, 9), p.n(Blue, 1), p.n(Green, 1), filler(&mut p)];
    let mut g = position(3, &cards, &[(5, 0, &[]), (5, 0, &[]), (5, 0, &[])], &[], 0);
    draw(&mut g, 0);
    draw(&mut g, 0);
    assert_eq!(view(&g)["tableau"]["numbers"], json!(10));
    assert_eq!(g.phase(), Phase::Draw, "10 is not a bust");
    draw(&mut g, 0);
    assert_eq!(g.tokens_of(0), (5, 1), "the bust gives a bust token");
    assert_eq!(market(&g).len(), 3, "the numbers go to the market");
    assert_eq!(view(&g)["active"], json!(1), "the turn ended at once");
}

// §4.5: currency offsets numbers (numbers − currency); currency alone never causes a number bust.
#[test]
fn r4_5_currency_offsets_numbers() {
    let mut p = Pick::default();
    let cards = [p.c(4), p.n(Red, 9), p.n(Blue, 5), p.n(Green, 1), filler(&mut p)];
    let mut g = position(2, &cards, &[(5, 0, &[]), (5, 0, &[])], &[], 0);
    for _ in 0..3 {
        draw(&mut g, 0);
    }
    assert_eq!(view(&g)["tableau"]["numbers"], json!(14));
    assert_eq!(g.phase(), Phase::Draw, "14 − 4 = 10 is not a bust");
    draw(&mut g, 0);
    assert_eq!(g.tokens_of(0).1, 1, "15 − 4 = 11 busts");
    assert_eq!(tokens(&g), vec![5, 9], "on a number bust the others gain the currency shown");
}

// §4.5: currency ≥ 11 busts (10 does not); nobody gains on a currency bust.
#[test]
fn r4_5_currency_bust_at_11() {
    let mut p = Pick::default();
    let cards = [p.c(5), p.c(5), p.c(1), filler(&mut p)];
    let mut g = position(3, &cards, &[(5, 0, &[]), (5, 0, &[]), (5, 0, &[])], &[], 0);
    let discarded = view(&g)["discard"]["size"].as_u64().unwrap();
    draw(&mut g, 0);
    draw(&mut g, 0);
    assert_eq!(g.phase(), Phase::Draw, "currency 10 is not a bust");
    draw(&mut g, 0);
    assert_eq!(g.tokens_of(0), (5, 1));
    assert_eq!(tokens(&g), vec![5, 5, 5], "nobody gains on a currency bust");
    assert_eq!(view(&g)["discard"]["size"].as_u64().unwrap(), discarded + 3, "currency cards are discarded");
}

// §4.5: a wild never enters the tableau; it starts an auction, then the drawing phase continues.
#[test]
fn r4_5_wild_starts_auction_and_turn_continues() {
    let mut p = Pick::default();
    let cards = [p.n(Red, 3), p.cw(Blue), filler(&mut p)];
    let mut g = position(3, &cards, &[(5, 0, &[]), (5, 0, &[]), (5, 0, &[])], &[], 0);
    draw(&mut g, 0);
    draw(&mut g, 0);
    assert_eq!(g.phase(), Phase::Auction);
    assert_eq!(view(&g)["tableau"]["numbers"], json!(3), "the wild adds nothing");
    ok(&mut g, 1, json!({"type": "bid", "amount": 2}));
    ok(&mut g, 2, json!({"type": "pass_bid"}));
    ok(&mut g, 0, json!({"type": "pass_bid"}));
    assert_eq!(g.phase(), Phase::Pay);
    ok(&mut g, 1, json!({"type": "pay_token"}));
    ok(&mut g, 1, json!({"type": "pay_token"}));
    assert_eq!(g.phase(), Phase::Draw);
    assert_eq!(view(&g)["active"], json!(0), "the active player's turn continues");
    assert_eq!(view(&g)["tableau"]["cards"].as_array().unwrap().len(), 1);
    assert_eq!(collection(&g, 1), vec![u64::from(cards[1])]);
}

// §4.5 / decision 9: STOP needs a number or currency card in the tableau; a wild just won does not count.
#[test]
fn r4_5_d9_stop_needs_a_tableau_card() {
    let mut p = Pick::default();
    let cards = [p.any(), p.n(Red, 2), filler(&mut p)];
    let mut g = position(2, &cards, &[(5, 0, &[]), (5, 0, &[])], &[], 0);
    assert_eq!(legal(&g, 0), vec![json!({"type": "draw"})]);
    assert_eq!(refused(&mut g, 0, json!({"type": "stop"})), "empty_tableau");
    draw(&mut g, 0);
    ok(&mut g, 1, json!({"type": "pass_bid"}));
    ok(&mut g, 0, json!({"type": "bid", "amount": 1}));
    ok(&mut g, 0, json!({"type": "pay_token"}));
    assert_eq!(collection(&g, 0).len(), 1, "the active player won the wild");
    assert_eq!(refused(&mut g, 0, json!({"type": "stop"})), "empty_tableau");
    draw(&mut g, 0);
    assert_eq!(legal(&g, 0), vec![json!({"type": "draw"}), json!({"type": "stop"})]);
}

// §4.5 / §4.9: with the pile empty the player must stop; an empty tableau then ends the turn with no prize.
#[test]
fn r4_5_empty_pile_must_stop() {
    let mut p = Pick::default();
    let cards = [p.cw(Red)];
    let mut g = position(2, &cards, &[(5, 0, &[]), (5, 0, &[])], &[], 1);
    draw(&mut g, 1);
    ok(&mut g, 0, json!({"type": "pass_bid"}));
    ok(&mut g, 1, json!({"type": "pass_bid"}));
    assert_eq!(view(&g)["discard"]["top"]["id"], json!(cards[0]), "the unsold wild is discarded");
    assert_eq!(legal(&g, 1), vec![json!({"type": "stop"})]);
    assert_eq!(refused(&mut g, 1, json!({"type": "draw"})), "draw_pile_empty");
    ok(&mut g, 1, json!({"type": "stop"}));
    assert_eq!(g.phase(), Phase::FinalBuy, "no prize, no buy: the final round starts");
}

// §4.6 / decision 15: a prize only of a kind present; forced when only one kind is there.
#[test]
fn r4_6_d15_prize_choice_and_forcing() {
    let mut p = Pick::default();
    let only_numbers = [p.n(Red, 2), filler(&mut p)];
    let mut g = position(2, &only_numbers, &[(5, 0, &[]), (5, 0, &[])], &[], 0);
    draw(&mut g, 0);
    ok(&mut g, 0, json!({"type": "stop"}));
    assert_eq!(legal(&g, 0), vec![json!({"type": "prize", "kind": "numbers"})]);
    assert_eq!(refused(&mut g, 0, json!({"type": "prize", "kind": "currency"})), "prize_absent");

    let mut p = Pick::default();
    let only_currency = [p.c(3), filler(&mut p)];
    let mut g = position(2, &only_currency, &[(5, 0, &[]), (5, 0, &[])], &[], 0);
    draw(&mut g, 0);
    ok(&mut g, 0, json!({"type": "stop"}));
    assert_eq!(legal(&g, 0), vec![json!({"type": "prize", "kind": "currency"})]);
    assert_eq!(refused(&mut g, 0, json!({"type": "prize", "kind": "numbers"})), "prize_absent");

    let mut p = Pick::default();
    let both = [p.c(3), p.n(Red, 2), filler(&mut p)];
    let mut g = position(2, &both, &[(5, 0, &[]), (5, 0, &[])], &[], 0);
    draw(&mut g, 0);
    draw(&mut g, 0);
    ok(&mut g, 0, json!({"type": "stop"}));
    assert_eq!(
        legal(&g, 0),
        vec![json!({"type": "prize", "kind": "numbers"}), json!({"type": "prize", "kind": "currency"})]
    );
}

// §4.6 / decision 5: NUMBERS: numbers to the collection, the others gain the currency, then a buy phase.
#[test]
fn r4_6_numbers_prize() {
    let mut p = Pick::default();
    let cards = [p.c(3), p.n(Red, 2), p.n(Blue, 4), filler(&mut p)];
    let mut g = position(3, &cards, &[(5, 0, &[]), (9, 0, &[]), (5, 0, &[])], &[], 0);
    for _ in 0..3 {
        draw(&mut g, 0);
    }
    ok(&mut g, 0, json!({"type": "stop"}));
    ok(&mut g, 0, json!({"type": "prize", "kind": "numbers"}));
    assert_eq!(collection(&g, 0), vec![u64::from(cards[1]), u64::from(cards[2])]);
    assert_eq!(tokens(&g), vec![5, 10, 8], "others gain 3, seat 1 capped at 10");
    assert_eq!(g.phase(), Phase::Buy);
    assert_eq!(view(&g)["discard"]["top"]["id"], json!(cards[0]));
}

// §4.6 / decision 5: CURRENCY: the player gains (capped), the numbers go to the market, no buy phase.
#[test]
fn r4_6_currency_prize() {
    let mut p = Pick::default();
    let cards = [p.c(5), p.c(4), p.n(Red, 2), filler(&mut p)];
    let mut g = position(2, &cards, &[(3, 0, &[]), (5, 0, &[])], &[], 0);
    for _ in 0..3 {
        draw(&mut g, 0);
    }
    ok(&mut g, 0, json!({"type": "stop"}));
    ok(&mut g, 0, json!({"type": "prize", "kind": "currency"}));
    assert_eq!(tokens(&g), vec![10, 5], "3 + 9 capped at 10, the others gain nothing");
    assert_eq!(market(&g), vec![u64::from(cards[2])]);
    assert_eq!(g.phase(), Phase::Draw);
    assert_eq!(view(&g)["active"], json!(1), "no buy phase");
}

// §4.6 / decision 6: the 10-token cap; bust tokens do not count towards it.
#[test]
fn r4_6_d6_token_cap_and_bust_tokens_outside_it() {
    let mut p = Pick::default();
    let cards = [p.c(4), p.n(Red, 2), filler(&mut p)];
    let mut g = position(2, &cards, &[(5, 0, &[]), (8, 3, &[])], &[], 0);
    draw(&mut g, 0);
    draw(&mut g, 0);
    ok(&mut g, 0, json!({"type": "stop"}));
    ok(&mut g, 0, json!({"type": "prize", "kind": "numbers"}));
    assert_eq!(g.tokens_of(1), (10, 3), "8 + 4 capped at 10, whatever the bust tokens");
    let gain = g.events(None).into_iter().find(|e| e["type"] == "gain").unwrap();
    assert_eq!(gain, json!({"type": "gain", "seat": 1, "tokens": 2, "lost": 2}));
}

// Decision 13: with the 15 bust tokens gone, a bust gives none.
#[test]
fn d13_bust_supply_of_15() {
    let mut p = Pick::default();
    let cards = [p.c(5), p.c(5), p.c(2), filler(&mut p)];
    let mut g = position(2, &cards, &[(5, 15, &[]), (5, 0, &[])], &[], 1);
    assert_eq!(g.bust_supply(), 0);
    for _ in 0..3 {
        draw(&mut g, 1);
    }
    assert_eq!(g.tokens_of(1), (5, 0), "bust with an empty supply: no token");
    let bust = g.events(None).into_iter().find(|e| e["type"] == "bust").unwrap();
    assert_eq!(bust["bust_token"], json!(false));
}

// §4.7: exact payments in tokens; no change; spent tokens return to the supply.
#[test]
fn r4_7_exact_token_payment() {
    let (mut g, card) = buying(Blue, 3, 5, 0);
    assert_eq!(view(&g)["payment"]["owed"], json!(3));
    for _ in 0..3 {
        ok(&mut g, 0, json!({"type": "pay_token"}));
    }
    assert_eq!(g.tokens_of(0), (2, 0));
    assert!(collection(&g, 0).contains(&u64::from(card)));
    assert_eq!(view(&g)["active"], json!(1), "at most one buy: the turn is over");
    assert_eq!(view(&g)["token_supply"], json!(50 - 7));
}

// §4.7: a bust token alone may overpay (owing 2, tokens available: one bust token pays, 1 is lost).
#[test]
fn r4_7_bust_token_alone_may_overpay() {
    let (mut g, card) = buying(Blue, 2, 5, 1);
    assert_eq!(legal(&g, 0)[..2], [json!({"type": "pay_token"}), json!({"type": "pay_bust"})]);
    ok(&mut g, 0, json!({"type": "pay_bust"}));
    assert_eq!(g.tokens_of(0), (5, 0), "no change is given");
    assert_eq!(g.bust_supply(), 15, "the bust token went back to the supply");
    assert!(collection(&g, 0).contains(&u64::from(card)));
}

// §4.7: no piece may be removable: a bust token after a token must not overpay.
#[test]
fn r4_7_bust_after_token_must_not_overpay() {
    let (mut g, _) = buying(Blue, 3, 5, 1);
    ok(&mut g, 0, json!({"type": "pay_token"}));
    assert_eq!(refused(&mut g, 0, json!({"type": "pay_bust"})), "overpayment", "token + bust = 4 for 3");
    assert!(!legal(&g, 0).contains(&json!({"type": "pay_bust"})));
    ok(&mut g, 0, json!({"type": "pay_token"}));
    ok(&mut g, 0, json!({"type": "pay_token"}));
    assert_eq!(g.tokens_of(0), (2, 1));
}

// §4.7: a token and a bust token paying exactly 4, in either order.
#[test]
fn r4_7_mixed_exact_payment_either_order() {
    for bust_first in [false, true] {
        let (mut g, card) = buying(Blue, 4, 1, 1);
        if bust_first {
            ok(&mut g, 0, json!({"type": "pay_bust"}));
            ok(&mut g, 0, json!({"type": "pay_token"}));
        } else {
            ok(&mut g, 0, json!({"type": "pay_token"}));
            ok(&mut g, 0, json!({"type": "pay_bust"}));
        }
        assert_eq!(g.tokens_of(0), (0, 0));
        assert!(collection(&g, 0).contains(&u64::from(card)));
    }
}

// §4.7: bust tokens alone, as many as it takes (two for 5); a token between them makes the second refused.
#[test]
fn r4_7_bust_tokens_alone_and_mixed_overpay_refused() {
    let (mut g, _) = buying(Blue, 5, 5, 2);
    ok(&mut g, 0, json!({"type": "pay_bust"}));
    ok(&mut g, 0, json!({"type": "pay_bust"}));
    assert_eq!(g.tokens_of(0), (5, 0), "3 + 3 for 5: the overpayment is lost");

    let (mut g, _) = buying(Blue, 5, 5, 2);
    ok(&mut g, 0, json!({"type": "pay_bust"}));
    ok(&mut g, 0, json!({"type": "pay_token"}));
    assert_eq!(refused(&mut g, 0, json!({"type": "pay_bust"})), "overpayment");
    ok(&mut g, 0, json!({"type": "pay_token"}));
    assert_eq!(g.tokens_of(0), (3, 1));
}

// §4.7: a token that would leave only an overpaying bust token is refused (owing 3, 1 token + 1 bust token).
#[test]
fn r4_7_token_refused_when_no_minimal_completion() {
    // 1 token, 1 bust token and the red 1 just won: paying the token first would leave 2 owed with one card
    // and one bust token, which ends either short or with the bust token overpaying next to the token.
    let (mut g2, _) = buying(Blue, 3, 1, 1);
    assert_eq!(legal(&g2, 0), vec![json!({"type": "pay_bust"})]);
    assert_eq!(refused(&mut g2, 0, json!({"type": "pay_token"})), "not_minimal");
    ok(&mut g2, 0, json!({"type": "pay_bust"}));
    assert_eq!(g2.tokens_of(0), (1, 0));
    assert_eq!(refused(&mut g2, 1, json!({"type": "pay_token"})), "wrong_phase", "nothing owed, nothing to pay");
}

// §4.7 / decision 16: cards pay 1 each, including cards won this turn; paid cards are discarded; never the
// card being bought.
#[test]
fn r4_7_d16_paying_with_cards() {
    let mut p = Pick::default();
    let wild = p.cw(Green);
    let card = p.n(Blue, 2);
    let (mut g, won) = buy_phase(&mut p, 0, 0, &[wild], &[card]);
    ok(&mut g, 0, json!({"type": "buy", "card": card}));
    assert_eq!(refused(&mut g, 0, json!({"type": "pay_card", "card": card})), "card_being_paid_for");
    assert_eq!(refused(&mut g, 0, json!({"type": "pay_token"})), "no_tokens");
    assert_eq!(
        legal(&g, 0),
        vec![json!({"type": "pay_card", "card": won}), json!({"type": "pay_card", "card": wild})],
        "the red 1 won this turn may pay"
    );
    ok(&mut g, 0, json!({"type": "pay_card", "card": won}));
    ok(&mut g, 0, json!({"type": "pay_card", "card": wild}));
    assert_eq!(collection(&g, 0), vec![u64::from(card)]);
    assert_eq!(view(&g)["discard"]["top"]["id"], json!(wild), "paid cards go to the discard pile");
}

// §4.7: the no-duplicate rule on the collection before payment; wilds never count as duplicates.
#[test]
fn r4_7_no_duplicates() {
    let mut p = Pick::default();
    let held = p.n(Blue, 4);
    let dup = p.n(Blue, 4);
    let other = p.n(Green, 4);
    let (mut g, _) = buy_phase(&mut p, 5, 0, &[held], &[dup, other]);
    assert_eq!(refused(&mut g, 0, json!({"type": "buy", "card": dup})), "duplicate");
    assert_eq!(legal(&g, 0), vec![json!({"type": "skip_buy"}), json!({"type": "buy", "card": other})]);

    let mut p = Pick::default();
    let wild = p.cw(Blue);
    let nwild = p.nw(2);
    let card = p.n(Blue, 2);
    let (mut g, _) = buy_phase(&mut p, 5, 0, &[wild, nwild], &[card]);
    ok(&mut g, 0, json!({"type": "buy", "card": card}));
}

// §4.7: the price must be within purchasing power (tokens + 3·bust tokens + cards); at most one buy.
#[test]
fn r4_7_purchasing_power_and_one_buy() {
    let mut p = Pick::default();
    let nine = p.n(Orange, 9);
    let three = p.n(Orange, 3);
    let (mut g, _) = buy_phase(&mut p, 2, 1, &[], &[nine, three]);
    // 2 + 3 + 1 (the red 1 just won) = 6 < 9.
    assert_eq!(refused(&mut g, 0, json!({"type": "buy", "card": nine})), "cannot_afford");
    ok(&mut g, 0, json!({"type": "buy", "card": three}));
    ok(&mut g, 0, json!({"type": "pay_bust"}));
    assert_eq!(view(&g)["active"], json!(1));
    assert_eq!(market(&g), vec![u64::from(nine)]);
}

// §4.8 / decision 8: bidding order left of the active player, active last; strictly higher bids within
// purchasing power; the winner pays.
#[test]
fn r4_8_d8_auction_order_and_bids() {
    let mut p = Pick::default();
    let wild = p.nw(5);
    let cards = [wild, filler(&mut p)];
    let c = p.n(Red, 7);
    let mut g = position(4, &cards, &[(3, 0, &[]), (2, 0, &[]), (1, 1, &[c]), (5, 0, &[])], &[], 2);
    draw(&mut g, 2);
    assert_eq!(view(&g)["auction"]["order"], json!([3, 0, 1, 2]));
    assert_eq!(g.to_act().first(), Some(3));
    assert_eq!(refused(&mut g, 3, json!({"type": "bid", "amount": 0})), "bid_too_low");
    assert_eq!(refused(&mut g, 3, json!({"type": "bid", "amount": 6})), "cannot_afford");
    ok(&mut g, 3, json!({"type": "bid", "amount": 2}));
    assert_eq!(refused(&mut g, 0, json!({"type": "bid", "amount": 2})), "bid_too_low", "strictly higher");
    ok(&mut g, 0, json!({"type": "bid", "amount": 3}));
    assert_eq!(legal(&g, 1), vec![json!({"type": "pass_bid"})], "2 tokens cannot beat 3");
    ok(&mut g, 1, json!({"type": "pass_bid"}));
    // The active player, last, has 1 + 3 + 1 = 5.
    assert_eq!(legal(&g, 2).len(), 3);
    ok(&mut g, 2, json!({"type": "bid", "amount": 5}));
    assert_eq!(g.to_act().first(), Some(2), "the winner pays");
    ok(&mut g, 2, json!({"type": "pay_token"}));
    ok(&mut g, 2, json!({"type": "pay_bust"}));
    ok(&mut g, 2, json!({"type": "pay_card", "card": c}));
    assert_eq!(collection(&g, 2), vec![u64::from(wild)]);
    assert_eq!(g.phase(), Phase::Draw);
    assert_eq!(tokens(&g), vec![3, 2, 0, 5], "losing bidders pay nothing");
}

// §4.8 / decision 8: nobody bids, the wild is discarded.
#[test]
fn r4_8_d8_unsold_wild_discarded() {
    let mut p = Pick::default();
    let wild = p.cw(Orange);
    let cards = [wild, filler(&mut p)];
    let mut g = position(3, &cards, &[(5, 0, &[]), (5, 0, &[]), (5, 0, &[])], &[], 0);
    draw(&mut g, 0);
    for seat in [1, 2, 0] {
        assert_eq!(g.to_act().first(), Some(seat));
        ok(&mut g, seat, json!({"type": "pass_bid"}));
    }
    assert_eq!(view(&g)["discard"]["top"]["id"], json!(wild));
    assert_eq!(g.phase(), Phase::Draw);
}

// §4.9 / decision 10: after the turn that drew the last card, one final buy each, starting left of that
// player, who goes last; then scoring.
#[test]
fn r4_9_d10_final_buy_round() {
    let mut p = Pick::default();
    let last = p.n(Red, 1);
    let m1 = p.n(Blue, 1);
    let m2 = p.n(Green, 1);
    let mut g = position(3, &[last], &[(5, 0, &[]), (5, 0, &[]), (5, 0, &[])], &[m1, m2], 1);
    draw(&mut g, 1);
    ok(&mut g, 1, json!({"type": "stop"}));
    ok(&mut g, 1, json!({"type": "prize", "kind": "numbers"}));
    ok(&mut g, 1, json!({"type": "skip_buy"}));
    assert_eq!(g.phase(), Phase::FinalBuy);
    assert_eq!(view(&g)["final_round"]["order"], json!([2, 0, 1]));
    assert_eq!(g.to_act().first(), Some(2));
    ok(&mut g, 2, json!({"type": "buy", "card": m1}));
    ok(&mut g, 2, json!({"type": "pay_token"}));
    assert_eq!(g.to_act().first(), Some(0));
    ok(&mut g, 0, json!({"type": "skip_buy"}));
    assert_eq!(g.to_act().first(), Some(1), "the last active player buys last, whatever prize they took");
    ok(&mut g, 1, json!({"type": "buy", "card": m2}));
    ok(&mut g, 1, json!({"type": "pay_token"}));
    assert!(g.is_over());
    assert_eq!(g.outcome().unwrap().scores, vec![0, 2, 1], "red 1 + green 1 score 1 each");
}

/// A finished game whose seats hold these collections and tokens (the pile is empty: stop, all skip).
fn finished(players: usize, seats: &[(u8, u8, &[u8])], options: Value) -> Ten {
    let mut g = Ten::test_position(&setup(players, options), &[], seats, &[], 0).unwrap();
    ok(&mut g, 0, json!({"type": "stop"}));
    for offset in 1..=players {
        ok(&mut g, offset % players, json!({"type": "skip_buy"}));
    }
    assert!(g.is_over());
    g
}

// §4.10 / decision 11: longest run per colour; the seed's blue 1,2,3,5,7 scores 3; a perfect run scores 10.
#[test]
fn r4_10_d11_scoring_examples() {
    let mut p = Pick::default();
    let blue: Vec<u8> = [1, 2, 3, 5, 7].iter().map(|&v| p.n(Blue, v)).collect();
    let red: Vec<u8> = (1..=9).map(|v| p.n(Red, v)).collect();
    let g = finished(2, &[(0, 0, &blue), (0, 0, &red)], Value::Null);
    assert_eq!(g.outcome().unwrap().scores, vec![3, 10]);
    assert_eq!(view(&g)["seats"][0]["score"], json!(3), "the view's estimate is the same optimizer");
}

// §4.10: wilds placed to maximise the total (the 4 filled by a wild, the green # wild only in green).
#[test]
fn r4_10_wilds_placed_optimally() {
    let mut p = Pick::default();
    let mut coll: Vec<u8> = [1, 2, 3, 5, 6].iter().map(|&v| p.n(Orange, v)).collect();
    coll.push(p.nw(4));
    coll.push(p.cw(Green));
    coll.push(p.any());
    let g = finished(1, &[(0, 0, &coll)], Value::Null);
    // Orange 1-6 with the 4, then the multicolour # makes orange 1-7 = 7; the green # scores 1.
    assert_eq!(g.outcome().unwrap().scores, vec![8]);
}

// §4.11 / decision 12: ties broken by tokens, then fewer cards, then shared.
#[test]
fn r4_11_d12_tie_breaks() {
    let mut p = Pick::default();
    let a: Vec<u8> = [1, 2].iter().map(|&v| p.n(Red, v)).collect();
    let b: Vec<u8> = [1, 2].iter().map(|&v| p.n(Blue, v)).collect();
    let c: Vec<u8> = [1, 2, 5].iter().map(|&v| p.n(Green, v)).collect();
    let d: Vec<u8> = [1, 2].iter().map(|&v| p.n(Orange, v)).collect();
    let g = finished(4, &[(3, 0, &a), (4, 2, &b), (4, 0, &c), (4, 0, &d)], Value::Null);
    let o = g.outcome().unwrap();
    assert_eq!(o.scores, vec![2, 2, 2, 2]);
    assert_eq!(o.winners, vec![1, 3], "4 tokens beat 3 (bust tokens do not count); 2 cards beat 3; then shared");
    assert_eq!(o.order, vec![1, 3, 2, 0]);
    assert_eq!(o.detail["tokens"], json!([3, 4, 4, 4]));
    assert_eq!(o.detail["cards"], json!([2, 2, 3, 2]));
    assert_eq!(o.kind, cardnet_core::OutcomeKind::Scores);
}

// §4.12 / decision 14: the solo house variant, labelled as such in GameInfo and in the view.
#[test]
fn r4_12_d14_solo_is_labelled_house_rules() {
    let info = Ten::info();
    assert_eq!((info.min_players, info.max_players, info.default_players), (1, 5, 3));
    assert_eq!(info.house_rules_players.len(), 1);
    assert_eq!(info.house_rules_players[0].0, 1);
    assert!(info.house_rules_players[0].1.starts_with("house rules"));
    let opt = info.options.iter().find(|o| o.name == "solo_target").unwrap();
    assert!(opt.house_rules);
    assert_eq!(opt.default, json!(data().solo_target_score_default));
    let g = Ten::new(&setup(1, Value::Null)).unwrap();
    assert!(view(&g)["house_rules"].as_str().unwrap().starts_with("house rules"));
    assert_eq!(view(&g)["solo_target"], json!(25));
    let g = Ten::new(&setup(3, Value::Null)).unwrap();
    assert_eq!(view(&g)["house_rules"], Value::Null);
}

// §4.12: each wild offered at 1 (accept pays like a purchase, decline discards); no gains for others.
#[test]
fn r4_12_solo_offers_and_gains() {
    let mut p = Pick::default();
    let w1 = p.cw(Red);
    let w2 = p.nw(3);
    let cards = [w1, w2, p.n(Red, 9), p.n(Blue, 2), filler(&mut p)];
    let mut g = position(1, &cards, &[(0, 1, &[])], &[], 0);
    draw(&mut g, 0);
    assert_eq!(g.phase(), Phase::SoloOffer);
    assert_eq!(view(&g)["offer"]["price"], json!(1));
    assert_eq!(legal(&g, 0), vec![json!({"type": "decline_wild"}), json!({"type": "accept_wild"})]);
    ok(&mut g, 0, json!({"type": "accept_wild"}));
    ok(&mut g, 0, json!({"type": "pay_bust"}));
    assert_eq!(collection(&g, 0), vec![u64::from(w1)], "one bust token pays 1, the excess is lost");
    draw(&mut g, 0);
    assert_eq!(legal(&g, 0).len(), 2, "the wild just bought could pay for the next one");
    ok(&mut g, 0, json!({"type": "decline_wild"}));
    assert_eq!(view(&g)["discard"]["top"]["id"], json!(w2));
    draw(&mut g, 0);
    draw(&mut g, 0);
    assert_eq!(g.tokens_of(0), (0, 1), "a number bust in solo gains nothing for anyone");

    let mut p = Pick::default();
    let cards = [p.any(), filler(&mut p)];
    let mut g = position(1, &cards, &[(0, 0, &[])], &[], 0);
    draw(&mut g, 0);
    assert_eq!(legal(&g, 0), vec![json!({"type": "decline_wild"})], "no purchasing power: only declining");
    assert_eq!(refused(&mut g, 0, json!({"type": "accept_wild"})), "cannot_afford");
}

// §4.12: the target decides the solo win; option solo_target.
#[test]
fn r4_12_solo_target() {
    let mut p = Pick::default();
    let red: Vec<u8> = (1..=9).map(|v| p.n(Red, v)).collect();
    let g = finished(1, &[(0, 0, &red)], Value::Null);
    let o = g.outcome().unwrap();
    assert_eq!((o.scores.clone(), o.winners.clone()), (vec![10], vec![]));
    assert_eq!(o.detail["solo_target"], json!(25));
    let g = finished(1, &[(0, 0, &red)], json!({"solo_target": 10}));
    assert_eq!(g.outcome().unwrap().winners, vec![0]);
    assert!(Ten::info().resolve_options(&json!({"solo_target": 0})).is_err());
}

// Moves are strict JSON: unknown keys, wrong types and unknown card ids are invalid.
#[test]
fn moves_are_strict() {
    let g = Ten::new(&setup(3, Value::Null)).unwrap();
    for bad in [
        json!({"type": "draw", "x": 1}),
        json!({"type": "buy"}),
        json!({"type": "buy", "card": "7"}),
        json!({"type": "buy", "card": 129}),
        json!({"type": "prize", "kind": "both"}),
        json!({"type": "bid", "amount": -1}),
        json!({"type": "stop", "card": 3}),
        json!({"type": "fold"}),
        json!("draw"),
    ] {
        assert_eq!(g.move_from_json(0, &bad).unwrap_err().code(), "invalid_move", "{bad}");
    }
}

// The public view holds no draw order and TEN has no private part.
#[test]
fn views_hide_the_pile_order() {
    let g = Ten::new(&setup(3, Value::Null)).unwrap();
    let v = g.view(Some(0));
    assert_eq!(v["private"], Value::Null);
    assert_eq!(v["public"]["draw_pile"], json!(105));
    let text = v.to_string();
    assert!(!text.contains("draw_order"));
    let top = g.draw_pile().last().copied().unwrap();
    assert!(!v["public"]["market"].to_string().contains(&format!("\"id\":{top},")));
}

// §4.6 / decision 6: a number bust: the others gain the currency shown, each capped at 10 whatever their bust
// tokens; the active player gains nothing; only the number cards go to the market, the currency is discarded.
#[test]
fn r4_6_number_bust_gains_capped_and_market_gets_numbers_only() {
    let mut p = Pick::default();
    let (c3, n9, n5) = (p.c(3), p.n(Red, 9), p.n(Blue, 5));
    let cards = [c3, n9, n5, filler(&mut p)];
    let mut g = position(3, &cards, &[(5, 0, &[]), (9, 0, &[]), (10, 2, &[])], &[], 0);
    for _ in 0..3 {
        draw(&mut g, 0);
    }
    let bust = g.events(None).into_iter().find(|e| e["type"] == "bust").unwrap();
    assert_eq!(bust["kind"], json!("numbers"), "14 − 3 = 11, caused by the number card");
    assert_eq!(tokens(&g), vec![5, 10, 10], "seat 1 gains 1 of 3, seat 2 none; the active player none");
    assert_eq!((g.tokens_of(0), g.tokens_of(2)), ((5, 1), (10, 2)));
    let mut m = market(&g);
    m.sort_unstable();
    let mut want = vec![u64::from(n9), u64::from(n5)];
    want.sort_unstable();
    assert_eq!(m, want, "no currency card in the market");
    assert_eq!(view(&g)["discard"]["top"]["id"], json!(c3));
}

// §4.5: a currency card can only cause a currency bust, even with a large number sum in the tableau.
#[test]
fn r4_5_currency_card_causes_only_a_currency_bust() {
    let mut p = Pick::default();
    let cards = [p.c(5), p.n(Red, 9), p.n(Blue, 6), p.c(5), p.c(1), filler(&mut p)];
    let mut g = position(2, &cards, &[(5, 0, &[]), (5, 0, &[])], &[], 0);
    for _ in 0..4 {
        draw(&mut g, 0);
    }
    assert_eq!(g.phase(), Phase::Draw, "15 − 10 = 5 and currency 10: no bust");
    draw(&mut g, 0);
    let bust = g.events(None).into_iter().find(|e| e["type"] == "bust").unwrap();
    assert_eq!(bust["kind"], json!("currency"));
    assert_eq!(tokens(&g), vec![5, 5], "nobody gains on a currency bust");
    assert_eq!(market(&g).len(), 2, "the numbers still go to the market");
}

// §4.7: the duplicate check sees cards won this very turn (the collection before payment).
#[test]
fn r4_7_duplicate_of_a_card_won_this_turn() {
    let mut p = Pick::default();
    let won = p.n(Red, 1);
    let other_red_1 = p.n(Red, 1);
    let cards = [won, filler(&mut p)];
    let mut g = position(3, &cards, &[(5, 0, &[]), (5, 0, &[]), (5, 0, &[])], &[other_red_1], 0);
    draw(&mut g, 0);
    ok(&mut g, 0, json!({"type": "stop"}));
    ok(&mut g, 0, json!({"type": "prize", "kind": "numbers"}));
    assert_eq!(legal(&g, 0), vec![json!({"type": "skip_buy"})]);
    assert_eq!(refused(&mut g, 0, json!({"type": "buy", "card": other_red_1})), "duplicate");
}

// §4.9: a bust on the last card of the pile ends the turn and starts the final round left of that player.
#[test]
fn r4_9_bust_on_the_last_card_starts_the_final_round() {
    let mut p = Pick::default();
    let cards = [p.n(Red, 9), p.n(Blue, 2)];
    let mut g = position(3, &cards, &[(5, 0, &[]), (5, 0, &[]), (5, 0, &[])], &[], 2);
    draw(&mut g, 2);
    draw(&mut g, 2);
    assert_eq!(g.phase(), Phase::FinalBuy);
    assert_eq!(view(&g)["final_round"]["order"], json!([0, 1, 2]));
    assert!(market(&g).contains(&u64::from(cards[1])), "the bust sent the blue 2 to the market");
    ok(&mut g, 0, json!({"type": "buy", "card": cards[1]}));
    ok(&mut g, 0, json!({"type": "pay_token"}));
    ok(&mut g, 0, json!({"type": "pay_token"}));
    ok(&mut g, 1, json!({"type": "skip_buy"}));
    assert_eq!(refused(&mut g, 2, json!({"type": "draw"})), "wrong_phase");
    ok(&mut g, 2, json!({"type": "skip_buy"}));
    assert!(g.is_over());
}

// §4.12: solo: the final buy round is the player's alone and the target is checked after it.
#[test]
fn r4_12_solo_target_checked_after_the_final_buy() {
    let mut p = Pick::default();
    let reds: Vec<u8> = (1..=8).map(|v| p.n(Red, v)).collect();
    let red_9 = p.n(Red, 9);
    let cash = p.c(2);
    let pile = [cash];
    let mut g =
        Ten::test_position(&setup(1, json!({"solo_target": 10})), &pile, &[(9, 0, &reds)], &[red_9], 0).unwrap();
    draw(&mut g, 0);
    ok(&mut g, 0, json!({"type": "stop"}));
    ok(&mut g, 0, json!({"type": "prize", "kind": "currency"}));
    assert_eq!(g.phase(), Phase::FinalBuy, "no buy after CURRENCY, but the final round follows");
    assert_eq!(view(&g)["final_round"]["order"], json!([0]));
    assert_eq!(view(&g)["seats"][0]["score"], json!(8));
    assert!(g.outcome().is_none(), "not scored before the final buy");
    ok(&mut g, 0, json!({"type": "buy", "card": red_9}));
    for _ in 0..9 {
        ok(&mut g, 0, json!({"type": "pay_token"}));
    }
    let o = g.outcome().unwrap();
    assert_eq!((o.scores, o.winners), (vec![10], vec![0]), "red 1–9 = 10 reaches the target of 10");
}
