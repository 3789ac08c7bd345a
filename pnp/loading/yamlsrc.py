"""YAML read safely, with the line and column of every value kept.

``yaml.safe_load`` forgets where values came from. Here the node tree is
composed with PyYAML's safe loader and converted by hand, so that each value's
key path maps to its 1-based line and column, duplicate keys are caught, and
alias bombs are cut off by a node budget. Nesting deeper than
:data:`MAX_DEPTH` is refused before the tree is built (composing it recurses,
and a deep enough file would crash the process).

Plain scalars follow YAML 1.2's core schema, not PyYAML's YAML 1.1: ``010``
is ten (not eight), ``yes`` and ``on`` are text, ``2026-01-01`` is text, and a
number's text as written is kept (:attr:`Document.raw`), so a text field
given ``1.10`` or ``0123`` reads exactly that, and a number field can refuse
``010``, which the two versions read differently (:mod:`pnp.schema.scalars`).
Merge keys (``<<: *base``) are worked in, each use counted by the budget.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import date
from pathlib import Path
from typing import TypeAlias, TypeVar, Union

import re

import yaml

from pnp.errors import Diagnostic, InputError, Source
from pnp.paths import confined, way_out

KeyPath = tuple[str | int, ...]

Scalar: TypeAlias = str | int | float | bool | bytes | date | None
"""A YAML scalar as the safe loader reads it (``!!binary`` gives bytes,
``!!timestamp`` a date); core-schema plain scalars are text, numbers, booleans and null."""

Yaml: TypeAlias = Union[Scalar, list["Yaml"], dict[str | int, "Yaml"]]
"""A value read from a YAML file: a scalar, or a list or mapping of values
(keys are text or whole numbers). The schema (:mod:`pnp.schema`) checks such
values into the model's own types; nothing after it sees them."""

Loader: TypeAlias = "yaml.SafeLoader | yaml.CSafeLoader"
LoaderType: TypeAlias = "type[yaml.SafeLoader] | type[yaml.CSafeLoader]"

MAX_NODES = 200_000
"""Values one file may expand to (aliases counted each time they are used)."""

MAX_BYTES = 4 * 1024 * 1024

MAX_DEPTH = 64
"""Lists and mappings inside each other, at most."""


_MERGE = "tag:yaml.org,2002:merge"


def _core_schema(loader: LoaderType) -> LoaderType:
    """``loader`` with YAML 1.2 core-schema resolution of plain scalars."""

    class Core(loader):  # type: ignore[valid-type,misc]  # a base class chosen at run time
        yaml_implicit_resolvers: dict[str, list[tuple[str, re.Pattern[str]]]] = {}
        yaml_constructors = dict(loader.yaml_constructors)

    Core.add_implicit_resolver("tag:yaml.org,2002:bool", re.compile(r"^(?:true|True|TRUE|false|False|FALSE)$"), list("tTfF"))
    Core.add_implicit_resolver(
        "tag:yaml.org,2002:int", re.compile(r"^(?:[-+]?[0-9]+|0o[0-7]+|0x[0-9a-fA-F]+)$"), list("-+0123456789")
    )
    Core.add_implicit_resolver(
        "tag:yaml.org,2002:float",
        re.compile(r"^(?:[-+]?(?:\.[0-9]+|[0-9]+(?:\.[0-9]*)?)(?:[eE][-+]?[0-9]+)?|[-+]?\.(?:inf|Inf|INF)|\.(?:nan|NaN|NAN))$"),
        list("-+0123456789."),
    )
    Core.add_implicit_resolver("tag:yaml.org,2002:null", re.compile(r"^(?:~|null|Null|NULL|)$"), ["~", "n", "N", ""])
    Core.add_implicit_resolver(_MERGE, re.compile(r"^<<$"), ["<"])  # a plain << only; "<<" is text
    Core.add_constructor("tag:yaml.org,2002:int", _core_int)
    return Core


def _core_int(loader: Loader, node: yaml.ScalarNode) -> int:
    text = str(node.value)
    if text.startswith(("0o", "0x")):
        return int(text[2:], 8 if text[1] == "o" else 16)
    return int(text, 10)


_LOADERS: tuple[LoaderType | None, LoaderType] = (
    _core_schema(getattr(yaml, "CSafeLoader")) if hasattr(yaml, "CSafeLoader") else None, _core_schema(yaml.SafeLoader)
)
"""libyaml's parser when present (about 10x faster), then PyYAML's own."""


def dotted(path: KeyPath) -> str:
    """``("cards", 3, "symbols")`` -> ``cards[3].symbols``."""
    out = ""
    for part in path:
        if isinstance(part, int):
            out += f"[{part}]"
        else:
            out += f".{part}" if out else str(part)
    return out


@dataclass(frozen=True)
class Document:
    """A YAML file's data with the position of every value in it."""

    file: Path
    data: object
    """A YAML file's :data:`Yaml`; a spreadsheet's cards, their cells as read
    (:mod:`pnp.loading.sheets`). Specs narrow it where they check it."""
    marks: Mapping[KeyPath, tuple[int, int]] = field(repr=False)
    raw: Mapping[KeyPath, str] = field(default_factory=dict, repr=False)
    """The text of each plain scalar read as a number, as written (``1.10``, ``0123``)."""
    sheet: str | None = None
    """Read from a spreadsheet (:mod:`pnp.loading.sheets`): positions are rows and
    columns, shown as cells of this sheet (``""`` for a CSV file)."""

    def source(self, path: KeyPath) -> Source:
        """The position of the value at ``path``, or of its nearest ancestor."""
        probe = tuple(path)
        while probe not in self.marks and probe:
            probe = probe[:-1]
        line, col = self.marks.get(probe, (1, 1))
        return Source(self.file, line, col, self.sheet)

    def written(self, path: KeyPath, value: object) -> str | None:
        """How the number ``value`` at ``path`` was written (``1e3``, ``010``),
        when it was written there; None for anything else (a mapping's key is
        checked at its value's path, and may be another number)."""
        text = self.raw.get(path)
        if text is None or isinstance(value, bool) or not isinstance(value, (int, float)):
            return None
        body = text.lstrip("+-").lower()
        try:
            if body[:2] in ("0x", "0o"):
                number: float = int(text, 0)
            else:
                number = float(text.replace(".", "", 1) if body in (".inf", ".nan") else text)
        except ValueError:
            return None
        return text if number == value or (number != number and value != value) else None  # NaN is no number's equal

    def key(self, path: KeyPath) -> str:
        """The key path as a reader of this file names it: ``cards[3].symbols.wit``
        in YAML; in a spreadsheet, the column header (``symbols.wit``, ``steps.2``),
        the row being in the cell's name."""
        if self.sheet is None:
            return dotted(path)
        inner = path[2:] if len(path) >= 2 and path[0] == "cards" else path
        return ".".join(str(p + 1) if isinstance(p, int) else p for p in inner)

    def error(self, path: KeyPath, message: str) -> Diagnostic:
        return Diagnostic(self.source(path), self.key(path), message)


class _Budget(Exception):
    pass


def read_text(path: Path, within: Path | None = None, expected: str = "a UTF-8 encoded YAML file") -> str:
    """A file's text as UTF-8, or an :class:`InputError` that says where it
    broke and what was ``expected``. With ``within``, a file whose real
    location (links followed) lies outside that folder, or that is no regular
    file, is refused unread."""
    if within is not None and confined(path, [within]) is None:
        message = f"refused: {way_out(path, within) or f'it lies outside {within.name}/'}; expected a file inside the folder"
        raise InputError([Diagnostic(Source(path), "", message)])
    if within is not None and path.exists() and not path.is_file():
        raise InputError([Diagnostic(Source(path), "", "this is not a regular file; expected a file inside the folder")])
    try:
        raw = path.read_bytes()
    except FileNotFoundError:
        raise InputError([Diagnostic(Source(path), "", "file not found")]) from None
    except OSError as exc:
        raise InputError([Diagnostic(Source(path), "", f"cannot read: {exc.strerror}")]) from None
    if len(raw) > MAX_BYTES:
        raise InputError([Diagnostic(Source(path), "", f"file is {len(raw)} bytes; expected at most {MAX_BYTES}")])
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = raw.count(b"\n", 0, exc.start) + 1
        col = exc.start - (raw.rfind(b"\n", 0, exc.start) + 1) + 1
        message = f"byte 0x{raw[exc.start]:02x} is not UTF-8 text; expected {expected}"
        raise InputError([Diagnostic(Source(path, line, col), "", message)]) from None


def load_yaml(path: Path, within: Path | None = None) -> Document:
    """Parse one YAML file. Raises :class:`InputError` on any syntax problem.

    libyaml's parser (about 10x faster) reads well-formed files; a file it
    refuses is read again by PyYAML's own, whose messages say more."""
    text = read_text(path, within)
    fast, slow = _LOADERS
    if fast is not None and "\x00" not in text:
        try:
            return _compose(path, text, fast)
        except InputError:
            pass
    return _compose(path, text, slow)


def _compose(path: Path, text: str, loader_type: LoaderType) -> Document:
    if "\x00" in text:
        index = text.index("\x00")
        line = text.count("\n", 0, index) + 1
        col = index - (text.rfind("\n", 0, index) + 1) + 1
        raise InputError([Diagnostic(Source(path, line, col), "", "NUL byte found; expected a YAML text file")])
    try:
        loader = loader_type(text)
    except yaml.reader.ReaderError as exc:
        raise _reader_error(path, text, exc) from None
    try:
        _check_depth(text, loader_type)
        node = loader.get_single_node()
        marks: dict[KeyPath, tuple[int, int]] = {}
        raw: dict[KeyPath, str] = {}
        budget = [MAX_NODES]
        data = _convert(loader, node, (), marks, raw, budget) if node is not None else None
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        line, col = (mark.line + 1, mark.column + 1) if mark else (0, 0)
        problem = exc.problem or exc.context or "invalid YAML"
        if "\t" in problem or "'\\t'" in problem:
            problem = "a tab character cannot indent YAML; use spaces"
        raise InputError([Diagnostic(Source(path, line, col), "", f"YAML syntax error: {problem}")]) from None
    except yaml.reader.ReaderError as exc:
        raise _reader_error(path, text, exc) from None
    except yaml.YAMLError as exc:
        raise InputError([Diagnostic(Source(path), "", f"YAML error: {exc}")]) from None
    except _Budget:
        message = f"the document expands to more than {MAX_NODES} values (an alias bomb?)"
        raise InputError([Diagnostic(Source(path, 1, 1), "", message)]) from None
    except _TooDeep as exc:
        message = f"lists and mappings nest more than {MAX_DEPTH} deep here; expected at most {MAX_DEPTH}"
        raise InputError([Diagnostic(Source(path, exc.line, exc.column), "", message)]) from None
    except RecursionError:
        raise InputError([Diagnostic(Source(path, 1, 1), "", "the document nests too deeply")]) from None
    finally:
        loader.dispose()
    return Document(path, data, marks, raw)


class _TooDeep(Exception):
    def __init__(self, line: int, column: int):
        super().__init__(line, column)
        self.line, self.column = line, column


def _check_depth(text: str, loader_type: LoaderType) -> None:
    """Refuse nesting past :data:`MAX_DEPTH` from the parser's events, which
    (unlike composing) use no recursion however deep the file goes."""
    depth = 0
    for event in yaml.parse(text, Loader=loader_type):
        if isinstance(event, (yaml.SequenceStartEvent, yaml.MappingStartEvent)):
            depth += 1
            if depth > MAX_DEPTH:
                mark = event.start_mark
                raise _TooDeep(mark.line + 1, mark.column + 1) if mark else _TooDeep(1, 1)
        elif isinstance(event, (yaml.SequenceEndEvent, yaml.MappingEndEvent)):
            depth -= 1


def _reader_error(path: Path, text: str, exc: yaml.reader.ReaderError) -> InputError:
    index = min(exc.position, len(text))
    line = text.count("\n", 0, index) + 1
    col = index - (text.rfind("\n", 0, index) + 1) + 1
    message = f"character U+{exc.character:04X} is not allowed in YAML; expected printable text"
    return InputError([Diagnostic(Source(path, line, col), "", message)])


_PLAIN_TAGS = {"tag:yaml.org,2002:seq", "tag:yaml.org,2002:map"}


_SURROGATE = re.compile("[\ud800-\udfff]")


_SCALARS = (str, int, float, bool, bytes, date)


T = TypeVar("T")


def _whole_text(value: T, node: yaml.Node) -> T | str:
    """Text as characters: escapes of UTF-16 surrogate pairs (``"\\ud83c\\udfe0"``,
    as JSON writes them) become the character they encode; half a pair is
    not a character and is refused where it was written."""
    if not (isinstance(value, str) and _SURROGATE.search(value)):
        return value
    try:
        return value.encode("utf-16-le", "surrogatepass").decode("utf-16-le")
    except UnicodeDecodeError as exc:
        code = int.from_bytes(exc.object[exc.start : exc.start + 2], "little")
        raise yaml.MarkedYAMLError(
            problem=f"\\u{code:04x} is half of a UTF-16 surrogate pair, not a character; write the character itself",
            problem_mark=node.start_mark,
        ) from None


def _convert(
    loader: Loader,
    node: yaml.Node,
    path: KeyPath,
    marks: dict[KeyPath, tuple[int, int]],
    raw: dict[KeyPath, str],
    budget: list[int],
) -> Yaml:
    budget[0] -= 1
    if budget[0] < 0:
        raise _Budget
    marks.setdefault(path, (node.start_mark.line + 1, node.start_mark.column + 1))
    if isinstance(node, yaml.ScalarNode):
        value: object = _whole_text(loader.construct_object(node, deep=True), node)
        if value is not None and not isinstance(value, _SCALARS):  # the safe loader makes none: a guard for the type
            raise yaml.MarkedYAMLError(problem=f"unsupported scalar {value!r}", problem_mark=node.start_mark)
        if not node.style and isinstance(value, (int, float)) and not isinstance(value, bool):  # plain: None or ""
            raw[path] = node.value
        return value
    if node.tag not in _PLAIN_TAGS and not isinstance(node, yaml.ScalarNode):
        raise yaml.MarkedYAMLError(problem=f"the tag {node.tag!r} is not allowed", problem_mark=node.start_mark)
    if isinstance(node, yaml.SequenceNode):
        return [_convert(loader, item, (*path, i), marks, raw, budget) for i, item in enumerate(node.value)]
    if isinstance(node, yaml.MappingNode):
        return _mapping(loader, node, path, marks, raw, budget)
    raise yaml.MarkedYAMLError(problem="unsupported YAML node", problem_mark=node.start_mark)


def _mapping(
    loader: Loader,
    node: yaml.MappingNode,
    path: KeyPath,
    marks: dict[KeyPath, tuple[int, int]],
    raw: dict[KeyPath, str],
    budget: list[int],
) -> dict[str | int, Yaml]:
    """A mapping, with its merge key (``<<: *base``, or ``<<: [*a, *b]``)
    worked in where it is written: each merged key the mapping does not give
    itself, the first mapping merged winning. Merged values keep the position
    they are written at, and count against the budget each time they are used."""
    keys = [None if k.tag == _MERGE else _key(loader, k) for k, _ in node.value]
    given = set(keys)
    out: dict[str | int, Yaml] = {}
    merged_at: tuple[int, int] | None = None
    for key, (key_node, value_node) in zip(keys, node.value):
        if key is None:
            if merged_at is not None:
                raise yaml.MarkedYAMLError(problem=f"a second merge key << (the first at line {merged_at[0]})", problem_mark=key_node.start_mark)
            merged_at = (key_node.start_mark.line + 1, key_node.start_mark.column + 1)
            for source in _merge_sources(value_node):
                here_marks: dict[KeyPath, tuple[int, int]] = {}
                here_raw: dict[KeyPath, str] = {}
                merged = _convert(loader, source, path, here_marks, here_raw, budget)
                for name, value in merged.items() if isinstance(merged, dict) else ():
                    if name not in given and name not in out:
                        out[name] = value
                        _graft((*path, name), here_marks, marks)
                        _graft((*path, name), here_raw, raw)
            continue
        if key in out:
            first = marks.get((*path, key), (0, 0))
            raise yaml.MarkedYAMLError(problem=f"duplicate key {key!r} (first at line {first[0]})", problem_mark=key_node.start_mark)
        marks[(*path, key)] = (value_node.start_mark.line + 1, value_node.start_mark.column + 1)
        out[key] = _convert(loader, value_node, (*path, key), marks, raw, budget)
    return out


def _key(loader: Loader, node: yaml.Node) -> str | int:
    key = _whole_text(loader.construct_object(node, deep=True), node) if isinstance(node, yaml.ScalarNode) else None
    if not isinstance(key, (str, int)) or isinstance(key, bool):
        raise yaml.MarkedYAMLError(problem=f"keys must be text or whole numbers, found {key!r}", problem_mark=node.start_mark)
    return key


def _merge_sources(node: yaml.Node) -> list[yaml.MappingNode]:
    """The mappings a merge key names: one, or a list of them."""
    sources = node.value if isinstance(node, yaml.SequenceNode) else [node]
    mappings = [n for n in sources if isinstance(n, yaml.MappingNode)]
    if not mappings or len(mappings) < len(sources):
        raise yaml.MarkedYAMLError(
            problem="a merge key << takes a mapping or a list of mappings (like <<: *base)", problem_mark=node.start_mark
        )
    return mappings


V = TypeVar("V")


def _graft(prefix: KeyPath, found: dict[KeyPath, V], into: dict[KeyPath, V]) -> None:
    """Copy what ``found`` holds at ``prefix`` and below into ``into``."""
    for path, value in found.items():
        if path[: len(prefix)] == prefix:
            into[path] = value
