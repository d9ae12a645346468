"""Which web pages may open the server's WebSockets: the site's own, and those allowed.

A browser sends the ``Origin`` of the page that opens a WebSocket, and lets any page open
one to any site: without this check, a page elsewhere could play in a visitor's name with
what its browser holds. The site's own origin is the scheme the request came over and the
host it came to (its ``Host`` header): a page of ``https://host`` is not the site's own
when the site is served on ``http://host`` (another site, for a browser). Behind a proxy
that ends TLS, uvicorn takes the scheme from the proxy's ``X-Forwarded-Proto`` when the
proxy is named (``closingbell serve --forwarded-allow-ips``); a deployment behind a proxy
that rewrites ``Host`` names its public origins instead (``--allowed-origin``). Clients
that send no ``Origin`` are not browsers (they could send any ``Origin`` they liked), so
they are let in.
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


SITE_SCHEMES = {"http": "http", "https": "https", "ws": "http", "wss": "https"}
"""The scheme of the site's pages for each scheme a request comes over (a WebSocket's
``ws``/``wss`` is opened by a page of ``http``/``https``)."""


def origin_allowed(
    origin: str, host: str | None, allowed: tuple[str, ...] = (), *, scheme: str
) -> bool:
    """Whether a page of ``origin`` may send a request that came to ``host`` over ``scheme``.

    ``allowed`` holds normalized origins (:func:`normalize_origin`) allowed besides the
    site's own; ``host`` is the request's ``Host`` header and ``scheme`` the scheme it came
    over (the ASGI scope's: ``http``, ``https``, ``ws`` or ``wss``).
    """
    try:
        own = normalize_origin(origin)
    except ValueError:
        return False
    if own in allowed:
        return True
    site = SITE_SCHEMES.get(scheme.lower())
    if not host or site is None:
        return False
    try:
        return own == normalize_origin(f"{site}://{host}")
    except ValueError:
        return False
