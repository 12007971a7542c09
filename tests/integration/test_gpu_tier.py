"""The CUDA run, tested here without CUDA: benchmarks/gpu_tier.py's plan, its dry run, its refusals,
the command it runs, and the device each xdist worker takes (torch.cuda patched)."""
import subprocess
import sys
from pathlib import Path

import pytest
import torch

from fixtures.device import DeviceError, resolve_device

ROOT = Path(__file__).resolve().parent.parent.parent
sys.path.insert(0, str(ROOT / "benchmarks"))
import gpu_tier


def fake_cuda(monkeypatch, count: int):
    monkeypatch.setattr(torch.cuda, "is_available", lambda: count > 0)
    monkeypatch.setattr(torch.cuda, "device_count", lambda: count)


@pytest.mark.parametrize("count", [1, 2, 3])
def test_each_xdist_worker_takes_gpu_worker_mod_count(monkeypatch, count):
    fake_cuda(monkeypatch, count)
    assert [resolve_device("auto", f"gw{i}") for i in range(5)] == [f"cuda:{i % count}" for i in range(5)]
    assert resolve_device("cuda") == "cuda:0" and resolve_device("cpu") == "cpu"


def test_device_cuda_without_cuda_is_a_clear_error(monkeypatch):
    fake_cuda(monkeypatch, 0)
    with pytest.raises(DeviceError, match=r"--device cuda was asked for, but torch.cuda.is_available\(\) is False"):
        resolve_device("cuda")
    assert resolve_device("auto", "gw3") == "cpu"


def test_the_dry_run_prints_the_plan_and_minutes_and_ends_with_the_name_value_line():
    r = subprocess.run(["bash", str(ROOT / "benchmarks" / "gpu_tier.sh"), "--dry-run"], capture_output=True,
                       text=True, check=False, timeout=300)
    assert r.returncode == 0, r.stderr
    lines = r.stdout.strip().splitlines()
    assert lines[-1].startswith("gpu_tier_minutes=") and float(lines[-1].split("=")[1]) >= 0
    assert any(line.strip().startswith(("take norm", "LEAVE OUT norm")) for line in lines)
    assert any(line.startswith("estimated:") for line in lines)


def test_without_cuda_the_real_run_refuses_with_the_reason(monkeypatch, capsys):
    fake_cuda(monkeypatch, 0)
    assert gpu_tier.main(["/tmp/nowhere"]) == 2
    assert "torch.cuda.is_available() is False" in capsys.readouterr().err


def test_missing_packages_are_named_with_how_to_install_them_from_wheels(monkeypatch, capsys):
    monkeypatch.setattr(gpu_tier, "NEEDS", ("tokenizers", "surely_not_installed_pkg"))
    assert gpu_tier.main(["--dry-run"]) == 2
    err = capsys.readouterr().err
    assert "surely_not_installed_pkg" in err and "--no-index --find-links" in err


def test_the_budget_takes_groups_in_order_of_value_and_names_what_it_leaves_out():
    plan = gpu_tier.groups()
    assert [g.name for g in plan][:2] == ["norm", "scale"]
    gpu_tier.estimate(plan, lambda recipe: 0.01)
    taken, left = gpu_tier.within(plan, budget=plan[0].minutes + plan[1].minutes + 1e-9)
    assert [g.name for g in taken] == ["norm", "scale"] and left == plan[2:]
    taken, left = gpu_tier.within(plan, budget=1e9)
    assert taken == plan and not left


def test_a_run_on_cuda_runs_the_tier_on_cuda_under_xdist_into_out_and_writes_what_differs(monkeypatch, tmp_path):
    fake_cuda(monkeypatch, 1)
    monkeypatch.setattr(torch.cuda, "get_device_name", lambda i=0: "Fake H200", raising=False)
    monkeypatch.setattr(gpu_tier, "measured_step_seconds", lambda recipe, device: 0.001)
    calls = []

    def call(cmd, cwd=None, env=None, timeout=None):
        calls.append((cmd, env))
        if "pytest" in cmd:                          # the tier's run: leave a report with one verdict
            report = Path(next(a for a in cmd if a.startswith("--report-dir=")).split("=", 1)[1])
            report.mkdir(parents=True, exist_ok=True)
            (report / "claims.json").write_text('{"claims": []}')
        return 0
    monkeypatch.setattr(gpu_tier.subprocess, "call", call)
    assert gpu_tier.main([str(tmp_path), "--budget-minutes", "60"]) == 0
    cmd, env = calls[0]
    assert cmd[cmd.index("--device") + 1] == "cuda" and cmd[cmd.index("-n") + 1] == "auto"
    assert env["ATTENTION_CLAIMS_CACHE"] == str(tmp_path / "cache")         # never the checkout's cache
    assert calls[1][0][1:3] == ["-m", "claims.report"]
    assert (tmp_path / "differs.md").exists() and (tmp_path / "plan.json").exists()
