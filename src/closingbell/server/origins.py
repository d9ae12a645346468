"""Which web pages may open the server's WebSockets: the site's own, and those allowed.

A browser sends the ``Origin`` of the page that opens a WebSocket, and lets any page open
one to any site: without this check, a page elsewhere could play in a visitor's name with
what its browser holds. The site's own origin is the host the request came to (its
``Host`` header); a deployment behind a proxy that rewrites ``Host`` names its public
origins instead (``closingbell serve --allowed-origin``). Clients that send no ``Origin``
are not browsers (they could send any ``Origin`` they liked), so they are let in.
"""

from __future__ import annotations

from urllib.parse import urlsplit

DEFAULT_PORTS = {"http": 80, "https": 443}
"""The port an origin of each scheme has when it names none."""


def normalize_origin(text: str) -> str:
    """``scheme://host[:port]`` in lower case, without a default port.

    Raises ``ValueError`` for anything that is not an ``http`` or ``https`` origin (a
    path, a query, credentials, ``null``, a bad port).
    """
    parts = urlsplit(text.strip())
    scheme = parts.scheme.lower()
    if scheme not in DEFAULT_PORTS or not parts.hostname:
        raise ValueError(f"{text!r} is not an origin such as https://play.example.com")
    if parts.path not in ("", "/") or parts.query or parts.fragment or "@" in parts.netloc:
        raise ValueError(f"{text!r} is not an origin: give only scheme://host[:port]")
    port = parts.port  # a ValueError itself when out of range or not a number
    host = parts.hostname
    if ":" in host:
        host = f"[{host}]"
    return f"{scheme}://{host}" + ("" if port in (None, DEFAULT_PORTS[scheme]) else f":{port}")


def origin_allowed(origin: str, host: str | None, allowed: tuple[str, ...] = ()) -> bool:
    """Whether a page of ``origin`` may open a WebSocket that came to ``host``.

    ``allowed`` holds normalized origins (:func:`normalize_origin`) allowed besides the
    site's own; ``host`` is the request's ``Host`` header.
    """
    try:
        own = normalize_origin(origin)
    except ValueError:
        return False
    if own in allowed:
        return True
    if not host:
        return False
    try:
        return own == normalize_origin(f"{urlsplit(own).scheme}://{host}")
    except ValueError:
        return False
