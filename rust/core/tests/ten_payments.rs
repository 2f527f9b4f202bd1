//! TEN §4.7 (decision 16): the PAY moves reach exactly the minimal payments the rule text allows, in every
//! shape a payment can take (tokens, bust tokens, cards).

mod ten_common;
use ten_common::*;

/// Every payment the PAY moves can complete, as (tokens, bust tokens, cards), exploring all move orders.
fn reachable_payments(g: &Ten, seat: Seat, paid: (u8, u8, u8), out: &mut std::collections::BTreeSet<(u8, u8, u8)>) {
    if g.phase() != Phase::Pay {
        out.insert(paid);
        return;
    }
    let moves = legal(g, seat);
    assert!(!moves.is_empty(), "a payment with no way to go on");
    for mv in moves {
        let mut next = g.clone();
        ok(&mut next, seat, mv.clone());
        let (t, b, c) = paid;
        let step = match mv["type"].as_str() {
            Some("pay_token") => (t + 1, b, c),
            Some("pay_bust") => (t, b + 1, c),
            _ => (t, b, c + 1),
        };
        reachable_payments(&next, seat, step, out);
    }
}

/// Tries every buy of a blue number of each price 1–9 by seat 0 holding 0–3 tokens, 0–3 bust tokens and 0–2
/// `extra` numbers besides the red 1 just won, and hands `check` the price, tokens, bust tokens, cards
/// (counting the red 1), the game after the attempt and the buy's result.
fn for_each_buy(extra: Colour, mut check: impl FnMut(u8, u8, u8, u8, &Ten, Result<(), GameError>)) {
    for price in 1..=9u8 {
        for tokens in 0..=3u8 {
            for busts in 0..=3u8 {
                for extra_cards in 0..=2u8 {
                    let mut p = Pick::default();
                    let card = p.n(Blue, price);
                    let coll: Vec<u8> = (1..=extra_cards).map(|v| p.n(extra, v)).collect();
                    let (mut g, _) = buy_phase(&mut p, tokens, busts, &coll, &[card]);
                    let bought = play(&mut g, 0, json!({"type": "buy", "card": card}));
                    check(price, tokens, busts, extra_cards + 1, &g, bought);
                }
            }
        }
    }
}

// §4.7 / decision 16: the pay moves reach exactly the minimal payments (exact, or bust tokens alone) for
// every price 1–9 and small stocks of tokens, bust tokens and cards, and never strand a payer.
#[test]
fn r4_7_d16_pay_moves_reach_exactly_the_minimal_payments() {
    for_each_buy(Green, |price, tokens, busts, cards, g, bought| {
        let power = u16::from(tokens) + 3 * u16::from(busts) + u16::from(cards);
        assert_eq!(bought.is_ok(), power >= u16::from(price), "price {price}, power {power}");
        if bought.is_err() {
            return;
        }
        let mut got = std::collections::BTreeSet::new();
        reachable_payments(g, 0, (0, 0, 0), &mut got);
        let mut want = std::collections::BTreeSet::new();
        for t in 0..=tokens {
            for b in 0..=busts {
                for c in 0..=cards {
                    let value = t + 3 * b + c;
                    let minimal = if t + c > 0 { value == price } else { value >= price && 3 * (b - 1) < price };
                    if b + t + c > 0 && minimal {
                        want.insert((t, b, c));
                    }
                }
            }
        }
        assert_eq!(got, want, "price {price}, {tokens} tokens, {busts} bust tokens, {cards} cards");
    });
}

/// §4.7 read literally: a payment is valid when it covers the price and no single piece can be taken back
/// while it still covers it (taking back more pieces only lowers the value further).
fn valid_by_the_rule_text(price: u8, tokens: u8, busts: u8, cards: u8) -> bool {
    let value = tokens + 3 * busts + cards;
    let removable = |present: u8, worth: u8| present > 0 && value - worth >= price;
    value >= price && !removable(tokens, 1) && !removable(busts, 3) && !removable(cards, 1)
}

// §4.7 / decision 16: the pay moves reach exactly the payments the rule text allows, checked against the text
// itself (no piece removable while still covering) rather than a derived formula, with up to 3 cards.
#[test]
fn r4_7_d16_pay_moves_match_the_rule_text() {
    for_each_buy(Orange, |price, tokens, busts, cards, g, bought| {
        if bought.is_err() {
            return;
        }
        let mut got = std::collections::BTreeSet::new();
        reachable_payments(g, 0, (0, 0, 0), &mut got);
        let want: std::collections::BTreeSet<(u8, u8, u8)> = (0..=tokens)
            .flat_map(|t| (0..=busts).flat_map(move |b| (0..=cards).map(move |c| (t, b, c))))
            .filter(|&(t, b, c)| valid_by_the_rule_text(price, t, b, c))
            .collect();
        assert_eq!(got, want, "price {price}, {tokens} tokens, {busts} bust tokens, {cards} cards");
    });
}

// §4.7: the payment shapes named in the audit brief, one by one.
#[test]
fn r4_7_named_payment_shapes() {
    // Price 4: one bust token alone does not cover it; two alone do (2 lost).
    let mut g = paying(4, 0, 2);
    ok(&mut g, 0, json!({"type": "pay_bust"}));
    assert_eq!((g.phase(), view(&g)["payment"]["owed"].clone()), (Phase::Pay, json!(1)), "3 < 4 still owes 1");
    ok(&mut g, 0, json!({"type": "pay_bust"}));
    assert_eq!(g.tokens_of(0), (0, 0), "3 + 3 for 4: bust tokens alone may overpay");
    assert_eq!(g.phase(), Phase::Draw);

    // Price 7: two bust tokens and one token (exact) in every order.
    for order in [
        ["pay_bust", "pay_bust", "pay_token"],
        ["pay_bust", "pay_token", "pay_bust"],
        ["pay_token", "pay_bust", "pay_bust"],
    ] {
        let mut g = paying(7, 1, 2);
        for mv in order {
            ok(&mut g, 0, json!({ "type": mv }));
        }
        assert_eq!(g.tokens_of(0), (0, 0), "{order:?}");
        assert_eq!(g.phase(), Phase::Draw, "{order:?}: paid, turn over");
    }

    // Price 6: one token + two bust tokens (7) is refused: the token could be taken back. Holding one token,
    // two bust tokens and one card, the token can never be part of a valid payment, so it is refused throughout.
    let mut g = paying(6, 1, 2);
    assert_eq!(refused(&mut g, 0, json!({"type": "pay_token"})), "not_minimal");
    ok(&mut g, 0, json!({"type": "pay_bust"}));
    assert_eq!(refused(&mut g, 0, json!({"type": "pay_token"})), "not_minimal");
    ok(&mut g, 0, json!({"type": "pay_bust"}));
    assert_eq!(g.tokens_of(0), (1, 0), "two bust tokens pay 6 exactly; the token stays");
    // With two tokens, token + bust + bust (7) is refused at the second bust token.
    let mut g = paying(6, 2, 2);
    ok(&mut g, 0, json!({"type": "pay_token"}));
    ok(&mut g, 0, json!({"type": "pay_bust"}));
    assert_eq!(refused(&mut g, 0, json!({"type": "pay_bust"})), "overpayment");
    ok(&mut g, 0, json!({"type": "pay_token"}));
    let won = collection(&g, 0)[0];
    ok(&mut g, 0, json!({"type": "pay_card", "card": won}));
    assert_eq!((g.tokens_of(0), g.phase()), ((0, 1), Phase::Draw), "token + bust + token + card = 6");
    // Price 3: bust token + token (4) is refused in either order.
    let mut g = paying(3, 2, 1);
    ok(&mut g, 0, json!({"type": "pay_token"}));
    assert_eq!(refused(&mut g, 0, json!({"type": "pay_bust"})), "overpayment");
    ok(&mut g, 0, json!({"type": "pay_token"}));
    let won = collection(&g, 0)[0];
    ok(&mut g, 0, json!({"type": "pay_card", "card": won}));
    assert_eq!(g.tokens_of(0), (0, 1), "token + token + card = 3; the bust token stays");
    let mut g = paying(3, 1, 1);
    ok(&mut g, 0, json!({"type": "pay_bust"}));
    assert_eq!(g.tokens_of(0), (1, 0), "the bust token alone covers 3: the payment is over");

    // Price 5: two bust tokens + one card (7) is refused: the card could be taken back. With nothing else to
    // pay, the card is refused at once (it could only end in that shape) and after a bust token too.
    let mut p = Pick::default();
    let card = p.n(Green, 5);
    let (mut g, won) = buy_phase(&mut p, 0, 2, &[], &[card]);
    ok(&mut g, 0, json!({"type": "buy", "card": card}));
    assert_eq!(refused(&mut g, 0, json!({"type": "pay_card", "card": won})), "not_minimal");
    ok(&mut g, 0, json!({"type": "pay_bust"}));
    assert_eq!(refused(&mut g, 0, json!({"type": "pay_card", "card": won})), "not_minimal");
    ok(&mut g, 0, json!({"type": "pay_bust"}));
    assert_eq!(collection(&g, 0), vec![u64::from(won), u64::from(card)], "the card stays; 6 paid for 5");
}
