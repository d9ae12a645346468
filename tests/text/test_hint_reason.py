"""A hint's reason: why the preferred action, and its lead only when it is a clear one."""

from __future__ import annotations

import functools

import pytest

import closingbell
from closingbell.bots.analysis import ActionValue, Analyst, DecisionAnalysis, Estimate
from closingbell.core.game import Game
from closingbell.core.view import View
from closingbell.text.games import narrator_for
from closingbell.text.hints import hint_reason
from closingbell.text.i18n import LANGS, translations
from closingbell.text.narrator import capital, cost_of
from tests.text.test_explain import (
    LAST_SAVE,
    card_stock_market,
    csm,
    moved_decisions,
    take_stock,
    ts,
)

TS = closingbell.load_game("take_stock", players=2)


def valued(
    game: Game, view: View, order: list[str], lead: float, spread: float
) -> DecisionAnalysis:
    """An analysis of ``view`` ranking the actions named ``order`` first, in that order.

    The second is ``lead`` behind the first, its paired interval ``spread`` either side;
    the rest further behind.
    """
    assert view.seat is not None
    named = [game.string_to_action(text) for text in order]
    legal = list(getattr(view, "legal_actions", ()))
    rest = [a for a in legal if a not in named]

    def value(action: int, behind: float, half: float) -> ActionValue:
        return ActionValue(
            action=action,
            margin=Estimate(20.0 - behind, 5.0),
            win=Estimate(0.5, 0.1),
            behind=Estimate(-behind, half),
        )

    actions = [value(named[0], 0.0, 0.0), value(named[1], lead, spread)]
    actions += [value(a, lead + 5.0, 1.0) for a in [*named[2:], *rest]]
    return DecisionAnalysis(seat=view.seat, worlds=32, actions=tuple(actions))


def test_a_clear_lead_says_why_and_by_how_much() -> None:
    _, view = take_stock(LAST_SAVE)
    found = valued(TS, view, ["raise Oil 5", "save Gem 10"], lead=4.2, spread=2.1)
    said = hint_reason(ts("en"), view, found)
    assert said is not None
    # The preferred action first, then what the next best does instead.
    assert said.startswith("Raising Oil to 5 adds 4 points to your 2 shares of Oil"), said
    assert ", while saving Gem 10 uses your last free save" in said
    assert said.endswith("It leads by about 4.2 points of final margin (2.1 to 6.3).")
    assert "cost" not in said.lower()
    zh = hint_reason(ts("zh-Hant"), view, found)
    assert zh is not None and zh.startswith("把油增加到 5") and "用掉你最後一次免費保留" in zh
    assert zh.endswith("領先約 4.2 分（2.1 至 6.3）。"), zh


def test_a_lead_within_the_interval_gives_no_figures() -> None:
    _, view = take_stock(LAST_SAVE)
    found = valued(TS, view, ["raise Oil 5", "save Gem 10"], lead=1.5, spread=2.1)
    assert cost_of(found, found.actions[1].action, found.best).low < 0
    said = hint_reason(ts("en"), view, found)
    assert said is not None
    assert said.startswith("Raising Oil to 5 adds 4 points")
    assert said.endswith("Saving Gem 10 is about as good: the analysis cannot tell the two apart.")
    assert "final margin" not in said
    zh = hint_reason(ts("zh-Hant"), view, found)
    assert zh is not None and zh.endswith("分析分不出兩者的高下。"), zh


def test_card_stock_market_leads_are_in_dollars() -> None:
    words = csm("en")
    state = words.game.new_game(4)
    while len(state.legal_actions()) < 2:
        state.apply(state.legal_actions()[0])
    seat = state.current_player
    assert seat is not None
    view = state.view(seat)
    order = [state.action_to_string(a) for a in state.legal_actions()[:2]]
    said = hint_reason(words, view, valued(words.game, view, order, lead=12.0, spread=3.0))
    assert said is not None and said.endswith(
        "It leads by about $12 of final margin ($9.0 to $15)."
    )


def test_two_moves_alike_in_sight_say_so_and_what_the_play_outs_found() -> None:
    _, view = card_stock_market("market: 4D 5S; hands: 6D 8S ... / ...")
    words = csm("en")
    order = ["market 8S", "market 6D"]  # both move a suit nobody holds
    clear = hint_reason(words, view, valued(words.game, view, order, lead=4.0, spread=1.0))
    assert clear == (
        "From what you can see now, playing 8♠ on Spades and playing 6♦ on Diamonds differ "
        "little, yet playing 8♠ on Spades did better when the deals that fit what you can see "
        "were played out. It leads by about $4.0 of final margin ($3.0 to $5.0)."
    )
    close = hint_reason(words, view, valued(words.game, view, order, lead=1.0, spread=3.0))
    assert close == (
        "From what you can see now, playing 8♠ on Spades and playing 6♦ on Diamonds differ "
        "little. Playing 6♦ on Diamonds is about as good: the analysis cannot tell the two apart."
    )
    zh = csm("zh-Hant")
    said = hint_reason(zh, view, valued(zh.game, view, order, lead=4.0, spread=1.0))
    assert said is not None and said.startswith(
        "就目前看得到的局面，「把 8♠ 打到黑桃」與「把 6♦ 打到方塊」相差不多，但"  # noqa: RUF001
    ), said
    assert "沒有人持有" not in said


def test_one_action_has_no_reason() -> None:
    _, view = take_stock(LAST_SAVE)
    found = valued(TS, view, ["raise Oil 5", "save Gem 10"], lead=4.2, spread=2.1)
    alone = DecisionAnalysis(seat=found.seat, worlds=32, actions=found.actions[:1])
    assert hint_reason(ts("en"), view, alone) is None


@functools.cache
def _analysed(
    name: str, players: int
) -> tuple[Game, list[tuple[View, DecisionAnalysis, View, DecisionAnalysis]]]:
    """A game of ``name`` and decisions of its random games, each analysed as its seat sees
    it, and again with the cards hidden from that seat moved: ``(view, analysis, moved, its
    analysis)``. The analyses are the same in every language, so they are worked out once."""
    game = closingbell.load_game(name, players=players)
    decisions = [
        (
            view,
            Analyst(game, worlds=8, seed=deal).analyze(view),
            moved,
            Analyst(game, worlds=8, seed=deal).analyze(moved),
        )
        for deal, view, moved in moved_decisions(game, games=4, per_game=12, chance=0.2, seed=5)
    ]
    return game, decisions


@pytest.mark.parametrize("lang", list(LANGS))
@pytest.mark.parametrize(("name", "players"), [("take_stock", 2), ("card_stock_market", 3)])
def test_every_hint_reads_without_gaps_and_ignores_the_hidden_cards(
    name: str, players: int, lang: str
) -> None:
    game, decisions = _analysed(name, players)
    words = narrator_for(game, [f"P{q + 1}" for q in range(players)], lang)
    assert words is not None
    _ = translations(lang).gettext
    told = 0
    for view, found, moved, again in decisions:
        said = hint_reason(words, view, found)
        assert said and "{" not in said and "}" not in said, said
        assert hint_reason(words, moved, again) == said
        second = found.actions[1].action
        lead = cost_of(found, second, found.best)
        if lead.low > 0:
            tail = _("It leads by about {margin} of final margin ({low} to {high}).").format(
                margin=words.amount(lead.margin),
                low=words.amount(lead.low, unit=False),
                high=words.amount(lead.high, unit=False),
            )
        else:
            tail = _("{other} is about as good: the analysis cannot tell the two apart.")
            tail = capital(tail.format(other=words.doing(view, second)))
        assert said.endswith(tail), said
        told += 1
    assert told >= 40
