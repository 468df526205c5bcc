"""No import cycle among miner's modules, counting the imports a function
makes when it runs (a cycle hidden inside a function is a cycle still);
only the imports under ``if TYPE_CHECKING:`` never run and are not counted."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def modules(root: Path, package: str) -> dict[str, Path]:
    """Each module of ``package`` under ``root`` by its dotted name."""
    found = {}
    for path in sorted((root / package).rglob("*.py")):
        parts = list(path.relative_to(root).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts.pop()
        found[".".join(parts)] = path
    return found


def _owner(name: str, known: dict[str, Path]) -> str | None:
    """The module of ``known`` that ``name`` (a module or a name in one) is in."""
    while name and name not in known:
        name = name.rpartition(".")[0]
    return name or None


def import_graph(root: Path, package: str) -> dict[str, set[str]]:
    """Module -> the modules of the package it imports, anywhere in it."""
    known = modules(root, package)
    graph: dict[str, set[str]] = {}
    for module, path in known.items():
        tree = ast.parse(path.read_text(encoding="utf-8"))
        typing_only = {
            id(inner)
            for node in ast.walk(tree)
            if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test)
            for inner in ast.walk(node)
        }
        targets: set[str | None] = set()
        for node in ast.walk(tree):
            if id(node) in typing_only:
                continue
            if isinstance(node, ast.Import):
                targets |= {_owner(alias.name, known) for alias in node.names}
            elif isinstance(node, ast.ImportFrom):
                base = node.module or ""
                if node.level:
                    here = module if path.name == "__init__.py" else module.rpartition(".")[0]
                    for _ in range(node.level - 1):
                        here = here.rpartition(".")[0]
                    base = f"{here}.{base}" if base else here
                targets |= {_owner(f"{base}.{a.name}", known) or _owner(base, known)
                            for a in node.names}  # fmt: skip
        graph[module] = {t for t in targets if t is not None and t != module}
    return graph


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected groups of more than one module (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    found: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        for other in sorted(graph.get(node, ())):
            if other not in index:
                visit(other)
                low[node] = min(low[node], low[other])
            elif other in stack:
                low[node] = min(low[node], index[other])
        if low[node] == index[node]:
            group = []
            while True:
                member = stack.pop()
                group.append(member)
                if member == node:
                    break
            if len(group) > 1:
                found.append(sorted(group))

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return found


def test_no_module_of_miner_imports_itself_back():
    assert cycles(import_graph(ROOT, "miner")) == []


def test_the_check_sees_a_cycle_hidden_in_a_function_and_not_a_typing_one(tmp_path):
    package = tmp_path / "pkg"
    package.mkdir()
    (package / "__init__.py").write_text("")
    (package / "a.py").write_text("from pkg.b import thing\n")
    (package / "b.py").write_text("def thing():\n    from pkg import a\n    return a\n")
    (package / "c.py").write_text(
        "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from pkg.a import x\n"
    )
    (package / "d.py").write_text("from . import c\n")
    (package / "e.py").write_text("from .d import c\nimport pkg.c\n")
    graph = import_graph(tmp_path, "pkg")
    assert graph["pkg.c"] == set() and graph["pkg.d"] == {"pkg.c"}
    assert graph["pkg.e"] == {"pkg.d", "pkg.c"}
    assert cycles(graph) == [["pkg.a", "pkg.b"]]


def test_every_module_imports_in_a_fresh_interpreter():
    # ``__main__`` runs the command line when imported: it is what ``python -m`` runs.
    names = sorted(m for m in modules(ROOT, "miner") if not m.endswith("__main__"))
    script = "import importlib, sys\nfor name in sys.argv[1:]:\n    importlib.import_module(name)\n"
    done = subprocess.run(
        [sys.executable, "-c", script, *names], capture_output=True, text=True, cwd=ROOT
    )
    assert done.returncode == 0, done.stderr[-2000:]


def test_listing_what_is_left_to_review_imports_neither_pandas_nor_the_policy(tmp_path):
    # `miner review` reads case files: the config's signals (pandas) and the
    # policy's word lists cost seconds of imports it has no use for.
    (tmp_path / "left.evalset.json").write_text(
        '{"eval_set_id": "left", "eval_cases": [{"eval_id": "left", "conversation": '
        '[{"invocation_id": "i", "final_response": {"parts": [{"text": "REVIEW: it"}]}}]}]}'
    )
    script = (
        "import sys\n"
        "from typer.testing import CliRunner\n"
        "from miner.cli import app\n"
        "done = CliRunner().invoke(app, ['review', sys.argv[1]])\n"
        "assert 'left.evalset.json:1:' in done.output, done.output\n"
        "print(sorted(m for m in ('pandas', 'miner.redaction.policy', 'miner.config')"
        " if m in sys.modules))\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", script, str(tmp_path)], capture_output=True, text=True, cwd=ROOT
    )
    assert done.returncode == 0, done.stderr[-2000:]
    assert done.stdout.strip().splitlines()[-1] == "[]"


def imported_of(heavy: tuple[str, ...], script: str) -> list[str]:
    """The modules of ``heavy`` a fresh interpreter holds once it ran ``script``."""
    shown = f"import sys\n{script}print(sorted(m for m in {heavy!r} if m in sys.modules))\n"
    done = subprocess.run([sys.executable, "-c", shown], capture_output=True, text=True, cwd=ROOT)
    assert done.returncode == 0, done.stderr[-2000:]
    return list(ast.literal_eval(done.stdout.strip().splitlines()[-1]))


def test_the_drafts_first_stage_imports_neither_pandas_nor_the_job():
    # The first stage's child counts every page it imports beside DuckDB's
    # pool (``miner.first_stage``): a module-level pandas import in any
    # module it reaches (the sample, the source, the engine) brings 33 MiB.
    heavy = ("pandas", "pyarrow.dataset", "miner.job", "miner.redaction.policy", "miner.report")
    script = "import miner.first_stage, miner.engine.embedded, miner.engine.registry\n"
    assert imported_of(heavy, script) == []


def test_what_decides_where_the_drafts_first_stage_runs_imports_none_of_the_job():
    # Decided before the fork (``miner.draft_start``): the engine's entry and
    # the config's [sources] traces are read in a process that must stay
    # light, its child counting every page it imports (pyarrow, pydantic...).
    heavy = (
        "pandas", "pyarrow", "duckdb", "pydantic", "miner.config", "miner.job",
        "miner.first_stage", "miner.engine.embedded", "miner.engine.spark",
    )  # fmt: skip
    script = (
        "from pathlib import Path\n"
        "import miner.cli\n"
        "from miner.config_paths import read_toml, traces_named_in\n"
        "from miner.draft_start import first_stage_apart\n"
        "from miner.engine.registry import engine_named\n"
        "config = Path('pipelines/support_agent.toml')\n"
        "traces = traces_named_in(read_toml(config), config)\n"
        "assert traces == Path('sample_traces/traces'), traces\n"
        "assert not first_stage_apart(engine_named('embedded'), traces)\n"
    )
    assert imported_of(heavy, script) == []
