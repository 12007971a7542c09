import sys

from claims.report.cli import main

sys.exit(main())
