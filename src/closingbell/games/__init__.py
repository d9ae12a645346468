"""The games closingbell knows, each a rules engine on the shared core."""
