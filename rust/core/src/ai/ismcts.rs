//! Single-observer information-set MCTS (Cowling, Powley & Whitehouse 2012).
//!
//! Every iteration samples a full state consistent with what the searching seat knows
//! ([`Game::determinize`]), walks a tree shared by all samples whose edges are moves (compared by value,
//! since the same move can sit at different indices in different samples), expands one untried move, plays
//! the rest with the game's heuristic player (random rollouts give almost no signal in Cherki, where
//! random play draws nine deals in ten) and backs up the rewards (the win alone where the game has scores;
//! see `play_out` in the sibling `playout` module). Selection uses UCB1 with availability counts: a child's
//! exploration term counts only the iterations in which its move was legal. Simultaneous moves are searched
//! in seat order; the root sample already hides the opponent's pending pick, so the root choice stays fair.
//! The game's default move ([`Game::search_default_index`], the heuristic's unless the game says
//! otherwise) seeds the root, and the search departs from it only for a move whose mean reward is clearly
//! better, so a small budget never plays worse than the rule of thumb by sampling noise.

use super::budget::Meter;
use super::playout::play_out;
use crate::game::{Game, Seat};
use crate::rng::Rng;

/// Exploration constant of UCB1 for rewards in 0..=1.
const EXPLORATION: f64 = 0.7;
/// How many random indices to try when looking for an untried move among very many legal moves.
const UNTRIED_PROBES: usize = 16;
/// Above this many legal moves untried moves are sampled instead of enumerated.
const ENUMERATE_LIMIT: usize = 64;

struct Node<M> {
    actor: Seat,
    mv: Option<M>,
    visits: u32,
    available: u32,
    reward: f64,
    children: Vec<usize>,
}

/// Iterations between two checks of whether the most visited move can still be overtaken.
const CHECK_EVERY: u32 = 64;

/// Runs iterations for `seat` within `meter` and returns the index of the chosen move in `game`. The
/// search stops early once the most visited root move leads the next by more visits than the budget has
/// left, since the rest could not change the choice.
pub(crate) fn search<G: Game>(game: &G, seat: Seat, meter: &mut Meter, rng: &mut Rng) -> usize {
    let root_count = game.legal_count(seat);
    if root_count <= 1 {
        return 0;
    }
    let players = game.setup().players;
    let heuristic = game.search_default_index(seat, rng);
    let Some(heuristic_move) = game.legal_move(seat, heuristic) else { return 0 };
    // The heuristic's move is the root's first child, so it is always among the candidates compared.
    let mut nodes: Vec<Node<G::Move>> = vec![
        Node { actor: seat, mv: None, visits: 0, available: 0, reward: 0.0, children: vec![1] },
        Node {
            actor: seat,
            mv: Some(heuristic_move.clone()),
            visits: 0,
            available: 0,
            reward: 0.0,
            children: Vec::new(),
        },
    ];
    let mut path: Vec<usize> = Vec::new();
    let mut compatible: Vec<usize> = Vec::new();
    while meter.spend(1) {
        if meter.done().is_multiple_of(CHECK_EVERY) && decided(&nodes, meter.remaining()) {
            break;
        }
        let mut state = game.determinize(Some(seat), rng);
        path.clear();
        let mut node = 0usize;
        while let Some(actor) = acting_seat(&state, node == 0, seat) {
            let count = state.legal_count(actor);
            compatible.clear();
            for &child in &nodes[node].children {
                let c = &nodes[child];
                if c.actor == actor && c.mv.as_ref().is_some_and(|m| state.index_of(actor, m).is_some()) {
                    compatible.push(child);
                }
            }
            for &child in &compatible {
                nodes[child].available += 1;
            }
            if compatible.len() < count {
                if let Some(mv) = untried_move(&state, actor, count, &nodes, &compatible, rng) {
                    state.apply_legal(actor, &mv);
                    let id = nodes.len();
                    nodes.push(Node {
                        actor,
                        mv: Some(mv),
                        visits: 0,
                        available: 1,
                        reward: 0.0,
                        children: Vec::new(),
                    });
                    nodes[node].children.push(id);
                    path.push(id);
                    break;
                }
            }
            let Some(best) = select(&nodes, &compatible) else { break };
            let Some(mv) = nodes[best].mv.clone() else { break };
            state.apply_legal(actor, &mv);
            path.push(best);
            node = best;
        }
        let rewards = play_out(&mut state, players, rng);
        for &id in &path {
            let n = &mut nodes[id];
            n.visits += 1;
            n.reward += rewards[n.actor];
        }
    }
    let best = nodes[0]
        .children
        .iter()
        .copied()
        .max_by(|&a, &b| nodes[a].visits.cmp(&nodes[b].visits).then(nodes[a].reward.total_cmp(&nodes[b].reward)));
    let searched = best.and_then(|id| nodes[id].mv.as_ref().map(|mv| (id, mv)));
    let Some((best, mv)) = searched else { return heuristic };
    // The search must earn its departure from the heuristic's move: a small budget in a noisy game
    // otherwise trades a sound rule of thumb for sampling noise.
    let default = nodes[0].children.iter().copied().find(|&c| nodes[c].mv.as_ref() == Some(&heuristic_move));
    match default {
        Some(d) if d != best && !clearly_better(&nodes[best], &nodes[d]) => heuristic,
        _ => game.index_of(seat, mv).unwrap_or(heuristic),
    }
}

/// Whether the root's most visited child leads every other by more than `remaining` visits.
fn decided<M>(nodes: &[Node<M>], remaining: u32) -> bool {
    let mut visits: Vec<u32> = nodes[0].children.iter().map(|&c| nodes[c].visits).collect();
    visits.sort_unstable_by(|a, b| b.cmp(a));
    match visits.as_slice() {
        [first, second, ..] => first - second > remaining,
        _ => false,
    }
}

/// Whether `a`'s mean reward beats `b`'s by more than sampling noise: two standard errors of the
/// difference, with rewards in 0..=1 bounding each standard deviation by 0.5. Picking the best of many
/// noisy means otherwise favours whichever move was luckiest (TEN's auctions offer a dozen bids).
fn clearly_better<M>(a: &Node<M>, b: &Node<M>) -> bool {
    if a.visits == 0 || b.visits == 0 {
        return false;
    }
    let noise = 2.0 * 0.5 * (1.0 / a.visits as f64 + 1.0 / b.visits as f64).sqrt();
    mean(a) > mean(b) + noise
}

fn mean<M>(n: &Node<M>) -> f64 {
    if n.visits == 0 {
        0.0
    } else {
        n.reward / n.visits as f64
    }
}

/// The seat whose decision the tree models next: at the root the searching seat (it may share the turn
/// with an opponent's simultaneous pick), elsewhere the lowest seat to act.
fn acting_seat<G: Game>(state: &G, at_root: bool, seat: Seat) -> Option<Seat> {
    let to_act = state.to_act();
    if at_root && to_act.contains(seat) {
        Some(seat)
    } else {
        to_act.first()
    }
}

fn untried_move<G: Game>(
    state: &G,
    actor: Seat,
    count: usize,
    nodes: &[Node<G::Move>],
    compatible: &[usize],
    rng: &mut Rng,
) -> Option<G::Move> {
    let is_new = |mv: &G::Move| !compatible.iter().any(|&c| nodes[c].mv.as_ref() == Some(mv));
    if count <= ENUMERATE_LIMIT {
        let start = rng.index(count);
        (0..count).map(|k| (start + k) % count).filter_map(|i| state.legal_move(actor, i)).find(is_new)
    } else {
        (0..UNTRIED_PROBES).filter_map(|_| state.legal_move(actor, rng.index(count))).find(is_new)
    }
}

fn select<M>(nodes: &[Node<M>], compatible: &[usize]) -> Option<usize> {
    compatible.iter().copied().max_by(|&a, &b| ucb(&nodes[a]).total_cmp(&ucb(&nodes[b])))
}

fn ucb<M>(n: &Node<M>) -> f64 {
    if n.visits == 0 {
        return f64::INFINITY;
    }
    let visits = n.visits as f64;
    n.reward / visits + EXPLORATION * ((n.available.max(1) as f64).ln() / visits).sqrt()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ai::Budget;
    use crate::games::matchstick::Matchstick;
    use crate::Setup;

    fn root_with_visits(visits: &[u32]) -> Vec<Node<u8>> {
        let mut nodes = vec![Node { actor: 0, mv: None, visits: 0, available: 0, reward: 0.0, children: Vec::new() }];
        for (i, &v) in visits.iter().enumerate() {
            nodes.push(Node {
                actor: 0,
                mv: Some(i as u8),
                visits: v,
                available: v,
                reward: 0.0,
                children: Vec::new(),
            });
            nodes[0].children.push(i + 1);
        }
        nodes
    }

    #[test]
    fn a_lead_the_rest_of_the_budget_cannot_close_decides() {
        assert!(decided(&root_with_visits(&[500, 90, 10]), 400));
        assert!(!decided(&root_with_visits(&[500, 90, 10]), 410));
        assert!(!decided(&root_with_visits(&[500]), 0), "one move is no comparison");
    }

    #[test]
    fn the_same_seed_and_count_give_the_same_move_and_the_count_is_not_exceeded() {
        let Ok(game) = Matchstick::new(&Setup { players: 4, seed: 6, options: serde_json::Map::new() }) else {
            panic!("no game")
        };
        let Some(seat) = game.to_act().first() else { panic!("over") };
        let mut meter = Meter::new(Budget::Iterations(300));
        let first = search(&game, seat, &mut meter, &mut Rng::new(2));
        assert!(meter.done() <= 300);
        assert_eq!(first, search(&game, seat, &mut Meter::new(Budget::Iterations(300)), &mut Rng::new(2)));
    }
}
