"""Pieces made around the cards: tuck boxes sized from the deck."""
