"""``ambush los MAP A B [--stances S T]``: print ``clear`` or ``blocked by X`` (docs/API.md).

The lead's ``ambush_env/cli.py`` wires it in with :func:`add_los_parser`; the handler is stored
as the parser default ``func`` and returns the exit status::

    sub = parser.add_subparsers(dest="command")
    add_los_parser(sub)
    args = parser.parse_args()
    return args.func(args)

It also runs alone: ``python -m ambush_env.cli_los los_village C6 M4``. It also holds the
argparse helpers the two share (:class:`Parser`, :class:`HelpFormatter`, :func:`int_at_least`).
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence

from ambush_env.core.model.errors import AmbushError
from ambush_env.core.model.types import STANCE_NAMES


def _shown(value: object) -> str:
    """A default as the help shows it: a list or tuple as its items, an empty one as none."""
    if isinstance(value, (list, tuple)):
        return " ".join(map(str, value)) or "none"
    return str(value)


class HelpFormatter(argparse.ArgumentDefaultsHelpFormatter):
    """Help text that shows each option's default, ``(default: X)``, unless the text already
    says ``default``; a ``None`` default is not shown, so its help says in words what it
    means (e.g. "default: the mission's own"). Flags, required options and positionals
    (but ``?``/``*`` ones) get none."""

    def _get_help_string(self, action: argparse.Action) -> str:
        text = action.help or ""
        if (
            "default" in text.lower()
            or action.required
            or action.nargs == 0
            or action.default is None
            or action.default is argparse.SUPPRESS
            or (
                not action.option_strings
                and action.nargs not in (argparse.OPTIONAL, argparse.ZERO_OR_MORE)
            )
        ):
            return text
        return f"{text} (default: {_shown(action.default).replace('%', '%%')})"


class Parser(argparse.ArgumentParser):
    """The ``ambush`` parser: :class:`HelpFormatter` unless told otherwise; its sub-parsers
    (``add_subparsers``) are of this class too, so every subcommand gets it."""

    def __init__(
        self, *args, formatter_class: type[argparse.HelpFormatter] = HelpFormatter, **kwargs
    ) -> None:
        # by keyword only, as before (mypy cannot rule out *args filling its place)
        kwargs["formatter_class"] = formatter_class
        super().__init__(*args, **kwargs)

    def error(self, message: str):
        """A bad option: one line on stderr naming it, ``ambush speed: error: argument
        --steps: must be at least 1, got 0 (ambush speed --help lists the options)``, then
        exit status 2 (⚙ no usage block: ``--help`` has it)."""
        self.exit(
            2,
            f"{self.prog}: error: {' '.join(message.split())} "
            f"({self.prog} --help lists the options)\n",
        )


def int_at_least(text: str, low: int, too_small: str) -> int:
    """An argparse integer of at least ``low``; ``too_small`` is the message's start when it
    is lower (the value follows). Raises argparse.ArgumentTypeError."""
    try:
        v = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not an integer") from None
    if v < low:
        raise argparse.ArgumentTypeError(f"{too_small}, got {v}")
    return v


def _positive(text: str) -> int:
    """argparse type: a sight cap, an integer ≥ 1 (hexes)."""
    return int_at_least(text, 1, "a sight cap is at least 1 hex")


def add_los_parser(subparsers: argparse._SubParsersAction) -> argparse.ArgumentParser:
    """Register the ``los`` command on an argparse sub-parser set; returns its parser."""
    p = subparsers.add_parser(
        "los",
        help="line of sight between two hexes of a map",
        description="Print 'clear' or 'blocked by X' for the line of sight from hex A to hex B "
        "(RULES.md §3, seed 004). MAP is a map file or a shipped map name (e.g. los_village).",
    )
    p.add_argument("map", metavar="MAP", help="map file path or shipped map name")
    p.add_argument("sighter", metavar="A", help="sighter's hex label, e.g. C6")
    p.add_argument("target", metavar="B", help="target's hex label, e.g. M4")
    p.add_argument(
        "--stances",
        nargs=2,
        metavar=("S", "T"),
        default=("standing", "standing"),
        choices=STANCE_NAMES,
        help="stances of sighter and target (standing, crouching, prone; default standing standing)",
    )
    p.add_argument(
        "--vehicles",
        nargs=2,
        metavar=("VS", "VT"),
        default=None,
        choices=("none", "small", "large"),
        help="vehicle of sighter and target: none, small or large (seed 004, p. 18; "
        "default: none none)",
    )
    p.add_argument(
        "--sight-cap",
        type=_positive,
        default=None,
        help="sight range cap in hexes (night; default: no cap)",
    )
    p.add_argument(
        "--landmark",
        action="append",
        default=[],
        help="a landmark declared blocking (repeatable; default: none)",
    )
    p.set_defaults(func=run_los)
    return p


def run_los(args: argparse.Namespace) -> int:
    """Handler of ``ambush los``: prints the answer; exit status 0, or 2 on a bad input."""
    from ambush_env.core.world.board import load_board
    from ambush_env.core.world.los import line_of_sight

    vs, vt = (None if v == "none" else v for v in (args.vehicles or ("none", "none")))
    try:
        board = load_board(args.map)
        r = line_of_sight(
            board,
            args.sighter,
            args.target,
            sighter_stance=args.stances[0],
            target_stance=args.stances[1],
            sighter_in_vehicle=vs,
            target_in_vehicle=vt,
            sight_cap=args.sight_cap,
            blocking_landmarks=tuple(args.landmark),
        )
    except AmbushError as e:
        print(f"ambush los: {e}", file=sys.stderr)
        return 2
    print("clear" if r.clear else f"blocked by {r.blocked_by}")
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    """Run ``los`` alone: ``python -m ambush_env.cli_los MAP A B [--stances S T]``."""
    parser = Parser(prog="ambush")
    sub = parser.add_subparsers(dest="command", required=True)
    add_los_parser(sub)
    args = parser.parse_args(["los", *(sys.argv[1:] if argv is None else argv)])
    return args.func(args)


if __name__ == "__main__":  # pragma: no cover
    raise SystemExit(main())
