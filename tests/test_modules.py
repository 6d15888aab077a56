"""The online-learning core split by concept, each module one hop away; the package has no import cycle."""

from __future__ import annotations

import importlib
import re

import numpy as np
import pytest

from smoothviz import validation
from smoothviz.experiments import regret as regret_experiment
from smoothviz.online import adversaries, erm, experts, halfspaces, hedge, thresholds

MODULES = [adversaries, erm, experts, halfspaces, hedge, validation, regret_experiment]


@pytest.mark.parametrize("module", MODULES, ids=lambda m: m.__name__)
def test_every_split_module_declares_and_defines_its_public_names(module):
    assert module.__doc__
    assert module.__all__ == sorted(module.__all__, key=lambda n: (not n.isupper(), n))
    for name in module.__all__:
        assert hasattr(module, name), (module.__name__, name)
        home = getattr(getattr(module, name), "__module__", module.__name__)
        assert home == module.__name__, (module.__name__, name, home)


def test_each_adversary_has_one_home():
    runs = ("worst_case_run", "smoothed_run", "adversary_rng")
    for name in runs:
        homes = [m.__name__ for m in (adversaries, thresholds) if name in vars(m)]
        assert homes == ["smoothviz.online.thresholds"], name
    assert "BINARY_SEARCH_ADVERSARIES" not in vars(adversaries)
    assert set(adversaries.ADVERSARIES_2D) < set(adversaries.ADVERSARIES)


@pytest.mark.parametrize(
    ("call", "words"),
    [
        (lambda: validation.check_sigma(0.0), ["`sigma`", "(0, 1]", "0.0"]),
        (lambda: validation.check_sigma(1.5), ["`sigma`", "1.5"]),
        (lambda: validation.check_sigma(True), ["`sigma`", "True"]),
        (lambda: validation.check_int("trials", 2.5, 1), ["`trials`", "2.5"]),
        (lambda: validation.check_int("trials", True, 1), ["`trials`", "True"]),
        (lambda: validation.check_float("noise", -0.1, 0.0, 0.5), ["`noise`", "-0.1"]),
        (lambda: validation.check_choice("update", "sgd", ("notes",)), ["`update`", "'sgd'"]),
        (lambda: validation.check_choices("adversaries", (), ("iid",)), ["`adversaries`", "()"]),
        (
            lambda: validation.check_choices("adversaries", ("x",), ("iid",)),
            ["`adversaries`", "'x'"],
        ),
    ],
)
def test_validation_messages_name_the_parameter_and_the_value(call, words):
    with pytest.raises(ValueError, match=re.escape(words[0])) as info:
        call()
    for word in words:
        assert word in str(info.value)


def test_validation_returns_normalised_values():
    assert validation.check_sigma(1) == 1.0
    assert type(validation.check_int("n", np.int64(3), 1)) is int
    assert validation.check_float("x", 0.0, 0.0, 1.0, low_open=False) == 0.0
    assert validation.check_choices("a", ("iid",), ("iid", "x")) == ("iid",)


def test_the_nonadaptive_adversary_stays_in_its_window():
    rng = np.random.default_rng(0)
    targets, unif = rng.uniform(0.1, 0.9, 5), rng.random((5, 400))
    xs, ys = adversaries.smoothed_nonadaptive_stream(
        targets, unif, np.zeros((5, 400), bool), sigma=0.2
    )
    gap = np.abs((xs - targets[:, None] + 0.5) % 1.0 - 0.5)  # distance to b* on the circle
    assert gap.max() <= 0.1 + 1e-12
    assert np.array_equal(ys, xs >= targets[:, None])


def test_the_adaptive_adversary_blocks_follow_the_dense_weights():
    rng = np.random.default_rng(1)
    grid = hedge.grid_threshold_cover(1 / 200)
    targets, unif, flips = (
        rng.uniform(0.1, 0.9, 2),
        rng.random((2, 300)),
        rng.random((2, 300)) < 0.1,
    )
    dense = adversaries.smoothed_adaptive_stream(
        grid, targets, unif, flips, 0.3, sigma=0.1, block=10**6
    )
    blocked = adversaries.smoothed_adaptive_stream(
        grid, targets, unif, flips, 0.3, sigma=0.1, block=15
    )
    for a, b in zip(dense, blocked, strict=True):
        np.testing.assert_allclose(a, b, atol=1e-12)


def test_the_worst_case_adversary_keeps_the_learner_at_half_or_worse():
    grid = hedge.grid_threshold_cover(0.05)
    rng = np.random.default_rng(2)
    targets = rng.uniform(0.1, 0.9, 3)
    xs, _, losses = adversaries.worst_case_stream(
        grid, targets, rng.random((3, 200)), np.zeros((3, 200), bool), 0.2
    )
    assert losses.min() >= 0.5 - 1e-12
    cell = np.searchsorted(grid, targets, side="right") - 1
    assert np.all((xs >= grid[cell][:, None]) & (xs < grid[cell + 1][:, None]))


def test_the_erm_oracles_agree_with_brute_force():
    rng = np.random.default_rng(3)
    xs, ys = rng.random((3, 30)), rng.random((3, 30)) < 0.5
    brute = np.array(
        [
            min(((x >= b) != y).sum() for b in np.append(np.sort(x), 1.0))
            for x, y in zip(xs, ys, strict=True)
        ]
    )
    checkpoints = np.array([1, 10, 30])
    cells = np.zeros_like(xs, dtype=np.int64)  # one cell: the cover is the two constants
    best_class, best_cover = erm.prefix_best_mistakes(xs, ys, checkpoints, cells)
    assert np.array_equal(best_class[:, -1], brute)
    ones = np.cumsum(ys, axis=1)[:, checkpoints - 1]
    assert np.array_equal(best_cover, np.minimum(ones, checkpoints - ones))


def test_experts_and_hedge_share_one_learning_rate(monkeypatch):
    assert "TUNED_ETA" not in vars(hedge)  # one home, experts, which hedge reads at each run
    monkeypatch.setitem(experts.TUNED_ETA, "notes", lambda n_experts, horizon: 0.125)
    assert hedge.hedge_thresholds(0.1, 20, trials=1, rng=0).eta == 0.125
    assert halfspaces.log_weight_rate is experts.log_weight_rate


#: The core modules of the online-learning pages (Thresholds, Covers, Regret) and their shared pieces.
ONLINE_CORE = ["smoothviz.online.adversaries", "smoothviz.bounds", "smoothviz.bounds.online", "smoothviz.online.covers", "smoothviz.online.erm", "smoothviz.online.measures",
               "smoothviz.online.experts", "smoothviz.online.game", "smoothviz.online.halfspaces", "smoothviz.online.hedge",
               "smoothviz.names", "smoothviz.random", "smoothviz.online.thresholds", "smoothviz.validation",
               "smoothviz.experiments.covers", "smoothviz.experiments.regret",
               "smoothviz.experiments.thresholds"]  # fmt: skip


def test_every_core_module_declares_all():
    import ast
    from pathlib import Path

    root = Path(__file__).resolve().parents[1] / "smoothviz"
    for path in root.rglob("*.py"):
        if path.name != "__init__.py" and path.parent.name not in ("plots", "ui"):
            assert "__all__" in {
                t.id for n in ast.parse(path.read_text()).body if isinstance(n, ast.Assign)
                for t in n.targets if isinstance(t, ast.Name)
            } or "import __all__" in path.read_text(), path  # fmt: skip


@pytest.mark.parametrize("name", ONLINE_CORE)
def test_every_public_function_and_class_is_in_all(name):
    import ast
    import inspect

    module = importlib.import_module(name)
    tree = ast.parse(inspect.getsource(module))
    defined = {
        n.name
        for n in tree.body
        if isinstance(n, ast.FunctionDef | ast.ClassDef) and not n.name.startswith("_")
    }
    assert defined <= set(module.__all__), sorted(defined - set(module.__all__))
    assert module.__all__ == sorted(module.__all__, key=lambda n: (not n.isupper(), n))


def _import_graph(root=None, package: str = "smoothviz") -> dict[str, set[str]]:
    """Edges module → package module it imports, from every import statement (function-level too)."""
    import ast
    from pathlib import Path

    root = root or Path(__file__).resolve().parents[1]
    modules = {
        ".".join(p.relative_to(root).with_suffix("").parts).removesuffix(".__init__"): p
        for p in (root / package).rglob("*.py")
    }
    graph: dict[str, set[str]] = {name: set() for name in modules}
    for name, path in modules.items():
        package = name if path.name == "__init__.py" else name.rpartition(".")[0]
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.Import):
                targets = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom):
                base = node.module or ""
                if node.level:
                    up = package.split(".")[: len(package.split(".")) - node.level + 1]
                    base = ".".join([*up, base] if base else up)
                targets = [f"{base}.{a.name}" if f"{base}.{a.name}" in modules else base
                           for a in node.names]  # fmt: skip
            else:
                continue
            graph[name] |= {t for t in targets if t in modules and t != name}
    return graph


def _cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components with more than one module (Tarjan), each sorted."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    found: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        for w in graph[v]:
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                component.append(w)
                if w == v:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return found


def test_the_cycle_finder_finds_a_cycle_and_only_cycles():
    assert _cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]
    assert _cycles({"a": {"b"}, "b": set(), "c": {"a", "b"}}) == []


def test_the_import_graph_sees_function_level_relative_and_submodule_imports(tmp_path):
    files = {
        "__init__.py": "",
        "a.py": "import numpy\n\ndef f():\n    from pkg import b\n",
        "b.py": "from .sub import c\nfrom . import a\n",
        "sub/__init__.py": "",
        "sub/c.py": "from ..a import f\nimport pkg.b as b\n",
    }
    for name, text in files.items():
        (tmp_path / "pkg" / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / "pkg" / name).write_text(text)
    graph = _import_graph(tmp_path, "pkg")
    assert graph == {"pkg": set(), "pkg.a": {"pkg.b"}, "pkg.b": {"pkg.sub.c", "pkg.a"},
                     "pkg.sub": set(), "pkg.sub.c": {"pkg.a", "pkg.b"}}  # fmt: skip
    assert _cycles(graph) == [["pkg.a", "pkg.b", "pkg.sub.c"]]
    assert "smoothviz.online.experts" in _import_graph()["smoothviz.experiments.regret"]


def test_smoothviz_has_no_import_cycle():
    assert _cycles(_import_graph()) == []


def _sigma_takers():
    """Every public core function that takes a σ directly (not through another one)."""
    from smoothviz.online import covers, measures
    from smoothviz.privacy import data, mwem, net_mechanism, private_thresholds, queries

    hist, line = np.arange(1.0, 17.0), np.ones(8)
    return {
        "thresholds.check_game": lambda s: thresholds.check_game(s, 10, 1),
        "measures.smooth_mixture": lambda s: measures.smooth_mixture([0.5], sigma=s),
        "covers.max_count_experiment": lambda s: covers.max_count_experiment(
            sigma=s, n_cells=10, horizon=5, trials=1
        ),
        "data.bump_probs": lambda s: data.bump_probs(16, sigma=s),
        "data.exact_smooth_counts": lambda s: data.exact_smooth_counts(16, n=96, sigma=s),
        "data.synthetic_histogram": lambda s: data.synthetic_histogram("bump", 16, n=50, sigma=s),
        "mwem.smooth_mwem": lambda s: mwem.mwem(
            hist, queries.thresholds(16), "smooth", epsilon=1.0, rounds=2, sigma=s
        ),
        "net_mechanism": lambda s: net_mechanism.net_mechanism(
            hist, sigma=s, m=4, s=2, epsilon=1.0
        ),
        "private_threshold": lambda s: private_thresholds.private_threshold(
            line, line, sigma=s, alpha=0.1, epsilon=1.0
        ),
    }


@pytest.mark.parametrize("name", sorted(_sigma_takers()))
@pytest.mark.parametrize("sigma", [1e-7, 0.0, 1.5, float("nan"), True, None, "0.1"])
def test_every_sigma_goes_through_check_sigma(name, sigma):
    with pytest.raises(ValueError, match=re.escape(f"at least {validation.SIGMA_MIN:g}")):
        _sigma_takers()[name](sigma)


@pytest.mark.parametrize("name", sorted(_sigma_takers()))
def test_every_sigma_taker_runs_at_a_half_and_at_the_int_one(name):
    for sigma in (0.5, 1):
        _sigma_takers()[name](sigma)


def _core_sources():
    import ast
    from pathlib import Path

    root = Path(__file__).resolve().parents[1] / "smoothviz"
    for path in sorted(root.rglob("*.py")):
        yield path.relative_to(root.parent).as_posix(), ast.parse(path.read_text())


def test_every_generator_comes_from_make_rng():
    import ast

    calls = [
        f"{name}:{node.lineno}"
        for name, tree in _core_sources()
        if name != "smoothviz/random.py"
        for node in ast.walk(tree)
        if isinstance(node, ast.Call) and ast.unparse(node.func).endswith("default_rng")
    ]
    assert calls == []


def test_an_rng_argument_is_typed_one_way():
    """A seed-or-Generator ``rng`` is ``RngLike``; ``np.random.Generator`` where only a generator works;
    an integer-only seed is called ``seed``."""
    import ast

    allowed = {"RngLike", "np.random.Generator"}
    odd = [
        f"{name}:{node.lineno} {ast.unparse(arg.annotation) if arg.annotation else None}"
        for name, tree in _core_sources()
        for node in ast.walk(tree)
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef)
        for arg in node.args.args + node.args.kwonlyargs
        if arg.arg == "rng"
        and (arg.annotation is None or ast.unparse(arg.annotation) not in allowed)
    ]
    assert odd == []


def test_no_test_imports_benchmarks():
    """Tests import the package, tests/ and deploy/ only: benchmarks/ measures, it is never a dependency."""
    import ast
    from pathlib import Path

    root = Path(__file__).resolve().parents[1]
    bench = {p.stem for p in (root / "benchmarks").glob("*.py")}
    for path in sorted((root / "tests").glob("*.py")):
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.Import | ast.ImportFrom):
                names = (
                    [a.name for a in node.names] if isinstance(node, ast.Import) else [node.module]
                )
                assert not {str(n).split(".")[0] for n in names} & (bench | {"benchmarks"}), (
                    path.name
                )


#: The longest a module may grow (issue 22: a module a newcomer reads in one sitting).
MAX_MODULE_LINES = 800


def test_no_module_is_over_800_lines():
    from pathlib import Path

    root = Path(__file__).resolve().parents[1] / "smoothviz"
    long = {
        str(path.relative_to(root)): n
        for path in sorted(root.rglob("*.py"))
        if (n := len(path.read_text(encoding="utf-8").splitlines())) > MAX_MODULE_LINES
    }
    assert long == {}


def _count_sigma_checks(monkeypatch) -> list[float]:
    """Wrap check_sigma wherever the core bound it; the list grows by one σ per check."""
    import sys

    seen, original = [], validation.check_sigma

    def counting(sigma):
        seen.append(sigma)
        return original(sigma)

    for name, module in list(sys.modules.items()):
        if name.startswith("smoothviz") and getattr(module, "check_sigma", None) is original:
            monkeypatch.setattr(module, "check_sigma", counting)
    return seen


def test_a_regret_run_and_a_thresholds_run_check_sigma_once(monkeypatch):
    from smoothviz.experiments import thresholds as thresholds_experiment

    seen = _count_sigma_checks(monkeypatch)
    regret_experiment.run_experiment(0.1, 50, adversaries=adversaries.ADVERSARIES, trials=1)
    assert seen == [0.1]
    seen.clear()
    thresholds_experiment.run_experiment(0.1, 50, trials=2, adversaries=thresholds.ADVERSARIES)
    assert seen == [0.1]


def test_the_regret_page_checks_sigma_once_per_run(monkeypatch):
    """The page sizes its trials (page_trials) and then runs Hedge: σ goes through check_sigma once."""
    seen = _count_sigma_checks(monkeypatch)
    advs = adversaries.ADVERSARIES
    trials, _ = regret_experiment.page_trials(0.1, 50, advs, cover="alg1", n_actions=2, wanted=2)
    regret_experiment.run_experiment(0.1, 50, adversaries=advs, trials=trials)
    assert seen == [0.1]


def test_every_module_docstring_is_3_to_6_lines():
    """STYLE.md: a module opens with a docstring that teaches in a few lines; the detail goes to the
    function that needs it. Counted as the lines the docstring spans, its quotes included."""
    import ast
    from pathlib import Path

    root = Path(__file__).resolve().parents[1] / "smoothviz"
    spans = {}
    for path in sorted(root.rglob("*.py")):
        first = ast.parse(path.read_text(encoding="utf-8")).body[0]
        is_doc = isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant)
        spans[str(path.relative_to(root))] = first.end_lineno - first.lineno + 1 if is_doc else 0
    assert len(spans) > 50  # the glob found the package
    assert {name: n for name, n in spans.items() if not 3 <= n <= 6} == {}


#: The pages' data and storage under ui/ (the scenes, their answers, the poll store, safe CSV).
PAGE_DATA = ("lecture_answers", "lectures", "polls", "safe_csv")


def test_the_pages_data_under_ui_imports_neither_streamlit_nor_plotly():
    """They left the core for ui/ but keep its rule (tests/test_layers.py checks the core they import):
    no Streamlit or plotly of their own, and from smoothviz only the core and each other."""
    import ast
    from pathlib import Path

    root, graph = Path(__file__).resolve().parents[1] / "smoothviz" / "ui", _import_graph()
    for name in PAGE_DATA:
        tops = set()
        for node in ast.walk(ast.parse((root / f"{name}.py").read_text(encoding="utf-8"))):
            if isinstance(node, ast.Import):
                tops |= {alias.name.split(".")[0] for alias in node.names}
            elif isinstance(node, ast.ImportFrom) and node.module:
                tops.add(node.module.split(".")[0])
        assert not tops & {"streamlit", "plotly"}, name
        layers = {m for m in graph[f"smoothviz.ui.{name}"] if m.split(".")[1] in ("ui", "plots")}
        assert layers <= {f"smoothviz.ui.{n}" for n in PAGE_DATA}, (name, layers)
