"""Fonts folded into an imposed PDF as its face documents are copied (issue 41).

Each face document WeasyPrint lays out embeds its own subset of each font,
and its own font dictionary; :func:`pnp.pdf.fonts.merge_font_files` and
:func:`pnp.pdf.fontdicts.merge_font_dicts` make them one file and one
dictionary per font once the whole PDF is copied, so a build of thousands
of faces would first hold every document's fonts. :class:`FontFold` takes
each document's fonts out of it before its faces are copied, folds them
into one merge per font (glyphs, widths and text maps: bounded by the
font, not the deck), and puts one dictionary per font in their place,
written out at the end exactly as the whole-PDF merges would have made it:
each font ranked by where those merges would first meet it (page, form
name, font name) rather than by when its document was opened.

What the whole-PDF merges would treat in a way one document at a time
cannot (a font inside a form or pattern of a face, two dictionaries sharing
a file, dictionaries that disagree on a code) raises :class:`Unfoldable`:
the caller imposes the whole-PDF way instead.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field

import pikepdf

from pnp.pdf.fontdicts import DictMerge, font_kind
from pnp.pdf.fonts import FontMerge, Rank, font_identity

Fonts = dict[str, tuple["_Group", bool]]
"""Name -> (its group, whether it was taken out) of one ``/Font`` resource, to settle in its copy (:meth:`FontFold.restore`)."""


class Unfoldable(Exception):
    """Fonts :class:`FontFold` cannot fold as the whole-PDF merges would."""


@dataclass
class _Group:
    """The dictionaries of one font file alike past their widths and maps."""

    identity: bytes
    merge: DictMerge
    rank: Rank
    first: pikepdf.Dictionary | None = None
    """A copy of the first dictionary in rank, whose entries the merged one keeps."""
    uses: list[tuple[pikepdf.Dictionary, str]] = field(default_factory=list)
    """Every copied ``/Font`` resource naming one of them (one per document)."""


class FontFold:
    """The fonts of an imposed PDF (``out``), folded in document by document.
    The first dictionary met of each font is copied with its document, as
    it would be without folding (so the PDF's objects come in the same
    order); every later one is taken out before its document is copied."""

    def __init__(self, out: pikepdf.Pdf) -> None:
        self.out = out
        self.files: dict[bytes, tuple[FontMerge, Rank]] = {}
        self.groups: dict[tuple[bytes, bytes], _Group] = {}
        self.settled: set[tuple[int, int]] = set()

    def take(self, pages: Sequence[tuple[pikepdf.Object | None, int, str]]) -> list[Fonts]:
        """Fold in the fonts of one document's pages about to be copied, each
        given as (its /Resources, the imposed page where the whole-PDF merges
        would first meet it, the name of its form there: "" for a page copied
        as a page), and take out of those resources each font another
        document brought first; return, for each page, what to settle in its
        copy (:meth:`restore`)."""
        ranks: dict[tuple[int, int], tuple[Rank, pikepdf.Dictionary]] = {}
        named: list[list[tuple[str, tuple[int, int]]]] = []
        kept = False
        """Whether a form or pattern inside a page names its fonts too: then none is taken out
        (:func:`pnp.pdf.shared.share_xobjects` compares such forms with the fonts they name)."""
        for resources, page, form in pages:
            found: list[tuple[str, tuple[int, int]]] = []
            named.append(found)
            if resources is None:
                continue  # a page without resources of its own or inherited: no fonts
            if not isinstance(resources, pikepdf.Dictionary) or not resources.is_indirect:
                raise Unfoldable
            fonts = resources.get("/Font")
            nested = {objgen for _, _, objgen in _nested_uses(resources, set())}
            top = {fonts[name].objgen for name in fonts.keys()} if isinstance(fonts, pikepdf.Dictionary) else set()
            if not nested <= top:
                raise Unfoldable  # a font met first inside a form: ranked otherwise
            kept = kept or bool(nested)
            if not isinstance(fonts, pikepdf.Dictionary):
                continue
            for index, name in enumerate(sorted(fonts.keys())):
                font = fonts[name]
                if not _merged(font):
                    continue  # a font neither merge touches: copied as it is
                if not isinstance(font, pikepdf.Dictionary) or not font.is_indirect:
                    raise Unfoldable
                rank = (page, form, index)
                if font.objgen not in ranks or rank < ranks[font.objgen][0]:
                    ranks[font.objgen] = (rank, font)
                found.append((name, font.objgen))
        descriptors = {font.DescendantFonts[0].FontDescriptor.objgen for _, font in ranks.values()}
        if len(descriptors) != len(ranks):
            raise Unfoldable  # two dictionaries of one descriptor: the whole-PDF merges count it once
        folded = {objgen: self._fold(font, rank) for objgen, (rank, font) in sorted(ranks.items(), key=lambda item: item[1][0])}
        if kept:
            folded = {objgen: (group, False) for objgen, (group, _) in folded.items()}
        for (resources, _, _), found in zip(pages, named):
            for name, objgen in found:
                if folded[objgen][1] and resources is not None and name in resources.Font:
                    del resources.Font[name]
        return [{name: folded[objgen] for name, objgen in found} for found in named]

    def _fold(self, font: pikepdf.Dictionary, rank: Rank) -> tuple[_Group, bool]:
        """Fold ``font`` into its group; whether to take it out (the group has one copied already)."""
        descriptor = font.DescendantFonts[0].FontDescriptor
        known = font_identity(descriptor) if isinstance(descriptor, pikepdf.Dictionary) else None
        kind = font_kind(font)
        if known is None or kind is None:
            raise Unfoldable
        identity, tables = known
        merge, first = self.files.get(identity, (FontMerge(), rank))
        merge.add(rank, tables)
        self.files[identity] = (merge, min(first, rank))
        group = self.groups.get((identity, kind))
        taken = group is not None
        if group is None:
            group = self.groups[identity, kind] = _Group(identity, DictMerge(), rank)
        elif rank < group.rank:
            group.first, group.rank = self._copy(font), rank
        if not group.merge.add(font):
            raise Unfoldable
        return group, taken

    def _copy(self, font: pikepdf.Dictionary) -> pikepdf.Dictionary:
        return _dictionary(self.out.copy_foreign(font))

    def restore(self, resources: pikepdf.Object, fonts: Fonts) -> None:
        """Settle a copied page's or form's resources (:meth:`take`): each
        font taken out points at its group's first, for now; each use of a
        font, there or inside its forms, is noted for :meth:`finish`."""
        if not fonts or resources.objgen in self.settled:
            return
        self.settled.add(resources.objgen)
        copied = resources.Font
        assert isinstance(copied, pikepdf.Dictionary)
        copies: dict[tuple[int, int], _Group] = {}
        for name, (group, taken) in sorted(fonts.items(), key=lambda item: item[1][1]):  # the first of a group before the rest
            if taken:
                copied[name] = group.first
            else:
                group.first = group.first or _dictionary(copied[name])
                copies[copied[name].objgen] = group
            group.uses.append((copied, name))
        for inner, name, objgen in _nested_uses(_dictionary(resources), set()):
            if objgen in copies:
                copies[objgen].uses.append((inner, name))

    def finish(self) -> None:
        """Write each font's file and dictionary, as :func:`pnp.pdf.fonts.merge_font_files`
        then :func:`pnp.pdf.fontdicts.merge_font_dicts` would have, in the order
        they would have (each font's first as the PDF is read)."""
        streams = {identity: merge.stream(self.out) for identity, (merge, _) in sorted(self.files.items(), key=lambda item: item[1][1]) if merge.members > 1}
        for group in sorted(self.groups.values(), key=lambda group: group.rank):
            assert group.first is not None
            if group.identity in streams:
                group.first.DescendantFonts[0].FontDescriptor.FontFile2 = streams[group.identity]
            if group.merge.members > 1:
                one = self.out.make_indirect(group.merge.font(self.out, group.first))
                for fonts, name in group.uses:
                    fonts[name] = one


def _dictionary(font: pikepdf.Object) -> pikepdf.Dictionary:
    assert isinstance(font, pikepdf.Dictionary)
    return font


def _merged(font: pikepdf.Object) -> bool:
    """Whether either whole-PDF merge would look at ``font``: a font of a
    TrueType file whose descendant maps codes to glyphs as they are."""
    descendants = font.get("/DescendantFonts") if isinstance(font, pikepdf.Dictionary) else None
    if not isinstance(descendants, pikepdf.Array):
        return False
    for cid in descendants:
        descriptor = cid.get("/FontDescriptor") if isinstance(cid, pikepdf.Dictionary) else None
        if isinstance(descriptor, pikepdf.Dictionary) and isinstance(descriptor.get("/FontFile2"), pikepdf.Stream):
            return True
    return False


def _nested_uses(resources: pikepdf.Dictionary, seen: set[tuple[int, int]]) -> Iterator[tuple[pikepdf.Dictionary, str, tuple[int, int]]]:
    """(``/Font`` resource, name, font) of each font the forms and patterns these resources name (and theirs) use."""
    for kind in ("/XObject", "/Pattern"):
        inner = resources.get(kind)
        if not isinstance(inner, pikepdf.Dictionary):
            continue
        for name in sorted(inner.keys()):
            item = inner[name]
            if not isinstance(item, (pikepdf.Stream, pikepdf.Dictionary)) or (item.is_indirect and item.objgen in seen):
                continue
            if item.is_indirect:
                seen.add(item.objgen)
            nested = item.get("/Resources")
            if not isinstance(nested, pikepdf.Dictionary):
                continue
            fonts = nested.get("/Font")
            if isinstance(fonts, pikepdf.Dictionary):
                yield from ((fonts, font, fonts[font].objgen) for font in sorted(fonts.keys()))
            yield from _nested_uses(nested, seen)
