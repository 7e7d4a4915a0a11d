"""The project's import graph: no module imports itself back, and none imports by `__import__`.

Every .py file of the repository is parsed (not imported); an edge runs from a module to each
project module it imports, at the top or inside a function. `tests/` are scripts on their own
folder's path, so they may import their siblings by bare name. The game is every module outside
`lab/` and `tests/`; the lab stands on it and no module of the game imports the lab.
Last, what a start of the game imports: not spaCy, torch or scipy.optimize.
"""

from __future__ import annotations

import ast
import functools
import importlib.util
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
SKIP = {".git", ".venv", "venv", "data", "reports", "__pycache__", "build"}

# Lowest first: a module may import from its own floor and those below, never from one above.
# A module is on the floor of the longest prefix listed for it.
FLOORS: list[tuple[str, ...]] = [
    # the game
    ("support", "common", "board"),                          # paths, files, words, Dask; the cards
    ("models", "model"),                                     # hints, matrices, captains and agents
    ("initializers", "datasets"),                            # sources → matrices
    ("engine", "prompts", "players"),                        # the game and its players
    ("renderer",),                                           # drawing
    ("cli", "duet", "download", "profiles", "session", "manual"),   # shared flags, Duet, downloads, players,
                                                                      # games, the documentation
    ("bot", "tabletop", "network"),                          # the parts of serve, companion, host/join
    ("protocol", "companion", "multiplayer", "main", "__main__"),   # the game's commands
    # the lab, above the whole game: it imports the game, never the other way
    ("lab", "lab.foreign"),                                  # strangers: agents the AI never reads
    ("lab.evaluation",),                                     # what the bench measures
    ("lab.bench",),                                          # the bench command
    ("lab.benchmarks", "tests"),                             # scripts
]
GAME_TOP = FLOORS.index(("protocol", "companion", "multiplayer", "main", "__main__"))   # the game's top

# Each package's one public face: outside the package, its names come through it.
FACES = {"models": "model", "initializers": "datasets", "support": "common", "bot": "protocol",
         "tabletop": "companion", "network": "multiplayer"}
# Unit tests, the corpus benchmark, the fitter of the model of people and what refits it (a person's
# learner on a giver's turns) read the parts themselves.
BEHIND_THE_FACE = ("tests.", "lab.benchmarks.", "lab.evaluation.people_fit", "lab.evaluation.human_models",
                   "lab.evaluation.sight",
                   "lab.evaluation.giver_adaptation", "lab.evaluation.stops",
                   "download")   # fetch's command line, imported at every start: not the whole catalog


def project_files() -> dict[str, Path]:
    """Each project module's dotted name ('initializers.catalog', 'tests.test_rules') and its file."""
    modules = {}
    for path in sorted(ROOT.rglob("*.py")):
        parts = path.relative_to(ROOT).with_suffix("").parts
        if SKIP & set(parts[:-1]):
            continue
        name = ".".join(parts[:-1] if parts[-1] == "__init__" else parts)
        modules[name] = path
    return modules


def resolve(target: str, importer: str, modules: dict[str, Path]) -> str | None:
    """The project module that `import target` in `importer` loads, if any: itself, else, for a
    script outside any package (tests/), a sibling in its folder (on its sys.path)."""
    folder = importer.rpartition(".")[0]
    candidates = [(target, "")]
    if folder and folder not in modules:
        candidates.append((f"{folder}.{target}", folder))
    for name, floor in candidates:
        while name and name != floor:
            if name in modules:
                return name
            name = name.rpartition(".")[0]   # 'initializers.catalog.Catalog' → 'initializers.catalog'
    return None


def imports_of(name: str, path: Path, modules: dict[str, Path]) -> tuple[set[str], list[int]]:
    """The project modules a file imports (anywhere in it), and the lines that call `__import__`."""
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found, dunder = set(), []
    for node in ast.walk(tree):
        targets: list[str] = []
        if isinstance(node, ast.Import):
            targets = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.split(".")[:len(package.split(".")) - node.level + 1] if package else []
                base = ".".join([*anchor, *([base] if base else [])])
            targets = [f"{base}.{alias.name}" if base else alias.name for alias in node.names]
        elif isinstance(node, ast.Call) and (
                (isinstance(node.func, ast.Name) and node.func.id == "__import__")
                or (isinstance(node.func, ast.Attribute) and node.func.attr == "__import__")):
            dunder.append(node.lineno)
        for target in targets:
            if (module := resolve(target, name, modules)) is not None and module != name:
                found.add(module)
    return found, dunder


@functools.cache
def import_graph() -> tuple[dict[str, set[str]], dict[str, list[int]]]:
    """Each module's project imports, and the lines where it calls `__import__`; parsed once a
    run (the tests only read them)."""
    modules = project_files()
    graph, dunders = {}, {}
    for name, path in modules.items():
        graph[name], lines = imports_of(name, path, modules)
        if lines:
            dunders[name] = lines
    return graph, dunders


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan), each sorted."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in sorted(graph.get(v, ())):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                component.append(w)
                if w == v:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return found


def test_the_graph_sees_top_level_and_function_level_imports():
    graph, _ = import_graph()
    assert "initializers.catalog" in graph["datasets"]             # top level
    assert "datasets" in graph["session"]                          # inside a function
    assert "datasets" in graph["lab.foreign.isolation"]            # from-import inside a function
    assert "helpers" not in graph and "tests.helpers" in graph["tests.test_sbert"]   # a sibling


def test_the_catalog_is_a_facade_over_availability_the_store_and_the_builders():
    """What is available knows nothing of the caches, the caches nothing of the builders; the
    catalog composes the three."""
    graph, _ = import_graph()
    availability, store, builders, catalog = (f"initializers.{m}" for m in
                                              ("availability", "store", "builders", "catalog"))
    assert {availability, store, builders} <= graph[catalog]
    assert not {store, builders, catalog} & graph[availability]
    assert not {builders, catalog} & graph[store]
    assert catalog not in graph[builders]


def test_cycles_are_found():
    assert cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]
    assert cycles({"a": {"b"}, "b": set()}) == []


def test_the_initializers_and_their_facade_are_in_no_cycle():
    graph, dunders = import_graph()
    ours = [c for c in cycles(graph) if any(m == "datasets" or m.startswith("initializers") for m in c)]
    assert ours == []
    assert not {m: lines for m, lines in dunders.items() if m == "datasets" or m.startswith("initializers")}
    assert "datasets" not in set().union(*(graph[m] for m in graph if m.startswith("initializers")))


def test_the_models_and_their_facade_are_in_no_cycle():
    graph, _ = import_graph()
    assert graph["model"] == {m for m in graph if m.startswith("models.")}   # a facade over every part
    assert [c for c in cycles(graph) if any(m == "model" or m.startswith("models") for m in c)] == []
    assert "model" not in set().union(*(graph[m] for m in graph if m.startswith("models")))


def test_the_project_has_no_import_cycle_and_no_dunder_import():
    graph, dunders = import_graph()
    assert cycles(graph) == []
    assert dunders == {}


def within(module: str, prefix: str) -> bool:
    return module == prefix or module.startswith(prefix + ".")


def floor(module: str) -> int:
    """The floor of a module: that of the longest prefix in FLOORS it falls within."""
    matches = [(len(prefix), level) for level, prefixes in enumerate(FLOORS)
               for prefix in prefixes if within(module, prefix)]
    if not matches:
        raise KeyError(f"{module} is on no floor: add it to FLOORS")
    return max(matches)[1]


def upward(graph: dict[str, set[str]]) -> list[str]:
    """Every import from a lower floor up to a higher one, as 'importer → imported'."""
    return [f"{m} → {t}" for m in sorted(graph) for t in sorted(graph[m]) if floor(t) > floor(m)]


def test_every_module_is_on_a_floor():
    graph, _ = import_graph()
    for module in graph:
        floor(module)


def test_an_import_up_a_floor_is_found():
    assert upward({"lab.foreign.isolation": {"lab.evaluation.specs"}}) == [
        "lab.foreign.isolation → lab.evaluation.specs"]
    assert floor("models.expected") < floor("datasets") < floor("players") < floor("main")
    assert floor("main") < floor("lab") <= floor("lab.foreign") < floor("lab.evaluation") < floor("lab.bench")


def test_no_module_imports_from_a_floor_above_its_own():
    graph, _ = import_graph()
    assert upward(graph) == []


def in_the_game(module: str) -> bool:
    return not within(module, "lab") and not within(module, "tests")


def lab_imports_of_the_game(graph: dict[str, set[str]]) -> list[str]:
    """Every import of a lab module by a module of the game, as 'importer → imported'."""
    return [f"{m} → {t}" for m in sorted(graph) if in_the_game(m)
            for t in sorted(graph[m]) if within(t, "lab")]


def test_a_game_module_importing_the_lab_is_found(tmp_path):
    (tmp_path / "lab" / "evaluation").mkdir(parents=True)
    for name in ("lab/__init__.py", "lab/bench.py", "lab/evaluation/__init__.py", "lab/evaluation/specs.py"):
        (tmp_path / name).write_text("")
    (tmp_path / "main.py").write_text("def command():\n    import lab.bench\n")
    (tmp_path / "session.py").write_text("from lab.evaluation.specs import Spec\n")
    modules = {".".join(p.relative_to(tmp_path).with_suffix("").parts).removesuffix(".__init__"): p
               for p in tmp_path.rglob("*.py")}
    graph = {name: imports_of(name, path, modules)[0] for name, path in modules.items()}
    assert lab_imports_of_the_game(graph) == ["main → lab.bench", "session → lab.evaluation.specs"]


def test_no_game_module_imports_the_lab():
    """The lab stands on the game: the game's modules (all but lab/ and tests/) are on its floors,
    and none imports the lab, at the top or inside a function. main.py names the bench's module and
    loads it by name when `bench` runs (main.LAB_COMMANDS): a clone has it, an installed copy not."""
    graph, _ = import_graph()
    assert lab_imports_of_the_game(graph) == []
    assert [m for m in graph if in_the_game(m) and floor(m) > GAME_TOP] == []
    lab = {m for m in graph if within(m, "lab")}
    assert lab >= {"lab.bench", "lab.evaluation.runner", "lab.foreign.agent", "lab.benchmarks.tune"}


@pytest.mark.parametrize("package, face", FACES.items())
def test_outside_a_package_its_names_come_through_its_face(package, face):
    graph, _ = import_graph()
    reaching = sorted(f"{m} → {t}" for m in graph for t in graph[m]
                      if within(t, package) and not within(m, package) and m != face
                      and not m.startswith(BEHIND_THE_FACE))
    assert reaching == []


# --- what a start imports ----------------------------------------------------------------


def test_lemmas_and_the_game_modules_import_neither_spacy_nor_torch():
    """lemminflect's __init__ imports spaCy (and spaCy torch) when it is installed, as the
    development requirements do: 1.6 s of every start. The game reads lemmas without them."""
    if importlib.util.find_spec("spacy") is None:
        pytest.skip("spaCy is not installed: nothing could pull it in")
    script = ("import sys, common, main; common.lemmas('dogs'); common.lemma_of('ran');"
              "print(sorted(m for m in ('spacy', 'torch') if m in sys.modules))")
    result = subprocess.run([sys.executable, "-c", script], cwd=ROOT, capture_output=True, text=True,
                            timeout=120)
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "[]"


def private_imports(modules: dict[str, Path]) -> list[str]:
    """Every `from module import _name` of a project module from outside that module's package."""
    found = []
    for name, path in modules.items():
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), filename=str(path))):
            if not isinstance(node, ast.ImportFrom) or node.level or node.module not in modules:
                continue
            home = node.module.rpartition(".")[0] or node.module
            if within(name, home):
                continue
            found += [f"{name}: {node.module}.{alias.name}" for alias in node.names
                      if alias.name.startswith("_") and not alias.name.startswith("__")]
    return found


def test_no_private_name_is_imported_from_outside_its_package(tmp_path):
    (tmp_path / "models").mkdir()
    (tmp_path / "models" / "hints.py").write_text("_secret = 1\n")
    (tmp_path / "bench.py").write_text("from models.hints import _secret\n")
    planted = {"models.hints": tmp_path / "models" / "hints.py", "bench": tmp_path / "bench.py"}
    assert private_imports(planted) == ["bench: models.hints._secret"]
    assert private_imports(project_files()) == []


def test_a_start_of_main_does_not_import_scipy_optimize():
    """scipy.optimize (0.8 s: linalg, fft, special) fits the bench's models of people; the game,
    `--help` and the other commands start without it."""
    script = "import sys, main; print('scipy.optimize' in sys.modules)"
    result = subprocess.run([sys.executable, "-c", script], cwd=ROOT, capture_output=True, text=True,
                            timeout=120)
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "False"


def test_a_start_of_main_loads_no_initializer_catalog():
    """`--help` and a game without the AI need no matrix: the catalog (and scipy.sparse) load with the AI."""
    script = "import sys, main; print(sorted(m for m in ('datasets', 'scipy.sparse') if m in sys.modules))"
    result = subprocess.run([sys.executable, "-c", script], cwd=ROOT, capture_output=True, text=True,
                            timeout=120)
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "[]"


# --- the game reads what its players declare ----------------------------------------------------

# The game's rooms that talk to players and draw what they do. (cli and download, the shared
# command line, read argparse namespaces by name.)
GAME_ROOMS = ("engine", "players", "prompts", "renderer", "session", "main", "datasets", "duet")


def attribute_reads(path: Path) -> list[int]:
    """The lines of a file that call getattr or name `last_choice`."""
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    return sorted({node.lineno for node in ast.walk(tree)
                   if (isinstance(node, ast.Call) and isinstance(node.func, ast.Name)
                       and node.func.id == "getattr")
                   or (isinstance(node, ast.Attribute) and node.attr == "last_choice")
                   or (isinstance(node, ast.Name) and node.id == "last_choice")})


def test_attribute_reads_are_found(tmp_path):
    planted = tmp_path / "planted.py"
    planted.write_text("x = getattr(captain, 'last_choice', None)\ny = captain.last_choice\n")
    assert attribute_reads(planted) == [1, 2]


def test_the_game_reads_no_undeclared_attribute_of_a_player():
    """A hint's reasons come back from `give_hint` itself (a HintChoice), never by a side door."""
    found = {name: lines for name, path in project_files().items()
             if any(within(name, room) for room in GAME_ROOMS) and (lines := attribute_reads(path))}
    assert found == {}
