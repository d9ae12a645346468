"""Playing on a closingbell server from outside: a bot account's program (``closingbell connect``).

:mod:`closingbell.remote.agents` turns a bot level or a Python function into a chooser;
:mod:`closingbell.remote.client` keeps the account's seats played over the server's
WebSocket protocol (docs/protocol.md, "Bots from outside"), reconnecting when the server
goes away. A front end: it uses the rules core, never the other way round.
"""
