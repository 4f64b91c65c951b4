"""The app and its own parts."""
