"""PDF/X identification: output intent, document info and XMP metadata.

PDF/X-4 (ISO 15930-7) is the default rather than PDF/X-1a: X-1a forbids
transparency, and every SVG gradient and every CSS opacity WeasyPrint writes is
transparency. X-4 keeps it live and lets the printer's RIP flatten it in its own
colour space, at its own resolution. Where a printer asks for X-1a
(DriveThruCards asks for X-1a:2003), ``--pdfx 1a`` has Ghostscript flatten it
first (:mod:`pnp.pdf.flatten`), which may turn flattened areas into images.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from datetime import datetime

import pikepdf
from pikepdf import Name

from pnp.colour.icc import description



@dataclass(frozen=True)
class Standard:
    """One PDF/X standard as a file names it."""

    name: str
    """What a profile's ``pdfx`` says, e.g. ``PDF/X-1a:2001``."""
    version: str
    """The ``GTS_PDFXVersion`` the file carries."""
    conformance: str | None
    """The ``GTS_PDFXConformance`` (only PDF/X-1:2001 has one: its level ``a``)."""
    pdf_version: str
    """The PDF version the file is written as: the highest the standard allows."""
    flat: bool
    """No transparency and only device colour (the X-1a family)."""


STANDARDS = {
    s.name: s
    for s in (
        Standard("PDF/X-4", "PDF/X-4", None, "1.6", False),
        Standard("PDF/X-1a:2003", "PDF/X-1a:2003", None, "1.4", True),
        Standard("PDF/X-1a:2001", "PDF/X-1:2001", "PDF/X-1a:2001", "1.3", True),
    )
}
"""The standards a print profile may name in its ``pdfx``."""


@dataclass(frozen=True)
class OutputIntent:
    """The printing condition a file is made for, with its ICC profile."""

    condition: str
    """Registered condition identifier, e.g. ``FOGRA39``."""
    info: str
    profile: bytes


def output_intent(condition: str, profile_path: object) -> OutputIntent:
    from pathlib import Path

    path = Path(str(profile_path))
    return OutputIntent(condition, description(path), path.read_bytes())


def mark_pdfx(pdf: pikepdf.Pdf, title: str, when: datetime, intent: OutputIntent, standard: Standard) -> None:
    """Give ``pdf`` its output intent and ``standard``'s identification, deterministically."""
    profile = pdf.make_stream(intent.profile)
    profile.N = 4
    pdf.Root.OutputIntents = pikepdf.Array(
        [
            pikepdf.Dictionary(
                Type=Name.OutputIntent,
                S=Name.GTS_PDFX,
                OutputConditionIdentifier=intent.condition,
                OutputCondition=intent.info,
                RegistryName="http://www.color.org",
                Info=intent.info,
                DestOutputProfile=profile,
            )
        ]
    )
    stamp = when.strftime("D:%Y%m%d%H%M%SZ")
    iso = when.strftime("%Y-%m-%dT%H:%M:%SZ")
    digest = hashlib.sha256(f"{title}|{iso}|{len(pdf.pages)}".encode()).hexdigest()
    uuid = f"uuid:{digest[:8]}-{digest[8:12]}-{digest[12:16]}-{digest[16:20]}-{digest[20:32]}"
    with pdf.open_metadata(set_pikepdf_as_editor=False, update_docinfo=False) as meta:
        meta["dc:title"] = title
        meta["xmp:CreatorTool"] = "pnp"
        meta["xmp:CreateDate"] = iso
        meta["xmp:ModifyDate"] = iso
        meta["xmp:MetadataDate"] = iso
        meta["pdf:Producer"] = "pnp (pikepdf)"
        meta["pdf:Trapped"] = "False"
        meta["pdfxid:GTS_PDFXVersion"] = standard.version
        meta["xmpMM:DocumentID"] = uuid
        meta["xmpMM:InstanceID"] = uuid
        meta["xmpMM:VersionID"] = "1"
        meta["xmpMM:RenditionClass"] = "default"
    info = pdf.docinfo
    info[Name.Title] = title
    info[Name.Creator] = "pnp"
    info[Name.Producer] = "pnp (pikepdf)"
    info[Name.CreationDate] = stamp
    info[Name.ModDate] = stamp
    info[Name.Trapped] = Name("/False")
    info[Name.GTS_PDFXVersion] = standard.version
    if standard.conformance is not None:  # PDF/X-1:2001 names its level in Info only
        info[Name.GTS_PDFXConformance] = standard.conformance
