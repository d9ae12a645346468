"""Command-line entry points: ``closingbell play | replay | bench``."""
