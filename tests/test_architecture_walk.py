"""docs/ARCHITECTURE.md walks one order from ``env.step`` to its events through the real
function names (issue 24): every code name of that section is defined in ambush_env/, and the
walk still starts at ``AmbushEnv.step`` and ends at ``info["events"]``."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
DOC = ROOT / "docs" / "ARCHITECTURE.md"
HEADING = "## One order, from `env.step` to its events"

# names of the walk that are not functions, classes or attributes of ours
NOT_CODE = {"env.step", "info", "self.game.step", "event.to_dict", "state.turn", "sys.setprofile"}


def _section() -> str:
    text = DOC.read_text(encoding="utf-8")
    assert HEADING in text, f"docs/ARCHITECTURE.md lacks the section {HEADING!r}"
    return text.split(HEADING, 1)[1].split("\n## ", 1)[0]


def _defined_names() -> set[str]:
    names: set[str] = set()
    for path in (ROOT / "ambush_env").rglob("*.py"):
        src = path.read_text(encoding="utf-8")
        names |= set(re.findall(r"^\s*(?:async\s+)?(?:def|class)\s+(\w+)", src, re.M))
        names |= set(re.findall(r"^\s*(\w+)\s*(?::[^=\n]*)?=", src, re.M))
        names |= set(re.findall(r"self\.(\w+)\s*(?::[^=\n]*)?=", src))
        names.add(path.stem)
    return names


def code_names(section: str) -> list[str]:
    """The dotted or underscored code names in backticks (``apply.apply_order``, ``_DO``)."""
    out = []
    for span in re.findall(r"`([^`]+)`", section):
        span = span.split("(")[0].strip()
        if re.fullmatch(r"[A-Za-z_][\w]*(\.[A-Za-z_]\w*)+|_[\w]+|[A-Z][a-z]\w*", span):
            out.append(span)
    return out


def test_every_name_of_the_walk_is_defined_in_the_code() -> None:
    names = code_names(_section())
    assert len(names) > 30, "the walk names the functions it passes through"
    defined = _defined_names()
    missing = [n for n in names if n not in NOT_CODE and n.split(".")[-1] not in defined]
    assert not missing, f"docs/ARCHITECTURE.md's walk names code that does not exist: {missing}"


def test_the_walk_goes_from_the_env_step_to_info_events() -> None:
    section = _section()
    assert section.index("AmbushEnv.step") < section.index("Game.step")
    assert section.index("apply.apply_order") < section.index("sequence.advance")
    assert section.rindex('info["events"]') > section.index("Match.emit")


def test_a_renamed_function_is_caught() -> None:
    """The check can fail: a name no module defines is reported."""
    defined = _defined_names()
    assert "apply_order" in defined
    assert "apply_order_renamed" not in defined
