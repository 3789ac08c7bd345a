"""One object per picture in a PDF: equal XObjects merged.

Faces are laid out in many documents, each holding its own copy of every
picture it shows (a raster image, an SVG picture's form:
:mod:`pnp.render.artforms`). Imposed into one PDF they would all be kept.
:func:`share_xobjects` points every use at one of them: two XObjects are the
same when their stream bytes and dictionaries are, with what they refer to
compared the same way (a picture's form with its gradients, a mask with its
image), so only what draws the same is merged.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable

import pikepdf


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
