"""Bot against bot: duplicate matches (``match``) and their statistics (``stats``)."""
