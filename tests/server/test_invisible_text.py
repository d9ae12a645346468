"""Text that shows nothing: refused as a chat message and as a display name, by one check.

``closingbell.server.protocol.shows_nothing`` is the one test of blank text; chat messages
(``check_chat``) and names (``check_name``) both ask it. Each invisible character is tried
alone, doubled and between spaces, and text that shows something is kept, invisible
characters and all where they have a use (emoji sequences, flags, variation selectors).
"""

from __future__ import annotations

import pytest

from closingbell.server.protocol import (
    BadChat,
    ErrorCode,
    check_chat,
    check_name,
    invisible,
    shows_nothing,
)

INVISIBLE = {
    "zero-width space": "\u200b",
    "zero-width non-joiner": "\u200c",
    "zero-width joiner": "\u200d",
    "word joiner": "\u2060",
    "Hangul filler": "\u3164",
    "Hangul choseong filler": "\u115f",
    "Hangul jungseong filler": "\u1160",
    "halfwidth Hangul filler": "\uffa0",
    "Braille pattern blank": "\u2800",
    "soft hyphen": "\u00ad",
    "byte-order mark": "\ufeff",
    "combining grapheme joiner": "\u034f",
    "Mongolian vowel separator": "\u180e",
    "variation selector 16": "\ufe0f",
    "variation selector 17": "\U000e0100",
    "tag: language": "\U000e0001",
    "tag: latin small a": "\U000e0061",
    "tag: cancel": "\U000e007f",
    "unassigned in the tags' block": "\U000e0000",
    "unassigned: U+0378": "\u0378",
    "unassigned: U+FFFF": "\uffff",
    "unassigned: plane 3": "\U0003fffd",
}
"""Characters that show nothing by themselves, by what they are."""

VISIBLE = [
    "hi",
    "好",
    "🎉",
    "👩\u200d👩\u200d👧",  # joined by zero-width joiners
    "🏴\U000e0067\U000e0062\U000e0073\U000e0063\U000e0074\U000e007f",  # Scotland's flag: tags
    "❤\ufe0f",  # the emoji form of the heart
    "\u0301",  # a combining accent shows over what comes before it
    "gg \U0001fa77",  # an emoji newer than Python 3.11's Unicode, among words
]
"""Chat messages that show something, though some hold invisible characters."""


@pytest.mark.parametrize("char", INVISIBLE.values(), ids=INVISIBLE.keys())
def test_a_chat_message_of_an_invisible_character_is_refused(char: str) -> None:
    assert invisible(char)
    for text in (char, char * 3, f" {char} ", f"{char}\u3000{char}"):
        assert shows_nothing(text)
        with pytest.raises(BadChat) as refused:
            check_chat(text)
        assert refused.value.code == ErrorCode.CHAT_BAD_TEXT
        assert str(refused.value)


@pytest.mark.parametrize("char", INVISIBLE.values(), ids=INVISIBLE.keys())
def test_a_name_of_an_invisible_character_is_refused(char: str) -> None:
    for text in (char, char * 3, f" {char} "):
        with pytest.raises(ValueError, match=r"U\+|show"):
            check_name(text)


@pytest.mark.parametrize("text", VISIBLE)
def test_a_chat_message_that_shows_something_is_kept(text: str) -> None:
    assert not shows_nothing(text)
    assert check_chat(f"  {text}  ") == text


def test_the_message_says_the_text_shows_nothing() -> None:
    with pytest.raises(BadChat, match="invisible"):
        check_chat("\u200b\u3164\u2800")


def test_names_refuse_invisible_characters_among_letters_but_keep_spaces_and_emoji() -> None:
    # A filler or a blank after a name would pass it off for another's.
    for name in ("ana\u3164", "\u3164ana", "a\u2800na", "ana\u115f", "ana\u034f"):
        with pytest.raises(ValueError, match="U\\+"):
            check_name(name)
    assert check_name("Mary Ann") == "Mary Ann"
    assert check_name("Ana\u00a0Li") == "Ana\u00a0Li"
    assert check_name("❤\ufe0f Ana") == "❤\ufe0f Ana"
