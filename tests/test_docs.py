"""The README and docs/: every relative link (and its #anchor) resolves, and the README stays short."""

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
README = ROOT / "README.md"
DOCS = sorted([README, *(ROOT / "docs").rglob("*.md"), *(ROOT / "reports").rglob("*.md")])
# [text](target) and [text](target "title"); images too. Autolinks and bare URLs are not relative.
LINK = re.compile(r"!?\[[^\]]*\]\(\s*<?([^)\s>]+)>?(?:\s+\"[^\"]*\")?\s*\)")
FENCE = re.compile(r"^(```|~~~).*?^\1", re.S | re.M)
CODE = re.compile(r"`[^`\n]*`")


def links(path: Path) -> list[str]:
    text = CODE.sub("", FENCE.sub("", path.read_text(encoding="utf-8")))
    return LINK.findall(text)


def anchors(path: Path) -> set[str]:
    """The anchors GitHub makes of a page's headings: lower case, punctuation dropped, spaces to -."""
    text = FENCE.sub("", path.read_text(encoding="utf-8"))
    heads = re.findall(r"^#{1,6}\s+(.*?)\s*#*\s*$", text, re.M)
    return {re.sub(r"[^\w\- ]", "", h.lower()).replace(" ", "-") for h in heads}


def relative(target: str) -> bool:
    return not re.match(r"^[a-z][a-z0-9+.-]*:", target, re.I)


def test_the_link_pattern_finds_links_outside_code_only(tmp_path):
    page = tmp_path / "page.md"
    page.write_text('See [a](docs/a.md), ![b](img.png "title") and [c](https://x.org).\n'
                    "`[d](not/a/link.md)`\n```\n[e](nor/this.md)\n```\n", encoding="utf-8")
    assert links(page) == ["docs/a.md", "img.png", "https://x.org"]


def test_anchors_are_made_as_github_makes_them(tmp_path):
    page = tmp_path / "page.md"
    page.write_text("# A title\n## The `expected` captain\n### Reproducing the figures: 0001.\n",
                    encoding="utf-8")
    assert anchors(page) == {"a-title", "the-expected-captain", "reproducing-the-figures-0001"}


def test_the_readme_is_under_20000_bytes():
    assert README.stat().st_size < 20_000


@pytest.mark.parametrize("page", DOCS, ids=lambda p: str(p.relative_to(ROOT)))
def test_every_relative_link_resolves(page):
    assert page.is_file()
    missing = []
    for target in links(page):
        if not relative(target):
            continue
        path, _, anchor = target.partition("#")
        file = page.parent / path if path else page
        broken_anchor = anchor and file.suffix == ".md" and anchor not in anchors(file)
        if not file.exists() or broken_anchor:
            missing.append(target)
    assert not missing, f"{page.relative_to(ROOT)}: links to nothing: {missing}"


def test_the_docs_are_linked_from_the_readme():
    targets = {(ROOT / t.split("#", 1)[0]).resolve() for t in links(README) if relative(t)}
    for doc in ("docs/ai.md", "docs/benchmark.md", "docs/protocol.md", "docs/hardening.md",
                "docs/decisions/README.md", "reports/benchmark.md"):
        assert (ROOT / doc).resolve() in targets, doc


def test_every_decision_record_is_in_the_index():
    decisions = ROOT / "docs" / "decisions"
    indexed = {t.split("#", 1)[0] for t in links(decisions / "README.md")}
    records = {p.name for p in decisions.glob("[0-9][0-9][0-9][0-9]-*.md")}
    assert records and records <= indexed
    numbers = sorted(int(name[:4]) for name in records)
    assert numbers == list(range(1, len(numbers) + 1))


def test_the_docs_that_the_code_cites_exist():
    cited = set()
    for source in ROOT.rglob("*.py"):
        if source != Path(__file__).resolve() and not {"data", ".git"} & set(source.relative_to(ROOT).parts):
            cited |= set(re.findall(r"\b(?:docs|reports)/[\w./-]*\w\.md\b", source.read_text("utf-8")))
    assert "docs/protocol.md" in cited
    assert not {c for c in cited if not (ROOT / c).is_file()}


def layout_table() -> set[str]:
    """The paths the README's layout table names (`main.py`, `models/` ...), folders without their slash."""
    table = README.read_text(encoding="utf-8").split("| path | what it holds |", 1)[1].split("\n\n", 1)[0]
    cells = [row.split("|")[1] for row in table.splitlines() if row.startswith("| `")]
    return {name.rstrip("/") for cell in cells for name in re.findall(r"`([^`]+)`", cell)}


def test_the_readme_layout_table_matches_the_tree():
    """Every module and folder at the top of the clone is in the table, and the table names nothing else."""
    tracked = {p.name for p in ROOT.iterdir() if not p.name.startswith((".", "__pycache__", "build"))
               and (p.suffix == ".py" or p.is_dir())}
    assert layout_table() == tracked
