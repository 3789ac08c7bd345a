"""Colour for print: the ICC profile, and turning a PDF's RGB into CMYK."""
