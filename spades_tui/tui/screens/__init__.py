"""One screen per phase of the game, plus start, forms and help.  None imports the app."""
