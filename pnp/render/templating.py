"""Jinja2 in its sandbox, with every error traced to a template line and card."""

from __future__ import annotations

import hashlib
import pickle
import re
import traceback
import types
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import TypedDict

import jinja2
import jinja2.bccache
import markupsafe
from jinja2.sandbox import SandboxedEnvironment

from pnp.errors import Diagnostic, Source, TemplateError
from pnp.paths import SHARED, confined, readable, way_out
from pnp.render import budget
from pnp.render.fit import FitError, mark
from pnp.render.markup import first_problem
from pnp.svgsize import SvgRefused, check_inline_svg

class _Options(TypedDict):
    autoescape: bool
    trim_blocks: bool
    lstrip_blocks: bool


OPTIONS: _Options = {"autoescape": True, "trim_blocks": True, "lstrip_blocks": True}

ICON = re.compile(r"(?<![\w:]):([a-z0-9][a-z0-9-]*(?:\.[a-z0-9][a-z0-9-]*)?):(?![\w:])")
"""``:gem:`` or, where two sets share an id, ``:symbols.gem:``; a token standing
alone (``10:30`` or ``a:b:`` are text)."""


class UnknownIcon(ValueError):
    """An ``icons`` token that names no entry (with art) of the game's sets."""


@jinja2.pass_context
def icons(context: jinja2.runtime.Context, text: object) -> markupsafe.Markup:
    """``{{ card.text | icons }}``: the text, escaped, with each ``:id:`` token
    (an entry of one of the game's sets, ``:set.id:`` where ids repeat across
    sets) drawn as the entry's art, inline and as tall as the text (class
    ``pnp-icon``; its name is the image's alt text)."""
    sets: Mapping[str, Mapping[str, Mapping[str, object]]] = context.get("sets") or {}

    def swap(match: re.Match[str]) -> str:
        token = match.group(1)
        set_name, _, entry_id = token.rpartition(".")
        found = [(n, entries[entry_id]) for n, entries in sets.items() if entry_id in entries and set_name in ("", n)]
        if len(found) != 1 or not found[0][1].get("art"):
            known = sorted({f":{i}:" for entries in sets.values() for i, e in entries.items() if e.get("art")})
            why = (f"is in several sets ({', '.join(n for n, _ in found)}); write :set.{entry_id}:" if len(found) > 1
                   else "has no art" if found else "names no entry of the game's sets")
            raise UnknownIcon(f"icon :{token}: {why}; expected one of {', '.join(known) or 'none (no set entry has art)'}")
        entry = found[0][1]
        return str(markupsafe.Markup('<img class="pnp-icon" src="{}" alt="{}">').format(entry["art"], entry.get("name") or entry_id))

    return markupsafe.Markup(ICON.sub(swap, str(markupsafe.escape("" if text is None else text))))


FILTERS: dict[str, Callable[..., object]] = {"sign": lambda value: "+" if value > 0 else "\u2013" if value < 0 else "0", "icons": icons}


def environment(game_root: Path, strict: bool = False, shared: Sequence[Path] = ()) -> SandboxedEnvironment:
    """Templates come from the game's templates/ first, then those of the
    folders it ``shared``, the project's, then pnp's own.

    ``{{ ... }}`` of a value that is None (an optional field the card leaves
    out) prints nothing, or (``strict``) is an error (:class:`LeftOut`).

    Compiled templates come from Jinja's bytecode cache, which checks each
    against its source, so a new environment per build costs little and never
    holds a template from before an edit."""
    roots = [(folder, "templates") for folder in (game_root, *shared, *SHARED) if (folder / "templates").is_dir()]
    env = _Sandbox(
        loader=_ConfinedLoader(roots),
        undefined=jinja2.StrictUndefined,
        bytecode_cache=_bytecode_cache(),
        finalize=_refuse_none if strict else _blank_if_none,
        **OPTIONS,
    )
    env.filters.update(FILTERS)
    env.globals["range"] = budget.budget_range
    env.roots = tuple(root.resolve() for root in readable(game_root, shared))
    return env


def _blank_if_none(value: object) -> object:
    """What ``{{ ... }}`` prints: an optional field a card leaves out (None)
    prints nothing, never the word "None"."""
    return "" if value is None else value


class LeftOut(ValueError):
    """Under --strict: a template prints a value that is None."""


def _refuse_none(value: object) -> object:
    if value is None:
        raise LeftOut("a template prints a value that is left out")
    return value


MAX_TEXT = 1_000_000
"""Characters (or items) one ``*`` in a template may make: ``'x' * 10**10``
would take the machine's memory."""


class _Sandbox(SandboxedEnvironment):
    """Jinja's sandbox, which already refuses unsafe attributes and ranges of
    more than 100,000 items, with the two operators that can make huge values
    in one step bounded too, and every loop counted against one budget
    (:mod:`pnp.render.budget`)."""

    intercepted_binops = frozenset({"*", "**"})
    roots: tuple[Path, ...] = ()
    """The folders the renderer may read, the game's first: what the markup a
    template writes may name (:mod:`pnp.render.markup`)."""
    judged: dict[str, str | None]

    def __init__(self, **options: object) -> None:
        super().__init__(**options)
        self.judged = {}

    def _parse(self, source: str, name: str | None, filename: str | None) -> jinja2.nodes.Template:
        return budget.count_loops(super()._parse(source, name, filename))

    def call_binop(self, context: jinja2.runtime.Context, operator: str, left: object, right: object) -> object:
        if operator == "**" and isinstance(left, int) and isinstance(right, int) and abs(left) > 1:
            if right * abs(left).bit_length() > 4096:
                raise jinja2.exceptions.SecurityError(f"{left} ** {right} is too large a number for a template")
        if operator == "*":
            for many, count in ((left, right), (right, left)):
                if isinstance(many, (str, list, tuple)) and isinstance(count, int) and len(many) * count > MAX_TEXT:
                    raise jinja2.exceptions.SecurityError(
                        f"a text or list of {len(many)} times {count} is more than {MAX_TEXT:,} long; expected a template's text to be shorter"
                    )
        return budget.charge_made(super().call_binop(context, operator, left, right))


class _ConfinedLoader(jinja2.FileSystemLoader):
    """Jinja's file loader, but a template is read only when it is a regular
    file whose real location (links followed) lies inside the ``templates/``
    it is looked up in and that folder's own folder (the game's, the
    project's): a link to a file elsewhere, or a ``templates`` that is a link
    out of the game folder, is refused before it is opened."""

    def __init__(self, roots: Sequence[tuple[Path, str]]):
        super().__init__([str(folder / sub) for folder, sub in roots])
        self.roots = tuple(roots)

    def get_source(self, environment: jinja2.Environment, template: str) -> tuple[str, str, Callable[[], bool]]:
        pieces = jinja2.loaders.split_template_path(template)
        for folder, sub in self.roots:
            candidate = Path(folder, sub, *pieces)
            if candidate.is_file():
                if confined(candidate, [(folder, sub)]) is None:
                    how = way_out(candidate, folder) or "a link?"
                    raise jinja2.exceptions.SecurityError(
                        f"template {template!r} lies outside the game's and the project's templates/ ({how}); "
                        "expected a file inside them"
                    )
                break
        return super().get_source(environment, template)


class _BytecodeCache(jinja2.FileSystemBytecodeCache):
    """Compiled templates are a speed-up only: an entry that cannot be read
    (damaged) or written (a full or read-only temporary folder) means
    compiling the template, never a failed build."""

    def load_bytecode(self, bucket: jinja2.bccache.Bucket) -> None:
        try:
            super().load_bytecode(bucket)
        except (OSError, EOFError, ValueError, TypeError, pickle.UnpicklingError):
            bucket.reset()

    def dump_bytecode(self, bucket: jinja2.bccache.Bucket) -> None:
        try:
            super().dump_bytecode(bucket)
        except OSError:
            pass


def _bytecode_cache() -> jinja2.BytecodeCache | None:
    """Compiled templates kept between runs, in Jinja's own per-user folder
    under the system's temporary directory. Jinja checks each entry against
    its template's source; the file names carry what else the compiled code
    depends on (Jinja's version, these options, the filters) so no other
    setting's code is ever reused."""
    depends = [jinja2.__version__, "sandboxed", budget.COUNTED, sorted(_Sandbox.intercepted_binops), sorted(OPTIONS.items()), sorted(FILTERS)]
    tag = hashlib.sha256(repr(depends).encode()).hexdigest()[:12]
    try:
        return _BytecodeCache(pattern=f"pnp-{tag}-%s.cache")
    except (RuntimeError, OSError):  # no safe temporary folder: compile every time
        return None


def render(env: SandboxedEnvironment, name: str, context: Mapping[str, object], what: str, source: Source | None = None) -> str:
    """Render template ``name``; ``what`` names the card for error messages,
    ``source`` is where the card is written (where a field it leaves out but
    a template prints under --strict is reported)."""
    where = name
    try:
        template = env.get_template(name)
        where = template.filename or name
        budget.start()
        text = budget.check_output(template.generate(context))  # type: ignore[arg-type]  # a generator, typed as an iterator
        check_inline_svg(text)
        if "data-fit-" in text:
            mark(text)  # both sizes, each a length
        found = first_problem(text, env.roots, env.judged) if isinstance(env, _Sandbox) and env.roots else None
        if found is None:
            return text
    except FitError as exc:
        line = _line_of(where, "data-fit-")
        raise TemplateError([Diagnostic(source or Source(Path(where), line, 1), "", f"{what}: {exc} ({where}:{line})")]) from None
    except SvgRefused as exc:
        raise TemplateError([Diagnostic(Source(Path(where), _line_of(where, "<use"), 1), "", f"while rendering {what}: {exc}")]) from None
    except jinja2.TemplateSyntaxError as exc:
        file = Path(exc.filename or name)
        raise TemplateError([Diagnostic(Source(file, exc.lineno, 1), "", f"template syntax error: {exc.message}")]) from None
    except LeftOut as exc:
        raise TemplateError([_left_out(exc, where, context, what, source)]) from None
    except UnknownIcon as exc:
        file, line = _template_frame(exc, where)
        raise TemplateError([Diagnostic(source or Source(file, line, 1), "", f"{what}: {exc} (printed by {file}:{line})")]) from None
    except (RecursionError, MemoryError) as exc:
        file, line = _template_frame(exc, where)
        problem = "templates call themselves too deeply (a macro or include that never ends?)" if isinstance(exc, RecursionError) else "out of memory"
        raise TemplateError([Diagnostic(Source(file, line, 1), "", f"while rendering {what}: {problem}")]) from None
    except Exception as exc:  # whatever a template line raises (1 // 0 too) is this card's error at that line
        file, line = _template_frame(exc, where)
        raise TemplateError([Diagnostic(Source(file, line, 1), "", f"while rendering {what}: {_told(exc)}")]) from None
    file, line = _written_at(env, name, context, found[0])
    raise TemplateError([Diagnostic(Source(file, line, 1), "", f"while rendering {what}: {found[1]}")])


def _told(exc: Exception) -> str:
    """What went wrong, for a designer: Jinja's and pnp's own messages
    (written for one) as they are, anything else with its kind
    (``ZeroDivisionError: division by zero``)."""
    if isinstance(exc, jinja2.TemplateNotFound):
        return f"template {exc.name!r} not found; expected a file in the game's or the project's templates/"
    if isinstance(exc, (jinja2.TemplateError, ValueError, TypeError)):
        return str(exc)
    return f"{type(exc).__name__}: {exc}"


def _written_at(env: SandboxedEnvironment, name: str, context: Mapping[str, object], offset: int) -> tuple[Path, int]:
    """The template file and line that wrote character ``offset`` of
    ``name``'s output for ``context``: the render is run again, up to there,
    and the innermost template it is in says where it is (found only when
    something is wrong, so no render pays for it)."""
    template = env.get_template(name)
    budget.start()
    chunks = template.generate(context)
    written = 0
    try:
        for chunk in chunks:
            written += len(chunk)
            if written > offset:
                return _writing(env, chunks, chunk, offset - (written - len(chunk)))  # type: ignore[arg-type]
    finally:
        chunks.close()  # type: ignore[attr-defined]
    return Path(template.filename or name), 0


def _writing(env: SandboxedEnvironment, generator: types.GeneratorType[str, None, None], chunk: str, within: int) -> tuple[Path, int]:
    """The template line of character ``within`` of ``chunk``, which a
    paused render has just written. Jinja's code for a template runs an
    extended one or a block with ``yield from``, an ``{% include %}``
    through its local ``gen``; it knows the line of each tag and expression,
    and a template's plain text is written as a constant of its code, found
    in the template's source from that line on."""
    while True:
        inner = generator.gi_yieldfrom or (generator.gi_frame.f_locals.get("gen") if generator.gi_frame else None)
        if not isinstance(inner, types.GeneratorType):
            break
        generator = inner
    frame = generator.gi_frame
    if frame is None or "name" not in frame.f_globals:
        return Path("?"), 0
    template = env.get_template(frame.f_globals["name"])
    file = Path(template.filename or frame.f_globals["name"])
    line = template.get_corresponding_lineno(frame.f_lineno)
    if chunk in frame.f_code.co_consts:
        try:
            source = file.read_text(encoding="utf-8")
        except (OSError, ValueError):
            return file, line
        start = sum(len(text) for text in source.splitlines(keepends=True)[: line - 1])
        at = source.find(chunk, start)
        if at >= 0:
            line = source.count("\n", 0, at + within) + 1
    return file, line


def _left_out(exc: LeftOut, where: str, context: Mapping[str, object], what: str, source: Source | None) -> Diagnostic:
    """Which of the card's left-out fields the template line prints, at the card."""
    file, line = _template_frame(exc, where)
    try:
        text = Path(file).read_text(encoding="utf-8").splitlines()[line - 1]
    except (OSError, ValueError, IndexError):
        text = ""
    card = context.get("card")
    names = [f"card.{k}" for k, v in card.items() if v is None and re.search(rf"\bcard\.{re.escape(k)}\b", text)] if isinstance(card, Mapping) else []
    printed = " or ".join(names) or "a value that is left out (None)"
    return Diagnostic(
        source or Source(file, line, 1), "",
        f"{what}: {file}:{line} prints {printed}, which this card leaves out; with --strict a printed field must be given "
        "(give it a value, or print it only inside {% if ... %}); without --strict it prints nothing",
    )


def _template_frame(exc: BaseException, name: str) -> tuple[Path, int]:
    """The innermost traceback frame that belongs to a template file."""
    found = (Path(name), 0)
    for frame in traceback.extract_tb(exc.__traceback__):
        if frame.filename.endswith((".html", ".svg", ".j2", ".css", ".jinja")):
            found = (Path(frame.filename), frame.lineno or 0)
    return found



def _line_of(file: str, text: str) -> int:
    """The first line of template ``file`` holding ``text`` (1 when none does:
    the markup came from the card's data)."""
    try:
        source = Path(file).read_text(encoding="utf-8")
    except (OSError, ValueError):
        return 1
    at = source.find(text)
    return source.count("\n", 0, at) + 1 if at >= 0 else 1
