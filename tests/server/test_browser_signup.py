"""Sign-up mistakes are said by the page, in its own language: never the browser's bubble."""

from __future__ import annotations

import json
from typing import Any

import pytest

from tests.server import test_browser
from tests.server.test_browser import DESKTOP, PHONE, _context, _shot, quick

browser = test_browser.browser
"""Debian's Chromium (the fixture of test_browser.py)."""
_no_script_errors = test_browser._no_script_errors
__all__ = ["quick"]  # the fixture, shared with test_browser.py

SHORT = {"en": "A password has 8 characters or more.", "zh-Hant": "密碼至少要有 8 個字元。"}


def _open_sign_up(page: Any, base: str) -> None:
    page.goto(base + "/")
    page.click("#sign-in")
    page.click("#account-switch")


@pytest.mark.parametrize(("lang", "size"), [("en", DESKTOP), ("zh-Hant", PHONE)])
def test_a_short_password_is_said_in_the_page_language(
    browser: Any, quick: str, lang: str, size: dict[str, int]
) -> None:
    context = _context(browser, size, lang)
    page = context.new_page()
    _open_sign_up(page, quick)
    page.fill("#account-username", f"short-{lang}")
    page.fill("#account-password", "abc12")
    page.click("#account-submit")
    page.wait_for_selector("#account-error:not(:empty)")
    assert page.inner_text("#account-error") == SHORT[lang]
    # The page said it, not the browser: the form does not check itself, the field is marked.
    assert page.evaluate("document.querySelector('.account-form').noValidate")
    assert page.get_attribute("#account-password", "aria-invalid") == "true"
    assert page.evaluate("document.activeElement.id") == "account-password"
    _shot(page, f"sign-up-short-password-{lang}")
    # No name at all is said too, and nothing was sent.
    page.fill("#account-username", "")
    page.click("#account-submit")
    assert page.get_attribute("#account-username", "aria-invalid") == "true"
    assert page.locator("#sign-in").count() == 1
    context.close()


def test_the_servers_refusal_of_a_password_is_said_in_the_page_words(
    browser: Any, quick: str
) -> None:
    context = _context(browser, DESKTOP, "zh-Hant")
    page = context.new_page()
    refusal = {"error": {"code": "bad_password", "message": "the password is too short"}}
    page.route(
        "**/api/account/signup",
        lambda route: route.fulfill(
            status=422, content_type="application/json", body=json.dumps(refusal)
        ),
    )
    _open_sign_up(page, quick)
    page.fill("#account-username", "refused-one")
    page.fill("#account-password", "long enough for the page")
    page.click("#account-submit")
    page.wait_for_selector("#account-error:not(:empty)")
    assert page.inner_text("#account-error") == SHORT["zh-Hant"]
    context.close()
