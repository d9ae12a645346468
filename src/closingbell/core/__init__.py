"""The game-agnostic kernel: protocol, options, views, events, records, randomness, registry."""
