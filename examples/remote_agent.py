r"""An agent of your own on a closingbell server, playing a bot account's games.

A small policy trained on the Gymnasium environment's observations, played through
``closingbell connect``.

The agent is the function :func:`choose`: it gets the seat's view (the documented view of
the game, exactly what the seat may see, as ``closingbell.envs`` and every bot get it) and
answers one of ``view.legal_actions``. It turns the view into the Gymnasium environment's
observation vector and action mask (``closingbell.envs.encoding``) and takes the legal
action its linear policy scores highest.

The policy is learned here by imitation: it watches closingbell's rule-based bot play
(``heuristic``, every seat) and fits a softmax over the legal actions to its choices, with
numpy alone. Needs the ``rl`` extra (numpy and the encoders). Two steps::

    # learn a policy for two-player Card Stock Market (about a minute on one core)
    python examples/remote_agent.py --game card_stock_market --players 2 --out policy.npz

    # play a bot account's games with it (the token is made on the server's account page)
    CLOSINGBELL_POLICY=policy.npz CLOSINGBELL_TOKEN=... \\
        closingbell connect --server http://localhost:8000 \\
        --agent examples/remote_agent.py:choose --accept invitations,open
"""

from __future__ import annotations

import argparse
import json
import os
import random
from functools import cache
from typing import Any

import numpy as np

import closingbell
from closingbell.core.game import Game
from closingbell.core.view import View
from closingbell.envs.encoding import Encoder, encoder_for

POLICY_VARIABLE = "CLOSINGBELL_POLICY"
"""The environment variable that names the policy file :func:`choose` plays."""


class Policy:
    """A linear policy: a score per action, ``observation @ weights + bias``, within the mask."""

    def __init__(self, game: Game, weights: np.ndarray, bias: np.ndarray) -> None:
        self.game = game
        self.encoder: Encoder = encoder_for(game)
        self.weights = weights
        self.bias = bias

    def choose(self, view: View) -> int:
        """The legal action the policy scores highest."""
        if view.game != self.game.info.name or getattr(view, "players", None) != self.game.players:
            raise ValueError(
                f"this policy plays {self.game.info.name} at {self.game.players} players, "
                f"not {view.game} at {getattr(view, 'players', '?')}"
            )
        scores = self.encoder.encode(view) @ self.weights + self.bias
        legal = np.flatnonzero(self.encoder.action_mask(view))
        return int(legal[np.argmax(scores[legal])])

    def save(self, path: str) -> None:
        """Keep the policy in ``path`` (numpy's .npz), with the game and its options."""
        np.savez(
            path,
            weights=self.weights,
            bias=self.bias,
            game=self.game.info.name,
            options=json.dumps(self.game.options_dict()),
        )

    @classmethod
    def load(cls, path: str) -> Policy:
        """The policy kept in ``path`` by :meth:`save`."""
        with np.load(path) as data:
            game = closingbell.load_game(str(data["game"]), **json.loads(str(data["options"])))
            return cls(game, data["weights"], data["bias"])


@cache
def _policy() -> Policy:
    path = os.environ.get(POLICY_VARIABLE)
    if not path:
        raise ValueError(f"set {POLICY_VARIABLE} to a policy file made by this script")
    return Policy.load(path)


def choose(view: View) -> int:
    """The agent ``closingbell connect --agent examples/remote_agent.py:choose`` runs."""
    return _policy().choose(view)


def examples(game: Game, games: int, seed: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Observations, masks and the rule-based bot's choices, from ``games`` self-play games."""
    encoder = encoder_for(game)
    observations, masks, chosen = [], [], []
    for g in range(games):
        state = game.new_game(seed + g)
        bots = [
            closingbell.make_bot("heuristic", game, seed + g * 10 + p) for p in range(game.players)
        ]
        while not state.is_terminal():
            seat = state.current_player
            assert seat is not None
            view = state.view(seat)
            action = bots[seat].choose(view)
            observations.append(encoder.encode(view))
            masks.append(encoder.action_mask(view).astype(bool))
            chosen.append(action)
            state.apply(action)
    return np.array(observations), np.array(masks), np.array(chosen)


def fit(
    game: Game, observations: np.ndarray, masks: np.ndarray, chosen: np.ndarray, epochs: int
) -> Policy:
    """A softmax over the legal actions fitted to ``chosen`` by full-batch gradient descent."""
    rng = np.random.default_rng(0)
    size, actions = observations.shape[1], masks.shape[1]
    weights = rng.normal(0, 0.01, (size, actions)).astype(np.float32)
    bias = np.zeros(actions, dtype=np.float32)
    rows = np.arange(len(chosen))
    rate = 0.5
    for _ in range(epochs):
        scores = observations @ weights + bias
        scores = np.where(masks, scores, -1e9)
        scores -= scores.max(axis=1, keepdims=True)
        p = np.exp(scores) * masks
        p /= p.sum(axis=1, keepdims=True)
        p[rows, chosen] -= 1.0  # the gradient of the cross-entropy over the scores
        weights -= rate * (observations.T @ p) / len(rows)
        bias -= rate * p.mean(axis=0)
    return Policy(game, weights, bias)


def agreement(policy: Policy, game: Game, games: int, seed: int) -> tuple[float, float]:
    """How often the policy picks what the rule-based bot picks, on fresh games.

    Also how often a uniformly random legal action would.
    """
    observations, masks, chosen = examples(game, games, seed)
    scores = np.where(masks, observations @ policy.weights + policy.bias, -np.inf)
    chance = float(np.mean(1.0 / masks.sum(axis=1)))
    return float(np.mean(scores.argmax(axis=1) == chosen)), chance


def main() -> None:
    """Learn a policy and save it; print how often it agrees with its teacher on new games."""
    parser = argparse.ArgumentParser(description="Learn a policy for closingbell connect.")
    parser.add_argument("--game", default="card_stock_market")
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--games", type=int, default=60, help="self-play games to learn from")
    parser.add_argument("--epochs", type=int, default=150)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--out", default="policy.npz")
    args = parser.parse_args()
    game = closingbell.load_game(args.game, players=args.players)
    random.seed(args.seed)
    policy = fit(game, *examples(game, args.games, args.seed), args.epochs)
    policy.save(args.out)
    agrees, chance = agreement(policy, game, 10, args.seed + 10_000)
    held_out: dict[str, Any] = {
        "policy": args.out,
        "game": args.game,
        "players": args.players,
        "agrees_with_teacher": round(agrees, 3),
        "a_random_legal_action_agrees": round(chance, 3),
    }
    print(json.dumps(held_out))


if __name__ == "__main__":
    main()
