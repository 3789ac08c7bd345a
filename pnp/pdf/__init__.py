"""Stage 5: place rendered faces onto sheets and write PDF files (pikepdf)."""
