"""A wrong --sources, a wrong dataset name: one line that names it, and the command the user ran."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import pytest

import download
import main
from common import COMMAND, SOURCES_DIR

ROOT = Path(__file__).resolve().parent.parent


def run_main(argv: list[str]) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, str(ROOT / "main.py"), *argv], capture_output=True, text=True,
                          timeout=120, stdin=subprocess.DEVNULL)


def test_a_sources_folder_that_does_not_exist_is_one_line_and_exit_2(tmp_path):
    missing = tmp_path / "datsets"
    result = run_main(["--red", "ai:ai", "--blue", "auto", "--seed", "1", "--no-log",
                       "--sources", str(missing)])
    assert result.returncode == 2 and result.stdout == ""
    assert result.stderr.strip().splitlines() == [f"{COMMAND}: --sources {missing} does not exist"]


@pytest.mark.parametrize("argv", [[], ["serve"], ["companion"], ["duet"], ["bench"], ["datasets", "status"],
                                  ["datasets", "download"]])
def test_a_file_named_as_the_sources_folder_is_refused_by_every_command(argv, tmp_path, capsys):
    a_file = tmp_path / "usf.zip"
    a_file.write_bytes(b"PK")
    with pytest.raises(SystemExit) as stop:
        main.parser().parse_args([*argv, "--sources", str(a_file)])
    assert stop.value.code == 2
    assert capsys.readouterr().err.splitlines() == [f"{COMMAND}: --sources {a_file} is a file, not a folder"]


def test_the_default_folder_may_be_absent_and_a_download_may_make_its_own(tmp_path, capsys):
    assert main.parser().parse_args([]).sources == SOURCES_DIR   # not checked: none there is fine
    new = tmp_path / "new"
    assert main.parser().parse_args(["datasets", "download", "--sources", str(new)]).sources == new
    with pytest.raises(SystemExit):
        main.parser().parse_args(["datasets", "status", "--sources", str(new)])
    assert capsys.readouterr().err.splitlines() == [f"{COMMAND}: --sources {new} does not exist"]


def test_an_unknown_dataset_lists_the_choices_and_nothing_else(capsys):
    with pytest.raises(SystemExit) as stop:
        download.parser().parse_args(["download", "nonsense"])
    err = capsys.readouterr().err
    assert stop.value.code == 2 and "[]" not in err
    assert "no dataset 'nonsense': choose from usf, eat, corpus, human_duet" in err
    assert download.parser().parse_args(["download"]).names == []
    assert download.parser().parse_args(["download", "eat", "usf"]).names == ["eat", "usf"]


# The modules a player's command runs; the lab (lab/: a clone only) records its own commands.
PLAYERS_MODULES = ("main.py", "cli.py", "download.py", "companion.py", "protocol.py", "datasets.py",
                   "duet/*.py", "initializers/*.py", "models/*.py", "support/*.py")


def test_no_message_hard_codes_the_clones_command():
    """Installed, the command is `codenames`: a message names it through common.COMMAND."""
    found = []
    for pattern in PLAYERS_MODULES:
        for path in sorted(ROOT.glob(pattern)):
            tree = ast.parse(path.read_text(encoding="utf-8"))
            docstrings = {id(node.body[0].value) for node in ast.walk(tree)
                          if isinstance(node, ast.Module | ast.FunctionDef | ast.ClassDef)
                          and node.body and isinstance(node.body[0], ast.Expr)}
            found += [f"{path.relative_to(ROOT)}:{node.lineno}" for node in ast.walk(tree)
                      if isinstance(node, ast.Constant) and isinstance(node.value, str)
                      and "python main.py" in node.value and id(node) not in docstrings
                      and path.name != "paths.py"]
    assert found == []
