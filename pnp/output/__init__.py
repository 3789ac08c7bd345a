"""Exports beyond home printing, driven by profiles (YAML presets in
``pnp/presets/profiles/``): PNG faces for print-on-demand sites and
Tabletop Simulator deck sheets."""
