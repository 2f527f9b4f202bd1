//! Simultaneous-move search: the decision two seats make at once, solved as a zero-sum matrix game.
//!
//! A search that treats the opponent's simultaneous pick as chance, or lets it answer the searching
//! seat's own pick, is exploitable in a guessing game such as A Fistful of Gold's duels. Here every
//! sample is a full state consistent with what the searching seat knows in which the opponent has not
//! picked yet ([`Game::simultaneous_sample`], so the opponent's hand follows the card-counting belief);
//! every pair (own move, opponent move) is played on that sample, and the rest of the match after it is
//! valued by one iteration of that cell's simultaneous-move tree ([`super::simtree`]: regret matching at
//! every later duel, one playout at its leaf), from the same seed in every cell (common random numbers).
//! Its mean reward fills a payoff matrix whose columns are the opponent's moves that the samples allow.
//! The row player's maximin mixed strategy of that matrix is computed by regret matching+ to a small
//! exploitability, and the move is drawn from it with the search's seeded RNG: the same seed gives the
//! same move. The playouts mix uniform random moves into the heuristic ([`PLAYOUT_EXPLORATION`]), so a
//! leaf's value is not the value against one predictable continuation; the tree above the leaves makes
//! the next duels' values those of both seats playing them well, not of the playout's policy.
//!
//! A decision that is not a duel (the setup and round-end discards, the Green 8's retrieval) is decided
//! by the same tree from determinized states: the move the seat's average strategy at the root favours.

use super::budget::Meter;
use super::simtree::SimTree;
use crate::game::{Game, Seat};
use crate::rng::Rng;

/// Share of playout moves drawn uniformly instead of by the heuristic. In A Fistful of Gold (40 to 60
/// games a row against `easy` and the tree search at 300 iterations) 0.5 did best; with 0 (the heuristic
/// alone, as the tree search plays out) the matrix search lost to both, with 1 (random) it fell back.
pub const PLAYOUT_EXPLORATION: f64 = 0.5;
/// Probabilities below this are dropped from the mixed strategy (what is left is renormalized): they
/// are the solver's residue, not a plan.
const NEGLIGIBLE: f64 = 1e-3;
/// The solver stops when a best reply gains less than this against its strategies.
const SOLVE_TOLERANCE: f64 = 1e-5;
/// The solver's iteration limit.
const SOLVE_ITERATIONS: usize = 100_000;
/// Samples between two checks of whether the choice is already decided.
const CHECK_EVERY: u32 = 16;
/// Samples before the first such check.
const MIN_SAMPLES: u32 = 32;

/// A zero-sum payoff matrix for the row player, row-major.
#[derive(Clone, Debug, PartialEq)]
pub struct PayoffMatrix {
    rows: usize,
    cols: usize,
    cells: Vec<f64>,
}

impl PayoffMatrix {
    /// A `rows` × `cols` matrix from row-major `cells`; `None` when the sizes disagree or a size is 0.
    pub fn new(rows: usize, cols: usize, cells: Vec<f64>) -> Option<Self> {
        (rows > 0 && cols > 0 && cells.len() == rows * cols).then_some(PayoffMatrix { rows, cols, cells })
    }

    fn at(&self, row: usize, col: usize) -> f64 {
        self.cells[row * self.cols + col]
    }

    /// The row player's payoff of each row against the column strategy `col`.
    fn row_values(&self, col: &[f64]) -> Vec<f64> {
        (0..self.rows).map(|r| (0..self.cols).map(|c| self.at(r, c) * col[c]).sum()).collect()
    }

    /// The row player's payoff of each column against the row strategy `row`.
    fn col_values(&self, row: &[f64]) -> Vec<f64> {
        (0..self.cols).map(|c| (0..self.rows).map(|r| self.at(r, c) * row[r]).sum()).collect()
    }

    /// What a best reply gains against the pair of strategies: 0 exactly at an equilibrium.
    pub fn exploitability(&self, row: &[f64], col: &[f64]) -> f64 {
        let best_row = self.row_values(col).into_iter().fold(f64::NEG_INFINITY, f64::max);
        let best_col = self.col_values(row).into_iter().fold(f64::INFINITY, f64::min);
        best_row - best_col
    }

    /// An equilibrium (row strategy, column strategy) by regret matching+ with linearly weighted
    /// averages, run until [`PayoffMatrix::exploitability`] is below `SOLVE_TOLERANCE` (or the
    /// iteration limit). Each strategy is a probability vector over the rows or the columns.
    pub fn solve(&self) -> (Vec<f64>, Vec<f64>) {
        let (rows, cols) = (self.rows, self.cols);
        let mut row_regret = vec![0.0; rows];
        let mut col_regret = vec![0.0; cols];
        let mut row_avg = vec![0.0; rows];
        let mut col_avg = vec![0.0; cols];
        for t in 1..=SOLVE_ITERATIONS {
            let row = from_regrets(&row_regret);
            let values = self.row_values(&from_regrets(&col_regret));
            let mean: f64 = values.iter().zip(&row).map(|(v, p)| v * p).sum();
            for (r, v) in row_regret.iter_mut().zip(&values) {
                *r = (*r + v - mean).max(0.0);
            }
            // Alternating updates: the column player answers the row player's updated regrets.
            let row = from_regrets(&row_regret);
            let col = from_regrets(&col_regret);
            let values = self.col_values(&row);
            let mean: f64 = values.iter().zip(&col).map(|(v, p)| v * p).sum();
            for (r, v) in col_regret.iter_mut().zip(&values) {
                *r = (*r + mean - v).max(0.0);
            }
            let weight = t as f64;
            for (a, p) in row_avg.iter_mut().zip(&row) {
                *a += weight * p;
            }
            for (a, p) in col_avg.iter_mut().zip(&col) {
                *a += weight * p;
            }
            if t.is_multiple_of(64)
                && self.exploitability(&normalized(&row_avg), &normalized(&col_avg)) < SOLVE_TOLERANCE
            {
                break;
            }
        }
        (normalized(&row_avg), normalized(&col_avg))
    }
}

/// Regret matching: positive regrets normalized, uniform when none is positive.
fn from_regrets(regrets: &[f64]) -> Vec<f64> {
    let total: f64 = regrets.iter().map(|r| r.max(0.0)).sum();
    if total > 0.0 {
        regrets.iter().map(|r| r.max(0.0) / total).collect()
    } else {
        vec![1.0 / regrets.len() as f64; regrets.len()]
    }
}

fn normalized(weights: &[f64]) -> Vec<f64> {
    let total: f64 = weights.iter().sum();
    if total > 0.0 {
        weights.iter().map(|w| w / total).collect()
    } else {
        vec![1.0 / weights.len() as f64; weights.len()]
    }
}

/// `strategy` without its negligible probabilities, renormalized (the largest one is always kept).
pub fn cleaned(strategy: &[f64]) -> Vec<f64> {
    let top = strategy.iter().copied().fold(0.0, f64::max);
    let kept: Vec<f64> = strategy.iter().map(|&p| if p >= NEGLIGIBLE || p == top { p } else { 0.0 }).collect();
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

/// Per cell: the sum of rewards and of their squares, and per column the samples where it was legal.
struct Tallies<M> {
    rows: usize,
    moves: Vec<M>,
    samples: Vec<u32>,
    sums: Vec<Vec<f64>>,
    squares: Vec<Vec<f64>>,
}

impl<M: PartialEq + Clone> Tallies<M> {
    fn column(&mut self, mv: &M) -> usize {
        if let Some(c) = self.moves.iter().position(|m| m == mv) {
            return c;
        }
        self.moves.push(mv.clone());
        self.samples.push(0);
        self.sums.push(vec![0.0; self.rows]);
        self.squares.push(vec![0.0; self.rows]);
        self.moves.len() - 1
    }

    fn matrix(&self) -> Option<PayoffMatrix> {
        let cols = self.moves.len();
        let mut cells = vec![0.0; self.rows * cols];
        for (c, (sums, &n)) in self.sums.iter().zip(&self.samples).enumerate() {
            for (r, s) in sums.iter().enumerate() {
                cells[r * cols + c] = s / f64::from(n.max(1));
            }
        }
        PayoffMatrix::new(self.rows, cols, cells)
    }

    /// Whether `row` beats every other row against every column by more than two standard errors.
    fn dominates(&self, row: usize) -> bool {
        let stderr = |c: usize, r: usize| {
            let n = f64::from(self.samples[c].max(2));
            let mean = self.sums[c][r] / n;
            ((self.squares[c][r] / n - mean * mean).max(0.0) / (n - 1.0)).sqrt()
        };
        (0..self.moves.len()).all(|c| {
            let n = f64::from(self.samples[c].max(1));
            (0..self.rows)
                .filter(|&r| r != row)
                .all(|r| self.sums[c][row] / n - self.sums[c][r] / n > 2.0 * (stderr(c, row) + stderr(c, r)))
        })
    }
}

/// The searching seat's mixed strategy over its legal moves (indexed as [`Game::legal_move`]) at a
/// simultaneous decision, from playouts within `meter`; `None` when the game offers no simultaneous
/// sample here (then another search decides).
pub(crate) fn strategy<G: Game>(game: &G, seat: Seat, meter: &mut Meter, rng: &mut Rng) -> Option<Vec<f64>> {
    let rows = game.legal_count(seat);
    if rows <= 1 {
        return (rows == 1).then(|| vec![1.0]);
    }
    let Some(first) = game.simultaneous_sample(seat, rng) else { return tree_strategy(game, seat, meter, rng) };
    let mut sample = Some(first);
    let players = game.setup().players;
    let mut tallies = Tallies { rows, moves: Vec::new(), samples: Vec::new(), sums: Vec::new(), squares: Vec::new() };
    let mut tree = SimTree::<G>::new(players);
    // The tree's roots, one per cell: `cells[col][row]`.
    let mut cells: Vec<Vec<usize>> = Vec::new();
    let mut rewards = vec![0.0; rows];
    let mut every_cell_alike = true;
    let mut taken = 0u32;
    loop {
        let Some((state, opponent)) = sample.take().or_else(|| game.simultaneous_sample(seat, rng)) else { break };
        let replies = state.legal_count(opponent);
        let cost = u32::try_from(rows * replies.max(1)).unwrap_or(u32::MAX);
        if !meter.spend(cost) {
            break;
        }
        let seed = rng.next_u64();
        let mut first_reward = None;
        for reply in 0..replies {
            let Some(mv) = state.legal_move(opponent, reply) else { continue };
            let col = tallies.column(&mv);
            if cells.len() <= col {
                cells.push((0..rows).map(|_| tree.root()).collect());
            }
            for (row, reward) in rewards.iter_mut().enumerate() {
                let mut next = state.clone();
                *reward = match next.apply_index(seat, row) {
                    Ok(()) => {
                        next.apply_legal(opponent, &mv);
                        tree.iterate(cells[col][row], next, &mut Rng::new(seed))[seat]
                    }
                    Err(_) => 0.0,
                };
            }
            for (row, &reward) in rewards.iter().enumerate() {
                tallies.sums[col][row] += reward;
                tallies.squares[col][row] += reward * reward;
                every_cell_alike &= *first_reward.get_or_insert(reward) == reward;
            }
            tallies.samples[col] += 1;
        }
        taken += 1;
        if taken >= MIN_SAMPLES && taken.is_multiple_of(CHECK_EVERY) {
            // Spent where the decision is hard: nothing at stake, or one move clearly best whatever
            // the opponent picks, ends the search.
            if every_cell_alike || (0..rows).any(|r| tallies.dominates(r)) {
                break;
            }
        }
    }
    let matrix = tallies.matrix()?;
    Some(cleaned(&matrix.solve().0))
}

/// At a decision that is not a duel of two seats (a discard, a retrieval): iterations of the
/// simultaneous-move tree from determinized states, and the move `seat`'s average strategy at the root
/// favours most, as a pure strategy. `None` when the tree offered `seat` nothing.
fn tree_strategy<G: Game>(game: &G, seat: Seat, meter: &mut Meter, rng: &mut Rng) -> Option<Vec<f64>> {
    let rows = game.legal_count(seat);
    let mut tree = SimTree::<G>::new(game.setup().players);
    let root = tree.root();
    while meter.spend(1) {
        let state = game.determinize(Some(seat), rng);
        tree.iterate(root, state, rng);
    }
    let mut average = vec![0.0; rows];
    for (mv, p) in tree.average(root, seat) {
        if let Some(index) = game.index_of(seat, &mv) {
            average[index] += p;
        }
    }
    let best = (0..rows).max_by(|&a, &b| average[a].total_cmp(&average[b]).then(b.cmp(&a)))?;
    if average[best] <= 0.0 {
        return None;
    }
    Some((0..rows).map(|i| if i == best { 1.0 } else { 0.0 }).collect())
}

/// The legal-move index the matrix search picks for `seat`, drawn from [`strategy`] with `rng`.
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

    fn matrix(rows: usize, cols: usize, cells: &[f64]) -> PayoffMatrix {
        let Some(m) = PayoffMatrix::new(rows, cols, cells.to_vec()) else { panic!("bad sizes") };
        m
    }

    #[test]
    fn matching_pennies_is_solved_half_and_half() {
        let m = matrix(2, 2, &[1.0, 0.0, 0.0, 1.0]);
        let (row, col) = m.solve();
        assert!((row[0] - 0.5).abs() < 1e-3 && (col[0] - 0.5).abs() < 1e-3, "{row:?} {col:?}");
        assert!(m.exploitability(&row, &col) < 1e-4);
    }

    #[test]
    fn rock_paper_scissors_with_unequal_stakes_is_solved_exactly() {
        // Rock beats scissors by 2, paper beats rock by 1, scissors beat paper by 1: the equilibrium is
        // (1/4, 1/2, 1/4) for both.
        let m = matrix(3, 3, &[0.0, -1.0, 2.0, 1.0, 0.0, -1.0, -2.0, 1.0, 0.0]);
        let (row, col) = m.solve();
        for (p, want) in row.iter().zip([0.25, 0.5, 0.25]) {
            assert!((p - want).abs() < 1e-2, "{row:?}");
        }
        assert!(m.exploitability(&row, &col) < 1e-4);
    }

    #[test]
    fn a_dominant_row_is_played_purely() {
        let m = matrix(3, 2, &[0.2, 0.3, 0.9, 0.8, 0.1, 0.5]);
        let (row, _) = m.solve();
        assert_eq!(cleaned(&row), vec![0.0, 1.0, 0.0]);
    }

    #[test]
    fn mismatched_sizes_are_refused() {
        assert!(PayoffMatrix::new(2, 2, vec![0.0; 3]).is_none());
        assert!(PayoffMatrix::new(0, 2, Vec::new()).is_none());
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
