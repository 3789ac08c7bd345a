"""The values of ``rules:`` checked against the types ``rules_schema:`` declares.

Templates print these values ("Deal 2 cards to each player") and checks and
engines count with them, so a game declares the type of each one in the card
fields' vocabulary (``hand: {type: integer, min: 1, max: 10, doc: ...}``) and
a value that breaks it is an error at its own line and column, before
anything is built. The values are kept as written (a declared type checks
them; it does not convert them).
"""

from __future__ import annotations

from pnp.loading.schema import field_spec
from pnp.schema.spec import INVALID, Checker
from pnp.words import listed


def rules_values(raw: object, declared: object, ck: Checker) -> object:
    """``rules:`` (``raw``) with every declared value checked and every declared
    default filled in, or INVALID after an error. A declared key must be
    given unless its declaration has a default; a key with no declaration is
    a warning (its value cannot be checked)."""
    if raw is None:
        raw = {}
    if not isinstance(raw, dict):
        return ck.error(("rules",), f"expected a mapping of rules keys to values, found {type(raw).__name__}")
    if not isinstance(declared, dict):  # INVALID: rules_schema was reported
        return INVALID
    values = dict(raw)
    bad = False
    for name, decl in declared.items():
        spec = field_spec(decl, ("rules_schema", name), ck)
        if name in raw:
            bad |= spec.check(raw[name], ("rules", name), ck) is INVALID
        elif decl["default"] is not None:
            bad |= spec.check(decl["default"], ("rules_schema", name, "default"), ck) is INVALID
            values[name] = decl["default"]
        else:
            bad = True
            ck.error(("rules_schema", name), f"declared, but rules: gives no {name}; expected rules.{name} (or a default here)")
    undeclared = [str(k) for k in raw if k not in declared]
    if undeclared:
        ck.warn(
            ("rules", undeclared[0]),
            f"no declared type for {listed(undeclared)}, so a wrong value is not caught before it is printed; "
            "declare each under rules_schema (docs/card-data.md, Rules values)",
        )
    return INVALID if bad else values
