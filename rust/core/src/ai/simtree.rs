//! Simultaneous-move Monte Carlo tree search with regret matching at every node (Lanctot et al., "Monte
//! Carlo tree search in simultaneous move games", 2013: SM-MCTS with regret matching), over sampled
//! states; the search of [`super::matrix`].
//!
//! A node is a history of joint moves from the root. At each node every seat to act draws its move from
//! regret matching over the moves its sample allows, with a share drawn uniformly so that every move
//! keeps being tried; the state is played on to the next node, a new node is valued by one playout, and
//! each seat's regrets are updated from the outcome by importance sampling. The regret-matching
//! strategies approach an equilibrium of the duels ahead, so the values backed up are those of both
//! seats playing on well, not those of the playout's policy — a playout alone values a duel against one
//! fixed way of playing on, and the equilibrium of that game is not the equilibrium of the real one.
//!
//! The tree is keyed by the joint moves, not by the sample: the samples differ only in what the
//! searching seat cannot see, so a node is one of its information sets, and a move a sample does not
//! allow is simply not offered there.

use super::matrix::PLAYOUT_EXPLORATION;
use super::playout::play_out_mixed;
use crate::game::{Game, Seat};
use crate::rng::Rng;

/// Share of a seat's choices at a node drawn uniformly among its moves rather than by regret matching:
/// keeps every move's estimate alive and bounds the importance weights.
const EXPLORATION: f64 = 0.1;

/// One seat's regrets at a node, per move seen there.
struct Actor<M> {
    seat: Seat,
    moves: Vec<M>,
    regrets: Vec<f64>,
    /// The regret-matching strategies summed over the visits: their average is the node's answer.
    strategy_sums: Vec<f64>,
}

struct Node<M> {
    visits: u32,
    actors: Vec<Actor<M>>,
    /// Children by the joint move (the movers' moves in seat order) that leads to them.
    children: Vec<(Vec<M>, usize)>,
}

/// A seat's draw at a node: which actor, the slots of the moves it could make, their probabilities and
/// the position of the one drawn.
struct Draw {
    actor: usize,
    slots: Vec<usize>,
    probabilities: Vec<f64>,
    drawn: usize,
}

/// Trees of joint moves in one arena (a search uses one root).
pub(super) struct SimTree<G: Game> {
    nodes: Vec<Node<G::Move>>,
    players: usize,
}

impl<G: Game> SimTree<G> {
    pub(super) fn new(players: usize) -> Self {
        SimTree { nodes: Vec::new(), players }
    }

    /// A new, unvisited root.
    pub(super) fn root(&mut self) -> usize {
        self.nodes.push(Node { visits: 0, actors: Vec::new(), children: Vec::new() });
        self.nodes.len() - 1
    }

    /// `seat`'s average strategy at node `id`: each move it was offered there with its probability.
    pub(super) fn average(&self, id: usize, seat: Seat) -> Vec<(G::Move, f64)> {
        let Some(actor) = self.nodes[id].actors.iter().find(|a| a.seat == seat) else { return Vec::new() };
        let total: f64 = actor.strategy_sums.iter().sum();
        actor
            .moves
            .iter()
            .zip(&actor.strategy_sums)
            .map(|(mv, &sum)| (mv.clone(), if total > 0.0 { sum / total } else { 0.0 }))
            .collect()
    }

    /// One iteration from node `id` whose state is `state`: walks down by regret matching, values the new
    /// leaf by a playout and returns what the end is worth to each seat.
    pub(super) fn iterate(&mut self, id: usize, mut state: G, rng: &mut Rng) -> Vec<f64> {
        self.nodes[id].visits += 1;
        if self.nodes[id].visits == 1 || state.is_over() {
            return play_out_mixed(&mut state, self.players, PLAYOUT_EXPLORATION, rng);
        }
        let movers: Vec<Seat> = state.to_act().iter().filter(|&s| state.legal_count(s) > 0).collect();
        let mut draws = Vec::with_capacity(movers.len());
        let mut joint = Vec::with_capacity(movers.len());
        for &seat in &movers {
            let draw = self.draw(id, &state, seat, rng);
            let actor = &self.nodes[id].actors[draw.actor];
            joint.push(actor.moves[draw.slots[draw.drawn]].clone());
            draws.push(draw);
        }
        for (&seat, mv) in movers.iter().zip(&joint) {
            state.apply_legal(seat, mv);
        }
        let child = match self.nodes[id].children.iter().find(|(key, _)| *key == joint) {
            Some(&(_, child)) => child,
            None => {
                let child = self.root();
                self.nodes[id].children.push((joint, child));
                child
            }
        };
        let values = self.iterate(child, state, rng);
        for draw in draws {
            let actor = &mut self.nodes[id].actors[draw.actor];
            let value = values.get(actor.seat).copied().unwrap_or(0.0);
            for (k, &slot) in draw.slots.iter().enumerate() {
                let estimate = if k == draw.drawn { value / draw.probabilities[k] } else { 0.0 };
                actor.regrets[slot] += estimate - value;
            }
        }
        values
    }

    /// `seat`'s move at node `id` in `state`: regret matching over the moves `state` allows, mixed with
    /// uniform exploration.
    fn draw(&mut self, id: usize, state: &G, seat: Seat, rng: &mut Rng) -> Draw {
        let node = &mut self.nodes[id];
        let actor = match node.actors.iter().position(|a| a.seat == seat) {
            Some(a) => a,
            None => {
                node.actors.push(Actor { seat, moves: Vec::new(), regrets: Vec::new(), strategy_sums: Vec::new() });
                node.actors.len() - 1
            }
        };
        let entry = &mut node.actors[actor];
        let slots: Vec<usize> = (0..state.legal_count(seat))
            .filter_map(|i| state.legal_move(seat, i))
            .map(|mv| match entry.moves.iter().position(|m| *m == mv) {
                Some(slot) => slot,
                None => {
                    entry.moves.push(mv);
                    entry.regrets.push(0.0);
                    entry.strategy_sums.push(0.0);
                    entry.moves.len() - 1
                }
            })
            .collect();
        let positive: f64 = slots.iter().map(|&s| entry.regrets[s].max(0.0)).sum();
        let uniform = 1.0 / slots.len().max(1) as f64;
        let probabilities: Vec<f64> = slots
            .iter()
            .map(|&s| {
                let matched = if positive > 0.0 { entry.regrets[s].max(0.0) / positive } else { uniform };
                entry.strategy_sums[s] += matched;
                (1.0 - EXPLORATION) * matched + EXPLORATION * uniform
            })
            .collect();
        let drawn = super::matrix::draw(&probabilities, rng);
        Draw { actor, slots, probabilities, drawn }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::Setup;
    use crate::games::fistful::Fistful;

    /// States reached by the heuristic from seeds 1.. at which both seats choose at once.
    fn duel_states(seeds: u64) -> Vec<Fistful> {
        let mut states = Vec::new();
        for seed in 1..=seeds {
            let Ok(mut game) = Fistful::new(&Setup { players: 2, seed, options: serde_json::Map::new() }) else {
                panic!("no game")
            };
            let mut rng = Rng::new(seed);
            while let Some(seat) = game.to_act().first() {
                if game.to_act().iter().count() == 2 && game.legal_count(0) > 1 && game.legal_count(1) > 1 {
                    states.push(game.clone());
                }
                let index = game.heuristic_index(seat, &mut rng);
                assert!(game.apply_index(seat, index).is_ok());
            }
        }
        states
    }

    #[test]
    fn every_iteration_adds_at_most_one_node_and_returns_rewards() {
        for state in duel_states(3).into_iter().step_by(5) {
            let mut tree = SimTree::<Fistful>::new(2);
            let root = tree.root();
            let mut rng = Rng::new(7);
            for i in 1..=200 {
                let values = tree.iterate(root, state.clone(), &mut rng);
                assert!(tree.nodes.len() <= 1 + i, "{} nodes after {i} iterations", tree.nodes.len());
                assert!(values.iter().all(|v| (0.0..=1.0).contains(v)), "{values:?}");
            }
            for seat in 0..2 {
                let total: f64 = tree.average(root, seat).iter().map(|(_, p)| p).sum();
                assert!((total - 1.0).abs() < 1e-9, "{total}");
            }
        }
    }
}
