"""Adapters to the standard research tools (the ``rl`` extra: ``pip install closingbell[rl]``).

- :mod:`closingbell.envs.pettingzoo`: ``env(game, players=N)``, a PettingZoo AEC environment;
- :mod:`closingbell.envs.gymnasium`: ``closingbell/TakeStock-v0`` and
  ``closingbell/CardStockMarket-v0``, one learner against closingbell bots;
- :mod:`closingbell.envs.vector`: many games at once, Gymnasium's vector API (the ids'
  vector entry point) and batched self-play, stepped in C on the compiled engines;
- :mod:`closingbell.envs.openspiel`: ``closingbell_take_stock`` and
  ``closingbell_card_stock_market`` registered with ``pyspiel``;
- :mod:`closingbell.envs.encoding`: the observation vectors and action masks they share,
  built from one seat's view only (``docs/observations.md``);
- :mod:`closingbell.envs.rewards`: the final rewards (``docs/rl.md``).

Nothing is imported here, so each adapter needs only its own library.
"""
