"""One object per picture in a PDF: equal XObjects merged.

Faces are laid out in many documents, each holding its own copy of every
picture it shows (a raster image, an SVG picture's form:
:mod:`pnp.render.artforms`). Imposed into one PDF they would all be kept.
:func:`share_xobjects` points every use at one of them: two XObjects are the
same when their stream bytes and dictionaries are, with what they refer to
compared the same way (a picture's form with its gradients, a mask with its
image), so only what draws the same is merged.

:class:`ArtFold` merges them sooner, as each face document is copied in
(issue 41): a picture met before is taken out of the document's resources
before the copy and pointed at the kept one after, so an imposition of
thousands of faces never holds every document's copy. What it cannot
judge alone (a picture naming fonts, which :mod:`pnp.pdf.fold` folds) is
copied and left to :func:`share_xobjects`: either way one object per
distinct picture, each use pointing at it. The copy kept is the first
copied, where :func:`share_xobjects` alone keeps the first its walk meets
(from the last page: a copy made last); what the kept copy shares with its
own document (WeasyPrint's colour spaces) then hangs off another face's
resources, so object numbers differ from merging at the end, not what any
page draws. (Keeping the copy the walk would meet means holding them all.)
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable, Sequence

import pikepdf

Taken = dict[str, bytes]
"""Name -> digest of each picture in one ``/XObject`` resource, to settle in its copy (:meth:`ArtFold.restore`)."""


def share_xobjects(pdf: pikepdf.Pdf, distinct: Iterable[pikepdf.Object] = ()) -> int:
    """Point every page's and form's XObject resources at one object per
    distinct XObject; return how many uses were redirected. The copies left
    unused are not written (qpdf writes only what a page reaches).
    ``distinct``: XObjects known to differ from every other (each face's
    form), whose contents are compared but not they themselves: hashing
    thousands of faces with all they refer to would only hold memory."""
    skipped = {x.objgen for x in distinct}
    digests: dict[tuple[int, int], bytes] = {}
    first: dict[bytes, pikepdf.Object] = {}
    seen: set[tuple[int, int]] = set()
    moved = 0
    pending = [page.obj.get("/Resources") for page in pdf.pages]
    while pending:
        resources = pending.pop()
        if not isinstance(resources, pikepdf.Dictionary) or _visited(resources, seen):
            continue
        xobjects = resources.get("/XObject")
        if not isinstance(xobjects, pikepdf.Dictionary) or _visited(xobjects, seen):
            continue
        for name in sorted(xobjects.keys()):  # a set: in the order of names, the same in every process
            xobject = xobjects[name]
            if not isinstance(xobject, pikepdf.Stream) or not xobject.is_indirect:
                continue
            if xobject.objgen in skipped:
                pending.append(xobject.get("/Resources"))
                continue
            kept = first.setdefault(_digest(xobject, digests), xobject)
            if kept.objgen != xobject.objgen:
                xobjects[name] = kept
                moved += 1
            pending.append(kept.get("/Resources"))
    return moved


class ArtFold:
    """The pictures of an imposed PDF, kept once as documents are copied in."""

    def __init__(self) -> None:
        self.kept: dict[bytes, pikepdf.Object] = {}
        """The first copy of each picture, by digest (:func:`_digest`)."""

    def take(self, resources: Sequence[pikepdf.Object | None]) -> list[Taken]:
        """Before one document's pages are copied (given by their
        ``/Resources``): take out of each the pictures a document copied
        before brought; return, for each, what to settle in its copy."""
        digests: dict[tuple[int, int], bytes] = {}
        found: dict[tuple[int, int], Taken] = {}
        taken: list[Taken] = []
        for page in resources:
            xobjects = page.get("/XObject") if isinstance(page, pikepdf.Dictionary) else None
            if not isinstance(page, pikepdf.Dictionary) or not isinstance(xobjects, pikepdf.Dictionary):
                taken.append({})
                continue
            key = xobjects.objgen if xobjects.is_indirect else page.objgen
            if key not in found or key == (0, 0):
                found[key] = self._taken(xobjects, digests)
            taken.append(found[key])
        return taken

    def _taken(self, xobjects: pikepdf.Dictionary, digests: dict[tuple[int, int], bytes]) -> Taken:
        names: Taken = {}
        for name in sorted(xobjects.keys()):
            xobject = xobjects[name]
            if not isinstance(xobject, pikepdf.Stream) or not xobject.is_indirect or _names_fonts(xobject, set()):
                continue
            names[name] = _digest(xobject, digests)
            if names[name] in self.kept:
                del xobjects[name]
        return names

    def restore(self, resources: pikepdf.Object, taken: Taken) -> None:
        """Settle a copied page's or form's resources (:meth:`take`): each
        picture copied with it is kept, if the first; each taken out points
        at the kept one. (Settling twice changes nothing.)"""
        xobjects = resources.get("/XObject") if taken else None
        if not isinstance(xobjects, pikepdf.Dictionary):
            return
        for name, digest in taken.items():
            if name in xobjects:
                self.kept.setdefault(digest, xobjects[name])
        for name, digest in taken.items():
            if name not in xobjects:
                xobjects[name] = self.kept[digest]


def _names_fonts(node: pikepdf.Object, seen: set[tuple[int, int]]) -> bool:
    """Whether an XObject, or a form or pattern inside it, names a font."""
    resources = node.get("/Resources")
    if not isinstance(resources, pikepdf.Dictionary):
        return False
    if "/Font" in resources:
        return True
    for kind in ("/XObject", "/Pattern"):
        inner = resources.get(kind)
        for item in inner.values() if isinstance(inner, pikepdf.Dictionary) else ():
            if not isinstance(item, (pikepdf.Stream, pikepdf.Dictionary)) or (item.is_indirect and _visited(item, seen)):
                continue
            if _names_fonts(item, seen):
                return True
    return False


def _visited(node: pikepdf.Object, seen: set[tuple[int, int]]) -> bool:
    if not node.is_indirect:
        return False
    if node.objgen in seen:
        return True
    seen.add(node.objgen)
    return False


def _digest(node: pikepdf.Object, memo: dict[tuple[int, int], bytes]) -> bytes:
    """A hash of ``node`` and everything it refers to, whatever their object numbers."""
    if not isinstance(node, pikepdf.Object):  # pikepdf gives numbers, booleans and null as Python's
        return hashlib.sha256(repr((type(node).__name__, node)).encode()).digest()
    if node.is_indirect:
        if node.objgen in memo:
            return memo[node.objgen]
        memo[node.objgen] = b"cycle:" + repr(node.objgen).encode()  # a loop stays unmerged
    digest = hashlib.sha256()
    if isinstance(node, pikepdf.Stream):
        digest.update(b"stream" + _digest(node.stream_dict, memo) + node.read_raw_bytes())
    elif isinstance(node, pikepdf.Dictionary):
        digest.update(b"dict")
        for key in sorted(node.keys()):
            if key != "/Length":
                digest.update(key.encode() + b"=" + _digest(node[key], memo))
    elif isinstance(node, pikepdf.Array):
        digest.update(b"array")
        for item in node:
            digest.update(_digest(item, memo))
    else:
        digest.update(b"atom" + node.unparse(resolved=True))
    value = digest.digest()
    if node.is_indirect:
        memo[node.objgen] = value
    return value
