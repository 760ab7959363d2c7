#!/usr/bin/env python
"""Regenerate the frozen env spec of the current version (tests/golden/env_spec_v<N>.json).

The spec (N, every order text, the observation spec) is frozen per version: regenerate it only
together with a version bump (ambush_env.env.registration.VERSION and VERSIONS,
docs/VERSIONS.md), then review the diff:

    python scripts/regen_env_spec.py && git diff --stat tests/golden
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # run from a checkout

from ambush_env.core.world.data import write_text_atomic
from ambush_env.env.registration import VERSION, spec_snapshot

GOLDEN = Path(__file__).resolve().parent.parent / "tests" / "golden" / f"env_spec_v{VERSION}.json"


def main() -> int:
    text = json.dumps(spec_snapshot(), indent=1) + "\n"
    write_text_atomic(text, GOLDEN, what="env spec golden")  # whole or not at all
    print(f"wrote {GOLDEN}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
