"""Widgets: the card table (opponent, middle, hand, choices), the footer, the too-small message."""
