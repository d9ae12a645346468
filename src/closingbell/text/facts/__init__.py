"""Each game's names and what an action does in a position (the narrators' shared base)."""
