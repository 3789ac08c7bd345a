"""Stages 2 and 4: faces from templates (Jinja2), then PDF pages (WeasyPrint)."""
