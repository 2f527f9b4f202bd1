"""A small self-play training loop on the vectorized environment (numpy only).

One linear softmax policy plays every seat of N games of A Fistful of Gold at once. Illegal actions are
masked out of the softmax; when a game ends, each decision of it is reinforced by its seat's return
(REINFORCE with a 0.5 baseline, returns being in [0, 1]). Prints the running mean return of the games that
finished and, at the end, the policy's score against a uniform random player.

    pip install '.[rl]' && python examples/rl_selfplay.py --steps 2000
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
    """The decisions of one running game: (seat, observation, mask, action)."""

    steps: list[tuple[int, Floats, npt.NDArray[np.bool_], int]] = field(default_factory=list)


def policy(weights: Floats, obs: Floats, mask: npt.NDArray[np.bool_]) -> Floats:
    """Masked softmax over the action ids, one row per game."""
    logits = obs @ weights
    logits = np.where(mask, logits, -np.inf)
    logits -= logits.max(axis=-1, keepdims=True)
    probs: Floats = np.exp(logits)
    return probs / probs.sum(axis=-1, keepdims=True)


def train(game: str, steps: int, envs: int, lr: float, seed: int) -> Floats:
    """Runs `steps` vectorized steps and returns the trained weights."""
    env = VectorEnv(game, envs, seed=seed)
    rng = np.random.default_rng(seed)
    weights: Floats = np.zeros((env.observation_len, env.action_space_size))
    running: list[float] = []
    trajectories = [Trajectory() for _ in range(envs)]
    state = env.observe()
    for step in range(steps):
        obs = state.observations.astype(np.float64)
        assert state.masks is not None  # the default legal="mask"
        mask = state.masks.copy()
        probs = policy(weights, obs, mask)
        actions = np.array([rng.choice(len(p), p=p) for p in probs])
        for i in range(envs):
            trajectories[i].steps.append((int(state.seats[i]), obs[i], mask[i], int(actions[i])))
        state = env.step(actions)
        for i in np.flatnonzero(state.dones):
            returns = state.rewards[i]
            running.extend(float(r) for r in returns)
            for seat, o, m, a in trajectories[i].steps:
                p = policy(weights, o[None, :], m[None, :])[0]
                grad = -p
                grad[a] += 1.0
                weights += lr * (float(returns[seat]) - 0.5) * np.outer(o, grad)
            trajectories[i] = Trajectory()
        if (step + 1) % max(1, steps // 5) == 0 and running:
            print(f"step {step + 1}: {env.episodes_finished} games, mean return {np.mean(running[-200:]):.3f}")
    return weights


def against_random(game: str, weights: Floats, games: int, seed: int) -> float:
    """Mean return of seat 0 playing the policy greedily against a uniform random seat 1."""
    env = VectorEnv(game, games, seed=seed + 1)
    rng = np.random.default_rng(seed + 1)
    scores: list[float] = []
    state = env.observe()
    while len(scores) < games:
        assert state.masks is not None
        greedy = policy(weights, state.observations.astype(np.float64), state.masks).argmax(axis=1)
        actions = np.where(state.seats == 0, greedy, env.random_actions(rng))
        state = env.step(actions)
        scores.extend(float(r) for r in state.rewards[state.dones, 0])
    return float(np.mean(scores))


def main() -> None:
    """Parses the arguments, trains, evaluates."""
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--game", default="fistful")
    parser.add_argument("--steps", type=int, default=2000)
    parser.add_argument("--envs", type=int, default=32)
    parser.add_argument("--lr", type=float, default=0.01)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    weights = train(args.game, args.steps, args.envs, args.lr, args.seed)
    print(f"trained policy vs random: mean return {against_random(args.game, weights, 64, args.seed):.3f}")


if __name__ == "__main__":
    main()
