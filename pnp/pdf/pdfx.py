"""PDF/X-4 identification: output intent, document info and XMP metadata.

PDF/X-4 (ISO 15930-7) rather than PDF/X-1a: X-1a forbids transparency, and
every SVG gradient and every CSS opacity WeasyPrint writes is transparency.
X-4 keeps it live and lets the printer's RIP flatten it in its own colour space.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from datetime import datetime

import pikepdf
from pikepdf import Name

from pnp.colour.icc import description

PDFX4 = "PDF/X-4"


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


def mark_pdfx4(pdf: pikepdf.Pdf, title: str, when: datetime, intent: OutputIntent) -> None:
    """Give ``pdf`` its output intent and PDF/X-4 identification, deterministically."""
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
        meta["pdfxid:GTS_PDFXVersion"] = PDFX4
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
    info[Name.GTS_PDFXVersion] = PDFX4
