"""A small policy-gradient training loop on the vectorized environment (numpy only).

One linear softmax policy learns 2-player Cherki by playing N games at once against a uniform random
opponent, taking seat 0 in half the games and seat 1 in the other half. Illegal actions are masked out of
the softmax; when a game ends, each of the policy's decisions in it is reinforced by its return minus the
running mean return (REINFORCE with a baseline; returns are in [0, 1]). Prints the running mean return and,
at the end, the greedy policy's score against a uniform random player over fresh games.

    pip install '.[rl]' && python examples/rl_selfplay.py --steps 3000
"""

from __future__ import annotations

import argparse
from dataclasses import dataclass, field

import numpy as np
import numpy.typing as npt

from cardnet.rl import VectorEnv

Floats = npt.NDArray[np.float64]


@dataclass
class Trajectory:
    """The policy's decisions in one running game: (observation, mask, action)."""

    steps: list[tuple[Floats, npt.NDArray[np.bool_], int]] = field(default_factory=list)


def policy(weights: Floats, obs: Floats, mask: npt.NDArray[np.bool_]) -> Floats:
    """Masked softmax over the action ids, one row per game."""
    logits = obs @ weights
    logits = np.where(mask, logits, -np.inf)
    logits -= logits.max(axis=-1, keepdims=True)
    probs: Floats = np.exp(logits)
    normalized: Floats = probs / probs.sum(axis=-1, keepdims=True)
    return normalized


def train(game: str, steps: int, envs: int, lr: float, seed: int) -> Floats:
    """Runs `steps` vectorized steps against a random opponent and returns the trained weights."""
    env = VectorEnv(game, envs, players=2, seed=seed)
    rng = np.random.default_rng(seed)
    weights: Floats = np.zeros((env.observation_len, env.action_space_size))
    learner_seat = np.arange(envs) % 2
    baseline = 0.5
    recent: list[float] = []
    trajectories = [Trajectory() for _ in range(envs)]
    state = env.observe()
    for step in range(steps):
        obs = state.observations.astype(np.float64)
        assert state.masks is not None  # the default legal="mask"
        mask = state.masks.copy()
        probs = policy(weights, obs, mask)
        sampled = np.array([rng.choice(len(p), p=p) for p in probs])
        learner_acts = state.seats == learner_seat
        actions = np.where(learner_acts, sampled, env.random_actions(rng))
        for i in np.flatnonzero(learner_acts):
            trajectories[i].steps.append((obs[i], mask[i], int(actions[i])))
        state = env.step(actions)
        for i in np.flatnonzero(state.dones):
            ret = float(state.rewards[i][learner_seat[i]])
            for o, m, a in trajectories[i].steps:
                p = policy(weights, o[None, :], m[None, :])[0]
                grad = -p
                grad[a] += 1.0
                weights += lr * (ret - baseline) * np.outer(o, grad)
            baseline += 0.02 * (ret - baseline)
            recent.append(ret)
            trajectories[i] = Trajectory()
        if (step + 1) % max(1, steps // 5) == 0 and recent:
            print(f"step {step + 1}: {env.episodes_finished} games, mean return vs random {np.mean(recent[-200:]):.3f}")
    return weights


def against_random(game: str, weights: Floats, games: int, seed: int) -> float:
    """Mean return of the greedy policy against a uniform random player over `games` fresh games, the
    policy taking seat 0 in half of them and seat 1 in the other half."""
    env = VectorEnv(game, games, players=2, seed=seed + 1)
    rng = np.random.default_rng(seed + 1)
    learner_seat = np.arange(games) % 2
    scores: dict[int, float] = {}
    state = env.observe()
    while len(scores) < games:
        assert state.masks is not None
        greedy = policy(weights, state.observations.astype(np.float64), state.masks).argmax(axis=1)
        actions = np.where(state.seats == learner_seat, greedy, env.random_actions(rng))
        state = env.step(actions)
        for i in np.flatnonzero(state.dones):
            # Each slot's first game only: a slot restarts at once, and short games must not count twice.
            scores.setdefault(int(i), float(state.rewards[i][learner_seat[i]]))
    return float(np.mean(list(scores.values())))


def main() -> None:
    """Parses the arguments, trains, evaluates."""
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--game", default="cherki", help="any game that takes 2 players")
    parser.add_argument("--steps", type=int, default=3000)
    parser.add_argument("--envs", type=int, default=32)
    parser.add_argument("--lr", type=float, default=0.01)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--eval-games", type=int, default=200)
    args = parser.parse_args()
    weights = train(args.game, args.steps, args.envs, args.lr, args.seed)
    score = against_random(args.game, weights, args.eval_games, args.seed)
    print(f"trained policy vs random over {args.eval_games} games: mean return {score:.3f}")


if __name__ == "__main__":
    main()
