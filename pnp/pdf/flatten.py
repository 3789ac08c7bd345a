"""Flatten a print PDF's transparency with Ghostscript, for PDF/X-1a.

Ghostscript's pdfwrite, told the output cannot hold transparency
(``-dHaveTransparency=false``), composites every page that has any into plain
CMYK: where it cannot keep vectors it draws the page (or the affected area) as
a CMYK image at the given resolution, text included. Colours are already CMYK
(the export converted them with the palette and the ICC profile); the page
blends in the CMYK groups :mod:`pnp.colour.convert` made, and DeviceCMYK and
spot colours pass through unchanged (``-sColorConversionStrategy=CMYK``).

The TrimBox and BleedBox are put back from the source pages, Ghostscript's
own metadata is dropped (the caller marks the file), and :class:`Flattening`
says which pages held transparency and which came out with new images, for
the user to check.
"""

from __future__ import annotations

import io
import shutil
import subprocess
import tempfile
from dataclasses import dataclass
from pathlib import Path

import pikepdf
from pikepdf import Name

from pnp.errors import BuildError
from pnp.preflight.flat import transparency
from pnp.words import count


@dataclass(frozen=True)
class Flattening:
    """What flattening one file did."""

    transparent: tuple[int, ...]
    """The pages (numbered from 1) that held transparency."""
    rasterised: tuple[int, ...]
    """The pages that came out with more images than they went in with: drawn, at least in part, as pixels."""
    dpi: int
    """The resolution Ghostscript drew them at."""
    layers: tuple[str, ...] = ()
    """The names of the optional-content layers (such as the die line's) merged into the page:
    PDF/X-1a is PDF 1.3 or 1.4, which have none; what they held is kept, on the page."""

    def note(self, name: str) -> str | None:
        """What to tell the user, or None when nothing was flattened."""
        said = None
        if self.layers:
            said = f"{name}: PDF/X-1a has no layers: {', '.join(self.layers)} now on the page itself (spot colours kept)"
        if not self.transparent:
            return said
        said = (said + "; " if said else f"{name}: ") + f"flattened the transparency of {count(len(self.transparent), 'page')} ({pages(self.transparent)})"
        image = f"partly or wholly a {self.dpi} ppi image, text included: check {'it' if len(self.rasterised) == 1 else 'them'}"
        if self.rasterised == self.transparent:
            said += f"; {'it is' if len(self.rasterised) == 1 else 'each is'} now {image}"
        elif self.rasterised:
            said += f"; {pages(self.rasterised)} {'is' if len(self.rasterised) == 1 else 'are'} now {image}"
        return said


def pages(numbers: tuple[int, ...]) -> str:
    """``1, 3-5, 9``: page numbers with runs joined."""
    runs: list[list[int]] = []
    for n in numbers:
        if runs and n == runs[-1][-1] + 1:
            runs[-1].append(n)
        else:
            runs.append([n])
    words = [str(r[0]) if len(r) == 1 else f"{r[0]}-{r[-1]}" for r in runs]
    return ("page " if len(numbers) == 1 else "pages ") + ", ".join(words)


def flatten(pdf: pikepdf.Pdf, pdf_version: str, dpi: int) -> tuple[pikepdf.Pdf, Flattening]:
    """``pdf`` with its transparency flattened, written as ``pdf_version``;
    the returned PDF is read into memory, independent of any file."""
    gs = shutil.which("gs")
    if gs is None:
        raise BuildError("PDF/X-1a: flattening transparency needs Ghostscript (gs); install ghostscript (scripts/system-deps.sh build)")
    transparent = tuple(n for n, page in enumerate(pdf.pages, 1) if transparency(page.obj))
    properties = pdf.Root.get(Name.OCProperties)
    groups = properties.get(Name.OCGs, ()) if isinstance(properties, pikepdf.Dictionary) else ()
    layers = tuple(str(group.get(Name.Name, "unnamed")) for group in groups)
    before = [_images(page) for page in pdf.pages]
    with tempfile.TemporaryDirectory(prefix="pnp-flatten-") as tmp:
        source, target = Path(tmp) / "in.pdf", Path(tmp) / "out.pdf"
        pdf.save(source)
        command = [
            gs, "-dSAFER", "-dBATCH", "-dNOPAUSE", "-dQUIET", "-sDEVICE=pdfwrite",
            f"-dCompatibilityLevel={pdf_version}", "-dHaveTransparency=false",
            "-sColorConversionStrategy=CMYK", "-sProcessColorModel=DeviceCMYK",
            "-dAutoRotatePages=/None", f"-r{dpi}", f"-sOutputFile={target}", str(source),
        ]
        done = subprocess.run(command, check=False, capture_output=True, text=True)
        if done.returncode != 0 or not target.is_file():
            detail = (done.stderr or done.stdout).strip().splitlines()[-1:] or ["no message"]
            raise BuildError(f"PDF/X-1a: Ghostscript could not flatten the file: {detail[0]}")
        flat = pikepdf.open(io.BytesIO(target.read_bytes()))  # in memory: the folder goes away
    if len(flat.pages) != len(pdf.pages):
        raise BuildError(f"PDF/X-1a: Ghostscript wrote {len(flat.pages)} pages for {len(pdf.pages)}")
    for old, new in zip(pdf.pages, flat.pages):
        for box in (Name.TrimBox, Name.BleedBox):
            if box in old.obj:
                new.obj[box] = pikepdf.Array([float(v) for v in old.obj[box]])
    if Name.Metadata in flat.Root:
        del flat.Root[Name.Metadata]
    for key in list(flat.docinfo.keys()):
        del flat.docinfo[key]
    rasterised = tuple(n for n, (page, was) in enumerate(zip(flat.pages, before), 1) if _images(page) > was)
    return flat, Flattening(transparent, rasterised, dpi, layers)


def _images(page: pikepdf.Page) -> int:
    """Image XObjects a page's resources reach (through forms), each counted once."""
    seen: set[tuple[int, int]] = set()

    def walk(resources: object) -> int:
        if not isinstance(resources, pikepdf.Dictionary):
            return 0
        found = 0
        for obj in resources.get(Name.XObject, {}).values():
            if obj.objgen in seen:
                continue
            seen.add(obj.objgen)
            found += 1 if obj.get(Name.Subtype) == Name.Image else walk(obj.get(Name.Resources))
        return found

    return walk(page.obj.get(Name.Resources))
