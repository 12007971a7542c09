import sys

from claims.toml_table import TableError

try:
    from claims.report.cli import main
except TableError as e:              # a malformed data table of this chapter (claims/*.toml): named, exit 2
    print(f"error: {e}", file=sys.stderr)
    raise SystemExit(2) from None

sys.exit(main())
