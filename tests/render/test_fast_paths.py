"""The shortcuts behind quick rebuilds give the same results as the long way.

- the renderer process forked at build start lays out exactly what the build
  process would, passes errors back, and is stopped unused when the cache
  has everything;
- WeasyPrint's quick import skips the per-name library search, and still
  imports where only that search finds the libraries;
- compiled templates kept between runs never outlive an edit;
- faces and documents laid out in one pass each land where they belong;
- A4 and Letter imposed side by side are the files imposed one by one.
"""

from __future__ import annotations

import hashlib
import io
import logging
import os
import pickle
import signal
import subprocess
import sys
import textwrap
import threading
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pikepdf
import pytest

from pnp.errors import AssetError, BuildError
from pnp.paths import OWN
from pnp.render import service
from pnp.render.cache import RenderCache
from pnp.pdf.place import face_document
from pnp.render.layout import render_build, render_faces
from pnp.render.faces import Face
from pnp.render.scope import DEFAULT_FONTS, Scope
from pnp.render.dispatch import render_many
from tests.conftest import ROOT, tool

_FONT = f"@font-face {{ font-family: 'EB Garamond'; src: url({DEFAULT_FONTS[0].file.as_uri()}) }} html {{ font-family: 'EB Garamond' }}"


def _html(text: str) -> str:
    return f'<html><head><style>{_FONT} @page {{ size: 60mm 40mm; margin: 0 }}</style></head><body><p>{text}</p></body></html>'


def _scope(folder: Path) -> Scope:
    """Documents in ``folder`` may read it and pnp's own resources, and use pnp's default font."""
    return Scope((folder, OWN), DEFAULT_FONTS)


def _text(data: bytes) -> str:
    done = subprocess.run([tool("pdftotext"), "-", "-"], input=data, capture_output=True, check=True)
    return done.stdout.decode()


def test_the_renderer_lays_out_the_same_bytes_as_the_build_process(tmp_path: Path) -> None:
    jobs = [(_html(f"page {n}"), f"job {n}", None) for n in range(3)]
    here = render_many(jobs, _scope(tmp_path), workers=1)
    with service.started() as renderer:
        assert renderer is not None and service.active() is renderer
        there = render_many(jobs, _scope(tmp_path), workers=2)
        pid = renderer._process.pid
    assert [data for data, _ in there] == [data for data, _ in here]
    assert [_text(data).strip() for data, _ in there] == ["page 0", "page 1", "page 2"]
    assert pid != os.getpid()
    assert renderer._process.exitcode == 0  # asked to stop once it had worked
    assert service.active() is None


def test_the_renderer_ends_when_asked_though_its_workers_are_slow_to_stop(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A pool's thread slow to stop its workers (a loaded machine) must not
    leave the renderer waiting for them forever as it exits: it was killed
    after 5 s (exit status -15), and every build waited those 5 s."""
    from concurrent.futures import process

    slow = process._ExecutorManagerThread.flag_executor_shutting_down

    def later(self: object) -> None:
        time.sleep(0.5)
        slow(self)  # type: ignore[arg-type]

    monkeypatch.setattr(process._ExecutorManagerThread, "flag_executor_shutting_down", later)  # before the renderer forks
    jobs = [(_html(f"page {n}"), f"job {n}", None) for n in range(3)]
    with service.started() as renderer:
        assert renderer is not None
        render_many(jobs, _scope(tmp_path), workers=2)  # the renderer and a worker it forks
    assert renderer._process.exitcode == 0


def test_the_renderer_sends_results_as_they_come_never_more_than_a_chunk_at_once(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(service, "CHUNK", 2, raising=False)  # before the fork: the renderer's too
    jobs = [(_html(f"page {n}"), f"job {n}", None) for n in range(5)]
    with service.started() as renderer:
        assert renderer is not None
        messages: list[tuple[str, object]] = []
        receive = renderer._conn.recv

        def recorded() -> Any:
            messages.append(receive())
            return messages[-1]

        monkeypatch.setattr(renderer._conn, "recv", recorded)
        there = render_many(jobs, _scope(tmp_path), workers=2)
    assert [_text(data).strip() for data, _ in there] == [f"page {n}" for n in range(5)]
    assert [(status, len(value) if isinstance(value, list) else value) for status, value in messages] == [
        ("part", 2), ("part", 2), ("part", 1), ("done", None)
    ]


def test_the_renderer_passes_a_refused_file_back_as_the_same_error(tmp_path: Path) -> None:
    outside = tmp_path.parent / "elsewhere.png"
    html = f'<html><body><img src="{outside.as_uri()}"></body></html>'
    with service.started(), pytest.raises(AssetError, match="refused to read .*outside the game folder"):
        render_many([(html, "card x", None)], _scope(tmp_path))


def test_an_unused_renderer_is_stopped_at_once_not_waited_for() -> None:
    with service.started() as renderer:
        assert renderer is not None
    # Terminated while loading (before it set its own handler) or after: stopped either way, never waited for.
    assert renderer._process.exitcode in (-signal.SIGTERM, service.STOPPED)


def _stubborn(conn: object, parent_end: object) -> None:
    """A renderer caught up in code that swallows SIGTERM (WeasyPrint's SVG
    drawing catches BaseException, for one)."""
    signal.signal(signal.SIGTERM, signal.SIG_IGN)
    conn.send("deaf to SIGTERM")  # type: ignore[attr-defined]
    while True:
        signal.pause()


def test_a_renderer_that_will_not_stop_is_killed_not_waited_for_forever(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(service, "_serve", _stubborn)
    with service.started() as renderer:
        assert renderer is not None and renderer._conn.recv() == "deaf to SIGTERM"
    assert renderer._process.exitcode == -signal.SIGKILL


def test_an_interrupted_build_stops_the_renderer_without_waiting_for_its_work(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Ctrl-C while pages are being laid out: the renderer and its workers stop at once."""
    # Python's own Ctrl-C handler, whoever started the tests (a shell's
    # background job starts Python with SIGINT ignored).
    previous = signal.signal(signal.SIGINT, signal.default_int_handler)
    try:
        _interrupt_a_heavy_layout(tmp_path, monkeypatch)
    finally:
        signal.signal(signal.SIGINT, previous)


def _interrupt_a_heavy_layout(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Ctrl-C once both of the renderer's workers are laying out a heavy
    document (seconds each), whatever the machine's load: told through a pipe,
    not guessed from the clock. The light one, last, is the renderer's own
    first layout, done before they fork."""
    from pnp.render import weasy

    begun, begins = os.pipe()
    finished = tmp_path / "finished"
    lay_out = weasy.render_inspected

    def noted(html: str, scope: Scope, what: str, boxes: Any) -> Any:  # in the renderer and its workers
        if what.startswith("heavy"):
            os.write(begins, b"+")
        result = lay_out(html, scope, what, boxes)
        with finished.open("a") as record:
            record.write(f"{what}\n")
        return result

    def interrupt() -> None:
        for _ in range(2):
            os.read(begun, 1)
        os.kill(os.getpid(), signal.SIGINT)

    monkeypatch.setattr(weasy, "render_inspected", noted)  # before the fork: the renderer's too
    jobs = [(_html("many words " * 20000), f"heavy {n}", None) for n in range(3)] + [(_html("light"), "light", None)]
    try:
        with pytest.raises(KeyboardInterrupt), service.started() as renderer:
            assert renderer is not None
            threading.Thread(target=interrupt, daemon=True).start()
            render_many(jobs, _scope(tmp_path), workers=2)
    finally:
        os.close(begins)
        os.close(begun)
    # Stopped by the signal (its own status), not finished and asked to stop,
    # and already ended when the block was left, with no heavy document done.
    assert renderer._process.exitcode == service.STOPPED
    assert finished.read_text().splitlines() == ["light"]


def test_a_renderer_that_died_is_a_build_error_not_a_hang(tmp_path: Path) -> None:
    with service.started() as renderer:
        assert renderer is not None
        os.kill(renderer._process.pid, signal.SIGKILL)
        renderer._process.join()
        with pytest.raises(BuildError, match="renderer process stopped unexpectedly"):
            render_many([(_html("x"), "x", None)], _scope(tmp_path))


_IMPORT = textwrap.dedent(
    """
    import ctypes.util, sys
    import cffi
    real = ctypes.util.find_library
    searched = []
    def counting(name):
        searched.append(name)
        return real(name)
    ctypes.util.find_library = counting
    if sys.argv[1] == "only-search-finds-them":
        opened = cffi.FFI.dlopen
        def dlopen(self, name, flags=0):
            if ctypes.util.find_library is not counting and "/" not in str(name):
                raise OSError(f"simulated: {name} does not open as given")
            return opened(self, name, flags)
        cffi.FFI.dlopen = dlopen
    from pnp.render.weasy import lay_out, load_weasyprint
    load_weasyprint()
    assert ctypes.util.find_library is counting
    pdf = lay_out("<p>imported</p>").write_pdf()
    print(len(searched), pdf[:5].decode())
    """
)


def test_weasyprint_imports_without_searching_for_libraries_by_name() -> None:
    done = subprocess.run([sys.executable, "-c", _IMPORT, "usual"], capture_output=True, text=True, cwd=ROOT, check=True)
    assert done.stdout.split() == ["0", "%PDF-"]


def test_weasyprint_still_imports_where_only_the_search_finds_the_libraries() -> None:
    done = subprocess.run(
        [sys.executable, "-c", _IMPORT, "only-search-finds-them"], capture_output=True, text=True, cwd=ROOT, check=True
    )
    searched, header = done.stdout.split()
    assert int(searched) > 0 and header == "%PDF-"
    assert "could not import" not in done.stdout + done.stderr  # WeasyPrint's advice from the first try is not shown


def test_compiled_templates_never_outlive_an_edit_even_with_the_same_time_and_size(tmp_path: Path) -> None:
    from pnp.render.templating import environment, render

    folder = tmp_path / "templates"
    folder.mkdir()
    template = folder / "card.html"
    template.write_text("<p>{{ name }} alpha</p>")
    assert render(environment(tmp_path), "card.html", {"name": "Ann"}, "card") == "<p>Ann alpha</p>"
    stat = template.stat()
    template.write_text("<p>{{ name }} omega</p>")  # same length
    os.utime(template, ns=(stat.st_atime_ns, stat.st_mtime_ns))
    assert template.stat().st_mtime_ns == stat.st_mtime_ns and template.stat().st_size == stat.st_size
    assert render(environment(tmp_path), "card.html", {"name": "Ann"}, "card") == "<p>Ann omega</p>"


def _face(key: str) -> Face:
    return Face(key, f"<p>face {key}</p>", "deck", 180.0, 252.0, 9.0, 9.0, f"deck/{key} front", False)


def test_faces_and_documents_laid_out_in_one_pass_each_land_where_they_belong(tmp_path: Path) -> None:
    """Jobs go to the workers longest first; each result still reaches its own face or document."""
    faces = [_face(k) for k in ("aa", "bb", "cc")]

    def html_for(chunk: Sequence[Face]) -> str:
        pages = "".join(f'<div style="break-before: {"page" if n else "auto"}">{f.html}</div>' for n, f in enumerate(chunk))
        return f"<html><head><style>{_FONT} @page {{ size: 60mm 40mm; margin: 0 }}</style></head><body>{pages}</body></html>"

    documents = [(_html("short document"), "short"), (_html("a much longer document " * 20), "long")]
    cache = RenderCache(tmp_path / "cache")
    pages, found, rendered = render_build(faces, html_for, lambda f: (0.0, 0.0, 100.0, 100.0), documents, _scope(tmp_path), cache)
    assert "short document" in _text(rendered[0][0]) and "much longer" in _text(rendered[1][0])
    assert [findings for _, findings in rendered] == [[], []]
    by_face = {}
    for document, keys in pages:
        data = face_document(document)
        with pikepdf.open(io.BytesIO(data)) as pdf:
            assert len(pdf.pages) == len(keys)
        for number, key in enumerate(keys):
            if key is not None:
                by_face[key] = _text(data).split("\f")[number].strip()
    assert by_face == {"aa": "face aa", "bb": "face bb", "cc": "face cc"}
    assert set(found) == {"aa", "bb", "cc"}
    again = RenderCache(tmp_path / "cache")
    assert render_build(faces, html_for, lambda f: (0.0, 0.0, 100.0, 100.0), documents, _scope(tmp_path), again)[2] == rendered
    assert (again.misses, again.face_misses) == (0, 0)


def _chunk_html(chunk: Sequence[Face]) -> str:
    pages = "".join(f'<div style="break-before: {"page" if n else "auto"}">{f.html}</div>' for n, f in enumerate(chunk))
    return f"<html><head><style>{_FONT} @page {{ size: 60mm 40mm; margin: 0 }}</style></head><body>{pages}</body></html>"


def test_a_build_holds_its_cached_faces_as_paths_not_bytes(tmp_path: Path) -> None:
    """The faces' documents are in the render cache already: a build keeps
    where each is, cold or warm, and reads it when it imposes it (at 6,000
    faces their bytes would be 16 MB more held to the end)."""
    faces = [_face(k) for k in ("aa", "bb", "cc", "dd")]
    folder = tmp_path / "cache"
    for build in ("cold", "warm"):
        cache = RenderCache(folder)
        pages, _ = render_faces(faces, _chunk_html, lambda f: (0.0, 0.0, 100.0, 100.0), _scope(tmp_path), cache)
        assert cache.face_misses == (4 if build == "cold" else 0)
        assert pages and all(isinstance(document, Path) and document.parent == folder for document, _ in pages), build
        assert not [data for data in cache._held.values() if data is not None], build  # nor does the cache keep them
        texts = {key: _text(face_document(document)).split("\f")[n].strip() for document, keys in pages for n, key in enumerate(keys) if key}
        assert texts == {k: f"face {k}" for k in ("aa", "bb", "cc", "dd")}, build
    in_memory, _ = render_faces(faces, _chunk_html, lambda f: (0.0, 0.0, 100.0, 100.0), _scope(tmp_path), RenderCache(None))
    assert all(isinstance(document, bytes) for document, _ in in_memory)  # no folder: the bytes are all there is


def test_each_laid_out_document_goes_into_the_cache_as_it_comes(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A cold build keeps at most one laid-out document's PDF on its way to
    the cache, not every one till the last is laid out (16 MB at 6,000
    faces): counted as the layouts come and the cache takes them."""
    from pnp.render import weasy

    came: list[int] = []
    held: list[int] = []
    laid_out, put = weasy.laid_out, RenderCache.put

    def counted(*args: Any, **kwargs: Any) -> Any:
        for result in laid_out(*args, **kwargs):
            came.append(1)
            yield result

    def putting(self: RenderCache, key: str, data: bytes) -> None:
        held.append(len(came) - len(held))  # come, not yet in the cache (this one included)
        put(self, key, data)

    monkeypatch.setattr(weasy, "laid_out", counted)
    monkeypatch.setattr(RenderCache, "put", putting)
    faces = [_face(k) for k in ("a0", "b0", "c0", "d0", "e0")]  # each key ends its run: five documents
    render_faces(faces, _chunk_html, lambda f: (0.0, 0.0, 100.0, 100.0), _scope(tmp_path), RenderCache(tmp_path / "cache"), workers=1)
    assert len(came) == len(held) == 5
    assert max(held) == 1


def test_the_renderer_lays_out_the_next_request_after_faces_streamed_into_the_cache(tmp_path: Path) -> None:
    """Faces taken one by one leave nothing of their request unread: the
    renderer's next answer is the next request's."""
    faces = [_face(k) for k in ("a0", "b0", "c0")]
    with service.started() as renderer:
        assert renderer is not None
        pages, _ = render_faces(faces, _chunk_html, lambda f: (0.0, 0.0, 100.0, 100.0), _scope(tmp_path), RenderCache(tmp_path / "cache"))
        after = render_many([(_html("afterwards"), "next", None)], _scope(tmp_path))
    assert len(pages) == 3
    assert [_text(data).strip() for data, _ in after] == ["afterwards"]


def test_a4_and_letter_imposed_side_by_side_are_the_files_imposed_one_by_one(
    mini_copy: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from pnp.output.stage import build
    from pnp.loading.loader import load_game

    game = load_game(mini_copy)
    digests = []
    for cores in (1, 2):
        out = tmp_path / f"out{cores}"
        monkeypatch.setattr(os, "cpu_count", lambda: cores)
        result = build(game, ["a4", "letter"], out)
        digests.append({f.path.name: hashlib.sha256(f.path.read_bytes()).hexdigest() for f in result.files})
    assert digests[0] == digests[1]
    assert sorted(digests[0]) == ["mini-home-a4.pdf", "mini-home-letter.pdf", "registration-test-a4.pdf", "registration-test-letter.pdf"]


def test_a_face_form_keeps_its_compressed_content_and_matches_qpdfs_own(tmp_path: Path) -> None:
    from pnp.pdf.place import form_xobject

    html = f'<html><head><style>{_FONT} @page {{ size: 63mm 88mm; margin: 0 }}</style></head><body style="background: #c33"><p>Face</p></body></html>'
    data = render_many([(html, "face", None)], _scope(tmp_path))[0][0]
    with pikepdf.open(io.BytesIO(data)) as pdf:
        page = pdf.pages[0]
        ours, qpdfs = form_xobject(pdf, page), page.as_form_xobject()
        content = page.obj.Contents
        assert ours.read_raw_bytes() == content.read_raw_bytes() and ours.Filter == content.Filter  # not decoded, not recompressed
        assert ours.read_bytes() == qpdfs.read_bytes()
        assert {k: repr(ours[k]) for k in ("/Type", "/Subtype", "/BBox", "/Resources")} == {
            k: repr(qpdfs[k]) for k in ("/Type", "/Subtype", "/BBox", "/Resources")
        }
        page.obj.Rotate = 90  # a turned page: qpdf's way, which adds the /Matrix
        assert "/Matrix" in form_xobject(pdf, page)
        del page.obj.Rotate
        pdf.Root.Pages.Rotate = 90  # turned by the page tree above it: the same
        assert "/Matrix" in form_xobject(pdf, page)


_NO_LIBRARIES = textwrap.dedent(
    """
    import sys
    import cffi
    def dlopen(self, name, flags=0):
        raise OSError(f"simulated: cannot load library {name}")
    cffi.FFI.dlopen = dlopen
    from pnp.cli import main
    main(["build", sys.argv[1], "--paper", "a4", "--out", sys.argv[2]])
    """
)


def test_missing_system_libraries_are_a_clear_error_from_the_renderer(mini_copy: Path, tmp_path: Path) -> None:
    done = subprocess.run(
        [sys.executable, "-c", _NO_LIBRARIES, str(mini_copy), str(tmp_path / "out")], capture_output=True, text=True, cwd=ROOT
    )
    assert done.returncode == 1, done.stderr
    assert "WeasyPrint cannot open the system libraries" in done.stderr and "scripts/system-deps.sh build" in done.stderr
    assert "Traceback" not in done.stderr
    assert not (tmp_path / "out" / "mini").exists() or not list((tmp_path / "out" / "mini").glob("*.pdf"))


def _exits(signum: int, frame: object) -> None:
    raise SystemExit(7)


@pytest.mark.parametrize(("number", "handler", "raised"), [
    (signal.SIGINT, signal.default_int_handler, KeyboardInterrupt),  # Ctrl-C
    (signal.SIGTERM, _exits, SystemExit),  # pnp's SIGTERM handlers raise too
])
def test_an_interrupt_during_layout_is_not_lost_in_code_that_swallows_it(
    number: int, handler: object, raised: type[BaseException]
) -> None:
    """WeasyPrint's SVG drawing catches BaseException; the interrupt still stops the layout."""
    import time

    from pnp.render.weasy import interrupts_kept

    def swallowing() -> str:
        try:
            os.kill(os.getpid(), number)
            time.sleep(1)
        except BaseException:  # what WeasyPrint's SVG drawing does
            return "swallowed"
        return "not interrupted"

    before = signal.signal(number, handler)  # type: ignore[arg-type]
    try:
        with pytest.raises(raised), interrupts_kept():
            assert swallowing() == "swallowed"
        assert signal.getsignal(number) is handler
    finally:
        signal.signal(number, before)


def test_a_template_cache_that_cannot_be_written_or_read_means_compiling_not_failing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import errno

    import jinja2
    import jinja2.bccache

    from pnp.render.templating import environment, render

    (tmp_path / "templates").mkdir()
    template = tmp_path / "templates" / "card.html"
    template.write_text("<p>{{ name }}</p>")
    env = environment(tmp_path)
    assert render(env, "card.html", {"name": "Ann"}, "card") == "<p>Ann</p>"
    cache = env.bytecode_cache
    assert isinstance(cache, jinja2.FileSystemBytecodeCache)
    stored = Path(cache.directory) / (cache.pattern % cache.get_cache_key("card.html", str(template)))
    assert stored.is_file()
    stored.write_bytes(jinja2.bccache.bc_magic + b"\x80damaged")  # right header, broken body: unpickling fails
    assert render(environment(tmp_path), "card.html", {"name": "Bea"}, "card") == "<p>Bea</p>"

    def full(*args: object, **kwargs: object) -> None:
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(jinja2.FileSystemBytecodeCache, "dump_bytecode", full)
    template.write_text("<p>{{ name }}!</p>")
    assert render(environment(tmp_path), "card.html", {"name": "Cy"}, "card") == "<p>Cy!</p>"


def _dies_on_one(n: int) -> int:
    if n == 1:
        os._exit(9)  # as the out-of-memory killer would end it
    return n


def test_a_worker_that_dies_is_an_error_not_an_endless_wait() -> None:
    from pnp.parallel import fork_map

    assert fork_map(_dies_on_one, [(0,), (2,), (3,)], workers=2) == [0, 2, 3]
    with pytest.raises(BuildError, match="a worker process died"):
        fork_map(_dies_on_one, [(0,), (1,), (2,)], workers=2)


class _Laid:
    """A result a weak reference can follow."""

    def __init__(self, n: int):
        self.n = n


def test_results_given_out_one_by_one_are_not_kept_by_the_map() -> None:
    import gc
    import weakref

    from pnp.parallel import fork_iter

    results = fork_iter(_Laid, [(n,) for n in range(4)], workers=2)
    first = next(results)
    gone = weakref.ref(first)
    assert first.n == 0
    del first
    gc.collect()
    assert gone() is None  # handed on, then nowhere: not held until the map ends
    assert [laid.n for laid in results] == [1, 2, 3]


def _fails_on_zero(n: int) -> int:
    if n == 0:
        raise ValueError("the first job fails")
    time.sleep(0.01)
    return n


def test_a_failing_job_ends_the_map_with_its_error_and_nothing_on_stderr(capfd: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    """The error reaches the caller; the workers still at work, or still
    starting, are ended without a word (no traceback from the pool's thread
    or from a worker that had not set its handlers yet), however the timing
    falls: tried 40 times, with a SIGTERM handler that raises, as pnp's own."""
    from pnp.parallel import fork_map

    def raising(signum: int, frame: object) -> None:
        raise KeyboardInterrupt

    died: list[str] = []
    monkeypatch.setattr(threading, "excepthook", lambda args: died.append(f"{args.thread}: {args.exc_type.__name__}: {args.exc_value}"))
    before = signal.signal(signal.SIGTERM, raising)
    try:
        for _ in range(40):
            with pytest.raises(ValueError, match="the first job fails"):
                fork_map(_fails_on_zero, [(n,) for n in range(12)], workers=2)
    finally:
        signal.signal(signal.SIGTERM, before)
    assert died == [] and capfd.readouterr().err == ""


def test_a_worker_ended_before_it_has_its_handlers_ends_without_a_word(capfd: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    """Ctrl-C in the parent while the workers are still starting (here held
    in their first step for half a second) ends them quietly: a SIGTERM that
    reaches a worker before it has set its own handlers waits for them,
    instead of running the parent's (which raises: a traceback on stderr)."""
    from pnp import parallel

    quiet = parallel._quiet

    def slow_start() -> None:
        logging.getLogger().handlers.clear()  # as in pnp's own process: what the pool logs goes to stderr
        time.sleep(0.5)
        quiet()

    def interrupt(signum: int, frame: object) -> None:
        raise KeyboardInterrupt

    monkeypatch.setattr(parallel, "_quiet", slow_start)
    handlers = signal.signal(signal.SIGTERM, interrupt), signal.signal(signal.SIGALRM, interrupt)
    try:
        signal.setitimer(signal.ITIMER_REAL, 0.1)  # Ctrl-C, as it were, while the workers start
        with pytest.raises(KeyboardInterrupt):
            parallel.fork_map(_fails_on_zero, [(n,) for n in range(1, 5)], workers=2)
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGTERM, handlers[0])
        signal.signal(signal.SIGALRM, handlers[1])
    assert capfd.readouterr().err == ""


def test_on_one_core_there_is_no_renderer_and_layout_stays_in_process(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(os, "sched_getaffinity", lambda pid: {0})
    with service.started() as renderer:
        assert renderer is None and service.active() is None
        assert _text(render_many([(_html("alone"), "alone", None)], _scope(tmp_path))[0][0]).strip() == "alone"


def _lingers(release: str, n: int) -> int:
    """A job whose worker, once told to end, waits for ``release`` to exist
    (20 s at most), then leaves a file saying it ended."""
    import multiprocessing.util

    def linger() -> None:
        for _ in range(200):
            if os.path.exists(release):
                break
            time.sleep(0.1)
        Path(f"{release}.ended-{os.getpid()}").touch()

    multiprocessing.util.Finalize(None, linger, exitpriority=0)
    return n


def test_the_map_gives_its_results_without_waiting_for_its_workers_to_end(tmp_path: Path) -> None:
    """Once every result is in, the caller goes on (imposing, writing) while
    the workers end, rather than waiting for them to."""
    from pnp.parallel import fork_map

    release = tmp_path / "release"
    assert fork_map(_lingers, [(str(release), n) for n in range(4)], workers=2) == [0, 1, 2, 3]
    ended = list(tmp_path.glob("release.ended-*"))
    release.touch()
    assert ended == []


class _Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_the_bar_counts_every_document_when_the_renderer_lays_the_shortest_out_first(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The renderer lays out the last job before its workers fork; the bar
    still counts all of them, ending at 4/4, not 3/3."""
    from pnp.render import sheets

    monkeypatch.delenv("CI", raising=False)
    monkeypatch.delenv("PNP_NO_PROGRESS", raising=False)
    monkeypatch.setenv("TERM", "xterm")
    out = _Terminal()
    monkeypatch.setattr(sys, "stderr", out)
    jobs = [(_html(f"page {n}"), f"job {n}", None) for n in range(4)]
    with sheets.session():
        results = list(service._warmed_first(jobs, _scope(tmp_path), 1))
    assert len(results) == 4
    assert "laying out [" in out.getvalue() and "4/4" in out.getvalue() and "3/3" not in out.getvalue()



def test_the_renderer_lays_out_without_loading_the_game_model(tmp_path: Path) -> None:
    """The renderer (forked before the build loads the model) imports only
    what laying out takes, and what a build sends it (a scope) needs no more:
    the model and its schema cost it some 35 ms before its first layout, on
    a small build the time the build waits for it."""
    from pnp.loading.loader import load_game
    from pnp.render.scope import scope_for

    sent = tmp_path / "scope.pickle"
    sent.write_bytes(pickle.dumps(scope_for(load_game(ROOT / "card_data" / "persuasion-b04"))))
    script = (
        "import pickle, sys; import pnp.render.service, pnp.render.weasy, pnp.images; "
        f"scope = pickle.loads(open({str(sent)!r}, 'rb').read()); "
        "print(len(scope.fonts), sorted(m for m in sys.modules if m == 'pnp.model' or m.startswith('pnp.schema')))"
    )
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, check=True, cwd=ROOT)
    count, loaded = done.stdout.split(" ", 1)
    assert int(count) >= 2 and loaded.strip() == "[]", done.stdout
