"""Stage 2: turn every card side into HTML, and keep each distinct face once.

Faces are told apart by their identity (:class:`FaceIdentity`: everything
their pixels are made of), so 60 identical trait backs, or ten copies of a
crest, become one face rendered once and placed many times. The same
identity is the render cache's (:mod:`pnp.render.layout`), the manifest's
and ``pnp diff``'s, and the hash on the build stamp.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from types import MappingProxyType

from jinja2.sandbox import SandboxedEnvironment

from pnp import nets
from pnp.dates import build_date
from pnp.errors import Diagnostic, Level, PathRefused, Source, TemplateError
from pnp.model import Card, Component, Entry, Game
from pnp.paths import OWN, SHARED
from pnp.render.frame import STAMP_BAND, STAMP_LINE, STAMP_TYPE, frame
from pnp.render.references import hashed_references, portable
from pnp.render.templating import environment, render


@dataclass(frozen=True)
class Face:
    """One distinct card side, ready to lay out."""

    key: str
    html: str
    component: str
    trim_width: float
    trim_height: float
    bleed: float
    safe: float
    label: str
    """Which card and side first produced it, for messages."""
    ink_saver: bool = False

    @property
    def width(self) -> float:
        return self.trim_width + 2 * self.bleed

    @property
    def height(self) -> float:
        return self.trim_height + 2 * self.bleed


@dataclass(frozen=True)
class FacePlan:
    faces: tuple[Face, ...]
    copies: Mapping[str, tuple[tuple[str, str | None], ...]]
    """Per component id: each printed copy as (front face key, back face key)."""
    cards: Mapping[str, tuple[tuple[str, str, str | None], ...]]
    """Per component id: each card as (card id, front key, back key)."""
    content: Mapping[str, str] = field(default_factory=dict)
    """Face key -> the hash of its content without the build stamp (what a
    manifest records, so a new date alone is not a changed card)."""

    def content_key(self, key: str | None) -> str | None:
        return None if key is None else self.content.get(key, key)


def _entry_view(entry: Entry, game: Game) -> dict[str, object]:
    return {
        "id": entry.id,
        "name": entry.name,
        "art": entry.art.as_uri() if entry.art else None,
        "color": game.colour(entry.color) or "#000000",
        "color_name": entry.color if entry.color and not entry.color.startswith("#") else None,
        "text": entry.text or "",
    }


def _hash(*parts: object) -> str:
    digest = hashlib.sha256()
    for part in parts:
        digest.update(repr(part).encode())
    return digest.hexdigest()[:16]


class FaceIdentity:
    """A face's key: what its pixels are made of. A hash of the frame it is
    laid out in (:func:`pnp.render.frame.frame`: pnp's rules, the game's
    fonts and palette, the stylesheets of the game and of its component), of
    its HTML (its templates as rendered for its card), of the content of
    every file either names (stylesheets with what they import and refer to,
    fonts, art) and of its geometry. Every root is written as a label, so the
    same game gives the same keys (and build stamps) wherever it lies; each
    file is read once per plan, each component's frame hashed once."""

    def __init__(self, game: Game):
        self.game = game
        self.labels = labels(game)
        self.roots = [root.resolve() for _, root in self.labels]
        self.hashes: dict[Path, str] = {}
        """Each file hashed once per plan: cards show the same few pictures."""
        self.frames: dict[tuple[Path, ...], str] = {}

    def _content(self, html: str) -> tuple[str, ...]:
        return (portable(html, self.labels), *(digest for _, digest in hashed_references(html, self.roots, self.hashes)))

    def key(self, html: str, styles: tuple[Path, ...], geometry: tuple[object, ...]) -> str:
        """The key of a face showing ``html``, of a component with ``styles``."""
        if styles not in self.frames:
            self.frames[styles] = _hash(*self._content(frame(self.game, styles)))
        return _hash(self.frames[styles], *self._content(html), *geometry)


def labels(game: Game) -> list[tuple[str, Path]]:
    """Each folder a face of ``game`` may read, with the label it is written
    as in the face's key: the game folder; the folders it shares and the
    project alike (``shared0``, so a file moved from a project into a family
    folder keeps its key); pnp's own resources (``shared1``, with or without a
    project, so an installed pnp gives the keys a checkout gives)."""
    sharing = [*game.shared, *(root for root in SHARED if root != OWN)]
    return [("game", game.root), *(("shared0", root) for root in sharing), ("shared1", OWN)]


def base_context(game: Game) -> dict[str, object]:
    """What every template may use, whatever it renders."""
    return {
        "build": {"date": build_date()},
        "print": {"ink_saver": False},
        "game": {
            "id": game.id,
            "name": game.name,
            "edition": game.edition or "",
            "title": game.title,
            "version": game.version,
            "players": {"min": game.players[0], "max": game.players[1]},
            "rules": game.rules,
            "prepare": [{"need": p.need, "count": p.count, "how": p.how} for p in game.prepare],
            "assembly": [{"component": c.id, "name": c.name, "how": c.assembly} for c in game.components if c.assembly],
        },
        "sets": {name: {e.id: _entry_view(e, game) for e in entries} for name, entries in game.sets.items()},
        "set_lists": {name: [_entry_view(e, game) for e in entries] for name, entries in game.sets.items()},
        "palette": {name: swatch.screen for name, swatch in game.palette.items()},
        "asset": _asset_finder(game),
    }


def document_context(game: Game) -> dict[str, object]:
    """What a document template (a rulebook) may use: also every component and card."""
    return {
        **base_context(game),
        "components": [{"id": c.id, "name": c.name, "copies": c.copies} for c in game.components],
        "decks": _decks(game),
    }


def _decks(game: Game) -> dict[str, dict[str, object]]:
    """Every card of every component, by component and card id: what a
    template looks another card up in (a character's home, a rulebook's counts)."""
    return {c.id: {card.id: _card_view(card, game) for card in c.cards} for c in game.components}


def _asset_finder(game: Game) -> Callable[[str], str]:
    from pnp.loading.loader import file_finder

    find = file_finder(game.root, game.shared)
    found: dict[str, str] = {}
    """Each path looked up once per build: cards name the same few files."""

    def asset(relative: str) -> str:
        if relative not in found:
            try:
                path = find("art", relative)
            except PathRefused as exc:
                raise PathRefused(f"asset {relative!r} refused: {exc}; expected a file inside the game folder") from None
            if path is None:
                raise ValueError(f"asset {relative!r} not found in the game folder, the folders it shares or the project")
            found[relative] = path.as_uri()
        return found[relative]

    return asset


def _card_view(card: Card, game: Game) -> dict[str, object]:
    view: dict[str, object] = {"id": card.id, "title": card.title, "copies": card.copies}
    view.update(card.fields)
    view["entry"] = _entry_view(card.entry, game) if card.entry else None
    return view


STAMP_MIN_WIDTH = 85.0
"""Faces whose safe box is narrower than this (30 mm, in points: tokens) carry no stamp."""


STAMP_HEIGHT = STAMP_TYPE * STAMP_LINE
"""The build stamp's line, in points."""
STAMP_CLEARANCE = 0.5 * 72 / 25.4
"""At least this much (0.5 mm) between the stamp and both the trim and the safe line."""


def _stamp_html(text: str, safe: float) -> str:
    """The build stamp, centred in the band between the trim and the safe line
    at the foot of the face, where no text of the card may go, so it never
    covers any; a face whose band is too narrow for it has it at the foot of
    its safe zone, right-aligned."""
    if safe >= STAMP_HEIGHT + 2 * STAMP_CLEARANCE:
        inset = (safe - STAMP_HEIGHT) / 2
        return f'\n<div class="trim pnp-stamp-zone"><span class="pnp-stamp {STAMP_BAND}" style="bottom: {inset:.2f}pt">{text}</span></div>'
    return f'\n<div class="safe pnp-stamp-zone"><span class="pnp-stamp">{text}</span></div>'


def plan_faces(
    game: Game, components: Sequence[Component], ink_saver: bool = False, stamp: bool = False, strict: bool = False
) -> FacePlan:
    """Render every card side's HTML and keep each distinct face once.

    ``ink_saver`` is passed to templates (``print.ink_saver``) and marks each
    face (class ``pnp-ink-saver``): each game's stylesheet decides what it
    lightens. ``stamp`` adds the build stamp (game version, build date, a
    short hash of the face's content) to every face at least 30 mm wide,
    between its trim and safe line (:func:`_stamp_html`), so printed
    iterations can be told apart. ``strict``: a template that prints a field
    the card leaves out is an error at the card (:func:`pnp.render.templating.render`)."""
    env = environment(game.root, strict, game.shared)
    shared = {**base_context(game), "print": {"ink_saver": ink_saver}, "decks": _decks(game)}
    identity = FaceIdentity(game)
    stamp_text = f"v{game.version} \u00b7 {build_date()}" if stamp else None
    faces: dict[str, Face] = {}
    content: dict[str, str] = {}
    copies: dict[str, tuple[tuple[str, str | None], ...]] = {}
    cards: dict[str, tuple[tuple[str, str, str | None], ...]] = {}
    failed: dict[Diagnostic, None] = {}
    """Every card side that fails to render, each told once (a broken template
    fails the same way for every card), so one build shows them all."""
    for component in components:
        comp_view = {"id": component.id, "name": component.name, "copies": component.copies, "blank_back": game.colour(component.blank_back) or "#ffffff"}
        per_copy: list[tuple[str, str | None]] = []
        per_card: list[tuple[str, str, str | None]] = []
        for card in component.cards:
            context = {**shared, "component": comp_view, "card": _card_view(card, game), **_die_context(component, card)}
            sides: dict[str, str] = {}
            front = NET_TEMPLATE if component.net else component.front
            for side, template in (("front", front), ("back", component.back)):
                if not template:
                    continue
                try:
                    sides[side] = _face(
                        env, component, template, {**context, "side": side}, f"{component.id}/{card.id} {side}", faces, content, stamp_text, identity,
                        ink_saver, card.source,
                    )
                except TemplateError as exc:
                    failed.update(dict.fromkeys(exc.diagnostics))
                    if len(failed) >= MAX_FAILED:
                        raise TemplateError([*failed, _stopped(game)]) from None
            if failed:
                continue
            per_card.append((card.id, sides["front"], sides.get("back")))
            per_copy.extend([(sides["front"], sides.get("back"))] * card.copies)
        copies[component.id] = tuple(per_copy)
        cards[component.id] = tuple(per_card)
    if failed:
        raise TemplateError(list(failed))
    return FacePlan(tuple(faces.values()), MappingProxyType(copies), MappingProxyType(cards), MappingProxyType(content))


NET_TEMPLATE = "pnp/die-net.html"
"""pnp's template of a die's net; it draws each face with the component's front."""


def _die_context(component: Component, card: Card) -> dict[str, object]:
    """A net's layout (``net``) for pnp's net template; a die face's ``face``
    and ``face_number`` for a component made with ``faces_of``."""
    if component.net is not None:
        faces = card.fields.get(component.net.faces) or ()
        listed = faces if isinstance(faces, (list, tuple)) else ()  # six, checked by the loader
        return {"net": {**nets.view(component.net.face, component.net.tab, listed), "template": component.front}}
    if component.faces_of is not None:
        return {"face": card.fields.get("face"), "face_number": card.fields.get("face_number")}
    return {}


MAX_FAILED = 20
"""Card sides that fail to render before the rest are left untried (a
template that fails for every card, slowly, would otherwise keep a build or
a watch busy for minutes)."""


def _stopped(game: Game) -> Diagnostic:
    return Diagnostic(
        Source(game.root / "game.yaml"), "", f"stopped after {MAX_FAILED} card sides that fail to render; the other cards were not tried", Level.WARNING
    )


def _face(
    env: SandboxedEnvironment,
    component: Component,
    template: str,
    context: dict[str, object],
    label: str,
    faces: dict[str, Face],
    content: dict[str, str],
    stamp: str | None,
    identity: FaceIdentity,
    ink_saver: bool,
    source: Source | None = None,
) -> str:
    html = render(env, template, context, f"card {label} ({template})", source)
    geometry = (component.size.width, component.size.height, component.bleed, component.safe, ink_saver)
    key = content_key = identity.key(html, component.styles, geometry)
    if stamp is not None and component.size.width - 2 * component.safe >= STAMP_MIN_WIDTH:
        stamped = _stamp_html(f"{stamp} \u00b7 {content_key[:6]}", component.safe)
        html += stamped
        key = _hash(content_key, stamped)  # the stamp names no file
    content[key] = content_key
    if key not in faces:
        faces[key] = Face(
            key, html, component.id, component.size.width, component.size.height, component.bleed, component.safe, label,
            bool(ink_saver),
        )
    return key
