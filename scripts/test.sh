#!/usr/bin/env bash
# Install what the tests need into .venv and run the whole suite (lint, import contracts, tests).
set -euo pipefail
cd "$(dirname "$0")/.."
python3 -m venv .venv
. .venv/bin/activate
pip install -q --upgrade pip
pip install -q -c constraints.txt -e '.[test]'
ruff check .
ruff format --check .
lint-imports
mypy
set +e
# --durations: every run reports its slowest tests, so CI shows where the time goes.
pytest --durations=30 "$@"
rc=$?
set -e
# pytest exits 5 when it collected no tests; that is not a failure of the code.
if [ "$rc" -eq 5 ]; then echo "pytest: no tests collected"; exit 0; fi
exit "$rc"
