"""What the benchmarks print about the machine they ran on."""

from __future__ import annotations

import argparse
from pathlib import Path


def cpu_model() -> str:
    """The CPU's model name from /proc/cpuinfo, or "" where there is none."""
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return ""


def refuse_unwritable(ap: argparse.ArgumentParser, path: str | Path | None) -> None:
    """Refuse an output file that cannot be written, before the run, not after it."""
    from rummylab.records import unwritable

    if path is not None and (reason := unwritable(Path(path))):
        ap.error(reason)
