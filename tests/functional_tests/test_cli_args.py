"""Bad command lines get one clear line on stderr and a non-zero exit, never a traceback."""

from __future__ import annotations

import subprocess
import sys

import pytest

from spades_tui.cli import CliError, parse_launch
from spades_tui.engine.rules import Rules
from spades_tui.settings.options import LaunchOptions
from tests.support.cli import ROOT, cli_env, run_spades


@pytest.mark.parametrize(
    ("args", "needle"),
    [
        (["--frobnicate"], "unrecognized arguments: --frobnicate"),
        (["--seed", "abc"], "--seed: must be a whole number, not 'abc'"),
        (["--bot", "genius"], "--bot: must be easy, normal, hard, expert or cmd:PROGRAM"),
        (["--rules", "target=lots"], "rule target must be a whole number, not 'lots'"),
        (["--rules", "colour=red"], "unknown rule option 'colour'"),
        (["--rules", "nil=maybe"], "rule nil must be true or false, not 'maybe'"),
        (["--rules", "target"], "expected key=value"),
        (["--rules", "bag_limit=-1"], "rule bag_limit must be 0 to 50, not -1"),
        (["--rules", "boston"], "unknown preset 'boston' (known: standard, tournament, casual, quick)"),
        (["--rules", "quick,nil_points=501"], "rule nil_points must be 10 to 500, not 501"),
        (["--hotseat", "--bot", "easy"], "not allowed with argument"),
        (["replay"], "the following arguments are required: FILE"),
        (["bench", "--seconds", "x"], "invalid float value"),
    ],
)
def test_bad_arguments_give_a_clear_message_and_exit_2(args: list[str], needle: str) -> None:
    result = run_spades(*args)
    assert result.returncode == 2
    assert needle in result.stderr
    assert "Traceback" not in result.stderr
    assert result.stdout == ""


def test_help_lists_the_options_and_exits_0() -> None:
    result = run_spades("--help")
    assert result.returncode == 0
    for option in ("--hotseat", "--bot", "--seed", "--load", "--rules"):
        assert option in result.stdout


def test_parse_launch_builds_options() -> None:
    options = parse_launch(["--bot", "hard", "--seed", "7", "--rules", "target=300, nil=false,see_second_card=on"])
    assert options == LaunchOptions(bot="hard", seed=7, rules=Rules(target=300, nil=False, see_second_card=True))
    assert options.direct
    assert not parse_launch([]).direct
    assert parse_launch(["--bot", "cmd:python bot.py"]).bot == "cmd:python bot.py"


def test_options_left_out_leave_the_settings_to_decide() -> None:
    left_out = parse_launch([])
    assert (left_out.bot_pause, left_out.review, left_out.show_hints) == (None, None, None)
    given = parse_launch(["--bot-pause", "0", "--review", "--hints"])
    assert (given.bot_pause, given.review, given.show_hints) == (0.0, True, True)


def test_parse_launch_raises_cli_error_rather_than_exiting() -> None:
    with pytest.raises(CliError, match="--seed"):
        parse_launch(["--seed", "1.5"])


def test_a_closed_stdout_ends_quietly_without_a_traceback() -> None:
    env = cli_env()
    proc = subprocess.Popen(
        [sys.executable, "-m", "spades_tui", "bench", "--seconds", "0.2"],
        cwd=ROOT,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        stdin=subprocess.DEVNULL,
    )
    assert proc.stdout is not None and proc.stderr is not None
    proc.stdout.close()  # like `| head -0`: the reader is gone before anything is printed
    stderr = proc.stderr.read().decode()
    proc.wait(timeout=60)
    assert "Traceback" not in stderr
    assert "BrokenPipeError" not in stderr


def test_every_command_s_help_reads_as_written() -> None:
    # argparse %-formats an option's help but not a description: a "95%%" there is printed as it is.
    from spades_tui.cli import build_parser

    parser, commands = build_parser()
    for name, command in {"spades-tui": parser, **commands}.items():
        text = command.format_help()
        assert "%%" not in text and "%(" not in text, f"{name} --help: {text}"
