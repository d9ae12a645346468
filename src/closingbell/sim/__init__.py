"""Running games many times: speed figures, matches, tournaments and their statistics."""
