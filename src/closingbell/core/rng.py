"""Seeded randomness: every shuffle comes from a generator derived from the game's seed.

Nothing here touches the module-level :mod:`random` state. A generator is derived from
the seed and a label naming the moment it serves (for example the round and the number of
reshuffles so far), so the same seed gives the same cards on every machine, and a copy of
a state needs no generator of its own.
"""

from __future__ import annotations

import hashlib
import random

from closingbell.core.checks import shown

SEED_BITS = 63
"""Seeds are non-negative integers below ``2**SEED_BITS``."""


def derive_rng(seed: int, *labels: object) -> random.Random:
    """Return a generator determined only by ``seed`` and ``labels``."""
    text = "/".join([str(seed), *(str(label) for label in labels)])
    return random.Random(text)


def digest_seed(*labels: object) -> int:
    """A seed determined only by ``labels``, through a SHA-256 digest of their text.

    Derived this way, a seed tells nothing of the seeds in its labels: a hint's or a bot's
    draws say nothing of the deal's shuffles, even when the deal's seed is secret.
    """
    text = " ".join(["closingbell", *(str(label) for label in labels)])
    digest = hashlib.sha256(text.encode()).digest()
    return int.from_bytes(digest[:8], "big") >> (64 - SEED_BITS)


def fresh_seed(rng: random.Random) -> int:
    """Draw a new game seed from ``rng``."""
    return rng.getrandbits(SEED_BITS)


def check_seed(seed: object) -> int:
    """Return ``seed`` if it is a valid seed, else raise :class:`ValueError`."""
    if isinstance(seed, bool) or not isinstance(seed, int):
        raise ValueError(f"seed must be an integer, not {type(seed).__name__}")
    if not 0 <= seed < 2**SEED_BITS:
        raise ValueError(f"seed must be between 0 and 2**{SEED_BITS} - 1, not {shown(seed)}")
    return seed
