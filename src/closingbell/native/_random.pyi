"""Type stub of the compiled ``closingbell.native._random`` (see ``_random.pyx``)."""

class TextRandom:
    """A generator seeded like ``random.Random(text)``."""

    def __init__(self, text: str) -> None: ...
    def getrandbits(self, k: int) -> int:
        """``k`` random bits, 0 <= k <= 64."""

    def randrange(self, n: int) -> int:
        """A number from 0 to ``n - 1``."""

    def shuffle(self, items: list[object]) -> None:
        """Shuffle ``items`` in place."""

def derive(seed: int, *labels: object) -> TextRandom:
    """The generator ``derive_rng(seed, *labels)`` makes, in C."""

def derive_many(seed: int, *groups: tuple[object, ...]) -> list[TextRandom]:
    """``[derive(seed, *labels) for labels in groups]`` (one to four), seeded side by side."""

def in_place_agrees() -> bool:
    """Whether a ``random.Random``'s generator can be read and written in place."""
