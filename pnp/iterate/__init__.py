"""The designer's iteration loop: what changed between two builds."""
