"""One font dictionary per font in a PDF: the documents' dictionaries merged.

Once :func:`pnp.pdf.fonts.merge_font_files` has given every subset of a font
one file, each document still brings its own font dictionary: its own
widths (``/W``), its own character-to-text map (``/ToUnicode``, a stream)
and its own descriptor. WeasyPrint's character codes are glyph numbers
(``/Identity-H`` with ``/CIDToGIDMap /Identity``), so the dictionaries of
one file say the same of every code they share: :func:`merge_font_dicts`
makes one dictionary holding the union of their widths and maps, and points
every resource at it. Text extracts as before: each code keeps its width
and its text. A group whose dictionaries disagree on a code (or that
cannot be read) is left as it is.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from decimal import Decimal
from typing import TypeVar

import pikepdf

Number = int | Decimal
_T = TypeVar("_T")
_PAIR = re.compile(rb"<([0-9a-fA-F]+)>\s*<([0-9a-fA-F]*)>")
_RANGE = re.compile(rb"<([0-9a-fA-F]+)>\s*<([0-9a-fA-F]+)>\s*(<[0-9a-fA-F]*>|\[[^\]]*\])")
_SECTION = re.compile(rb"begin(bfchar|bfrange|codespacerange)(.*?)end\1", re.S)
_CHUNK = 100
"""Entries per bfchar block: the most a CMap block may hold."""


def merge_font_dicts(pdf: pikepdf.Pdf) -> int:
    """Point every ``/Font`` resource of ``pdf`` whose dictionary shares its
    font file with others at one merged dictionary (see the module's
    docstring); return how many dictionaries were merged."""
    uses: dict[tuple[int, int], list[tuple[pikepdf.Dictionary, str]]] = {}
    groups: dict[bytes, dict[tuple[int, int], pikepdf.Dictionary]] = {}
    for fonts, name in _font_uses(pdf):
        font = fonts[name]
        if not isinstance(font, pikepdf.Dictionary) or not font.is_indirect:
            continue
        key = _key(font)
        if key is not None:
            uses.setdefault(font.objgen, []).append((fonts, name))
            groups.setdefault(key, {}).setdefault(font.objgen, font)
    merged = 0
    for members in groups.values():
        union = DictMerge()
        if len(members) < 2 or not all(union.add(font) for font in members.values()):
            continue
        one = pdf.make_indirect(union.font(pdf, next(iter(members.values()))))
        for objgen in members:
            for fonts, name in uses[objgen]:
                fonts[name] = one
        merged += len(members)
    return merged


def _font_uses(pdf: pikepdf.Pdf) -> Iterator[tuple[pikepdf.Dictionary, str]]:
    """(a /Font resource dictionary, a name in it) of every font every page
    and every form, pattern and group it draws can use, in a fixed order."""
    seen: set[tuple[int, int]] = set()
    pending: list[object] = [page.obj.get("/Resources") for page in reversed(pdf.pages)]
    while pending:
        resources = pending.pop()
        if not isinstance(resources, pikepdf.Dictionary) or (resources.is_indirect and _seen(resources, seen)):
            continue
        fonts = resources.get("/Font")
        if isinstance(fonts, pikepdf.Dictionary) and not (fonts.is_indirect and _seen(fonts, seen)):
            yield from ((fonts, name) for name in sorted(fonts.keys()))
        for kind in ("/Pattern", "/XObject"):
            inner = resources.get(kind)
            if isinstance(inner, pikepdf.Dictionary):
                pending += [inner[name].get("/Resources") for name in sorted(inner.keys(), reverse=True) if isinstance(inner[name], (pikepdf.Stream, pikepdf.Dictionary))]


def _seen(node: pikepdf.Object, seen: set[tuple[int, int]]) -> bool:
    if node.objgen in seen:
        return True
    seen.add(node.objgen)
    return False


def _key(font: pikepdf.Dictionary) -> bytes | None:
    """What dictionaries of one font share (the file, the descriptor past its
    name and box, the descendant past its widths), or None for a font this
    module does not merge."""
    kind = _kind(font)
    if kind is None:
        return None
    file, rest = kind
    return repr((file.objgen, rest)).encode() if file.is_indirect else None


def font_kind(font: pikepdf.Dictionary) -> bytes | None:
    """What dictionaries of one font share past their file (see :func:`_key`),
    all of it written out in full (nothing in it an indirect object, whose
    number would tell documents apart), or None for a font this module does not merge."""
    kind = _kind(font)
    if kind is None or not all(_direct(value) for _, value in _shared(font)):
        return None
    return repr(kind[1]).encode()


def _kind(font: pikepdf.Dictionary) -> tuple[pikepdf.Stream, list[tuple[str, bytes]]] | None:
    if font.get("/Subtype") != pikepdf.Name.Type0 or font.get("/Encoding") != pikepdf.Name("/Identity-H"):
        return None
    descendants = font.get("/DescendantFonts")
    if not isinstance(descendants, pikepdf.Array) or len(descendants) != 1 or not isinstance(font.get("/ToUnicode"), pikepdf.Stream):
        return None
    cid = descendants[0]
    if not isinstance(cid, pikepdf.Dictionary) or cid.get("/CIDToGIDMap") != pikepdf.Name.Identity:
        return None
    descriptor = cid.get("/FontDescriptor")
    if not isinstance(descriptor, pikepdf.Dictionary):
        return None
    file = descriptor.get("/FontFile2")
    if not isinstance(file, pikepdf.Stream):
        return None
    return file, [(key, _written(value)) for key, value in _shared(font)]


def _shared(font: pikepdf.Dictionary) -> list[tuple[str, pikepdf.Object]]:
    """The entries of a font's descriptor and descendant that dictionaries of one font share."""
    cid = font.DescendantFonts[0]
    descriptor = cid.FontDescriptor
    rest = [(key, descriptor[key]) for key in sorted(descriptor.keys()) if key not in ("/FontName", "/FontBBox", "/FontFile2")]
    return rest + [(key, cid[key]) for key in sorted(cid.keys()) if key not in ("/W", "/BaseFont", "/FontDescriptor")]


def _direct(value: object) -> bool:
    """Whether ``value`` holds no indirect object."""
    if not isinstance(value, pikepdf.Object):
        return True
    if value.is_indirect:
        return False
    if isinstance(value, pikepdf.Array):
        return all(_direct(item) for item in value)
    if isinstance(value, pikepdf.Dictionary):
        return all(_direct(value[key]) for key in value.keys())
    return True


def _written(value: object) -> bytes:
    """A value as a PDF writes it (pikepdf gives numbers and booleans as Python's)."""
    return value.unparse(resolved=True) if isinstance(value, pikepdf.Object) else repr(value).encode()


class DictMerge:
    """The dictionaries of one font file folded in one at a time: the union of
    their widths, text maps and boxes, as :func:`merge_font_dicts` makes one
    of them, holding that union only."""

    def __init__(self) -> None:
        self.members = 0
        self._widths: dict[int, Number] = {}
        self._texts: dict[int, bytes] = {}
        self._box: list[Decimal] = []

    def add(self, font: pikepdf.Dictionary) -> bool:
        """Fold ``font`` in; False (and nothing to build) when it cannot be
        read or disagrees on a code with those before it."""
        cid = font.DescendantFonts[0]
        widths, texts = _widths(cid.get("/W")), _texts(font.ToUnicode.read_bytes())
        if widths is None or texts is None or not (_agrees(self._widths, widths) and _agrees(self._texts, texts)):
            return False
        self.members += 1
        box = cid.FontDescriptor.get("/FontBBox")
        if isinstance(box, pikepdf.Array) and len(box) == 4:
            x0, y0, x1, y1 = (Decimal(str(v)) for v in box)
            self._box = [x0, y0, x1, y1] if not self._box else [min(self._box[0], x0), min(self._box[1], y0), max(self._box[2], x1), max(self._box[3], y1)]
        return True

    def font(self, pdf: pikepdf.Pdf, first: pikepdf.Dictionary) -> pikepdf.Dictionary:
        """One (direct) dictionary drawing and reading every code as each
        dictionary added did: ``first``'s (the first of them as the PDF is
        read), with the union's widths, text map and box."""
        first_cid = first.DescendantFonts[0]
        descriptor = pikepdf.Dictionary({key: first_cid.FontDescriptor[key] for key in first_cid.FontDescriptor.keys()})
        if self._box:
            descriptor.FontBBox = pikepdf.Array(self._box)
        cid = pikepdf.Dictionary({key: first_cid[key] for key in first_cid.keys()})
        cid.FontDescriptor = pdf.make_indirect(descriptor)
        cid.W = _w_array(self._widths)
        font = pikepdf.Dictionary({key: first[key] for key in first.keys()})
        font.DescendantFonts = pikepdf.Array([pdf.make_indirect(cid)])
        font.ToUnicode = pdf.make_stream(_cmap(self._texts))
        return font


def _agrees(union: dict[int, _T], more: dict[int, _T]) -> bool:
    """Add ``more`` to ``union`` unless they disagree on a code."""
    if any(union.get(code, value) != value for code, value in more.items()):
        return False
    union.update(more)
    return True


def _widths(w: object) -> dict[int, Number] | None:
    """A /W array as code -> width (both of its forms), or None when it cannot be read."""
    if w is None:
        return {}
    if not isinstance(w, pikepdf.Array):
        return None
    items = list(w)
    out: dict[int, Number] = {}
    i = 0
    while i < len(items):
        start = items[i]
        if not isinstance(start, int):
            return None
        if i + 1 < len(items) and isinstance(items[i + 1], pikepdf.Array):
            values = list(items[i + 1])
            if not all(isinstance(v, (int, Decimal)) for v in values):
                return None
            out.update((start + n, v) for n, v in enumerate(values))
            i += 2
        elif i + 2 < len(items) and isinstance(items[i + 1], int) and isinstance(items[i + 2], (int, Decimal)):
            out.update((code, items[i + 2]) for code in range(start, items[i + 1] + 1))
            i += 3
        else:
            return None
    return out


def _w_array(widths: dict[int, Number]) -> pikepdf.Array:
    """code -> width as a /W array: one run of widths per run of codes."""
    out: list[object] = []
    run: list[Number] = []
    start = previous = -2
    for code in sorted(widths):
        if code != previous + 1 and run:
            out += [start, pikepdf.Array(run)]
            run = []
        if not run:
            start = code
        run.append(widths[code])
        previous = code
    if run:
        out += [start, pikepdf.Array(run)]
    return pikepdf.Array(out)


def _texts(cmap: bytes) -> dict[int, bytes] | None:
    """A two-byte ToUnicode CMap as code -> UTF-16BE text, or None for one
    this module does not read."""
    out: dict[int, bytes] = {}
    for kind, body in _SECTION.findall(cmap):
        if kind == b"codespacerange":
            if [(a.lower(), b.lower()) for a, b in _PAIR.findall(body)] != [(b"0000", b"ffff")]:
                return None
        elif kind == b"bfchar":
            out.update((int(code, 16), bytes.fromhex(text.decode())) for code, text in _PAIR.findall(body))
        elif not _ranges(body, out):
            return None
    return out


def _ranges(body: bytes, out: dict[int, bytes]) -> bool:
    for low, high, target in _RANGE.findall(body):
        codes = range(int(low, 16), int(high, 16) + 1)
        if target.startswith(b"["):
            texts = [bytes.fromhex(t.decode()) for t in re.findall(rb"<([0-9a-fA-F]*)>", target)]
            if len(texts) != len(codes):
                return False
            out.update(zip(codes, texts))
        else:
            first = bytes.fromhex(target[1:-1].decode())
            if not first:
                return False
            for n, code in enumerate(codes):  # each code's text one more in its last byte
                out[code] = first[:-1] + bytes([(first[-1] + n) % 256])
    return True


def _cmap(texts: dict[int, bytes]) -> bytes:
    """code -> text as a ToUnicode CMap stream's bytes."""
    codes = sorted(texts)
    blocks = []
    for at in range(0, len(codes), _CHUNK):
        chunk = codes[at:at + _CHUNK]
        lines = "".join(f"<{code:04x}> <{texts[code].hex()}>\n" for code in chunk)
        blocks.append(f"{len(chunk)} beginbfchar\n{lines}endbfchar\n")
    return (
        "/CIDInit /ProcSet findresource begin\n12 dict begin\nbegincmap\n"
        "/CIDSystemInfo\n<< /Registry (Adobe)\n/Ordering (UCS)\n/Supplement 0\n>> def\n"
        "/CMapName /Adobe-Identity-UCS def\n/CMapType 2 def\n"
        "1 begincodespacerange\n<0000> <ffff>\nendcodespacerange\n"
        + "".join(blocks)
        + "endcmap\nCMapName currentdict /CMap defineresource pop\nend\nend\n"
    ).encode("ascii")

