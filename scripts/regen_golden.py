#!/usr/bin/env python
"""Regenerate the golden playthroughs of every mission (tests/golden/<mission>.txt).

Run after an intended change of behaviour, then review the diff before committing:

    python scripts/regen_golden.py && git diff --stat tests/golden
"""

from __future__ import annotations

import os
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # run from a checkout

from ambush_env.core.missions import list_missions
from ambush_env.playthrough import golden_path, playthrough


def main() -> int:
    for mission in list_missions():
        path = golden_path(mission)
        text = playthrough(mission)
        path.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(dir=path.parent, suffix=".tmp")
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            f.write(text)
        os.replace(tmp, path)  # written whole or not at all
        print(f"wrote {path} ({text.count(chr(10))} lines)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
