"""One embedded file per font in a PDF: the subsets of its documents merged.

Every document WeasyPrint writes embeds its own subset of each font it sets
text in, so an imposed PDF of faces laid out in many documents carries the
same font many times over, each copy with a few glyphs. WeasyPrint subsets
TrueType fonts keeping every glyph's number (``retain_gids``), and each
document's font dictionary maps its character codes to glyph numbers
directly (``/CIDToGIDMap /Identity``): one file holding the glyphs of all
the subsets draws every document's text exactly as its own subset did.
:func:`merge_font_files` writes that file once per font and points every
font descriptor at it; each document keeps its own widths, its own
character-to-text map and its own name, so text extraction is unchanged
(:func:`pnp.pdf.fontdicts.merge_font_dicts` then makes those one dictionary too).

Two subsets are of one font when what subsetting leaves as it was is the
same: the font's name (past the subset tag), its dates, revision and units,
its table list, and its ``name`` table and hinting programs. The merged file
is the subset with the most glyph slots, each empty slot filled from the
first other subset that draws that glyph (with its metrics), and its limits
(bounding box, maxp, hhea) the widest of theirs. The tables are read and
written directly (fontTools would build an object per glyph slot: 40 ms a
subset); anything else (CFF outlines, a file that does not parse) is left as it is.
"""

from __future__ import annotations

import hashlib
import struct
from collections.abc import Iterable

import pikepdf

_KEPT = (b"name", b"fpgm", b"prep", b"cvt ", b"gasp")
"""Tables subsetting copies unchanged, part of a font's identity."""
_NEEDED = (b"head", b"maxp", b"hhea", b"hmtx", b"loca", b"glyf")

Tables = dict[bytes, bytes]
Rank = tuple[int, str, int]
"""Where a font is first met as a PDF is read (see :class:`FontMerge`): in
the order of pages, forms and names, ranks in order."""


def merge_font_files(pdf: pikepdf.Pdf) -> int:
    """Give every TrueType font descriptor of ``pdf`` one file per font (see
    the module's docstring); return how many descriptors now share a file."""
    groups: dict[bytes, tuple[FontMerge, list[pikepdf.Dictionary]]] = {}
    for rank, descriptor in enumerate(_descriptors(pdf)):
        tables = _tables(descriptor.FontFile2.read_bytes())  # one subset in memory at a time: a PDF may hold thousands
        if tables is not None:
            merge, members = groups.setdefault(_identity(str(descriptor.FontName), tables), (FontMerge(), []))
            merge.add((rank, "", 0), tables)
            members.append(descriptor)
    shared = 0
    for merge, members in groups.values():
        if len(members) < 2:
            continue
        stream = merge.stream(pdf)
        for descriptor in members:
            descriptor.FontFile2 = stream
        shared += len(members)
    return shared


def font_identity(descriptor: pikepdf.Dictionary) -> tuple[bytes, Tables] | None:
    """What subsets of one font share (see the module's docstring) and the
    tables of ``descriptor``'s file, or None for a font file this module
    does not merge."""
    file = descriptor.get("/FontFile2")
    tables = _tables(file.read_bytes()) if isinstance(file, pikepdf.Stream) else None
    return None if tables is None else (_identity(str(descriptor.FontName), tables), tables)


class FontMerge:
    """The subsets of one font folded in one at a time, each with its rank
    (its place in the order the PDF is read): what :func:`merge_font_files`
    writes of them, holding only the glyphs chosen so far and one subset's
    tables, however many subsets come. The merged file takes its tables from
    the subset with the most glyph slots (the first in rank of those), each
    glyph from the first subset in that order that draws it."""

    def __init__(self) -> None:
        self.members = 0
        self._base: tuple[tuple[int, Rank], _Glyphs] | None = None
        self._chosen: dict[int, tuple[tuple[int, Rank], bytes, tuple[int, int]]] = {}
        self._box: list[int] = []
        self._hhea: list[int] = []
        self._maxp: list[int] | None = []

    def add(self, rank: Rank, tables: Tables) -> None:
        font = _Glyphs(tables)
        order = (-font.count, rank)
        self.members += 1
        if self._base is None or order < self._base[0]:
            self._base = (order, font)
        for gid in font.drawn:
            if gid not in self._chosen or order < self._chosen[gid][0]:
                self._chosen[gid] = (order, font.glyph(gid), font.metric(gid))
        box = struct.unpack_from(">4h", tables[b"head"], 36)
        self._box = list(box) if not self._box else [min(self._box[0], box[0]), min(self._box[1], box[1]), max(self._box[2], box[2]), max(self._box[3], box[3])]
        h = struct.unpack_from(">Hhhh", tables[b"hhea"], 10)
        self._hhea = list(h) if not self._hhea else [max(self._hhea[0], h[0]), min(self._hhea[1], h[1]), min(self._hhea[2], h[2]), max(self._hhea[3], h[3])]
        maxp = tables[b"maxp"]
        if self._maxp is not None and len(maxp) >= 32:
            limits = struct.unpack_from(">13H", maxp, 6)
            self._maxp = list(limits) if not self._maxp else [max(a, b) for a, b in zip(self._maxp, limits)]
        else:
            self._maxp = None  # a short maxp among them: the base's limits as they are

    def stream(self, pdf: pikepdf.Pdf) -> pikepdf.Stream:
        """The merged file, as a new stream of ``pdf``."""
        data = self.data()
        stream = pdf.make_stream(data)
        stream.Length1 = len(data)
        return stream

    def data(self) -> bytes:
        """One font file drawing every glyph the subsets added draw."""
        assert self._base is not None
        base = self._base[1]
        glyf, loca, hmtx = bytearray(), [], []
        for gid in range(base.count):
            _, glyph, metric = self._chosen.get(gid, ((0, (0, "", 0)), b"", base.metric(gid)))
            loca.append(len(glyf))
            glyf += glyph + b"\0" * (-len(glyph) % 4)
            hmtx.append(metric)
        loca.append(len(glyf))
        tables = dict(base.tables)
        tables[b"glyf"] = bytes(glyf)
        tables[b"loca"] = struct.pack(">%dI" % len(loca), *loca)
        tables[b"hmtx"] = b"".join(struct.pack(">Hh", a, b) for a, b in hmtx)
        head = bytearray(base.tables[b"head"])  # the union of the boxes, long offsets and no checksum yet
        struct.pack_into(">I", head, 8, 0)
        struct.pack_into(">4h", head, 36, *self._box)
        struct.pack_into(">h", head, 50, 1)
        tables[b"head"] = bytes(head)
        hhea = bytearray(base.tables[b"hhea"])
        struct.pack_into(">Hhhh", hhea, 10, *self._hhea)
        struct.pack_into(">H", hhea, 34, len(hmtx))
        tables[b"hhea"] = bytes(hhea)
        maxp = bytearray(base.tables[b"maxp"])  # each limit the largest any subset declares
        if self._maxp and len(maxp) >= 32:
            struct.pack_into(">13H", maxp, 6, *self._maxp)
        tables[b"maxp"] = bytes(maxp)
        return _sfnt(tables)


def _descriptors(pdf: pikepdf.Pdf) -> Iterable[pikepdf.Dictionary]:
    seen: set[tuple[int, int]] = set()
    for page in pdf.pages:
        yield from _in_resources(page.obj.get("/Resources"), seen)


def _in_resources(resources: object, seen: set[tuple[int, int]]) -> Iterable[pikepdf.Dictionary]:
    if not isinstance(resources, pikepdf.Dictionary) or (resources.is_indirect and _seen(resources, seen)):
        return
    fonts = resources.get("/Font")
    for font in _in_order(fonts):
        for descendant in font.get("/DescendantFonts", ()):
            descriptor = descendant.get("/FontDescriptor")
            if isinstance(descriptor, pikepdf.Dictionary) and descriptor.is_indirect and not _seen(descriptor, seen):
                if descendant.get("/CIDToGIDMap") == pikepdf.Name.Identity and isinstance(descriptor.get("/FontFile2"), pikepdf.Stream):
                    yield descriptor
    for kind in ("/XObject", "/Pattern"):
        inner = resources.get(kind)
        for stream in _in_order(inner):
            if isinstance(stream, pikepdf.Stream):
                yield from _in_resources(stream.get("/Resources"), seen)


def _in_order(dictionary: object) -> list[pikepdf.Object]:
    """A dictionary's values in the order of their names (its keys are a set:
    the order would change from one process to the next)."""
    if not isinstance(dictionary, pikepdf.Dictionary):
        return []
    return [dictionary[key] for key in sorted(dictionary.keys())]


def _seen(node: pikepdf.Object, seen: set[tuple[int, int]]) -> bool:
    if node.objgen in seen:
        return True
    seen.add(node.objgen)
    return False


def _tables(data: bytes) -> Tables | None:
    """A TrueType file's tables by tag, or None for anything else or a
    file whose tables do not lie inside it."""
    if len(data) < 12 or data[:4] not in (b"\x00\x01\x00\x00", b"true"):
        return None
    count = struct.unpack_from(">H", data, 4)[0]
    if len(data) < 12 + 16 * count:
        return None
    tables = {}
    for n in range(count):
        tag, _, offset, length = struct.unpack_from(">4sIII", data, 12 + 16 * n)
        if offset + length > len(data):
            return None
        tables[tag] = data[offset:offset + length]
    if any(tag not in tables for tag in _NEEDED) or len(tables[b"head"]) < 54 or len(tables[b"maxp"]) < 6 or len(tables[b"hhea"]) < 36:
        return None
    return tables


def _identity(name: str, tables: Tables) -> bytes:
    head = tables[b"head"]
    digest = hashlib.sha256(name.split("+", 1)[-1].encode())
    digest.update(head[4:8] + head[18:36] + b"".join(sorted(tables)))  # revision, units, dates; which tables
    for tag in _KEPT:
        digest.update(tag + struct.pack(">I", len(tables.get(tag, b""))) + tables.get(tag, b""))
    return digest.digest()


class _Glyphs:
    """One subset's glyph slots and horizontal metrics."""

    def __init__(self, tables: Tables):
        self.tables = tables
        self.count = struct.unpack_from(">H", tables[b"maxp"], 4)[0]
        long_loca = struct.unpack_from(">h", tables[b"head"], 50)[0] == 1
        loca = tables[b"loca"]
        fmt, scale = (">%dI", 1) if long_loca else (">%dH", 2)
        slots = min(self.count + 1, len(loca) // (4 if long_loca else 2))
        self.offsets = [o * scale for o in struct.unpack_from(fmt % slots, loca)]
        self.drawn = [gid for gid in range(len(self.offsets) - 1) if self.offsets[gid + 1] > self.offsets[gid]]
        metrics = struct.unpack_from(">H", tables[b"hhea"], 34)[0]
        hmtx = tables[b"hmtx"]
        pairs = min(metrics, len(hmtx) // 4)
        self.metrics = list(struct.iter_unpack(">Hh", hmtx[:4 * pairs]))
        rest = max(min(self.count - pairs, (len(hmtx) - 4 * pairs) // 2), 0)
        last = self.metrics[-1][0] if self.metrics else 0
        self.metrics += [(last, lsb) for (lsb,) in struct.iter_unpack(">h", hmtx[4 * pairs:4 * pairs + 2 * rest])]

    def glyph(self, gid: int) -> bytes:
        if gid + 1 >= len(self.offsets):
            return b""
        return self.tables[b"glyf"][self.offsets[gid]:self.offsets[gid + 1]]

    def metric(self, gid: int) -> tuple[int, int]:
        return self.metrics[gid] if gid < len(self.metrics) else (0, 0)


def _checksum(data: bytes) -> int:
    data += b"\0" * (-len(data) % 4)
    total: int = sum(struct.unpack(">%dI" % (len(data) // 4), data))
    return total & 0xFFFFFFFF


def _sfnt(tables: Tables) -> bytes:
    tags = sorted(tables)
    count = len(tags)
    power = 1 << (count.bit_length() - 1)
    header = struct.pack(">4sHHHH", b"\x00\x01\x00\x00", count, 16 * power, power.bit_length() - 1, 16 * count - 16 * power)
    offset = 12 + 16 * count
    directory, body, head = b"", b"", 0
    for tag in tags:
        data = tables[tag]
        head = offset + len(body) if tag == b"head" else head
        directory += struct.pack(">4sIII", tag, _checksum(data), offset + len(body), len(data))
        body += data + b"\0" * (-len(data) % 4)
    font = bytearray(header + directory + body)
    struct.pack_into(">I", font, head + 8, (0xB1B0AFBA - _checksum(bytes(font))) & 0xFFFFFFFF)
    return bytes(font)
