"""Kept for older imports: the catalogs now live in :mod:`closingbell.text.i18n`."""

from __future__ import annotations

from closingbell.text.i18n import LANGS, LOCALE_DIR, translations

__all__ = ["LANGS", "LOCALE_DIR", "translations"]
