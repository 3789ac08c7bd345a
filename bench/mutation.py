"""Mutation testing of the engines and scorers, with no extra tools.

    python bench/mutation.py [--sample N] [--seed S] [--list] [FILE ...]

Each mutant changes one line of one module (a comparison flipped, a constant
moved by one, ``and`` for ``or``, a condition negated, a sign swapped), then
the engine test modules run against it; a mutant is *killed* when a test
fails. Survivors are printed with their line so a person can judge whether
they are equivalent (change nothing observable) or a gap in the tests.
The working tree is restored after every mutant, even on Ctrl-C.
"""

from __future__ import annotations

import argparse
import os
import random
import re
import signal
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
FILES = [
    "card_data/persuasion-d01/rules/state.py",
    "card_data/persuasion-b04/rules/state.py",
    "card_data/persuasion-d01/rules/__init__.py",
    "card_data/persuasion-b04/rules/__init__.py",
    "card_data/persuasion-d01/rules/agents.py",
    "card_data/persuasion-b04/rules/agents.py",
    "pnp/engine/tables.py",
]
TESTS = [
    "card_data/persuasion-d01/tests/test_d01_engine.py", "card_data/persuasion-d01/tests/test_d01_powers.py",
    "card_data/persuasion-d01/tests/test_d01_hidden.py", "card_data/persuasion-b04/tests/test_b04_engine.py",
    "card_data/persuasion-b04/tests/test_b04_rules.py", "tests/engine/test_score_tables.py", "tests/engine/test_engine_edges.py",
]
OPERATORS: list[tuple[str, str]] = [
    (r" >= ", " > "), (r" > ", " >= "), (r" <= ", " < "), (r" < ", " <= "),
    (r" == ", " != "), (r" != ", " == "), (r" and ", " or "), (r" or ", " and "),
    (r"\bif not ", "if "), (r"\bif (?!not )", "if not "), (r" \+ 1\b", " - 1"), (r" - 1\b", " + 1"),
    (r"\bTrue\b", "False"), (r"\bFalse\b", "True"), (r" \+= ", " -= "), (r" -= ", " += "),
    (r"\bin self\.", "not in self."), (r"\[0\]", "[-1]"), (r"\bmax\(", "min("), (r"\bmin\(", "max("),
]


@dataclass(frozen=True)
class Mutant:
    file: str
    line: int
    before: str
    after: str


def mutants(files: list[str]) -> list[Mutant]:
    out = []
    for name in files:
        lines = (ROOT / name).read_text().splitlines()
        in_doc = False
        for number, text in enumerate(lines, 1):
            stripped = text.strip()
            if stripped.count('"""') == 1:
                in_doc = not in_doc
                continue
            if in_doc or not stripped or stripped.startswith(("#", '"""', "def ", "class ", "@", "from ", "import ", "raise ")):
                continue
            code = text.split("  #")[0]
            for pattern, replacement in OPERATORS:
                for match in re.finditer(pattern, code):
                    changed = code[: match.start()] + re.sub(pattern, replacement, code[match.start():], count=1) + text[len(code):]
                    if changed != text:
                        out.append(Mutant(name, number, text, changed))
    return out


def _source(mutant: Mutant) -> tuple[str, str]:
    """The module's text today and with ``mutant`` applied."""
    original = (ROOT / mutant.file).read_text()
    lines = original.splitlines(keepends=True)
    lines[mutant.line - 1] = mutant.after + "\n"
    return original, "".join(lines)


def is_python(mutant: Mutant) -> bool:
    """False for a mutant that is not valid Python ("not not in"): it proves
    nothing about the tests and is left out of the count."""
    try:
        compile(_source(mutant)[1], mutant.file, "exec")
    except SyntaxError:
        return False
    return True


def run(mutant: Mutant, timeout: int) -> str:
    """Apply ``mutant``, run the tests, restore: "killed" when a test failed,
    "timed out" when the tests did not end (the hang is caught too),
    "survived" otherwise. The tests run in a process group of their own,
    killed whole on a timeout, with no pipe a stray worker could hold open."""
    path = ROOT / mutant.file
    original, changed = _source(mutant)
    try:
        path.write_text(changed)
        tests = subprocess.Popen(
            [sys.executable, "-m", "pytest", "-x", "-q", "-p", "no:cacheprovider", *TESTS],
            cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True,
        )
        try:
            return "survived" if tests.wait(timeout) == 0 else "killed"
        except subprocess.TimeoutExpired:
            os.killpg(tests.pid, signal.SIGKILL)
            tests.wait()
            return "timed out"
    finally:
        path.write_text(original)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("files", nargs="*", default=FILES)
    parser.add_argument("--sample", type=int, default=80, help="Mutants to try, drawn at random (0: all).")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--timeout", type=int, default=300)
    parser.add_argument("--list", action="store_true", help="Only list the mutants.")
    parser.add_argument("--replay", type=Path, help="Try again the survivors listed in an earlier run's output.")
    args = parser.parse_args()
    every = mutants(args.files)
    chosen = every if not args.sample or args.sample >= len(every) else random.Random(args.seed).sample(every, args.sample)
    if args.replay:
        log = args.replay.read_text().splitlines()
        wanted = [(log[i].split()[1].split(":")[0], log[i + 2].strip()[2:]) for i, line in enumerate(log) if line.startswith("survivor ")]
        chosen = [m for m in every if (m.file, m.after.strip()) in wanted]
        missing = [w for w in wanted if w not in {(m.file, m.after.strip()) for m in chosen}]
        for file, after in missing:
            print(f"gone (the line no longer exists): {file}: {after}")
    print(f"{len(every)} mutants in {len(args.files)} files; trying {len(chosen)}", flush=True)
    if args.list:
        for m in chosen:
            print(f"{m.file}:{m.line}: {m.after.strip()}")
        return
    valid = [m for m in chosen if is_python(m)]
    print(f"{len(chosen) - len(valid)} of them are not valid Python and are left out", flush=True)
    killed, survivors, started = 0, [], time.perf_counter()
    for k, m in enumerate(valid, 1):
        verdict = run(m, args.timeout)
        killed += verdict != "survived"
        if verdict == "survived":
            survivors.append(m)
        print(f"[{k}/{len(valid)}] {verdict.upper() if verdict == 'survived' else verdict} {m.file}:{m.line}: {m.after.strip()}", flush=True)
    print(f"killed {killed} of {len(valid)} ({killed / max(1, len(valid)):.0%}) in {time.perf_counter() - started:.0f} s")
    for m in survivors:
        print(f"survivor {m.file}:{m.line}\n  - {m.before.strip()}\n  + {m.after.strip()}")


if __name__ == "__main__":
    main()
