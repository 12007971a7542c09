"""`-n auto` never slower than serial: below AUTO_SERIAL_BELOW usable cores it runs no workers."""
import os
import subprocess
import sys

from fixtures import xdist_groups


def test_auto_means_no_workers_below_the_threshold_and_xdists_count_above(monkeypatch):
    for cores, workers in ((1, 0), (xdist_groups.AUTO_SERIAL_BELOW - 1, 0), (xdist_groups.AUTO_SERIAL_BELOW, None),
                           (16, None)):
        monkeypatch.setattr(xdist_groups, "usable_cores", lambda n=cores: n)
        assert xdist_groups.pytest_xdist_auto_num_workers(None) == workers


def test_on_one_core_auto_runs_the_tests_in_process(tmp_path):
    (tmp_path / "test_x.py").write_text("import os\ndef test_where():\n    assert 'PYTEST_XDIST_WORKER' not in os.environ\n")
    (tmp_path / "conftest.py").write_text("pytest_plugins = ['fixtures.xdist_groups']\n")
    p = subprocess.run(["taskset", "-c", "0", sys.executable, "-m", "pytest", "-n", "auto", "-q", "-p", "no:cacheprovider",
                        str(tmp_path)], capture_output=True, text=True, cwd=tmp_path, check=False,
                       # not an xdist worker's own variables, when this suite runs under -n N
                       env={k: v for k, v in os.environ.items() if not k.startswith("PYTEST_XDIST_")})
    assert p.returncode == 0 and "1 passed" in p.stdout and "workers" not in p.stdout, p.stdout + p.stderr


def test_the_controller_of_two_workers_never_imports_torch_and_records_their_device(tmp_path):
    """The controller runs no test: it takes the device its workers report (fixtures/plugin.py
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
