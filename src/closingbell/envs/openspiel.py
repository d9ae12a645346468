"""closingbell's games as OpenSpiel Python games.

Importing this module registers ``closingbell_take_stock`` and
``closingbell_card_stock_market`` with ``pyspiel``:

>>> import pyspiel
>>> import closingbell.envs.openspiel
>>> game = pyspiel.load_game("closingbell_take_stock", {"players": 3})
>>> state = game.new_initial_state()
>>> state.is_chance_node()
True

Parameters: ``players`` (2 to 6), ``options`` (the game's other rules options as a JSON
object, ``"{}"`` by default) and ``max_game_length`` (see below).

Chance model
    The rules engine draws every shuffle of a game from its seed, so the only chance
    event is the deal: the initial state is a chance node with :data:`NUM_DEALS` equally
    likely outcomes, and outcome ``k`` deals the game of seed ``k`` (the whole game, later
    reshuffles included). No player observes it. After it the game is deterministic given
    the players' actions, so OpenSpiel's history-based serialization replays a state
    exactly.

Information
    A player's information-state and observation strings and tensors come from that
    player's view alone: the string is the view as JSON, the tensor its encoding
    (``docs/observations.md``). The view holds what the rules let a seat know and
    remember (its hand, everything face up, counts of everything face down, what the
    table knows of hidden cards); it does not keep the order of past actions, so for
    algorithms that assume perfect recall it is an abstraction of the information state.
    ``resample_from_infostate`` deals a full state consistent with the view through
    ``Game.sample_state``; the resampled state has the same views but no action history.

Returns
-------
    1 to a sole winner, ``1 / k`` to each of ``k`` seats sharing first place, 0 otherwise
    (a constant-sum game). A game reaching ``max_game_length`` actions (a game in which
    every seat keeps passing could go on for ever) ends there as a draw, ``1 / n`` each.

"""

from __future__ import annotations

import json
import random
from typing import Any

import numpy as np
import pyspiel  # type: ignore[import-not-found]

from closingbell.bots import make_bot
from closingbell.core.game import Game, State
from closingbell.core.registry import default_players, game_class, load_game
from closingbell.envs.encoding import Encoder, encoder_for
from closingbell.envs.rewards import final_rewards

NUM_DEALS = 1 << 16
"""Outcomes of the deal chance node: outcome ``k`` is the game of seed ``k``."""
_DEAL_OUTCOMES = [(k, 1.0 / NUM_DEALS) for k in range(NUM_DEALS)]

GAMES: dict[str, dict[str, Any]] = {
    "take_stock": {
        "short_name": "closingbell_take_stock",
        "players": default_players("take_stock"),
        "max_length": 3000,
    },
    "card_stock_market": {
        "short_name": "closingbell_card_stock_market",
        "players": default_players("card_stock_market"),
        "max_length": 3000,
    },
}
"""For each closingbell game: its OpenSpiel name, default seats and default length cap."""


def _game_type(name: str) -> pyspiel.GameType:
    spec = GAMES[name]
    title = game_class(name).info.title
    return pyspiel.GameType(
        short_name=spec["short_name"],
        long_name=f"closingbell {title}",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
        information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
        utility=pyspiel.GameType.Utility.CONSTANT_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=6,
        min_num_players=2,
        provides_information_state_string=True,
        provides_information_state_tensor=True,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification={
            "players": spec["players"],
            "options": "{}",
            "max_game_length": spec["max_length"],
        },
    )


class ClosingbellSpielGame(pyspiel.Game):  # type: ignore[misc]
    """A closingbell game as an OpenSpiel game (one subclass per closingbell game)."""

    NAME = ""
    """The closingbell game's registered name."""
    GAME_TYPE: pyspiel.GameType

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        spec = GAMES[self.NAME]
        params = dict(params or {})
        players = int(params.get("players", spec["players"]))
        options_text = str(params.get("options", "{}"))
        options = json.loads(options_text)
        if not isinstance(options, dict) or "players" in options:
            raise ValueError("options must be a JSON object of rules options other than players")
        self.max_length = int(params.get("max_game_length", spec["max_length"]))
        """Actions after which a game ends as a draw."""
        self.cb_game: Game = load_game(self.NAME, players=players, **options)
        """The closingbell game."""
        self.rules = _Rules(self.cb_game, self.max_length)
        """What the game's states share."""
        self.encoder: Encoder = encoder_for(self.cb_game)
        """The observation encoder."""
        info = pyspiel.GameInfo(
            num_distinct_actions=self.cb_game.info.num_distinct_actions,
            max_chance_outcomes=NUM_DEALS,
            num_players=players,
            min_utility=0.0,
            max_utility=1.0,
            utility_sum=1.0,
            max_game_length=self.max_length,
        )
        super().__init__(
            self.GAME_TYPE,
            info,
            {"players": players, "options": options_text, "max_game_length": self.max_length},
        )

    def new_initial_state(self) -> ClosingbellSpielState:
        """The deal's chance node."""
        return ClosingbellSpielState(self)

    def make_py_observer(
        self, iig_obs_type: Any = None, params: dict[str, Any] | None = None
    ) -> ClosingbellObserver:
        """An observer of one seat's view (information state and observation alike)."""
        return ClosingbellObserver(self, iig_obs_type, params)


class _Rules:
    """What every state of one OpenSpiel game shares; deep copies keep the same one.

    OpenSpiel clones a Python state by deep-copying its attributes, which would copy the
    game object into one without its Python attributes; the states hold this instead.
    """

    __slots__ = ("cb_game", "max_length")

    def __init__(self, cb_game: Game, max_length: int) -> None:
        self.cb_game = cb_game
        self.max_length = max_length

    def __deepcopy__(self, memo: dict[int, Any]) -> _Rules:
        return self


class _Held:
    """A closingbell state whose deep copy is the engine's cheap :meth:`State.clone`."""

    __slots__ = ("state",)

    def __init__(self, state: State | None) -> None:
        self.state = state

    def __deepcopy__(self, memo: dict[int, Any]) -> _Held:
        return _Held(None if self.state is None else self.state.clone())


class ClosingbellSpielState(pyspiel.State):  # type: ignore[misc]
    """An OpenSpiel state wrapping a closingbell state (``None`` before the deal)."""

    def __init__(self, game: ClosingbellSpielGame, rules: _Rules | None = None) -> None:
        super().__init__(game)
        self._rules = rules if rules is not None else game.rules
        self._held = _Held(None)
        self.steps = 0
        """Player actions applied so far."""

    @property
    def cb_state(self) -> State | None:
        """The closingbell state, once dealt."""
        return self._held.state

    def current_player(self) -> int:
        """The seat to act, ``CHANCE`` before the deal, ``TERMINAL`` at the end."""
        st = self._held.state
        if st is None:
            return int(pyspiel.PlayerId.CHANCE)
        if st.cur is None or self.steps >= self._rules.max_length:
            return int(pyspiel.PlayerId.TERMINAL)
        return st.cur

    def _legal_actions(self, player: int) -> list[int]:
        """The sorted legal actions of ``player`` (who must be the one to act)."""
        st = self._held.state
        assert st is not None
        return st.legal_actions()

    def chance_outcomes(self) -> list[tuple[int, float]]:
        """The deal: :data:`NUM_DEALS` equally likely seeds."""
        assert self._held.state is None
        return _DEAL_OUTCOMES

    def _apply_action(self, action: int) -> None:
        """Deal the game of seed ``action``, or apply a player's action."""
        st = self._held.state
        if st is None:
            self._held.state = self._rules.cb_game.new_game(int(action))
        else:
            st.apply(int(action))
            self.steps += 1

    def _action_to_string(self, player: int, action: int) -> str:
        """The text form of an action (``deal k`` for the chance outcome)."""
        if player == pyspiel.PlayerId.CHANCE:
            return f"deal {action}"
        return self._rules.cb_game.action_to_string(int(action))

    def is_terminal(self) -> bool:
        """Whether the game is over or has reached the length cap."""
        st = self._held.state
        return st is not None and (st.cur is None or self.steps >= self._rules.max_length)

    def returns(self) -> list[float]:
        """Win shares once the game is over (a draw at the length cap), zeros before."""
        st = self._held.state
        n = self._rules.cb_game.players
        if st is None or not self.is_terminal():
            return [0.0] * n
        if not st.is_terminal():
            return [1.0 / n] * n
        return final_rewards(st, "win")

    def resample_from_infostate(
        self, player_id: int, probability_sampler: Any
    ) -> ClosingbellSpielState:
        """A state dealt at random among those that give ``player_id`` the same view."""
        st = self._held.state
        assert st is not None, "nothing to resample before the deal"
        seed = int(probability_sampler() * 2**53)
        out = ClosingbellSpielState(self.get_game(), self._rules)
        sampled = self._rules.cb_game.sample_state(st.view(player_id), random.Random(seed))
        out._held.state = sampled
        out.steps = self.steps
        return out

    def __str__(self) -> str:
        """Every field of the state but its history and log (it shows every hidden card)."""
        st = self._held.state
        if st is None:
            return "deal pending"
        skip = ("history", "log")
        return "\n".join(f"{k}={getattr(st, k)!r}" for k in st.SHAPES if k not in skip)


class ClosingbellObserver:
    """OpenSpiel's PyObserver over one seat's view: its encoding and its JSON."""

    def __init__(self, game: ClosingbellSpielGame, iig_obs_type: Any, params: Any) -> None:
        if params:
            raise ValueError(f"observation parameters are not supported: {params}")
        if iig_obs_type is not None and (
            iig_obs_type.private_info != pyspiel.PrivateInfoType.SINGLE_PLAYER
            or not iig_obs_type.public_info
        ):
            raise ValueError(
                "closingbell observes one seat's own view (its private and public info)"
            )
        self.encoder = game.encoder
        """The observation encoder."""
        self.tensor = np.zeros(self.encoder.size, np.float32)
        """The encoding of the last view set."""
        self.dict = {f.name: self.tensor[f.slice] for f in self.encoder.fields}
        """The tensor's fields by name (views into it)."""

    def set_from(self, state: ClosingbellSpielState, player: int) -> None:
        """Encode ``player``'s view of ``state`` (zeros before the deal)."""
        if state.cb_state is None:
            self.tensor.fill(0.0)
        else:
            self.tensor[:] = self.encoder.encode(state.cb_state.view(player))

    def string_from(self, state: ClosingbellSpielState, player: int) -> str:
        """``player``'s view of ``state`` as JSON (``{}`` before the deal)."""
        if state.cb_state is None:
            return "{}"
        data = state.cb_state.view(player).to_dict()
        return json.dumps(data, sort_keys=True, separators=(",", ":"))


class ClosingbellBot(pyspiel.Bot):  # type: ignore[misc]
    """A closingbell bot playing one seat of an OpenSpiel closingbell game, from its view."""

    def __init__(self, name: str, game: ClosingbellSpielGame, player: int, seed: int = 0) -> None:
        pyspiel.Bot.__init__(self)
        self.bot = make_bot(name, game.cb_game, seed=seed)
        """The closingbell bot."""
        self.player = player
        """The seat it plays."""

    def step(self, state: ClosingbellSpielState) -> int:
        """The bot's action for its seat in ``state``."""
        assert state.cb_state is not None
        return self.bot.choose(state.cb_state.view(self.player))

    def restart_at(self, state: ClosingbellSpielState) -> None:
        """Nothing to reset: the bot reads the view afresh each time."""

    def inform_action(self, state: ClosingbellSpielState, player_id: int, action: int) -> None:
        """Nothing to remember: the view carries it."""


def _make_class(name: str) -> type[ClosingbellSpielGame]:
    return type(
        f"Closingbell{game_class(name).info.title.replace(' ', '')}SpielGame",
        (ClosingbellSpielGame,),
        {"NAME": name, "GAME_TYPE": _game_type(name), "__doc__": f"{name} as an OpenSpiel game."},
    )


SPIEL_GAMES: dict[str, type[ClosingbellSpielGame]] = {}
"""The OpenSpiel game class of each closingbell game, by OpenSpiel name."""

for _name, _spec in GAMES.items():
    _cls = _make_class(_name)
    SPIEL_GAMES[_spec["short_name"]] = _cls
    pyspiel.register_game(_cls.GAME_TYPE, _cls)
