"""The one output commit (pnp/commit.py): a command's results appear all
together or not at all, whenever the process dies, and two commands writing
to one folder take turns."""

from __future__ import annotations

import fcntl
import os
import random
import shutil
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from pnp import commit
from pnp.commit import NEXT, STAGED, Outputs, can_swap, claimed, swap
from tests.conftest import ROOT, run_pnp


def _tree(folder: Path) -> dict[str, bytes]:
    """Every file below ``folder`` with its bytes (staged files left out)."""
    return {
        p.relative_to(folder).as_posix(): p.read_bytes()
        for p in sorted(folder.rglob("*"))
        if p.is_file() and not p.name.startswith(STAGED)
    }


def test_this_machine_can_swap_folders(tmp_path: Path) -> None:
    """The tests below prove the one-step commit; where folders cannot be
    swapped they would prove the journal instead, so say so plainly."""
    assert can_swap(tmp_path)
    first, second = tmp_path / "a", tmp_path / "b"
    first.mkdir()
    second.mkdir()
    (first / "x").write_text("a")
    swap(first, second)
    assert (second / "x").read_text() == "a" and not (first / "x").exists()


def test_a_commit_replaces_its_files_and_keeps_every_other(tmp_path: Path) -> None:
    root = tmp_path / "game"
    (root / "print").mkdir(parents=True)
    (root / "old.pdf").write_bytes(b"old")
    (root / "keep.pdf").write_bytes(b"keep")
    (root / "print" / "card.png").write_bytes(b"png")
    (root / "link").symlink_to("keep.pdf")
    os.chmod(root, 0o750)
    with claimed(root), Outputs(root) as outputs:
        outputs.data(b"new", root / "old.pdf")
        outputs.data(b"more", root / "print" / "deep" / "extra.json")
        outputs.commit()
    assert _tree(root) == {
        "keep.pdf": b"keep", "link": b"keep", "old.pdf": b"new", "print/card.png": b"png", "print/deep/extra.json": b"more",
    }
    assert (root / "link").is_symlink() and os.readlink(root / "link") == "keep.pdf"
    assert root.stat().st_mode & 0o777 == 0o750
    assert sorted(p.name for p in tmp_path.iterdir()) == ["game"]  # no next or previous version left


def test_a_target_outside_the_folder_is_a_mistake(tmp_path: Path) -> None:
    with Outputs(tmp_path / "game") as outputs, pytest.raises(ValueError):
        outputs.stage(tmp_path / "elsewhere.pdf")


def test_a_failed_commit_leaves_the_folder_as_it_was(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    root = tmp_path / "game"
    root.mkdir()
    (root / "a.pdf").write_bytes(b"old")

    def full(first: Path, second: Path) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(commit, "swap", full)
    with pytest.raises(OSError), claimed(root), Outputs(root) as outputs:
        outputs.data(b"new", root / "a.pdf")
        outputs.commit()
    assert _tree(root) == {"a.pdf": b"old"}
    assert sorted(p.name for p in tmp_path.iterdir()) == ["game"]
    assert not list(root.glob(f"{STAGED}*"))


def test_what_a_killed_command_left_is_tidied_by_the_next(tmp_path: Path) -> None:
    """A next version never swapped in (killed while it was made), a previous
    version never removed (killed after the swap), staged files anywhere
    below, and a probe of the swap: the next command to hold the folder
    removes them all, and nothing of another folder's."""
    root, other = tmp_path / "game", tmp_path / "game-two"
    for folder in (root, other, root / "sub"):
        folder.mkdir()
    (root / "a.pdf").write_bytes(b"a")
    (root / "sub" / f"{STAGED}x.png.abc").write_bytes(b"half")
    for name in (f"{NEXT}abcd1234.game", f"{NEXT}efgh5678.game", f"{NEXT}ijkl9012.game-two", f"{NEXT}mnop3456."):
        (tmp_path / name).mkdir()
        if name.endswith("game"):
            (tmp_path / name / "a.pdf").write_bytes(b"stale")
    with claimed(root):
        pass
    assert sorted(p.name for p in tmp_path.iterdir()) == [f"{NEXT}ijkl9012.game-two", "game", "game-two"]
    assert _tree(root) == {"a.pdf": b"a"}


def test_a_record_whose_folder_another_command_took_over_is_dropped(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A build records for the next one (the up-to-date record, the kept
    files, the odds) after it has let its folder go; the next holder tidies
    staged files away. The record is then lost, quietly: three builds started
    together once ended in a traceback here."""
    real_replace = os.replace

    def tidied_first(source: str | os.PathLike[str], target: str | os.PathLike[str]) -> None:
        with claimed(tmp_path / "out"):  # another command, holding the folder, sweeps the staged record
            pass
        real_replace(source, target)

    monkeypatch.setattr(commit.os, "replace", tidied_first)
    record = tmp_path / "out" / ".cache" / "fresh.json"
    commit.write_record(b"{}", record)
    assert not record.exists() and not list((tmp_path / "out").rglob(f"{STAGED}*"))
    monkeypatch.setattr(commit.os, "replace", real_replace)
    commit.write_record(b"{}", record)
    assert record.read_bytes() == b"{}"


def test_a_command_that_waited_through_a_swap_holds_the_new_folder(tmp_path: Path) -> None:
    """The lock is on the folder, and a commit swaps the folder: a command
    that waited on the previous version must not think it holds the new one
    (a third command would then hold it too)."""
    root = tmp_path / "game"
    root.mkdir()
    order: list[str] = []
    with claimed(root):
        waiting = threading.Thread(target=lambda: _hold(root, order))
        waiting.start()
        time.sleep(0.2)  # let it open the folder and wait (an ordering aid, not a timing assertion)
        with Outputs(root) as outputs:
            outputs.data(b"new", root / "a.pdf")
            outputs.commit()
        order.append("first done")
    waiting.join(timeout=60)
    assert order == ["first done", "second held"]
    held = os.open(root, os.O_RDONLY)
    try:  # and the lock of the second was let go with it
        fcntl.flock(held, fcntl.LOCK_EX | fcntl.LOCK_NB)
    finally:
        os.close(held)


def _hold(root: Path, order: list[str]) -> None:
    with claimed(root):
        handle = os.open(root, os.O_RDONLY)
        try:  # the folder's current version is locked (by us): another try fails at once
            with pytest.raises(BlockingIOError):
                fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
        finally:
            os.close(handle)
        order.append("second held")


SLOW = """
import os, sys, time
import pnp.commit as commit
pause = float(os.environ["PNP_TEST_PAUSE"])
real_link, real_swap, real_replace = commit._link_tree, commit.swap, os.replace
def mark():  # the commit has begun
    with open(os.environ["PNP_TEST_MARK"], "a"):
        pass
def link(source, target, replaced):
    mark()
    time.sleep(pause)
    real_link(source, target, replaced)
def swap(first, second):
    time.sleep(pause)
    real_swap(first, second)
def replace(source, target, *args, **kwargs):
    if os.path.basename(source).startswith(commit.STAGED):
        mark()
        time.sleep(pause)
    real_replace(source, target, *args, **kwargs)
commit._link_tree, commit.swap, os.replace = link, swap, replace
if os.environ.get("PNP_TEST_MOVES"):
    commit.can_swap = lambda folder: False
sys.argv = ["pnp", *sys.argv[1:]]
from pnp.__main__ import run
run()
"""


@pytest.mark.parametrize("mode", ["swap", "moves"])
def test_kill_9_at_random_instants_leaves_old_or_new_never_a_mix(mini_copy: Path, tmp_path: Path, mode: str) -> None:
    """A rebuild (A4 and Letter, a manifest) whose commit is slowed down so a
    kill lands in it often, killed with SIGKILL at instants drawn over its
    whole run. With the swap, the folder holds the old build or the new one
    the moment the process is dead. Where folders cannot be swapped (the
    journal), it does so once the next command has held the folder."""
    out = tmp_path / "out"
    paper = ["--paper", "a4,letter"]
    assert run_pnp("build", str(mini_copy), *paper, "--out", str(out)).returncode == 0
    saved = tmp_path / "saved"
    shutil.copytree(out, saved, symlinks=True)
    old = _tree(out / "mini")
    (mini_copy / "cards.yaml").write_text((mini_copy / "cards.yaml").read_text().replace("title: One", "title: Uno"))
    env = dict(os.environ, PNP_TEST_PAUSE="0.3", PNP_TEST_MARK=str(tmp_path / "committing"), **({"PNP_TEST_MOVES": "1"} if mode == "moves" else {}))
    command = [sys.executable, "-c", SLOW, "build", str(mini_copy), *paper, "--out", str(out)]
    started = time.perf_counter()
    assert subprocess.run(command, cwd=ROOT, env=env, capture_output=True, timeout=300).returncode == 0
    whole = time.perf_counter() - started  # only to spread the kills over this machine's run
    new = {k: v for k, v in _tree(out / "mini").items() if not k.startswith(".cache/")}
    old = {k: v for k, v in old.items() if not k.startswith(".cache/")}
    assert old != new
    draw = random.Random(16)
    mark = Path(env["PNP_TEST_MARK"])
    # Instants over the whole run, then instants inside the commit itself
    # (drawn from the moment it begins: a kill there is what the commit is for).
    instants = [(0.0, False), *((draw.uniform(0.3, 1.05) * whole, False) for _ in range(6)), *((draw.uniform(0, 6 * 0.3), True) for _ in range(8))]
    outcomes, in_commit = [], 0
    for delay, after_mark in instants:
        shutil.rmtree(out)
        shutil.copytree(saved, out, symlinks=True)
        mark.unlink(missing_ok=True)
        process = subprocess.Popen(command, cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        while after_mark and not mark.exists() and process.poll() is None:
            time.sleep(0.01)
        time.sleep(delay)
        in_commit += after_mark and process.poll() is None
        process.send_signal(signal.SIGKILL)
        process.wait(timeout=60)
        if mode == "moves":
            with claimed(out / "mini"):
                pass
        now = {k: v for k, v in _tree(out / "mini").items() if not k.startswith(".cache/")}
        assert now in (old, new), f"a mix after a kill at {delay:.2f} s (in the commit: {after_mark}): {sorted(k for k in now if now[k] != old.get(k))}"
        outcomes.append("old" if now == old else "new")
    assert in_commit >= 4, in_commit  # most kills drawn inside the commit landed there
    assert outcomes[0] == "old"  # killed before it could build anything
    with claimed(out / "mini"):  # what the next command does first: the killed build's leftovers go
        pass
    assert not [p for p in out.iterdir() if p.name.startswith(NEXT)] and not list((out / "mini").rglob(f"{STAGED}*"))
    assert subprocess.run(command, cwd=ROOT, env=env, capture_output=True, timeout=300).returncode == 0  # and a build can finish
    assert {k: v for k, v in _tree(out / "mini").items() if not k.startswith(".cache/")} == new


def test_a_build_keeps_what_an_export_wrote_beside_it(mini_copy: Path, tmp_path: Path) -> None:
    """A build swaps the whole game folder: the export folders in it, and the
    render cache, come along unchanged."""
    out = tmp_path / "out"
    assert run_pnp("build", str(mini_copy), "--paper", "a4", "--out", str(out)).returncode == 0
    assert run_pnp("build", str(mini_copy), "--profile", "tts", "--out", str(out)).returncode == 0
    exported = {k: v for k, v in _tree(out / "mini").items() if k.startswith("tts/")}
    assert exported
    (mini_copy / "cards.yaml").write_text((mini_copy / "cards.yaml").read_text().replace("title: One", "title: Uno"))
    assert run_pnp("build", str(mini_copy), "--paper", "a4", "--out", str(out)).returncode == 0
    assert {k: v for k, v in _tree(out / "mini").items() if k.startswith("tts/")} == exported


def _descendants(pid: int) -> set[int]:
    """Every living process below ``pid`` (from /proc)."""
    children: dict[int, list[int]] = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
            except OSError:
                continue
            children.setdefault(int(fields[1]), []).append(int(entry.name))
    found, todo = set(), [pid]
    while todo:
        for child in children.get(todo.pop(), []):
            found.add(child)
            todo.append(child)
    return found


def _alive(pid: int) -> bool:
    try:
        state = (Path("/proc") / str(pid) / "stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state != "Z"


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="the kernel's parent-death signal is Linux's")
def test_a_killed_build_leaves_no_process_behind(mini_copy: Path, tmp_path: Path) -> None:
    """The renderer and the workers a build forks die with it: an orphan would
    hold the output folder's lock it inherited, and the next build would wait
    for it forever."""
    out = tmp_path / "out"
    command = [sys.executable, "-m", "pnp", "build", str(mini_copy), "--paper", "a4,letter", "--out", str(out), "--no-stamp"]
    process = subprocess.Popen(command, cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    forked: set[int] = set()
    staged = out / "mini"
    # Until it imposes A4 and Letter side by side: a pool of workers, which
    # read their work from a pipe whose writing end they hold themselves.
    while process.poll() is None and not (list(staged.glob(f"{STAGED}*.pdf.*")) and len(forked) >= 2):
        forked |= _descendants(process.pid)
        time.sleep(0.005)
    assert process.poll() is None and len(forked) >= 2, "the build ended before it forked its workers"
    process.send_signal(signal.SIGKILL)
    process.wait(timeout=60)
    deadline = time.monotonic() + 60  # a bound on a hang, not a speed to meet
    while any(_alive(pid) for pid in forked) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert not [pid for pid in forked if _alive(pid)]
    with claimed(out / "mini"):  # the folder is free at once
        pass


def test_a_pdf_is_written_into_its_staged_file_and_no_other(tmp_path: Path) -> None:
    """Given a file name, pikepdf writes a temporary file of its own beside it
    (``.pikepdf.NAME...``) that a killed build left in the output folder, where
    no tidying knows its name (test_hostile caught one). save_pdf writes into
    the staged file itself (which exists, as Outputs.stage makes it): it is the
    only file of the folder opened."""
    script = (
        "import os, sys\nfrom pathlib import Path\nimport pikepdf\nfrom pnp.commit import save_pdf\n"
        "folder = sys.argv[1]\nopened = set()\n(Path(folder) / 'x.pdf').touch()  # staged files exist: mkstemp made them\n"
        "def hook(event, args):\n"
        "    if event == 'open' and args and isinstance(args[0], (str, bytes, os.PathLike)) and os.fsdecode(args[0]).startswith(folder):\n"
        "        opened.add(os.fsdecode(args[0]))\n"
        "sys.addaudithook(hook)\n"
        "pdf = pikepdf.new()\npdf.add_blank_page()\nsave_pdf(pdf, Path(folder) / 'x.pdf')\n"
        "print('\\n'.join(sorted(opened)))\n"
    )
    done = subprocess.run([sys.executable, "-c", script, str(tmp_path)], capture_output=True, text=True, cwd=ROOT, timeout=60)
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == [str(tmp_path / "x.pdf")]
    assert sorted(p.name for p in tmp_path.iterdir()) == ["x.pdf"]
