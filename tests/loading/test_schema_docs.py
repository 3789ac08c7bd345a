"""Every key of the schema is documented, in code and in docs/card-data.md."""

from __future__ import annotations

from pnp.loading.presets import LAYOUT, load_sizes
from pnp.loading.schema import CARD_BASE, game_record
from pnp.schema.spec import walk
from tests.conftest import ROOT

DOC = (ROOT / "docs" / "card-data.md").read_text()


def _paths():
    yield from walk(game_record(load_sizes()))
    for path, field in walk(CARD_BASE):
        yield f"cards[].{path}", field
    yield from walk(LAYOUT)
    from pnp.output.profiles import PROFILE

    yield from walk(PROFILE)


def test_every_field_has_a_docstring() -> None:
    for path, field in _paths():
        assert field.doc and field.doc.strip().endswith("."), path


def test_every_field_is_in_the_doc_page() -> None:
    missing = [path for path, _ in _paths() if f"`{path}`" not in DOC]
    assert not missing, f"fields not documented in docs/card-data.md: {missing}"

