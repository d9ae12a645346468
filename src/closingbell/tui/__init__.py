"""Terminal play: renders a seat's view as text and asks for its decisions."""
