"""`-n auto` never slower than serial: below AUTO_SERIAL_BELOW usable cores it runs no workers."""
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
                        str(tmp_path)], capture_output=True, text=True, cwd=tmp_path, check=False)
    assert p.returncode == 0 and "1 passed" in p.stdout and "workers" not in p.stdout, p.stdout + p.stderr
