"""Train a small MaskablePPO agent on a closingbell game and compare it with an untrained one.

Needs the ``rl-train`` extra (``pip install -e '.[rl-train]'``: stable-baselines3,
sb3-contrib and a CPU build of torch). For example::

    python examples/train_maskable_ppo.py --game card_stock_market --players 2 --minutes 5

The learner plays one seat of the Gymnasium environment (its seat drawn at each game)
against ``--opponent`` bots. Before and after training it plays ``--eval-games`` games
against the same bots, choosing among legal actions only (the action mask), and the script
prints both win rates (a shared win counts as the share) with 95% intervals, as JSON.
"""

from __future__ import annotations

import argparse
import json
import math
import time
from typing import Any

import torch
from sb3_contrib import MaskablePPO
from stable_baselines3.common.callbacks import BaseCallback

from closingbell.envs.gymnasium import ClosingbellEnv


class TimeLimit(BaseCallback):
    """Stops training after a wall-clock budget."""

    def __init__(self, seconds: float) -> None:
        super().__init__()
        self.deadline = time.monotonic() + seconds

    def _on_step(self) -> bool:
        return time.monotonic() < self.deadline


def make_env(args: argparse.Namespace) -> ClosingbellEnv:
    """The learner's environment: a random seat among ``--opponent`` bots."""
    return ClosingbellEnv(
        args.game, players=args.players, opponents=args.opponent, seat=None, reward="win"
    )


def evaluate(model: MaskablePPO, args: argparse.Namespace, seed: int) -> dict[str, Any]:
    """Win rate of ``model`` (sampling its policy within the mask) over the evaluation games."""
    env = make_env(args)
    total = 0.0
    for game in range(args.eval_games):
        obs, info = env.reset(seed=seed + game)
        done = False
        reward = 0.0
        while not done:
            action, _ = model.predict(
                obs, action_masks=info["action_mask"].astype(bool), deterministic=False
            )
            obs, r, terminated, truncated, info = env.step(int(action))
            reward = float(r)
            done = terminated or truncated
        total += reward
    rate = total / args.eval_games
    half = 1.96 * math.sqrt(max(rate * (1 - rate), 1e-9) / args.eval_games)
    return {"win_rate": round(rate, 3), "ci95": [round(rate - half, 3), round(rate + half, 3)]}


def main() -> None:
    """Parse the arguments, evaluate, train, evaluate again and print the figures."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", default="card_stock_market")
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--opponent", default="random")
    parser.add_argument("--minutes", type=float, default=5.0)
    parser.add_argument("--eval-games", type=int, default=400)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--threads", type=int, default=1)
    args = parser.parse_args()
    torch.set_num_threads(args.threads)
    env = make_env(args)
    model = MaskablePPO(
        "MlpPolicy",
        env,
        learning_rate=3e-4,
        n_steps=2048,
        batch_size=256,
        n_epochs=4,
        gamma=1.0,
        ent_coef=0.01,
        policy_kwargs={"net_arch": [128, 128]},
        seed=args.seed,
        verbose=0,
    )
    eval_seed = 10_000_000
    before = evaluate(model, args, eval_seed)
    start = time.monotonic()
    model.learn(total_timesteps=10**9, callback=TimeLimit(args.minutes * 60))
    trained_for = time.monotonic() - start
    after = evaluate(model, args, eval_seed)
    n = args.players
    report = {
        "game": args.game,
        "players": n,
        "opponent": args.opponent,
        "minutes": round(trained_for / 60, 2),
        "timesteps": model.num_timesteps,
        "eval_games": args.eval_games,
        "fair_share": round(1 / n, 3),
        "untrained": before,
        "trained": after,
    }
    print(json.dumps(report, indent=2))


if __name__ == "__main__":
    main()
