#!/usr/bin/env bash
# The test command: lint, the drift check of the whole site, then the test suite.
set -euo pipefail
cd "$(dirname "$0")/.."
ruff check .
ruff format --check .
verl-cookbook check
python -m pytest -q
