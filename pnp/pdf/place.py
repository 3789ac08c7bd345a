"""Sheets of faces: each distinct face a PDF form XObject, drawn once per
copy (a copy costs a few dozen bytes of content stream, however rich the
face), except a face placed once, drawn straight into its sheet's content
stream where the sheet's faces compress together (:mod:`pnp.pdf.inline`).
"""

from __future__ import annotations

import io
from collections import Counter
from collections.abc import Iterable, Sequence
from pathlib import Path

import pikepdf

from pnp.commit import save_pdf
from pnp.errors import BuildError
from pnp.imposition.geometry import Circle, Line, Placement, Sheet
from pnp.pdf.fold import Fonts, FontFold, Unfoldable
from pnp.pdf.fontdicts import merge_font_dicts
from pnp.pdf.fonts import merge_font_files
from pnp.pdf.inline import inline_face
from pnp.pdf.shared import ArtFold, Taken, share_xobjects


def _num(value: float) -> str:
    text = f"{value:.3f}".rstrip("0").rstrip(".")
    return "0" if text in ("-0", "") else text


def _marks(lines: Iterable[Line]) -> str:
    """Black marks; a cased one (a cut tick over a dark bleed) first gets a
    white stroke 1 pt wider beneath it, all casings before any black line.
    The grey, dash and width are set where they change, not for every line:
    a sheet's marks are dozens of lines of one or two kinds."""
    lines = list(lines)
    ops = []
    state = ""
    for casing in (True, False):
        for line in lines:
            if casing and not line.cased:
                continue
            dash = "[3 3] 0 d" if line.dashed else "[] 0 d"
            colour, weight = ("1 G", line.weight + 1) if casing else ("0 G", line.weight)
            wanted = f"{colour} {dash} {_num(weight)} w "
            ops.append(f"{wanted if wanted != state else ''}{_num(line.x1)} {_num(line.y1)} m {_num(line.x2)} {_num(line.y2)} l S")
            state = wanted
    return "q 0 G 0 J\n" + "\n".join(ops) + "\nQ\n" if ops else ""


_ROTATIONS = {0: (1, 0, 0, 1), 90: (0, 1, -1, 0), -90: (0, -1, 1, 0)}
"""The a b c d of a PDF matrix for each quarter turn (counter-clockwise)."""

_KAPPA = 0.5522847498


def _circles(circles: Iterable[Circle]) -> str:
    """Thin grey cutting circles, four Bezier arcs each."""
    ops = []
    for g in circles:
        k = g.r * _KAPPA
        x, y, r = g.cx, g.cy, g.r
        ops.append(
            f"{_num(g.weight)} w {_num(x + r)} {_num(y)} m "
            f"{_num(x + r)} {_num(y + k)} {_num(x + k)} {_num(y + r)} {_num(x)} {_num(y + r)} c "
            f"{_num(x - k)} {_num(y + r)} {_num(x - r)} {_num(y + k)} {_num(x - r)} {_num(y)} c "
            f"{_num(x - r)} {_num(y - k)} {_num(x - k)} {_num(y - r)} {_num(x)} {_num(y - r)} c "
            f"{_num(x + k)} {_num(y - r)} {_num(x + r)} {_num(y - k)} {_num(x + r)} {_num(y)} c S"
        )
    return "q 0.45 G\n" + "\n".join(ops) + "\nQ\n" if ops else ""


def form_xobject(owner: pikepdf.Pdf, page: pikepdf.Page) -> pikepdf.Object:
    """The page (of ``owner``) as a form XObject, like :meth:`pikepdf.Page.as_form_xobject`,
    but keeping the page's compressed content stream as it is. (qpdf's own
    decodes the content, so every build would compress every face again:
    half the time of writing a home PDF.) Pages with several content streams,
    a /Rotate or a /UserUnit take qpdf's way."""
    contents = page.obj.get("/Contents")
    if isinstance(contents, pikepdf.Array) and len(contents) == 1:
        contents = contents[0]
    resources = page.obj.get("/Resources")
    if not isinstance(contents, pikepdf.Stream) or resources is None or _inherits(page.obj, "/Rotate") or "/UserUnit" in page.obj:
        return page.as_form_xobject()
    filters, parms = contents.get("/Filter"), contents.get("/DecodeParms")
    if not isinstance(filters, (pikepdf.Name, pikepdf.Array, type(None))) or not isinstance(parms, (pikepdf.Dictionary, pikepdf.Array, type(None))):
        return page.as_form_xobject()
    form = pikepdf.Stream(owner, b"")
    form.write(contents.read_raw_bytes(), filter=filters, decode_parms=parms)
    form.Type = pikepdf.Name.XObject
    form.Subtype = pikepdf.Name.Form
    form.Resources = resources
    if "/Group" in page.obj:
        form.Group = page.obj.Group
    form.BBox = page.trimbox
    return form


def _resources(page: pikepdf.Page) -> pikepdf.Object | None:
    """A page's own /Resources (None: it has none); one it inherits cannot be folded."""
    if "/Resources" not in page.obj and _inherits(page.obj, "/Resources"):
        raise Unfoldable
    return page.obj.get("/Resources")


def _inherits(node: pikepdf.Object, key: str) -> bool:
    """Whether a page has ``key`` itself or from the page tree above it."""
    for _ in range(64):  # a page tree deeper than this is broken anyway
        if key in node:
            return True
        parent = node.get("/Parent")
        if not isinstance(parent, pikepdf.Dictionary):
            return False
        node = parent
    return False


def impose_pdf(
    face_pdfs: Sequence[tuple[Path | bytes, Sequence[str | None]]],
    front_matter: bytes | None,
    sheets: Sequence[Sheet],
    title: str,
) -> pikepdf.Pdf:
    """A new PDF: the front-matter pages, then one page per sheet.

    Each of ``face_pdfs`` is (PDF file or bytes, face keys): the face on each page, in
    order (None for a page not needed). A picture that several documents
    hold is kept once (:class:`pnp.pdf.shared.ArtFold` as each document is
    copied, :func:`pnp.pdf.shared.share_xobjects` for the rest), and each font
    is one file (:func:`pnp.pdf.fonts.merge_font_files`) and one dictionary
    (:func:`pnp.pdf.fontdicts.merge_font_dicts`): folded in as each document
    is copied (:mod:`pnp.pdf.fold`), so that memory does not grow with every
    document's fonts, or merged once all are copied where they cannot be.
    """
    try:
        return _imposed(face_pdfs, front_matter, sheets, title, fold=True)
    except Unfoldable:
        pass  # (outside the handler: its traceback would hold the documents open)
    return _imposed(face_pdfs, front_matter, sheets, title, fold=False)


def _imposed(
    face_pdfs: Sequence[tuple[Path | bytes, Sequence[str | None]]], front_matter: bytes | None, sheets: Sequence[Sheet], title: str, fold: bool
) -> pikepdf.Pdf:
    out = pikepdf.new()
    fonts = FontFold(out) if fold else None
    if front_matter is not None:
        matter = pikepdf.open(io.BytesIO(front_matter))
        taken = fonts.take([(_resources(page), n, "") for n, page in enumerate(matter.pages)]) if fonts else []
        out.pages.extend(matter.pages)
        for page, found in zip(out.pages, taken):
            if fonts is not None:
                fonts.restore(page.Resources, found)
    names: dict[str, str] = {}
    first: dict[str, tuple[int, str]] = {}
    """Each face's form's name, and where the whole-PDF merges would first meet it."""
    for number, sheet in enumerate(sheets, start=len(out.pages)):
        for placement in sheet.placements:
            if placement.face not in names:
                names[placement.face] = f"/F{len(names)}"
                first[placement.face] = (number, names[placement.face])
    forms: dict[str, pikepdf.Object] = {}
    art = ArtFold()
    sources = _Sources(face_pdfs, sheets, fonts, art, first)
    for face in dict.fromkeys(p.face for sheet in sheets for p in sheet.placements):
        source, page, (found, pictures) = sources.page(face)  # held until its form is copied
        forms[face] = out.copy_foreign(form_xobject(source, page))
        if fonts is not None:
            fonts.restore(forms[face].Resources, found)
        art.restore(forms[face].Resources, pictures)
    pages = []
    for sheet in sheets:
        page = out.add_blank_page(page_size=(sheet.paper.width, sheet.paper.height))
        used = {p.face for p in sheet.placements}
        page.Resources = pikepdf.Dictionary(
            XObject=pikepdf.Dictionary({names[k]: forms[k] for k in sorted(used, key=lambda k: names[k])})
        )
        pages.append(page)
    share_xobjects(out, distinct=forms.values())  # each through the forms the pages name,
    if fonts is not None:
        fonts.finish()
    else:
        merge_font_files(out)
        merge_font_dicts(out)
    _draw(out, sheets, pages, forms, names)  # ...then a face placed once drawn in its sheet's stream
    out.docinfo[pikepdf.Name.Title] = title
    out.docinfo[pikepdf.Name.Creator] = "pnp"
    return out


def _draw(out: pikepdf.Pdf, sheets: Sequence[Sheet], pages: Sequence[pikepdf.Page], forms: dict[str, pikepdf.Object], names: dict[str, str]) -> None:
    """Each sheet's content stream and resources: its faces (:func:`_placed`),
    then its marks. Streams that come out alike are kept once: marks that
    several sheets draw alike are a stream of their own in each one's
    ``/Contents``, and sheets that draw alike (full sheets of backs) share theirs."""
    uses = Counter(p.face for sheet in sheets for p in sheet.placements)
    marks = [(_marks(sheet.marks) + _circles(sheet.guides)).encode("ascii") for sheet in sheets]
    alike = Counter(marks)
    streams: dict[bytes, pikepdf.Object] = {}

    def stream(content: bytes) -> pikepdf.Object:
        if content not in streams:
            streams[content] = out.make_stream(content)
        return streams[content]

    for sheet, page, drawn in zip(sheets, pages, marks):
        page.Resources = pikepdf.Dictionary(XObject=pikepdf.Dictionary(
            {names[k]: forms[k] for k in sorted({p.face for p in sheet.placements if uses[p.face] > 1}, key=lambda k: names[k])}
        ))
        faces = b"\n".join(_placed(placement, forms[placement.face], names[placement.face], uses[placement.face] == 1, page.Resources) for placement in sheet.placements) + b"\n"
        page.Contents = pikepdf.Array([stream(faces), stream(drawn)]) if alike[drawn] > 1 and drawn else stream(faces + drawn)


def _placed(placement: Placement, form: pikepdf.Object, name: str, once: bool, resources: pikepdf.Dictionary) -> bytes:
    """The operators drawing one face where ``placement`` puts it: its form's
    content itself for a face placed ``once`` (:func:`pnp.pdf.inline.inline_face`)
    where it can be, clipped to the form's box where the slot's clip does not
    lie inside it, else the form. Either way what the face draws lies two
    saved graphics states deep, the placing one state deep."""
    x0, y0, x1, y1 = (float(v) for v in form.BBox)
    slot, clip = placement.slot, placement.clip
    # Turn the face about its centre, then move the centre onto the slot's.
    a, b, c, d = _ROTATIONS[placement.rotation]
    cx, cy = (x0 + x1) / 2, (y0 + y1) / 2
    tx = slot.x + slot.width / 2 - (a * cx + c * cy)
    ty = slot.y + slot.height / 2 - (b * cx + d * cy)
    numbers = [_num(v) for v in (clip.x, clip.y, clip.width, clip.height, tx, ty)]
    place = f"q {' '.join(numbers[:4])} re W n {a} {b} {c} {d} {' '.join(numbers[4:])} cm "
    drawn = inline_face(form, resources) if once else None
    if drawn is None:
        resources.XObject[name] = form
        return f"{place}{name} Do Q".encode("ascii")
    # The form clipped to its box: in place, clip to it too unless the slot's clip (as written) lies inside it;
    # inside the face's own saved state, as a form's box is part of what it draws (pnp.testing.pdf.operations).
    left, bottom, width, height, tx, ty = (float(v) for v in numbers)
    box = [(a * x + c * y + tx, b * x + d * y + ty) for x, y in ((x0, y0), (x1, y1))]
    (x_low, x_high), (y_low, y_high) = (sorted(v) for v in zip(*box))
    inside = x_low <= left and y_low <= bottom and left + width <= x_high and bottom + height <= y_high
    boxed = "" if inside else f"{_num(x0)} {_num(y0)} {_num(x1 - x0)} {_num(y1 - y0)} re W n "
    return f"{place}q\n{boxed}".encode("ascii") + drawn + b"\nQ Q"


"""How far (pt) a slot's clip may reach past a face's box and still count as inside it."""


def face_document(document: Path | bytes) -> bytes:
    """A face document's bytes: as given, or read from its file in the render
    cache (:data:`pnp.render.layout.FacePages`)."""
    if isinstance(document, bytes):
        return document
    try:
        return document.read_bytes()
    except OSError:
        raise BuildError(
            f"{document}: a cached page vanished during the build (another build of the same folder trimming "
            "its cache?); nothing was written: run the build again"
        ) from None


class _Sources:
    """The face documents an imposition copies its forms from, each opened
    when its first face is wanted and let go once its last one is copied, so
    a build holds a few documents' objects at a time, not every face's.
    (A form copied from a document keeps only that document's bytes, for its
    streams, not its parsed objects.)"""

    def __init__(
        self, face_pdfs: Sequence[tuple[Path | bytes, Sequence[str | None]]], sheets: Sequence[Sheet], fonts: FontFold | None, art: ArtFold,
        first: dict[str, tuple[int, str]],
    ):
        self.where = {key: (n, i) for n, (_, keys) in enumerate(face_pdfs) for i, key in enumerate(keys) if key is not None}
        self.face_pdfs = face_pdfs
        self.left: dict[int, set[str]] = {}
        """Per document, its faces the sheets place that are not copied yet."""
        for face in {p.face for sheet in sheets for p in sheet.placements}:
            self.left.setdefault(self.where[face][0], set()).add(face)
        self.open: dict[int, tuple[pikepdf.Pdf, dict[str, tuple[Fonts, Taken]]]] = {}
        self.fonts = fonts
        self.art = art
        self.first = first

    def page(self, face: str) -> tuple[pikepdf.Pdf, pikepdf.Page, tuple[Fonts, Taken]]:
        """The document holding ``face``, its page, and the fonts (when folding
        them: :class:`pnp.pdf.fold.FontFold`) and pictures (:class:`pnp.pdf.shared.ArtFold`)
        taken out of it to put back into its form's copy; once this is the
        document's last face asked for, the document is let go."""
        number, index = self.where[face]
        if number not in self.open:
            document, keys = self.face_pdfs[number]
            source = pikepdf.open(io.BytesIO(face_document(document)))
            if len(source.pages) != len(keys):
                raise BuildError(f"{len(source.pages)} pages rendered for {len(keys)} faces: a face overflowed its page")
            placed = sorted(self.left[number], key=lambda key: self.where[key][1])
            if self.fonts is None:
                taken: list[Fonts] = [{} for _ in placed]
            else:
                taken = self.fonts.take([(_resources(source.pages[self.where[key][1]]), *self.first[key]) for key in placed])
            pictures = self.art.take([source.pages[self.where[key][1]].obj.get("/Resources") for key in placed])  # after the fonts: they look into pictures
            self.open[number] = (source, dict(zip(placed, zip(taken, pictures))))
        source, fonts = self.open[number]
        left = self.left[number]
        left.discard(face)
        if not left:
            del self.open[number]
        return source, source.pages[index], fonts[face]


ImposedFile = tuple["bytes | None", Sequence[Sheet], str, Path]
"""(front matter, sheets, title, where to save) of one imposed PDF."""


def write_imposed(face_pdfs: Sequence[tuple[Path | bytes, Sequence[str | None]]], files: Sequence[ImposedFile], workers: int) -> None:
    """Impose and save each file (see :func:`impose_pdf`), several at once
    when there are several: A4 and Letter are written side by side."""
    from pnp.parallel import fork_map

    fork_map(
        _write_imposed, [(front, list(sheets), title, str(path)) for front, sheets, title, path in files], workers, share=face_pdfs, label="imposing"
    )


def _write_imposed(front: bytes | None, sheets: list[Sheet], title: str, path: str) -> None:
    from pnp.parallel import shared

    save_pdf(impose_pdf(shared(), front, sheets, title), Path(path))
