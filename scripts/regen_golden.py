#!/usr/bin/env python
"""Regenerate the golden playthroughs of every mission (tests/golden/<mission>.txt).

Run after an intended change of behaviour, then review the diff before committing:

    python scripts/regen_golden.py && git diff --stat tests/golden
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # run from a checkout

from ambush_env.core.world.data import write_text_atomic
from ambush_env.core.world.missions import list_missions
from ambush_env.playthrough import golden_path, playthrough


def main() -> int:
    for mission in list_missions():
        path = golden_path(mission)
        text = playthrough(mission)
        write_text_atomic(text, path, what="golden playthrough")  # whole or not at all
        print(f"wrote {path} ({text.count(chr(10))} lines)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
