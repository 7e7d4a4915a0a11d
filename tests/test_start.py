"""What a start of main.py loads: the other commands' modules only when one of them runs."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

import main

ROOT = Path(__file__).resolve().parent.parent
COMMAND_MODULES = ("lab", "lab.bench", "protocol", "companion", "duet", "download", "manual", "multiplayer")


def test_the_help_lists_each_command_with_its_own_summary():
    for name, summary in main.COMMANDS.items():
        assert main.command(name).name == name and main.command(name).summary == summary
    text = " ".join(main.parser().format_help().split())
    assert all(name in text for name in main.COMMANDS)


def test_a_game_and_the_help_import_no_other_command():
    script = ("import sys, main; main.parser().format_help(); main.parser().parse_args(['--seed', '1']);"
              f"print(sorted(m for m in {COMMAND_MODULES!r} if m in sys.modules))")
    result = subprocess.run([sys.executable, "-c", script], cwd=ROOT, capture_output=True, text=True,
                            timeout=120)
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "[]"


@pytest.mark.parametrize("argv, flag", [(["datasets", "status", "--files"], "files"),
                                        (["serve", "--initializer", "sbert"], "initializer"),
                                        (["duet", "--players", "ai:ai"], "players"),
                                        (["bench", "--quick"], "quick"),
                                        (["companion", "--new"], "new"),
                                        (["host", "--resume"], "resume"),
                                        (["join", "127.0.0.1:4747", "a-b-c"], "code")])
def test_a_command_gets_its_flags_and_runner_when_it_is_named(argv, flag):
    args = main.parser().parse_args(argv)
    assert args.command == argv[0] and getattr(args, flag) and args.run is main.command(argv[0]).run


def test_a_commands_help_is_its_own(capsys):
    with pytest.raises(SystemExit):
        main.parser().parse_args(["datasets", "--help"])
    out = capsys.readouterr().out
    assert out.startswith("usage: ") and "datasets" in out and "Project Gutenberg" in out


def test_help_topics_print_their_part_of_the_documentation(capsys):
    import manual

    assert main.main(["help"]) == 0
    listed = capsys.readouterr().out
    for topic, (_, title, what) in manual.TOPICS.items():
        assert f"  {topic}" in listed and what in listed
        assert main.main(["help", topic]) == 0
        text = capsys.readouterr().out
        first = text.splitlines()[0]
        assert first.startswith("#") and (title is None or first.endswith(title)), (topic, first)
        assert len(text) > 300
    datasets = manual.topic_text("datasets")
    assert "datasets mirror" in datasets and "## Other modes" not in datasets   # to the next section
    with pytest.raises(SystemExit) as stop:
        main.main(["help", "nope"])
    assert stop.value.code == 2 and len(capsys.readouterr().err.splitlines()) == 1
