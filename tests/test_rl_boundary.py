"""The engine never imports the research extras (they live in ``rummylab.rl``)."""

from __future__ import annotations

import subprocess
import sys

EXTRAS = ("numpy", "gymnasium", "pettingzoo", "pyspiel", "open_spiel")


def test_engine_imports_no_rl_package():
    code = (
        "import sys, rummylab, rummylab.registry, rummylab.bots, rummylab.records, "
        "rummylab.match, rummylab.cli\n"
        "from rummylab import new_state\n"
        "for g in ('gin', 'gin3', 'three-thirteen', 'manipulation'):\n"
        "    new_state(g, seed=1)\n"
        f"print(sorted(m for m in {EXTRAS!r} if m in sys.modules))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True)
    assert out.stdout.strip() == "[]"
