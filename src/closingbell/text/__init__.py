"""The words of every front end, in English and Traditional Chinese.

- :mod:`closingbell.text.i18n`: the message catalogs (``LANGS``, ``translations``).
- :mod:`closingbell.text.names`: game titles, bot levels and seat names.
- :mod:`closingbell.text.narrator`: what a game's narrator offers; each game's narrator
  (:mod:`~closingbell.text.take_stock`, :mod:`~closingbell.text.card_stock_market`) tells
  its decisions, actions, events and results in words, from views only.
- :mod:`closingbell.text.games`: the narrators and the rules options in words, by game.
- :mod:`closingbell.text.catalogs`: keeps the catalogs in step with the sources
  (``python -m closingbell.text.catalogs``).

The terminal (:mod:`closingbell.tui`) and the web server both take their words from
here; nothing here imports either, nor Rich.
"""
