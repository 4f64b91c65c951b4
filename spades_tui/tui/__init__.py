"""The Textual interface: a thin app, one screen per phase, widgets, pure view models."""
