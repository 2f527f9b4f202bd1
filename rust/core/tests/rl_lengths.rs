//! `max_game_length` holds against players that try to make games long, not only against random ones
//! (`rl_props` covers those): for TEN every term of the derivation in `rl::ten::length_budget` is checked
//! on its own, so a wrong step of the argument shows even when the total has room to spare.

use cardnet_core::game::{Game, Setup};
use cardnet_core::games::cherki::{Cherki, CherkiMove};
use cardnet_core::games::fistful::Fistful;
use cardnet_core::games::matchstick::{Matchstick, MatchstickMove};
use cardnet_core::games::ten::{Prize, Ten, TenMove};
use cardnet_core::rl::ten::{length_budget, length_term};
use cardnet_core::rl::{legal_action_ids, RlGame};
use cardnet_core::rng::Rng;
use serde_json::{json, Value};
use std::collections::BTreeMap;

fn setup<G: Game>(players: usize, seed: u64, options: &Value) -> Setup {
    Setup { players, seed, options: G::info().resolve_options(options).unwrap() }
}

/// The legal moves of `seat`.
fn moves<G: Game>(game: &G, seat: usize) -> Vec<G::Move> {
    (0..game.legal_count(seat)).filter_map(|i| game.legal_move(seat, i)).collect()
}

/// Plays one game with `choose` and returns the moves made; fails past `max_game_length`.
fn play<G: RlGame>(
    setup: &Setup,
    rng: &mut Rng,
    mut choose: impl FnMut(&G, usize, &[G::Move], &mut Rng) -> G::Move,
    mut seen: impl FnMut(&G::Move),
) -> usize {
    let limit = G::max_game_length(setup);
    let mut game = G::new(setup).unwrap();
    let mut count = 0;
    while let Some(seat) = game.to_act().first() {
        let legal = moves(&game, seat);
        let mv = choose(&game, seat, &legal, rng);
        seen(&mv);
        game.apply_legal(seat, &mv);
        count += 1;
        assert!(count <= limit, "{}: move {count} is past max_game_length = {limit}", G::info().name);
    }
    count
}

fn chance(rng: &mut Rng, p: f64) -> bool {
    (rng.below(1 << 20) as f64) < p * f64::from(1u32 << 20)
}

/// With probability `p` the first move `want` accepts (if any), else a uniformly random one.
fn prefer<M: Clone>(legal: &[M], rng: &mut Rng, p: f64, want: impl Fn(&M) -> bool) -> M {
    let wanted: Vec<&M> = legal.iter().filter(|m| want(m)).collect();
    if !wanted.is_empty() && chance(rng, p) {
        return wanted[rng.index(wanted.len())].clone();
    }
    legal[rng.index(legal.len())].clone()
}

/// A TEN player that lengthens the game: stops at once (more turns), takes the NUMBERS prize (a buy
/// follows), always buys, bids the minimum (every seat gets to raise), and pays token by token.
fn long_ten(game: &Ten, _seat: usize, legal: &[TenMove], rng: &mut Rng) -> TenMove {
    let first = |want: &dyn Fn(&TenMove) -> bool| legal.iter().find(|m| want(m)).cloned();
    let pick = first(&|m| matches!(m, TenMove::Stop))
        .or_else(|| first(&|m| matches!(m, TenMove::Prize(Prize::Numbers))))
        .or_else(|| legal.iter().rev().find(|m| matches!(m, TenMove::Buy(_))).cloned())
        .or_else(|| first(&|m| matches!(m, TenMove::Bid(_))))
        .or_else(|| first(&|m| matches!(m, TenMove::AcceptWild)))
        .or_else(|| first(&|m| matches!(m, TenMove::PayToken)))
        .or_else(|| first(&|m| matches!(m, TenMove::PayCard(_))));
    let _ = game;
    match pick {
        Some(mv) if chance(rng, 0.9) => mv,
        _ => legal[rng.index(legal.len())].clone(),
    }
}

#[test]
fn ten_stays_within_every_term_of_its_budget() {
    let mut longest = BTreeMap::new();
    for players in 1..=5 {
        for seed in 0..40u64 {
            let setup = setup::<Ten>(players, seed, &Value::Null);
            let budget: BTreeMap<&str, usize> = length_budget(&setup).into_iter().collect();
            let mut used: BTreeMap<&str, usize> = BTreeMap::new();
            let mut rng = Rng::new(seed ^ 0xA5);
            let moves = play::<Ten>(&setup, &mut rng, long_ten, |mv| *used.entry(length_term(mv)).or_default() += 1);
            for (term, n) in &used {
                assert!(n <= &budget[term], "{players} players, seed {seed}: {n} moves of {term} > {}", budget[term]);
            }
            let top = longest.entry(players).or_insert(0);
            *top = moves.max(*top);
        }
    }
    for (players, moves) in longest {
        let bound = Ten::max_game_length(&setup::<Ten>(players, 0, &Value::Null));
        eprintln!("TEN at {players} players: longest adversarial game {moves} moves, bound {bound}");
        assert!(moves * 2 > bound, "{players} players: the longest game ({moves}) is under half the bound {bound}");
    }
}

#[test]
fn ten_bound_at_three_players_is_the_documented_sum() {
    // docs/RL.md: 105 cards, 18 wilds, 27 currency cards worth 73, so 60 number cards and 88 turns.
    let three = Ten::max_game_length(&setup::<Ten>(3, 0, &Value::Null));
    assert_eq!(three, 105 + 88 + 88 + 91 + 54 + 78 + (15 + 2 * 73));
}

#[test]
fn matchstick_stays_within_its_bound_when_players_pass_and_play_single_cards() {
    for players in 2..=8 {
        for expansion in [0, 2, 4] {
            for seed in 0..6u64 {
                let setup = setup::<Matchstick>(players, seed, &json!({"expansion": expansion}));
                let mut rng = Rng::new(seed);
                play::<Matchstick>(
                    &setup,
                    &mut rng,
                    |game, seat, legal, rng| {
                        let lowest = legal_action_ids(game, seat).into_iter().find(|&id| id >= 2);
                        let single =
                            |m: &MatchstickMove| lowest.is_some() && Matchstick::action_id(game.setup(), m) == lowest;
                        prefer(legal, rng, 0.8, |m| matches!(m, MatchstickMove::Pass) || single(m))
                    },
                    |_| {},
                );
            }
        }
    }
}

#[test]
fn cherki_stays_within_its_bound_when_nobody_calls() {
    for players in 2..=6 {
        for seed in 0..8u64 {
            let setup = setup::<Cherki>(players, seed, &json!({"deals": 2}));
            let mut rng = Rng::new(seed);
            play::<Cherki>(
                &setup,
                &mut rng,
                |_, _, legal, rng| {
                    prefer(legal, rng, 0.95, |m| {
                        !matches!(m, CherkiMove::Call | CherkiMove::Discard { call: true, .. })
                    })
                },
                |_| {},
            );
        }
    }
}

#[test]
fn fistful_stays_within_its_bound() {
    for length in ["short", "long"] {
        for seed in 0..60u64 {
            let setup = setup::<Fistful>(2, seed, &json!({"length": length}));
            let mut rng = Rng::new(seed);
            play::<Fistful>(&setup, &mut rng, |_, _, legal, rng| legal[rng.index(legal.len())], |_| {});
        }
    }
}
