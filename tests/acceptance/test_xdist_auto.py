"""`-n auto` never slower than serial: below AUTO_SERIAL_BELOW usable cores it runs workers only for a run
of minutes (the whole tree, not the fast tier), and no workers for the fast tier, a file, -k, a claim
or a figure."""
import os
import subprocess
import sys

import pytest

from fixtures import xdist_groups


class Config:
    """What the hook reads of pytest's config: where its arguments came from and its options."""

    def __init__(self, source=pytest.Config.ArgsSource.TESTPATHS, **options):
        self.args_source, self.options = source, {"markexpr": "", "keyword": "", "--claim": [], "--figure": [],
                                                  **options}

    def getoption(self, name, default=None):
        return self.options.get(name, default)


def test_auto_means_no_workers_below_the_threshold_and_xdists_count_above(monkeypatch):
    for cores, workers in ((1, 0), (xdist_groups.AUTO_SERIAL_BELOW - 1, 0), (xdist_groups.AUTO_SERIAL_BELOW, None),
                           (16, None)):
        monkeypatch.setattr(xdist_groups, "usable_cores", lambda n=cores: n)
        assert xdist_groups.pytest_xdist_auto_num_workers(Config(markexpr="fast")) == workers


def test_below_the_threshold_only_a_run_of_minutes_gets_a_worker_per_core(monkeypatch):
    monkeypatch.setattr(xdist_groups, "usable_cores", lambda: 2)
    args = pytest.Config.ArgsSource.ARGS
    for config, workers in ((Config(markexpr="not slow"), 2),             # the README's test command
                            (Config(), 2), (Config(markexpr="gpu"), 2),
                            (Config(markexpr="fast"), 0), (Config(markexpr=" fast "), 0),
                            (Config(source=args, markexpr="not slow"), 0),  # a file or a node ID
                            (Config(keyword="rope"), 0), (Config(**{"--claim": ["qkv.head_thirty_lines"]}), 0),
                            (Config(**{"--figure": ["qkv.listing_lines"]}), 0)):
        assert xdist_groups.pytest_xdist_auto_num_workers(config) == workers, config.options
    monkeypatch.setattr(xdist_groups, "usable_cores", lambda: 1)
    assert xdist_groups.pytest_xdist_auto_num_workers(Config(markexpr="not slow")) == 0


def test_on_one_core_auto_runs_the_tests_in_process(tmp_path):
    (tmp_path / "test_x.py").write_text("import os\ndef test_where():\n    assert 'PYTEST_XDIST_WORKER' not in os.environ\n")
    (tmp_path / "conftest.py").write_text("pytest_plugins = ['fixtures.xdist_groups']\n")
    p = subprocess.run(["taskset", "-c", "0", sys.executable, "-m", "pytest", "-n", "auto", "-q", "-p", "no:cacheprovider",
                        str(tmp_path)], capture_output=True, text=True, cwd=tmp_path, check=False,
                       # not an xdist worker's own variables, when this suite runs under -n N
                       env={k: v for k, v in os.environ.items() if not k.startswith("PYTEST_XDIST_")})
    assert p.returncode == 0 and "1 passed" in p.stdout and "workers" not in p.stdout, p.stdout + p.stderr


def test_the_controller_of_two_workers_never_imports_torch_and_records_their_device(tmp_path):
    """The controller runs no test: it takes the device its workers report (fixtures/run_device.py
    device_of) instead of importing torch to resolve one (about 2 s of a fast run on 2 cores)."""
    import json

    from data.paths import PROJECT_ROOT
    (tmp_path / "probe.py").write_text(
        "import json, sys\n"
        "def pytest_unconfigure(config):\n"
        "    if not hasattr(config, 'workerinput'):\n"
        f"        open({str(tmp_path / 'controller.json')!r}, 'w').write(json.dumps('torch' in sys.modules))\n")
    p = subprocess.run([sys.executable, "-m", "pytest", "-n", "2", "-q", "-p", "no:cacheprovider", "-p", "probe",
                        f"--report-dir={tmp_path / 'report'}", "claims/test_average.py", "-m", "fast"],
                       capture_output=True, text=True, cwd=PROJECT_ROOT, check=False,
                       env={**__import__("os").environ, "PYTHONPATH": f"{tmp_path}:{PROJECT_ROOT}"})
    assert p.returncode == 0, p.stdout[-2000:] + p.stderr[-2000:]
    assert json.loads((tmp_path / "controller.json").read_text()) is False
    report = json.loads((tmp_path / "report" / "claims.json").read_text())
    assert {t["device"] for c in report["claims"] for t in c.get("tests", []) if t.get("device")} == {"cpu"}
