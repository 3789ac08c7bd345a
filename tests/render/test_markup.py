"""What a card's markup may not hold is found with its template line (issue 35)."""

from __future__ import annotations

from pathlib import Path

import pytest

from pnp.errors import TemplateError
from pnp.render.markup import MAX_NESTING, first_problem
from pnp.render.templating import environment, render


def _problem(markup: str, root: Path) -> str | None:
    found = first_problem(markup, (root,), {})
    return None if found is None else found[1]


def test_what_the_renderer_never_reads_is_left_alone(tmp_path: Path) -> None:
    (tmp_path / "dot.svg").write_text("<svg/>")
    fine = (
        '<a href="https://example.com/rules">rules</a><area href="file:///etc/passwd">'
        '<img src="dot.svg"><img src="missing.png"><div data-src="https://x" style="filter: url(#glow)"></div>'
        '<img src="data:image/png;base64,AAAA"><svg><use href="#a"/><path d="M0 0"/></svg>'
        "<p>A card's text may say url(https://example.com) and src=https://x</p>"
        + "<ul>" + "<li>item" * 300 + "</ul>" + "<p>para" * 300  # elements HTML closes itself do not nest
        + "<div>" * MAX_NESTING + "</div>" * MAX_NESTING
    )
    assert _problem(fine, tmp_path) is None


@pytest.mark.parametrize(
    "markup, offset, words",
    [
        ('<p>x</p><img alt="a" src="https://example.com/x.png">', 26, "only local files"),
        ("<object data='file:///etc/passwd'></object>", 14, "lies outside"),
        ('<div style="background: url(/dev/zero)">', 28, "lies outside"),
        ("<style>\n.a { background: url('https://x/y.png') }</style>", 30, "only local files"),
        ("<image xlink:href=../../../etc/passwd />", 18, "lies outside"),
        ("<div>" * (MAX_NESTING + 1), 5 * MAX_NESTING, f"nest more than {MAX_NESTING} deep"),
    ],
)
def test_a_refused_address_or_deep_nesting_is_found_where_it_is_written(tmp_path: Path, markup: str, offset: int, words: str) -> None:
    found = first_problem(markup, (tmp_path,), {})
    assert found is not None and found[0] == offset and words in found[1], found


def test_the_line_is_the_template_line_that_wrote_it(tmp_path: Path) -> None:
    """Through an extended template's block and an include, at the line of
    plain text and of an expression alike."""
    folder = tmp_path / "templates" / "t"
    folder.mkdir(parents=True)
    (folder / "base.html").write_text("<div class=\"safe\">\n{% block body %}{% endblock %}\n</div>\n")
    (folder / "pic.html").write_text("<p>pic</p>\n\n<img src=\"{{ where }}\">\n")
    (folder / "card.html").write_text(
        "{% extends 't/base.html' %}\n{% block body %}\n<h1>{{ title }}</h1>\n{% if far %}\n<p>x</p><img src=\"https://e.com/a.png\">\n"
        "{% endif %}\n{% include 't/pic.html' %}\n{% endblock %}\n"
    )
    env = environment(tmp_path)
    told = []
    for context in ({"title": "A", "far": True, "where": ""}, {"title": "B", "far": False, "where": "file:///etc/passwd"}):
        with pytest.raises(TemplateError) as caught:
            render(env, "t/card.html", context, f"card {context['title']}")
        told.append(str(caught.value.diagnostics[0]))
    assert told[0].startswith(f"{folder / 'card.html'}:5:1: while rendering card A: refused to read 'https://e.com/a.png'"), told[0]
    assert told[1].startswith(f"{folder / 'pic.html'}:3:1: while rendering card B: refused to read 'file:///etc/passwd'"), told[1]
