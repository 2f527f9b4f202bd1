//! Search at the decisions two seats make at once, built for A Fistful of Gold's duels: a guessing
//! game, in which a search that treats the opponent's simultaneous pick as chance, or lets it answer the
//! searching seat's own pick, is exploitable.
//!
//! At a duel every iteration deals a full state consistent with what the searching seat knows in which
//! the opponent has not picked yet ([`Game::simultaneous_sample`]: the opponent's hand follows the
//! card-counting belief, its pick, if already made, is back in its hand) and runs one iteration of a
//! simultaneous-move tree from it (`ai/simtree.rs`): both seats draw their picks by regret matching at
//! the root and at every later node, a new leaf is valued by one playout, and the regrets are updated
//! from the outcome. The iterations therefore go where both seats' equilibrium strategies play, and the
//! tree under the root's likely picks grows deeper than under picks neither would make. The searching
//! seat's average strategy at the root, without its negligible probabilities ([`ROOT_NEGLIGIBLE`]), is
//! the mixed strategy the pick is drawn from with the search's seeded RNG: the same seed gives the same
//! move. The playouts mix uniform random moves into the heuristic ([`PLAYOUT_EXPLORATION`]), so a leaf's
//! value is not the value against one predictable continuation.
//!
//! A decision that is not a duel (the setup and round-end discards, the Green 8's retrieval) grows the
//! same tree from determinized states ([`Game::determinize`]) and plays the move the seat's average
//! strategy at the root favours most.
//!
//! (Before this tree, each duel's payoff matrix was filled pair by pair with playouts and solved exactly:
//! 48.8 % against OpenSpiel's ISMCTS at equal time over 80 games even with a tree under every cell, where
//! this search won 58.8 % on the same deals, 55.0 % over 160; `bench/RESULTS.md`.)

use super::budget::Meter;
use super::simtree::SimTree;
use crate::game::{Game, Seat};
use crate::rng::Rng;

/// Share of playout moves drawn uniformly instead of by the heuristic. In A Fistful of Gold (40 to 60
/// games a row against `easy` and the tree search at 300 iterations) 0.5 did best; with 0 (the heuristic
/// alone, as the tree search plays out) the matrix search lost to both, with 1 (random) it fell back.
pub const PLAYOUT_EXPLORATION: f64 = 0.5;

/// Probabilities of the root's average strategy below this are dropped before the pick is drawn (what
/// is left is renormalized): the average still carries the weight of the first, nearly uniform
/// iterations, which is the search's residue, not a plan.
pub const ROOT_NEGLIGIBLE: f64 = 0.02;

fn normalized(weights: &[f64]) -> Vec<f64> {
    let total: f64 = weights.iter().sum();
    if total > 0.0 {
        weights.iter().map(|w| w / total).collect()
    } else {
        vec![1.0 / weights.len() as f64; weights.len()]
    }
}

/// `strategy` without its probabilities below `negligible`, renormalized (the largest one is always kept).
pub fn cleaned(strategy: &[f64], negligible: f64) -> Vec<f64> {
    let top = strategy.iter().copied().fold(0.0, f64::max);
    let kept: Vec<f64> = strategy.iter().map(|&p| if p >= negligible || p == top { p } else { 0.0 }).collect();
    normalized(&kept)
}

/// An index drawn from the probability vector `strategy` with `rng`.
pub fn draw(strategy: &[f64], rng: &mut Rng) -> usize {
    let u = (rng.next_u64() >> 11) as f64 / (1u64 << 53) as f64;
    let mut acc = 0.0;
    for (i, p) in strategy.iter().enumerate() {
        acc += p;
        if u < acc {
            return i;
        }
    }
    strategy.iter().rposition(|&p| p > 0.0).unwrap_or(0)
}

/// The searching seat's mixed strategy over its legal moves (indexed as [`Game::legal_move`]) within
/// `meter`: at a duel (where the game offers a [`Game::simultaneous_sample`]) the root's cleaned average
/// strategy, elsewhere the pure strategy of the move it favours most. `None` when the tree offered
/// `seat` no move (then another search decides).
pub(crate) fn strategy<G: Game>(game: &G, seat: Seat, meter: &mut Meter, rng: &mut Rng) -> Option<Vec<f64>> {
    let rows = game.legal_count(seat);
    if rows <= 1 {
        return (rows == 1).then(|| vec![1.0]);
    }
    // Whether this is a duel, asked with a copy of the RNG so that the answer draws nothing from it.
    if game.simultaneous_sample(seat, &mut rng.clone()).is_some() {
        let average = tree_average(game, seat, meter, rng, |g, s, r| g.simultaneous_sample(s, r).map(|(x, _)| x));
        if average.iter().sum::<f64>() <= 0.0 {
            return None;
        }
        return Some(cleaned(&normalized(&average), ROOT_NEGLIGIBLE));
    }
    let average = tree_average(game, seat, meter, rng, |g, s, r| Some(g.determinize(Some(s), r)));
    let best = (0..rows).max_by(|&a, &b| average[a].total_cmp(&average[b]).then(b.cmp(&a)))?;
    if average[best] <= 0.0 {
        return None;
    }
    Some((0..rows).map(|i| if i == best { 1.0 } else { 0.0 }).collect())
}

/// `seat`'s average strategy at the root of a simultaneous-move tree grown within `meter` from the
/// states `sample` deals, indexed as `game`'s legal moves (all 0 when the tree never offered one).
fn tree_average<G: Game>(
    game: &G,
    seat: Seat,
    meter: &mut Meter,
    rng: &mut Rng,
    sample: impl Fn(&G, Seat, &mut Rng) -> Option<G>,
) -> Vec<f64> {
    let mut tree = SimTree::<G>::new(game.setup().players);
    let root = tree.root();
    while meter.spend(1) {
        let Some(state) = sample(game, seat, rng) else { break };
        tree.iterate(root, state, rng);
    }
    let mut average = vec![0.0; game.legal_count(seat)];
    for (mv, p) in tree.average(root, seat) {
        if let Some(index) = game.index_of(seat, &mv) {
            average[index] += p;
        }
    }
    average
}

/// The legal-move index the search picks for `seat`, drawn from [`strategy`] with `rng`.
pub(crate) fn search<G: Game>(game: &G, seat: Seat, meter: &mut Meter, rng: &mut Rng) -> Option<usize> {
    let strategy = strategy(game, seat, meter, rng)?;
    Some(draw(&strategy, rng))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ai::{Budget, Player};
    use crate::games::fistful::Fistful;
    use crate::Setup;

    /// A Fistful match of `seed` played by the heuristic until `picks` duel picks have been made.
    fn fistful_after(seed: u64, picks: usize) -> Fistful {
        let Ok(mut game) = Fistful::new(&Setup { players: 2, seed, options: serde_json::Map::new() }) else {
            panic!("no game")
        };
        let mut rng = Rng::new(seed);
        let mut made = 0;
        while let Some(seat) = game.to_act().first() {
            let is_pick = matches!(game.legal_move(seat, 0), Some(crate::games::fistful::FistfulMove::Pick(_)));
            if is_pick && made == picks {
                break;
            }
            made += usize::from(is_pick);
            let index = game.heuristic_index(seat, &mut rng);
            assert!(game.apply_index(seat, index).is_ok());
        }
        game
    }

    #[test]
    fn a_duel_strategy_is_a_distribution_over_the_legal_picks() {
        for (seed, picks) in [(1, 0), (2, 3), (3, 7), (4, 12)] {
            let game = fistful_after(seed, picks);
            let Some(seat) = game.to_act().iter().last() else { continue };
            let mut meter = Meter::new(Budget::Iterations(3000));
            let Some(strategy) = strategy(&game, seat, &mut meter, &mut Rng::new(seed)) else {
                panic!("no matrix at a duel pick")
            };
            assert_eq!(strategy.len(), game.legal_count(seat));
            assert!(strategy.iter().all(|&p| (0.0..=1.0).contains(&p)), "{strategy:?}");
            assert!((strategy.iter().sum::<f64>() - 1.0).abs() < 1e-9, "{strategy:?}");
            let mut rng = Rng::new(seed);
            for _ in 0..50 {
                let pick = draw(&strategy, &mut rng);
                assert!(strategy[pick] > 0.0);
                assert!(game.clone().apply_index(seat, pick).is_ok());
            }
        }
    }

    #[test]
    fn the_same_seed_and_count_give_the_same_move() {
        for seed in 1..4 {
            let game = fistful_after(seed, 2);
            let Some(seat) = game.to_act().first() else { continue };
            let hard = Player::for_level("hard").unwrap_or(Player::Random);
            let first = hard.choose(&game, seat, &mut Rng::new(seed));
            assert!(first.is_ok());
            assert_eq!(first, hard.choose(&game, seat, &mut Rng::new(seed)));
            let budget = Budget::Iterations(crate::ai::HARD_ITERATIONS);
            assert_eq!(first, Ok(crate::ai::search(&game, seat, budget, &mut Rng::new(seed))));
            assert_eq!(first, hard.choose_within(&game, seat, budget, &mut Rng::new(seed)));
        }
    }

    #[test]
    fn the_search_spends_no_more_than_its_count() {
        let game = fistful_after(5, 1);
        let Some(seat) = game.to_act().first() else { panic!("over") };
        let mut meter = Meter::new(Budget::Iterations(2000));
        assert!(strategy(&game, seat, &mut meter, &mut Rng::new(5)).is_some());
        assert!(meter.done() <= 2000 && meter.done() > 0, "{}", meter.done());
    }

    #[test]
    fn a_discard_is_decided_by_the_tree_as_one_legal_move() {
        let Ok(game) = Fistful::new(&Setup { players: 2, seed: 9, options: serde_json::Map::new() }) else {
            panic!("no game")
        };
        // The setup discard: 36 moves a side, no duel matrix; the tree's favourite is played purely.
        let mut meter = Meter::new(Budget::Iterations(400));
        let Some(strategy) = strategy(&game, 0, &mut meter, &mut Rng::new(9)) else { panic!("no strategy") };
        assert_eq!(strategy.len(), game.legal_count(0));
        assert_eq!(strategy.iter().filter(|&&p| p == 1.0).count(), 1, "{strategy:?}");
        assert_eq!(meter.done(), 400);
    }

    #[test]
    fn cleaning_drops_the_small_probabilities_but_never_the_largest() {
        assert_eq!(cleaned(&[0.01, 0.59, 0.4], 0.02), vec![0.0, 0.59 / 0.99, 0.4 / 0.99]);
        assert_eq!(cleaned(&[0.01, 0.015, 0.005], 0.02), vec![0.0, 1.0, 0.0]);
    }

    #[test]
    fn draws_follow_the_strategy_and_never_pick_an_impossible_index() {
        let mut rng = Rng::new(3);
        let strategy = [0.25, 0.0, 0.75];
        let mut counts = [0u32; 3];
        for _ in 0..4000 {
            counts[draw(&strategy, &mut rng)] += 1;
        }
        assert_eq!(counts[1], 0);
        assert!((2800..3200).contains(&counts[2]), "{counts:?}");
    }
}
