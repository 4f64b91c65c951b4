"""The player's language: the catalogs' words (language.py) and the documents' (documents.py); docs/languages.md."""
