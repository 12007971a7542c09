#!/usr/bin/env bash
# The whole gpu tier at the chapter's scale on one CUDA machine, then the report (see
# benchmarks/gpu_tier.py --help).  Installs nothing; runs this checkout with the python and torch
# already there.  Usage: bash benchmarks/gpu_tier.sh [OUT] [--dry-run] [--budget-minutes M]
set -euo pipefail
cd "$(dirname "$0")/.."
PYTHON="${PYTHON:-python3}"
exec env PYTHONPATH="$PWD${PYTHONPATH:+:$PYTHONPATH}" "$PYTHON" benchmarks/gpu_tier.py "$@"
