"""Textual screens and widgets of the game."""
