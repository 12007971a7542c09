"""What the acceptance tests share.

`fast_run_report`: one small fast run (claims/test_mask.py, test_norm.py, test_params.py) and its
report, with a plot for the page to show, built once per test process, in report/chapter-view
(its screenshots stay there).  The report page's test (test_report_page.py) and the chapter
view's (test_chapter_view.py) only read it, and each built its own before (the same run but for
one file, and the same render): two runs and two renders, one after the other on the one worker
of the "chromium" group.  Every test that uses it is in that group (one browser at a time), so
under xdist it is built once too."""
import shutil
from pathlib import Path

import inproc
import pytest

ROOT = Path(__file__).resolve().parent.parent.parent
OUT = ROOT / "report" / "chapter-view"          # a report directory: the screenshots stay there


@pytest.fixture(scope="session")
def fast_run_report() -> Path:
    shutil.rmtree(OUT, ignore_errors=True)
    # the run and the report in this process (tests/inproc.py): what they write is what is checked
    r = inproc.run_pytest("-m", "fast", "-q", "-p", "no:cacheprovider", "claims/test_mask.py", "claims/test_norm.py",
                          "claims/test_params.py", f"--report-dir={OUT}")
    assert r.returncode == 0, r.stdout[-2000:]
    # a plot for the report page to show
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    plt.plot([1, 2], [1, 4]); plt.savefig(OUT / "example.png"); plt.close()
    r = inproc.report(f"--report-dir={OUT}")
    assert r.returncode == 0, r.stderr
    return OUT
