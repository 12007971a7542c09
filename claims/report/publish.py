"""The site, in one command (the workflow's `site` job, tests/acceptance/test_site.py):

  python -m claims.report.publish REPORT_DIR SITE_DIR

renders the report into REPORT_DIR from the committed evidence (and a run's claims.json already
there, if any: the workflow puts this push's fast claims there), with no training and no torch,
assembles the site into SITE_DIR (claims/report/site.py build) and checks every link in it and
every link of README.md, its badges included, in the checkout (claims/report/links.py); exit 1
naming every link that leads nowhere.  Both folders are taken from the project root, as the
report's --report-dir is; a committed folder (results/, docs/, the checkout's root, one holding
files committed to git: data/paths.py committed_folder) is refused before anything is written,
exit 2.
"""
from __future__ import annotations

import sys

from claims.report import links
from claims.report.cli import main as render
from claims.report.site import broken_links, build
from data.paths import PROJECT_ROOT, committed_folder
from safeio.files import os_error


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    if len(args) != 2 or any(a.startswith("-") for a in args):
        print("usage: python -m claims.report.publish REPORT_DIR SITE_DIR\n\n" + (__doc__ or ""), file=sys.stderr)
        return 2
    report_dir, site_dir = PROJECT_ROOT / args[0], PROJECT_ROOT / args[1]
    for given, folder in zip(args, (report_dir, site_dir)):       # both checked before anything is written
        why = committed_folder(folder)
        if why:
            print(f"python -m claims.report.publish: {given}: {why}; the report and the site are written into "
                  "folders of their own, and nothing was written", file=sys.stderr)
            return 2
    rc = render(["--report-dir", str(report_dir)])
    if rc:
        return rc
    try:
        build(report_dir, site_dir)
    except OSError as e:                    # a site folder it cannot write: named, never a traceback
        print(f"python -m claims.report.publish: {os_error(e)}", file=sys.stderr)
        return 2
    readme = PROJECT_ROOT / "README.md"
    broken = broken_links(site_dir) + (links.problems(readme, PROJECT_ROOT) if readme.is_file() else [])
    if broken:
        print(f"{site_dir}: {len(broken)} link(s) lead nowhere:\n  " + "\n  ".join(broken), file=sys.stderr)
        return 1
    print(f"{site_dir}: the site, every link resolved, and every link of README.md")
    return 0


if __name__ == "__main__":
    sys.exit(main())
