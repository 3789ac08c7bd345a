"""One module per ``pnp`` command: each parses its options, calls the stages, prints."""
