"""The project's declared dependencies: pyproject.toml and the requirements files agree."""

from __future__ import annotations

import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def pins(path: Path) -> set[str]:
    """The `name==version` lines of a requirements file (comments and -r includes skipped)."""
    lines = (line.split("#", 1)[0].strip() for line in path.read_text().splitlines())
    return {line for line in lines if line and not line.startswith("-")}


def test_pyproject_declares_what_the_requirements_files_pin():
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    assert set(project["dependencies"]) == pins(ROOT / "requirements.txt")
    assert set(project["optional-dependencies"]["dev"]) == pins(ROOT / "requirements-dev.txt")
    assert project["scripts"]["codenames"] == "main:main"


def test_every_top_level_module_is_declared():
    declared = set(tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]["py-modules"])
    assert declared == {p.stem for p in ROOT.glob("*.py")}
