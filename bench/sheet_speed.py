"""Benchmark: reading a 1,000-row deck from a spreadsheet, 2-core machine.

    python bench/sheet_speed.py [--rows N] [--runs R]

Builds a copy of the tests' mini game whose ``cards`` component lists N cards
(id, title, copies, two map columns, a ref), written as YAML, CSV, TSV, xlsx
and ods, and times ``load_game`` on each (the whole game: read, type, check),
in process, median of R runs. The YAML file is the peer measured in the same
run: the ratio says what a sheet costs over the YAML it stands for.
"""

from __future__ import annotations

import argparse
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent


def _rows(count: int) -> list[list[Any]]:
    crests = ["red", "blue", None]
    return [["id", "title", "copies", "symbols.sun", "symbols.moon", "crest"]] + [
        [f"card-{i}", f"Card number {i}", 1 + i % 3, (1, -1, None)[i % 3], (-1, None, 1)[i % 3], crests[i % 3]] for i in range(count)
    ]


def _write(folder: Path, suffix: str, rows: list[list[Any]]) -> None:
    from tests.loading.workbooks import ods, xlsx

    if suffix == ".yaml":
        lines = ["cards:"]
        for r in rows[1:]:
            symbols = ", ".join(f"{k}: {v}" for k, v in (("sun", r[3]), ("moon", r[4])) if v is not None)
            lines += [f"  - id: {r[0]}", f"    title: {r[1]}", f"    copies: {r[2]}", f"    symbols: {{{symbols}}}"]
            if r[5]:
                lines.append(f"    crest: {r[5]}")
        (folder / "cards.yaml").write_text("\n".join(lines) + "\n")
    elif suffix in (".csv", ".tsv"):
        sep = "," if suffix == ".csv" else "\t"
        (folder / f"cards{suffix}").write_text("".join(sep.join("" if v is None else str(v) for v in r) + "\n" for r in rows))
    elif suffix == ".xlsx":
        xlsx(folder / "cards.xlsx", {"Cards": rows})
    else:
        ods(folder / "cards.ods", {"Cards": rows})
    game = folder / "game.yaml"
    game.write_text(game.read_text().replace("    cards: cards.yaml", f"    cards: cards{suffix}", 1))


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--rows", type=int, default=1000)
    parser.add_argument("--runs", type=int, default=7)
    args = parser.parse_args()
    sys.path.insert(0, str(ROOT))
    from pnp.loading.loader import load_game

    rows = _rows(args.rows)
    medians: dict[str, float] = {}
    with tempfile.TemporaryDirectory() as scratch:
        for suffix in (".yaml", ".csv", ".tsv", ".xlsx", ".ods"):
            folder = Path(scratch) / suffix[1:]
            shutil.copytree(ROOT / "tests" / "fixtures" / "mini", folder)
            _write(folder, suffix, rows)
            cards = next(c for c in load_game(folder).components if c.id == "cards").cards
            assert len(cards) == args.rows, (suffix, len(cards))
            times = []
            for _ in range(args.runs):
                started = time.perf_counter()
                load_game(folder)
                times.append(time.perf_counter() - started)
            medians[suffix] = statistics.median(times)
            size = sum(p.stat().st_size for p in folder.glob("cards.*"))
            print(f"{suffix[1:]:>5}: {args.rows} rows ({size:,} bytes), load_game median {medians[suffix] * 1000:.1f} ms "
                  f"(min {min(times) * 1000:.1f}, max {max(times) * 1000:.1f}; {args.runs} runs); "
                  f"{medians[suffix] / medians['.yaml']:.2f}x the YAML")


if __name__ == "__main__":
    main()
