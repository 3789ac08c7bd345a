"""A disk that fills up during a build: pnp says so in one line (exit 3),
leaves nothing half-written in the output folder or its render cache, and
the next build, with room, works. The disk is "filled" for real, by the
operating system's limit on the size of a file a process may write
(RLIMIT_FSIZE, in a child process), so the failing write is the kernel's:
past the limit a write fails with EFBIG after writing what fitted."""

from __future__ import annotations

import resource
import signal
import subprocess
import sys
import textwrap
from pathlib import Path

from tests.conftest import MINI


def _limited(limit: int) -> None:
    signal.signal(signal.SIGXFSZ, signal.SIG_IGN)  # a write past the limit fails instead of killing the process
    resource.setrlimit(resource.RLIMIT_FSIZE, (limit, limit))


def _run(args: list[str], limit: int | None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, *args], capture_output=True, text=True, timeout=300,
        preexec_fn=None if limit is None else (lambda: _limited(limit)),
    )


def test_a_full_disk_while_laying_out_is_one_line_and_leaves_nothing(tmp_path: Path) -> None:
    """The renderer's own scratch files (fonts) meet the full disk first: the
    build used to end in the renderer's traceback (exit 1)."""
    out = tmp_path / "out"
    done = _run(["-m", "pnp", "build", str(MINI), "--out", str(out), "--paper", "a4"], 2_000)
    assert done.returncode == 3, done.stdout + done.stderr
    assert "Traceback" not in done.stderr and "File too large; nothing already built was changed" in done.stderr
    assert [p for p in tmp_path.rglob("*") if p.name.endswith(".tmp")] == []
    again = _run(["-m", "pnp", "build", str(MINI), "--out", str(out), "--paper", "a4"], None)
    assert again.returncode == 0, again.stderr


def test_a_cache_write_the_disk_refuses_leaves_no_part_behind(tmp_path: Path) -> None:
    """A laid-out document larger than the room left: the write fails part
    way, and neither the page nor its temporary file stays in the cache."""
    script = textwrap.dedent(f"""
        from pathlib import Path
        from pnp.render.cache import RenderCache
        cache = RenderCache(Path({str(tmp_path / "cache")!r}))
        try:
            cache.put("k" * 64, b"%PDF-" + bytes(50_000))
        except OSError as exc:
            print("refused", exc.errno)
    """)
    done = _run(["-c", script], 20_000)
    assert done.stdout.split() == ["refused", "27"], done.stdout + done.stderr  # EFBIG, after 20,000 bytes were written
    assert sorted(p.name for p in (tmp_path / "cache").iterdir()) == []
