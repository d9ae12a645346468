"""Puzzles: decisions from real games where one action is clearly best from what the seat knew.

- :mod:`closingbell.puzzles.model`: a puzzle as data and the JSON Lines file of many;
- :mod:`closingbell.puzzles.finder`: which decisions of records and bot games are puzzles;
- :mod:`closingbell.puzzles.themes`: what a puzzle is about.

See docs/puzzles.md.
"""

from closingbell.puzzles.finder import Criteria, Finder, from_record, from_selfplay, memoryless
from closingbell.puzzles.model import Puzzle, PuzzleFormatError, Worth, read_puzzles, write_puzzles
from closingbell.puzzles.themes import THEMES, themes_of

__all__ = [
    "THEMES",
    "Criteria",
    "Finder",
    "Puzzle",
    "PuzzleFormatError",
    "Worth",
    "from_record",
    "from_selfplay",
    "memoryless",
    "read_puzzles",
    "themes_of",
    "write_puzzles",
]
