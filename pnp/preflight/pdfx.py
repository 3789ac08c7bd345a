"""Document identification: a /GTS_PDFX output intent with a CMYK ICC profile, and the
PDF/X version in the Info dictionary and the XMP metadata with Info /Trapped set."""

from __future__ import annotations

import pikepdf


def output_intent_problems(pdf: pikepdf.Pdf) -> list[str]:
    """Why the catalog lacks a /GTS_PDFX output intent with a CMYK profile; empty when it has one."""
    intents = pdf.Root.get("/OutputIntents")
    if not isinstance(intents, pikepdf.Array) or len(intents) == 0:
        return ["the catalog has no /OutputIntents"]
    found = [i for i in intents if isinstance(i, pikepdf.Dictionary)]
    pdfx = [i for i in found if i.get("/S") == pikepdf.Name.GTS_PDFX]
    if not pdfx:
        kinds = ", ".join(str(i.get("/S")) for i in found) or "none"
        return [f"no output intent has /S /GTS_PDFX (found: {kinds})"]
    profile = pdfx[0].get("/DestOutputProfile")
    if not isinstance(profile, pikepdf.Stream):
        return ["the /GTS_PDFX output intent has no /DestOutputProfile ICC stream"]
    components = profile.get("/N")
    if components != 4:
        return [f"the /GTS_PDFX output profile has /N {components}; a CMYK profile (/N 4) is needed"]
    header = profile.read_bytes()[:20]
    if header[16:20] != b"CMYK":
        return [f"the /GTS_PDFX output profile says /N 4 but its ICC header declares colour space {header[16:20]!r}"]
    return []


def pdfx_problems(pdf: pikepdf.Pdf, version: str, conformance: str | None = None) -> list[str]:
    """Where the file does not identify itself as PDF/X ``version`` (and, given one,
    Info /GTS_PDFXConformance ``conformance``), or lacks Info /Trapped."""
    info = pdf.trailer.get("/Info")
    info = info if isinstance(info, pikepdf.Dictionary) else pikepdf.Dictionary()
    out = []
    found = info.get("/GTS_PDFXVersion")
    if found is None:
        out.append(f"the Info dictionary has no /GTS_PDFXVersion; expected {version!r}")
    elif str(found) != version:
        out.append(f"the Info dictionary has /GTS_PDFXVersion {str(found)!r}; expected {version!r}")
    level = info.get("/GTS_PDFXConformance")
    if conformance is not None and (level is None or str(level) != conformance):
        shown = "no /GTS_PDFXConformance" if level is None else f"/GTS_PDFXConformance {str(level)!r}"
        out.append(f"the Info dictionary has {shown}; expected {conformance!r}")
    try:
        xmp = pdf.open_metadata(set_pikepdf_as_editor=False, update_docinfo=False).get("pdfxid:GTS_PDFXVersion")
    except Exception as exc:  # noqa: BLE001 - a malformed XMP packet is a finding, not a crash
        out.append(f"the XMP metadata cannot be read: {exc}")
    else:
        if xmp is None:
            out.append(f"the XMP metadata has no pdfxid:GTS_PDFXVersion; expected {version!r}")
        elif str(xmp) != version:
            out.append(f"the XMP metadata has pdfxid:GTS_PDFXVersion {str(xmp)!r}; expected {version!r}")
    trapped = info.get("/Trapped")
    if trapped not in (pikepdf.Name("/True"), pikepdf.Name("/False")):
        shown = "missing" if trapped is None else str(trapped)
        out.append(f"the Info dictionary /Trapped is {shown}; /True or /False is needed")
    return out
