"""A game being played, without Textual: the store, the dealer, the step loop, a seat's view, the session."""
