"""Why one action beats another, in each game's terms, from the seat's view alone."""

from __future__ import annotations

import random
import re
from collections.abc import Callable, Iterator

import pytest

import closingbell
from closingbell.bots.analysis import ActionValue, Analyst, DecisionAnalysis, Estimate
from closingbell.core.game import Game, State
from closingbell.core.view import View
from closingbell.games.take_stock.views import TakeStockView
from closingbell.text.card_stock_market import CardStockMarketNarrator
from closingbell.text.games import narrator_for
from closingbell.text.hints import hint_reason
from closingbell.text.i18n import LANGS
from closingbell.text.narrator import Narrator, cost_of
from closingbell.text.take_stock import TakeStockNarrator
from tests.conformance.hidden import perturber_for

NAMES = ["Ana", "Bo"]


def judged(view: View, taken: int, best: int) -> DecisionAnalysis:
    """An analysis of ``view`` with fixed figures: ``best`` first, ``taken`` 4.2 behind."""
    legal: tuple[int, ...] = getattr(view, "legal_actions", ())
    assert taken in legal and best in legal
    assert view.seat is not None

    def value(action: int, behind: float, win: float) -> ActionValue:
        return ActionValue(
            action=action,
            margin=Estimate(10.0 + behind, 3.0),
            win=Estimate(win, 0.1),
            behind=Estimate(behind, 0.0 if action == best else 2.1),
        )

    others = [a for a in legal if a not in (taken, best)]
    actions = [value(best, 0.0, 0.46)]
    actions += [value(a, -1.0, 0.44) for a in others]
    actions.append(value(taken, -4.2, 0.34))
    return DecisionAnalysis(seat=view.seat, worlds=8, actions=tuple(actions))


def take_stock(text: str) -> tuple[State, TakeStockView]:
    state = closingbell.load_game("take_stock", players=2).state_from_position(text)
    seat = state.current_player
    assert seat is not None
    view = state.view(seat)
    assert isinstance(view, TakeStockView)
    return state, view


def card_stock_market(text: str) -> tuple[State, View]:
    state = closingbell.load_game("card_stock_market", players=2).state_from_position(text)
    seat = state.current_player
    assert seat is not None
    return state, state.view(seat)


def ts(lang: str) -> TakeStockNarrator:
    return TakeStockNarrator(closingbell.load_game("take_stock", players=2), NAMES, lang)


def csm(lang: str) -> CardStockMarketNarrator:
    return CardStockMarketNarrator(
        closingbell.load_game("card_stock_market", players=2), NAMES, lang
    )


def explain(words: TakeStockNarrator | CardStockMarketNarrator, view: View, t: str, b: str) -> str:
    game = words.game
    taken, best = game.string_to_action(t), game.string_to_action(b)
    return words.explain(view, taken, best, judged(view, taken, best))


# ---------------------------------------------------------------------- Take Stock

LAST_SAVE = "oil: 1 3; hands: Oil5 Gem10 Corn2 ... / ...; certs: Oil6 / Oil9"
"""Oil is the longest row with two cards and seat 0 holds one certificate: one save left."""


def test_the_last_free_save_against_a_raise_of_a_held_stock() -> None:
    _, view = take_stock(LAST_SAVE)
    said = explain(ts("en"), view, "save Gem 10", "raise Oil 5")
    assert said.startswith(
        "Saving Gem 10 uses your last free save: the Limit allows 2 certificates"
    )
    assert f"with {view.event_pile} event cards left before Market Closed" in said
    # Oil from 3 to 5: 2 points a share, for both seats' Oil 6 and Oil 9 (2 shares each).
    assert "raising Oil to 5 adds 4 points to your 2 shares of Oil and 4 points to Bo's 2" in said
    assert said.endswith(
        "The cost: about 4.2 points of final margin (2.1 to 6.3), and the chance of winning "
        "falls from 46% to 34%."
    )
    zh = explain(ts("zh-Hant"), view, "save Gem 10", "raise Oil 5")
    assert zh.startswith("選擇保留寶石 10") and "用掉你最後一次免費保留" in zh
    assert "2 張憑證" in zh and "把油增加到 5" in zh and "多值 4 分" in zh
    assert zh.endswith("勝率從 46% 降到 34%。")
    assert "代價：最終分差平均約少 4.2 分（2.1 至 6.3）" in zh


def test_a_raise_that_ends_the_round_names_the_points_at_those_prices() -> None:
    _, view = take_stock(
        "oil: 1 3 7; hands: Oil11 Oil8 Gem10 ... / ...; certs: Oil6 Corn9 / Oil9 Oil10"
    )
    said = explain(ts("en"), view, "raise Oil 11", "raise Oil 8")
    # At Oil 11: seat 0 has Oil 6 (2 shares) and Corn 9 (2 shares at 1): 22 + 2 = 24;
    # Bo has Oil 9 (2) and Oil 10 (3): 55.
    assert said.startswith(
        "Raising Oil to 11 ends the round at once: at those prices your certificates score "
        "24 points and Bo's 55 points, while raising Oil to 8"
    )
    zh = explain(ts("zh-Hant"), view, "raise Oil 11", "raise Oil 8")
    assert "立刻結束本回合" in zh and "24 分" in zh and "Bo 的得 55 分" in zh


def test_playing_the_market_with_market_closed_next() -> None:
    _, view = take_stock(
        "events: MarketClosed ...; oil: 1 3; hands: Oil5 ... / ...; certs: Oil6 / -"
    )
    assert view.event_pile == 0
    for market in ("market A", "market B"):
        said = explain(ts("en"), view, market, "raise Oil 5")
        assert "draws Market Closed, the next event card, and ends the round" in said
        assert "raising Oil to 5 adds 4 points to your 2 shares of Oil" in said
        zh = explain(ts("zh-Hant"), view, market, "raise Oil 5")
        assert "會抽到下一張事件卡休市" in zh


def test_a_discard_that_gives_up_a_raise() -> None:
    _, view = take_stock(
        "decide: 0 discard for market A; oil: 1 3; hands: Oil5 Corn9 Gem2 ... / ...; "
        "certs: Oil6 Oil7 / -"
    )
    said = explain(ts("en"), view, "discard Oil 5", "discard Gem 2")
    # Oil 5 could lift Oil from 3 to 5 for seat 0's 4 shares; Gem 2 could lift Gem, held
    # by nobody; Corn 9 cannot be laid on Corn's 1 and is 2 shares at a price of 1.
    assert said.startswith(
        "Discarding Oil 5 gives up a raise that would add 8 points to your 4 shares of Oil, "
        "while discarding Gem 2 gives up a raise of Gem from 1 to 2."
    )
    corn = explain(ts("en"), view, "discard Corn 9", "discard Oil 5")
    assert corn.startswith(
        "Discarding Corn 9 gives up a certificate of Corn worth 2 points at today's price, while"
    )
    zh = explain(ts("zh-Hant"), view, "discard Oil 5", "discard Gem 2")
    assert "放棄讓你的油（4 股）多值 8 分的機會" in zh


def test_two_discards_worth_the_same_are_said_to_differ_little() -> None:
    _, view = take_stock(
        "decide: 0 discard for market A; gem: 1 2; corn: 1 2; hands: Gem9 Corn9 Oil5 ... / ...; "
        "certs: Oil6 / -"
    )
    # Neither 9 can be laid on its row; each is 2 shares at a price of 2: 4 points.
    said = explain(ts("en"), view, "discard Gem 9", "discard Corn 9")
    assert said.startswith(
        "From what you can see now, discarding Gem 9 and discarding Corn 9 differ little; the "
        "analysis prefers discarding Corn 9 because it did better when the deals that fit what "
        "you can see were played out. The cost:"
    ), said
    assert "worth 4 points" not in said
    zh = explain(ts("zh-Hant"), view, "discard Gem 9", "discard Corn 9")
    assert zh.startswith("就目前看得到的局面，「丟棄寶石 9」與「丟棄玉米 9」相差不多；"), zh  # noqa: RUF001
    assert "打到最後" in zh and "4 分" not in zh


def test_what_two_actions_share_is_left_out_for_what_sets_them_apart() -> None:
    _, view = take_stock("oil: 1 3; hands: Oil5 Gem2 Corn9 ... / ...; certs: Tech6 / -")
    # Both lift a stock nobody holds; only the raise of Oil lengthens the longest row.
    said = explain(ts("en"), view, "raise Oil 5", "raise Gem 2")
    assert said.startswith(
        "Raising Oil to 5 makes Oil the longest row, so the Limit rises to 3 certificates; the "
        "analysis prefers raising Gem to 2."
    ), said
    assert "nobody holds" not in said
    zh = explain(ts("zh-Hant"), view, "raise Oil 5", "raise Gem 2")
    assert "限制規則的上限升為 3 張憑證" in zh and "沒有人持有" not in zh


def test_two_moves_of_suits_nobody_holds_are_said_to_differ_little() -> None:
    _, view = card_stock_market("market: 4D 5S; hands: 6D 8S ... / ...")
    said = explain(csm("en"), view, "market 6D", "market 8S")
    assert said.startswith(
        "From what you can see now, playing 6♦ on Diamonds and playing 8♠ on Spades differ "
        "little; the analysis prefers playing 8♠ on Spades because"
    ), said
    assert "nobody holds" not in said
    zh = explain(csm("zh-Hant"), view, "market 6D", "market 8S")
    start = "就目前看得到的局面，「把 6♦ 打到方塊」與「把 8♠ 打到黑桃」相差不多"  # noqa: RUF001
    assert zh.startswith(start), zh
    assert "沒有人持有" not in zh


def test_events_to_choose_between_show_their_prices() -> None:
    _, view = take_stock(
        "decide: 0 choose_event drew SplitOil CrashGem; oil: 1 3 7 freeze; "
        "gem: 1 4 6 8 split; certs: Gem9 / Gem10 Gem7"
    )
    said = explain(ts("en"), view, "choose Split Oil", "choose Crash Gem")
    assert "Letting Stock Split (Oil) take effect is wasted: Oil is frozen" in said
    # Gem 1 4 6 8 with a split is 16; the crash removes two cards and the split: 4.
    assert "takes Gem from 16 to 4 (your 2 shares: -24 points; Bo's 5 shares: -60 points)" in said
    zh = explain(ts("zh-Hant"), view, "choose Split Oil", "choose Crash Gem")
    assert "會白白浪費" in zh and "把寶石從 16 變成 4" in zh


def test_tokens_left_unused_after_the_last_round() -> None:
    text = (
        "round: 4; scores: 10 30 5 / 20 10 5; decide: 0 exercise; hands: Oil5 Gem10 / Corn3; "
        "certs: Oil6 / Oil9; oil: 1 3 7; "
        "ended: market_closed market_closed market_closed market_closed"
    )
    _, view = take_stock(text)
    said = explain(ts("en"), view, "exercise done", "exercise Oil 5")
    assert said.startswith(
        "Exercising no more options leaves 4 tokens unused, worth nothing after this last "
        "round, while spending a token on Oil 5 scores 7 points this round with 1 share of Oil"
    )
    assert "for one of your 4 tokens" in said
    zh = explain(ts("zh-Hant"), view, "exercise done", "exercise Oil 5")
    assert "最後一回合" in zh and "7 分" in zh


# ---------------------------------------------------------------------- Card Stock Market


def test_a_sale_the_bank_cannot_pay() -> None:
    _, view = card_stock_market(
        "market: 9S; cash: 800 / 820; bank: 20; hands: 9S 4D ... / ...; certs: 10S / -"
    )
    said = explain(csm("en"), view, "sell 10S", "done")
    assert said.startswith(
        "Selling 10♠ leaves the bank unable to pay $90, so every player pays the levy of $100"
    )
    assert said.endswith(
        "The cost: about $4.2 of final margin ($2.1 to $6.3), and the chance of winning falls "
        "from 46% to 34%."
    )
    zh = explain(csm("zh-Hant"), view, "sell 10S", "done")
    assert zh.startswith("選擇賣出 10♠") and "讓銀行付不出 $90" in zh
    assert "於是每位玩家都要繳 $100" in zh


def test_a_purchase_and_the_cash_it_leaves_against_a_face_card_raise() -> None:
    _, view = card_stock_market(
        "market: 4D 5S; cash: 30 / 370; hands: 7D QS ... / ...; certs: - / 10S"
    )
    said = explain(csm("en"), view, "buy 7D", "bankrupt QS")
    assert said.startswith(
        "Buying 7♦ spends $28 on 7 shares of Diamonds at $4, leaving $2 in cash, while "
        "bankrupting Spades with Q♠ wipes out every share of Spades at $5 "
        "(Bo's 10 shares: -$50)."
    )
    face = explain(csm("en"), view, "buy QS", "market QS")
    assert "spends a face card as 5 shares, not as a raise or a bankruptcy of Spades" in face
    assert "raising Spades with Q♠ moves Spades from $5 to $12 (Bo's 10 shares: +$70)" in face
    zh = explain(csm("zh-Hant"), view, "buy 7D", "bankrupt QS")
    assert "花 $28 買入方塊 7 股" in zh and "剩下現金 $2" in zh and "Bo 的 10 股：-$50" in zh


def test_a_free_purchase_of_a_bankrupt_suit_counts_the_face_cards_unseen() -> None:
    text = "market: 5S KS; bankrupt: S; hands: 10S QS 2S 3C 4C 6C 7C 8C / ...; discard: JS"
    _, view = card_stock_market(text)
    words = csm("en")
    # King on the pile, jack in the discard pile, queen in hand: three of six seen.
    assert words.unseen_faces(view, 3) == 3
    said = explain(words, view, "discard 2S", "buy 10S")
    assert (
        "buying 10♠ takes 10 shares of Spades for nothing while it stands bankrupt, with 3 of "
        "its face cards unseen"
    ) in said
    assert said.startswith("Discarding 2♠ gives up this turn's trading and market changes")
    zh = explain(csm("zh-Hant"), view, "discard 2S", "buy 10S")
    assert "免費拿到 10 股" in zh and "還有 3 張沒出現" in zh


def test_ending_a_turn_leaves_its_actions_unused() -> None:
    state, _ = card_stock_market("market: 4D 5S; hands: 7D 6S ... / ...; certs: 5S / -")
    state.apply_string("buy 7D")
    view = state.view(0)
    said = explain(csm("en"), view, "done", "market 6S")
    assert said.startswith(
        "Ending your turn leaves 1 transaction and 2 market changes of this turn unused, "
        "while playing 6♠ on Spades moves Spades from $5 to $6 (your 5 shares: +$5)."
    )
    zh = explain(csm("zh-Hant"), view, "done", "market 6S")
    assert "留下本回合還沒用的 1 筆交易、2 次市場變動" in zh


def test_a_change_that_changes_nothing_where_the_rules_allow_it() -> None:
    game = closingbell.load_game("card_stock_market", players=2, same_price_change=True)
    state = game.state_from_position("market: 9S; hands: 9S 4D ... / ...; certs: 10S / -")
    view = state.view(0)
    words = CardStockMarketNarrator(game, NAMES, "en")
    said = explain(words, view, "market 9S", "sell 10S")
    assert said.startswith("Playing 9♠ on Spades leaves Spades at $9, only to shed a card, while")
    assert "selling 10♠ brings in $90 for 10 shares of Spades at $9" in said


# ---------------------------------------------------------------------- both games


def test_the_preferred_action_itself_and_bad_requests() -> None:
    _, view = take_stock(LAST_SAVE)
    words = ts("en")
    raise_oil = words.game.string_to_action("raise Oil 5")
    found = judged(view, words.game.string_to_action("save Gem 10"), raise_oil)
    assert words.explain(view, raise_oil, raise_oil, found) == (
        "This is the action the analysis prefers."
    )
    with pytest.raises(ValueError, match="not legal"):
        words.explain(view, words.game.string_to_action("raise Gem 10"), raise_oil, found)
    other = DecisionAnalysis(seat=1, worlds=1, actions=found.actions)
    with pytest.raises(ValueError, match="seat 1"):
        words.explain(view, raise_oil, raise_oil, other)
    with pytest.raises(TypeError):
        csm("en").explain(view, raise_oil, raise_oil, found)


def test_the_cost_against_another_action_than_the_best_is_wider() -> None:
    _, view = take_stock(LAST_SAVE)
    game = closingbell.load_game("take_stock", players=2)
    taken, best = game.string_to_action("save Gem 10"), game.string_to_action("raise Oil 5")
    found = judged(view, taken, best)
    second = next(v.action for v in found.actions if v.action not in (taken, best))
    paired = cost_of(found, taken, best)
    assert (paired.margin, paired.low, paired.high) == pytest.approx((4.2, 2.1, 6.3))
    wider = cost_of(found, taken, second)
    assert wider.margin == pytest.approx(3.2)
    assert wider.high - wider.low == pytest.approx(2 * (2.1 + 2.1))


def moved_decisions(
    game: Game, *, games: int, per_game: int, chance: float, seed: int
) -> Iterator[tuple[int, View, View]]:
    """Decisions with a choice of random games, each with the same view of a changed deal.

    Yields ``(game's seed, view, moved)``: ``moved`` is the deciding seat's view of a copy
    of the state whose cards hidden from that seat were moved (the bots' no-cheating
    perturbers), equal to ``view``. At most ``per_game`` decisions of each of ``games``
    games, each decision taken with ``chance``.
    """
    rng = random.Random(seed)
    for deal in range(games):
        state = game.new_game(deal)
        play = random.Random(deal)
        found = 0
        while not state.is_terminal() and found < per_game:
            seat = state.current_player
            assert seat is not None
            if len(state.legal_actions()) > 1 and play.random() < chance:
                other = perturber_for(game.info.name)(state, seat, rng)
                assert other.view(seat) == state.view(seat)
                assert other.to_json() != state.to_json()
                yield deal, state.view(seat), other.view(seat)
                found += 1
            state.apply(play.choice(state.legal_actions()))


@pytest.mark.parametrize("lang", list(LANGS))
@pytest.mark.parametrize(("name", "players"), [("take_stock", 2), ("card_stock_market", 3)])
def test_every_pair_of_actions_reads_without_gaps_and_ignores_the_hidden_cards(
    name: str, players: int, lang: str
) -> None:
    """A reason is a view's: moving the cards the seat cannot see never changes it."""
    game = closingbell.load_game(name, players=players)
    seats = [f"P{q + 1}" for q in range(players)]
    told = 0
    for deal, view, moved_view in moved_decisions(game, games=3, per_game=8, chance=0.25, seed=3):
        found = Analyst(game, worlds=2, seed=deal).analyze(view)
        again = Analyst(game, worlds=2, seed=deal).analyze(moved_view)
        words = narrator_for(game, seats, lang)
        moved = narrator_for(game, seats, lang)
        assert words is not None and moved is not None
        for value in found.actions:
            said = words.explain(view, value.action, found.best, found)
            assert said and "{" not in said and "}" not in said, said
            assert moved.explain(moved_view, value.action, again.best, again) == said
            told += 1
    assert told > 50


def ranked(view: View, order: list[int]) -> DecisionAnalysis:
    """An analysis of ``view`` that ranks the actions in ``order``, each 1 behind the last."""
    assert view.seat is not None

    def value(action: int, behind: float) -> ActionValue:
        return ActionValue(
            action=action,
            margin=Estimate(10.0 - behind, 3.0),
            win=Estimate(0.4, 0.1),
            behind=Estimate(-behind, 0.0 if not behind else 2.1),
        )

    return DecisionAnalysis(
        seat=view.seat, worlds=8, actions=tuple(value(a, float(k)) for k, a in enumerate(order))
    )


def names_left_out(words: Narrator) -> Callable[[str], str]:
    """``text`` with every card, stock, suit and event name put as "·"."""
    found = words.vocabulary()
    names = {n for key in ("stocks", "suits", "cards", "events") for n in found.get(key, [])}
    pattern = re.compile("|".join(re.escape(n) for n in sorted(names, key=len, reverse=True)))
    return lambda text: pattern.sub("·", text)


NOBODY = {"en": "nobody holds", "zh-Hant": "沒有人持有"}
"""How the narrators say that nobody holds a stock or suit."""
FIGURE = re.compile(r"\d+(?:\.\d+)?")
"""A number in a reason."""


@pytest.mark.parametrize("lang", list(LANGS))
@pytest.mark.parametrize(
    ("name", "players"), [("take_stock", 2), ("take_stock", 3), ("card_stock_market", 3)]
)
def test_no_reason_states_one_clause_for_both_actions(name: str, players: int, lang: str) -> None:
    """A reason tells the two actions apart, or says plainly that little sets them apart.

    Over pairs of actions of random decisions, neither the review's explanation nor the
    hint's reason gives the two actions facts that read the same once the names of their
    cards, stocks or suits are left out ("a certificate of Gem worth 6 points", "of Corn
    worth 6 points"), nor says of both that they move what nobody holds in words that read
    the same once their figures are left out too.
    """
    game = closingbell.load_game(name, players=players)
    words = narrator_for(game, [f"P{q + 1}" for q in range(players)], lang)
    assert words is not None
    plain = names_left_out(words)
    told = alike = 0
    for deal in range(8):
        state = game.new_game(deal)
        rng = random.Random(deal)
        while not state.is_terminal():
            legal = state.legal_actions()
            seat = state.current_player
            if len(legal) > 1 and rng.random() < 0.3 and seat is not None:
                view = state.view(seat)
                pairs = [(a, b) for a in legal for b in legal if a != b]
                for taken, best in rng.sample(pairs, min(6, len(pairs))):
                    found = ranked(
                        view, [best, taken, *(a for a in legal if a not in (taken, best))]
                    )
                    said = words.explain(view, taken, best, found)
                    hint = hint_reason(words, view, found)
                    assert hint is not None
                    for text in (said, hint):
                        ours = [plain(f.text) for f in words.facts(view, taken) if f.text in text]
                        theirs = [plain(f.text) for f in words.facts(view, best) if f.text in text]
                        assert not set(ours) & set(theirs), text
                        nobody = {FIGURE.sub("·", f) for f in ours if NOBODY[lang] in f}
                        assert not nobody & {FIGURE.sub("·", f) for f in theirs}, text
                    told += 1
                    alike += ("differ little" in said) or ("相差不多" in said)
            state.apply(rng.choice(legal))
    assert told > 300
    assert alike < told / 5  # most reasons still name what differs
