"""The project as pip installs it: declared dependencies, one package, a command that plays.

Installed, the clone's folder becomes the package `codenames`, so that none of its modules
(datasets, common, cli, main ...) lands at the top of site-packages. The game is shipped without
the lab (lab/: the bench and what measures the game), which a clone holds.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tomllib
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
SHIPPED_ELSEWHERE = ("tests/", "docs/decisions/", "reports/", "lab/", ".ci/")   # in a clone only


def pins(path: Path) -> set[str]:
    """The `name==version` lines of a requirements file (comments and -r includes skipped)."""
    lines = (line.split("#", 1)[0].strip() for line in path.read_text().splitlines())
    return {line for line in lines if line and not line.startswith("-")}


def test_pyproject_declares_what_the_requirements_files_pin():
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    assert set(project["dependencies"]) == pins(ROOT / "requirements.txt")
    assert set(project["optional-dependencies"]["dev"]) == pins(ROOT / "requirements-dev.txt")
    assert project["scripts"]["codenames"] == "codenames.__main__:main"


def tracked_files() -> list[str]:
    """The clone's files: tracked, or new and not ignored."""
    listed = subprocess.run(["git", "ls-files", "-co", "--exclude-standard"], cwd=ROOT, capture_output=True,
                            text=True, check=True).stdout.split()
    return [name for name in listed if (ROOT / name).is_file()]


@pytest.fixture(scope="module")
def wheel(tmp_path_factory) -> zipfile.ZipFile:
    """The wheel built from a copy of the clone's files (a build leaves build/ behind it)."""
    folder = tmp_path_factory.mktemp("wheel")
    for name in tracked_files():
        (folder / "source" / name).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(ROOT / name, folder / "source" / name)
    pip_wheel = [sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation", "-q"]
    built = subprocess.run([*pip_wheel, "-w", str(folder / "out"), str(folder / "source")],
                           capture_output=True, text=True)
    assert built.returncode == 0, built.stderr[-2000:]
    return zipfile.ZipFile(next((folder / "out").glob("*.whl")))


def test_the_wheel_holds_one_package_with_every_module_and_the_shipped_data(wheel):
    names = set(wheel.namelist())
    assert {name.split("/")[0] for name in names if ".dist-info/" not in name} == {"codenames"}
    shipped = {f"codenames/{name}" for name in tracked_files() if not name.startswith(SHIPPED_ELSEWHERE)
               and (name.endswith(".py") or name.startswith("data/"))}
    assert shipped - names == set()
    assert {"codenames/datasets.py", "codenames/data/people.json", "codenames/data/sbert_en.npy"} <= names
    docs = {f"codenames/{name}" for name in tracked_files() if name == "README.md"
            or name.startswith("docs/") and name.count("/") == 1 and name.endswith(".md")}
    assert "codenames/docs/players.md" in docs and docs <= names   # what `codenames help` reads
    entry_points = wheel.read(next(n for n in names if n.endswith("entry_points.txt"))).decode()
    assert "codenames = codenames.__main__:main" in entry_points


def test_the_wheel_ships_the_game_without_the_lab(wheel):
    names = wheel.namelist()
    assert "codenames/main.py" in names and "codenames/support/cluster.py" in names   # the game's Dask glue
    lab = ("lab", "evaluation", "foreign", "benchmarks")   # the lab, and where its parts once were
    assert [name for name in names if set(name.split("/")[:-1]) & set(lab)] == []
    assert "codenames/bench.py" not in names and "codenames/cluster.py" not in names


def test_installed_the_help_names_the_users_folders_and_carries_the_documentation(wheel, tmp_path):
    site = tmp_path / "site"
    wheel.extractall(site)
    env = {**os.environ, "PYTHONPATH": str(site), "XDG_DATA_HOME": str(tmp_path / "home")}

    def codenames(*argv: str) -> subprocess.CompletedProcess:
        return subprocess.run([sys.executable, "-m", "codenames", *argv], cwd=tmp_path, env=env,
                              capture_output=True, text=True, timeout=120)
    flags = "".join(codenames("--help").stdout.split())   # argparse breaks a long path anywhere
    folder = tmp_path / "home" / "codenames"
    assert f"(default{folder}/sources/)" in flags and f"(default{folder}/games.jsonl)" in flags
    assert "data/" not in flags and "codenameshelp[TOPIC]" in flags
    listing = "".join(codenames("datasets", "--help").stdout.split())
    assert f"(default{folder}/sources/)" in listing and "data/sources" not in listing
    datasets = codenames("help", "datasets")
    assert datasets.returncode == 0 and datasets.stdout.startswith("## Adding datasets")
    assert codenames("help", "players").stdout.startswith("# A player, remembered")


def test_the_installed_bench_says_in_one_line_that_it_needs_a_clone(wheel, tmp_path):
    site = tmp_path / "site"
    wheel.extractall(site)
    env = {**os.environ, "PYTHONPATH": str(site), "XDG_DATA_HOME": str(tmp_path / "home")}
    bench = subprocess.run([sys.executable, "-m", "codenames", "bench", "--quick"], cwd=tmp_path, env=env,
                           capture_output=True, text=True, timeout=120)
    assert bench.returncode == 2 and bench.stdout == ""
    assert bench.stderr.count("\n") == 1 and bench.stderr.startswith("codenames bench: ")
    assert "clone" in bench.stderr and "python main.py bench" in bench.stderr
    assert not (tmp_path / "reports").exists()


@pytest.mark.slow   # a whole game from the wheel; the wheel's contents are checked by default
def test_the_installed_command_plays_and_shadows_nothing(wheel, tmp_path):
    """Installed, `datasets` and `common` are not importable by anyone else's code, the command
    plays a game from the shipped data alone, and the player's files go to XDG_DATA_HOME."""
    site = tmp_path / "site"
    wheel.extractall(site)
    env = {**os.environ, "PYTHONPATH": str(site), "XDG_DATA_HOME": str(tmp_path / "home"),
           "HF_HUB_OFFLINE": "1"}
    for name in ("datasets", "common", "main", "board"):
        found = subprocess.run([sys.executable, "-c", f"import {name}"], cwd=tmp_path, env=env,
                               capture_output=True, text=True)
        assert f"No module named '{name}'" in found.stderr
    play = ["--red", "ai:ai", "--blue", "auto", "--seed", "1"]
    game = subprocess.run([sys.executable, "-m", "codenames", *play], cwd=tmp_path, env=env,
                          capture_output=True, text=True, timeout=300)
    assert game.returncode == 0, game.stderr[-2000:]
    assert "wins" in game.stdout
    assert (tmp_path / "home" / "codenames" / "games.jsonl").is_file()
    status = subprocess.run([sys.executable, "-m", "codenames", "datasets", "status"], cwd=tmp_path, env=env,
                            capture_output=True, text=True, timeout=300)
    assert "eat: missing: codenames datasets download eat" in status.stdout   # the command the user ran


def test_a_clone_keeps_its_files_in_its_own_data_folder():
    import common

    assert not common.INSTALLED and common.DATA_DIR == ROOT / "data" and common.COMMAND == "python main.py"


def test_an_installed_copy_keeps_the_players_files_where_the_platform_says(monkeypatch, tmp_path):
    import platformdirs

    from support.paths import player_folder

    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    assert player_folder(installed=True) == Path(platformdirs.user_data_dir("codenames", appauthor=False))
    if sys.platform.startswith("linux"):
        assert player_folder(installed=True) == tmp_path / "codenames"
