"""Issue 15 (command-line polish): every subcommand's ``--help`` runs, and every option of every
subcommand has help text and shows its default."""

from __future__ import annotations

import argparse

import pytest

from ambush_env.cli import build_parser, main
from ambush_env.cli_los import HelpFormatter, Parser


def _subcommands(parser: argparse.ArgumentParser) -> dict[str, argparse.ArgumentParser]:
    """``{name: sub-parser}`` of a parser's subcommands (none: ``{}``)."""
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            return dict(action.choices)
    return {}


def _label(action: argparse.Action) -> str:
    return "/".join(action.option_strings) or str(action.metavar or action.dest)


def option_problems(parser: argparse.ArgumentParser, name: str) -> list[str]:
    """What a parser's arguments lack: help text (every argument but the subcommand list), and,
    for an optional argument that takes a value and is not required, a default shown in its
    help (:class:`HelpFormatter` appends ``(default: X)``; a ``None`` default must say in words
    what it means). Also the parser must use :class:`HelpFormatter`."""
    problems = []
    if not issubclass(parser.formatter_class, HelpFormatter):
        problems.append(f"{name}: formatter {parser.formatter_class.__name__} shows no defaults")
    formatter = HelpFormatter(prog=parser.prog)
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            helped = [
                action.choices[c.dest]
                for c in action._choices_actions
                if isinstance(c.help, str) and c.help.strip()
            ]
            for sub, sub_parser in action.choices.items():  # each its line in the list of commands
                if not any(sub_parser is h for h in helped):
                    problems.append(f"{name} {sub}: subcommand without a help line")
            continue
        where = f"{name} {_label(action)}"
        if (
            not isinstance(action.help, str)
            or not action.help.strip()
            or action.help == argparse.SUPPRESS
        ):
            problems.append(f"{where}: no help text")
            continue
        takes_value = action.option_strings and action.nargs != 0
        if (
            takes_value
            and not action.required
            and "default" not in formatter._get_help_string(action).lower()
        ):
            problems.append(f"{where}: default {action.default!r} not shown in its help")
    return problems


PARSER = build_parser()
SUBCOMMANDS = sorted(_subcommands(PARSER))


def test_there_are_subcommands_to_walk():
    assert {
        "bench",
        "plot",
        "speed",
        "train",
        "play",
        "replay",
        "render",
        "missions",
        "campaign",
        "los",
    } <= set(SUBCOMMANDS)


def test_the_top_level_parser_has_help_for_every_option_and_subcommand():
    assert option_problems(PARSER, "ambush") == []


@pytest.mark.parametrize("sub", SUBCOMMANDS)
def test_every_option_has_help_text_and_a_default(sub):
    parser = _subcommands(PARSER)[sub]
    assert option_problems(parser, f"ambush {sub}") == []


@pytest.mark.parametrize("sub", SUBCOMMANDS)
def test_help_of_every_subcommand_lists_every_option(sub, capsys):
    with pytest.raises(SystemExit) as e:
        main([sub, "--help"])
    assert e.value.code == 0
    out = capsys.readouterr().out
    assert out.startswith(f"usage: ambush {sub}")
    for action in _subcommands(PARSER)[sub]._actions:
        for text in action.option_strings or [_label(action)]:
            assert text in out, f"ambush {sub} --help does not show {text}"
        if action.help and action.help != argparse.SUPPRESS:
            first_words = " ".join(action.help.split()[:2]).replace("%%", "%")
            assert first_words in " ".join(out.split()), (sub, first_words)


def test_top_level_help_lists_every_subcommand(capsys):
    with pytest.raises(SystemExit) as e:
        main(["--help"])
    assert e.value.code == 0
    out = capsys.readouterr().out
    assert "--version" in out
    for sub in SUBCOMMANDS:
        assert f"    {sub} " in out


def test_the_walk_finds_an_option_without_help_or_default():
    """The check itself: a parser with a help-less option, a None default left unexplained and
    a sub-parser of argparse's plain formatter is reported on each count; a good one is not."""
    p = Parser(prog="ambush")
    sub = p.add_subparsers(dest="command", required=True, help="the command")
    bad = sub.add_parser("bad", help="a bad command")
    bad.add_argument("--no-help", default=3)
    bad.add_argument("--unexplained", default=None, help="a file")
    bad.add_argument("where")
    sub.add_parser("plain", formatter_class=argparse.RawTextHelpFormatter, help="plain")
    good = sub.add_parser("good", help="a good command")
    good.add_argument("--count", type=int, default=3, help="how many")  # shown: (default: 3)
    good.add_argument("--out", default=None, help="a file (default: printed only)")
    good.add_argument("--flag", action="store_true", help="a flag (a flag shows no default)")
    good.add_argument("--need", required=True, help="required: no default")
    good.add_argument("where", help="a positional")
    sub.add_parser("silent")  # no help line in the list of commands
    subs = _subcommands(p)
    assert option_problems(subs["bad"], "bad") == [
        "bad --no-help: no help text",
        "bad --unexplained: default None not shown in its help",
        "bad where: no help text",
    ]
    assert option_problems(subs["plain"], "plain") == [
        "plain: formatter RawTextHelpFormatter shows no defaults"
    ]
    assert option_problems(subs["good"], "good") == []
    assert option_problems(p, "top") == ["top silent: subcommand without a help line"]
    assert "how many (default: 3)" in subs["good"].format_help()
