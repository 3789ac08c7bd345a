"""The duplex registration test: a two-page file that, printed two-sided,
shows how far a printer puts the backs off their fronts, in millimetres.

The front carries a reference line at the middle of each edge band and a
centre cross; the back carries, behind each reference line, a ladder of
numbered lines 0.5 mm apart. Held up to a light, the back line that
continues the front's line gives the reading: the correction a player enters
in the printer's own setting for the back side or looks up in a
``-shifted-backs.pdf`` (:mod:`pnp.output.home.shifted`), and a designer passes as
``--back-offset``. The page tells a player who holds only the PDFs what to
do; the command is a note for those who build. A line drawn ``c`` mm right
of (or above) where the front's line falls, as the back page is seen from
its own side, lines up when the printer moved the back ``-c``; moving every
back by ``c`` puts it right. The page itself is never moved, so its readings
are always the whole correction.
"""

from __future__ import annotations

from html import escape

from pnp.model import Game, Paper
from pnp.render.document import own_pages_html
from pnp.units import css, to_mm

STEPS = tuple(i / 2 for i in range(-6, 7))
"""The ladder's lines, in mm from the reference: -3 to +3 every 0.5 mm."""
BAND = 12.0
"""Millimetres from the paper edge to the outer end of each reference line."""
LINE = 8.0
"""Length of a reference line; the ladder's lines start where it ends."""
STROKE = 0.2


def registration_file(paper: Paper) -> str:
    return f"registration-test-{paper.id}.pdf"


def reference_lines(width: float, height: float) -> list[tuple[float, float, float, float]]:
    """The front's lines (x1, y1, x2, y2 in mm, y down): top, bottom, left and right bands, then the cross."""
    cx, cy = width / 2, height / 2
    return [
        (cx, BAND, cx, BAND + LINE),
        (cx, height - BAND, cx, height - BAND - LINE),
        (BAND, cy, BAND + LINE, cy),
        (width - BAND, cy, width - BAND - LINE, cy),
        (cx - 10, cy, cx + 10, cy),
        (cx, cy - 10, cx, cy + 10),
    ]


def ladder_lines(width: float, height: float) -> list[tuple[float, float, float, float, float]]:
    """The back's lines (offset in mm, then x1, y1, x2, y2 in mm, y down, as the
    back page is seen): each continues a front reference line when the back
    is off by minus its offset. A long-edge flip keeps y and mirrors x; the
    front's left band is the back's right band."""
    cx, cy = width / 2, height / 2
    out = []
    for c in STEPS:
        tick = 6.0 if c == int(c) else 4.0
        start = BAND + LINE
        out += [
            (c, cx + c, start, cx + c, start + tick),
            (c, cx + c, height - start, cx + c, height - start - tick),
            (c, width - start, cy - c, width - start - tick, cy - c),
            (c, start, cy - c, start + tick, cy - c),
        ]
    return out


def _svg(lines: list[tuple[float, float, float, float]], width: float, height: float, extra: str = "") -> str:
    drawn = "".join(
        f'<line x1="{x1:.3f}" y1="{y1:.3f}" x2="{x2:.3f}" y2="{y2:.3f}"/>' for x1, y1, x2, y2 in lines
    )
    return (
        f'<svg class="reg" xmlns="http://www.w3.org/2000/svg" width="{width:.3f}mm" height="{height:.3f}mm" '
        f'viewBox="0 0 {width:.3f} {height:.3f}"><g stroke="#000" stroke-width="{STROKE}" stroke-linecap="butt">'
        f"{drawn}</g>{extra}</svg>"
    )


def _labels(width: float, height: float) -> str:
    """Whole-millimetre numbers beside the back's ladders, odd ones set a
    little further out so neighbours 1 mm apart do not touch."""
    cx, cy = width / 2, height / 2
    start = BAND + LINE + 6.0
    out = []
    for c in (s for s in STEPS if s == int(s)):
        text = "0" if c == 0 else f"{c:+.0f}".replace("-", "\u2212")
        away = 2.6 if int(c) % 2 else 0.0
        for x, y, anchor in (
            (cx + c, start + 2.2 + away, "middle"),
            (cx + c, height - start - 0.8 - away, "middle"),
            (width - start - 0.6 - 1.4 * away, cy - c + 0.6, "end"),
            (start + 0.6 + 1.4 * away, cy - c + 0.6, "start"),
        ):
            out.append(f'<text x="{x:.3f}" y="{y:.3f}" text-anchor="{anchor}">{escape(text)}</text>')
    return f'<g font-size="1.8" fill="#000">{"".join(out)}</g>'


FRONT_TEXT = """
<h1>Duplex registration test ({paper})</h1>
<p>Print this file two-sided (flip on the long edge), at 100&nbsp;%, on the paper and printer you
use for the cards. Then turn the sheet over and hold it up to a light with the back facing you.</p>
<p>At the top and the bottom, the line from this side shows through beside a row of numbered lines
0.5&nbsp;mm apart. The number of the line that continues it is your reading X: how far the backs must
move right (a negative number: left). Between two lines, take the value halfway. At the left and right
sides, the same reading gives Y: how far the backs must move up (negative: down), as the back is seen
from its own side. If the top and bottom (or left and right) readings differ, the printer turns the
paper as well; use their average.</p>
"""

ACT_TEXT = """
<h2>What to do with your reading</h2>
<p>X and Y both 0: nothing; print the cards as they are. (On cards printed with a gap between them,
the colour runs a little past their edges, so a small reading may leave no white edge, only a picture
a little off centre.)</p>
<p>Otherwise, correct it on the printer: the PDF viewer's print window has no setting for it. Many
printers have one that moves what is printed on the back side, under a name such as
&ldquo;image shift&rdquo;, &ldquo;print position&rdquo;, &ldquo;margin shift&rdquo;, &ldquo;back side
offset&rdquo; or &ldquo;duplex alignment&rdquo;: look in the printer's Properties or Preferences
(often on an Advanced or Finishing tab), in its menu on the printer itself or on its web page. Enter
X and Y there. Printers name the directions in their own ways, so print this test again: every
reading should now be 0.</p>
{shifted}
<p>Failing that, whoever made these files can make them for your reading (see the note below).</p>
<p class="note">For those who build the files with pnp: <code>pnp build GAME --back-offset X,Y</code>
moves every back by the reading, in millimetres (for example <code>--back-offset 0.5mm,-1mm</code>),
as does <code>back_offset</code> in the home profile; <code>--shifted-backs</code> writes the
<i>-shifted-backs.pdf</i> files.</p>
"""

SHIFTED_TEXT = """
<p>Or, without changing the printer: each card file comes with a copy whose name ends in
<i>-shifted-backs.pdf</i>. It holds the file's card pages again, once for each reading from
&minus;1.5 to +1.5&nbsp;mm, with the backs moved to make up for it; its first page says which pages to
print for your X and Y, in place of the card file's own.</p>
"""

BACK_TEXT = """
<h1>Back of the registration test</h1>
<p>Read from this side, held up to a light: find the numbered line that continues the line showing through.</p>
"""

CSS = """
<style>
.reg-page { position: relative; width: {w}mm; height: {h}mm; break-after: page; overflow: hidden; }
.reg-page svg { position: absolute; left: 0; top: 0; }
.reg-text { position: absolute; left: 35mm; right: 35mm; top: 40mm; font-size: 10pt; line-height: 1.3; }
.reg-text.act { top: {low}mm; }
.reg-text h1 { font-size: 16pt; font-weight: normal; margin: 0 0 3mm 0; }
.reg-text h2 { font-size: 12pt; font-weight: normal; margin: 0 0 2mm 0; }
.reg-text .note { font-size: 9pt; }
.reg-text p { margin: 0 0 2mm 0; }
.reg-text i { white-space: nowrap; }
.reg-text code { white-space: nowrap; font-family: inherit; font-style: italic; font-variant-numeric: lining-nums; font-variant-ligatures: none; }
</style>
"""


def registration_html(game: Game, paper: Paper, shifted: bool = False) -> str:
    """Both pages of the test, the front then the back, on ``paper`` (portrait);
    ``shifted``: the build wrote -shifted-backs.pdf files (:mod:`pnp.output.home.shifted`)."""
    w, h = to_mm(paper.width), to_mm(paper.height)
    front = _svg(reference_lines(w, h), w, h)
    back = _svg([line[1:] for line in ladder_lines(w, h)] + [(w / 2 - 10, h / 2, w / 2 + 10, h / 2)], w, h, _labels(w, h))
    style = CSS.replace("{w}", f"{w:.3f}").replace("{h}", f"{h:.3f}").replace("{low}", f"{h / 2 + 16:.3f}")
    act = ACT_TEXT.replace("{shifted}", SHIFTED_TEXT if shifted else "")
    body = (
        f'<div class="reg-page">{front}<div class="reg-text">{FRONT_TEXT.format(paper=escape(paper.name))}</div>'
        f'<div class="reg-text act">{act}</div></div>'
        f'<div class="reg-page">{back}<div class="reg-text">{BACK_TEXT}</div></div>'
    )
    page = f"<style>@page {{ size: {css(paper.width)} {css(paper.height)}; margin: 0; }}</style>"
    return own_pages_html(game, page + style + body, [])
