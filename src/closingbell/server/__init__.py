"""The web server: a lobby over HTTP and live play over WebSockets (needs the ``web`` extra).

``closingbell.server.app.create_app`` makes the FastAPI application; ``closingbell serve``
runs it with uvicorn. The protocol is described in docs/protocol.md and running the
server in docs/web.md. Like every front end, the server sends players nothing but the
views and events the rules engine gives each seat.
"""
