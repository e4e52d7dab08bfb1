"""Message texts and keyboards built from engine ``view()`` dicts; no game rule lives here."""
