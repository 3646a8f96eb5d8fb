#!/usr/bin/env bash
# The test command: lint, layers, types, the drift check of the whole site, then the test suite.
# Works in a fresh shell: with no virtualenv active it uses .venv (created if missing), and it runs
# scripts/install.sh first when the tools or the package are missing there (as scripts/serve.sh does).
set -euo pipefail
cd "$(dirname "$0")/.."
if [ -z "${VIRTUAL_ENV:-}" ]; then
  if [ ! -x .venv/bin/python ]; then
    echo "test.sh: creating .venv" >&2
    python3 -m venv .venv
  fi
  # shellcheck disable=SC1091
  . .venv/bin/activate
fi
installed() {
  command -v ruff >/dev/null 2>&1 && [ -f node_modules/mermaid/dist/mermaid.min.js ] &&
    python - <<'PY' >/dev/null 2>&1
import importlib.metadata as md
import re
from pathlib import Path

import verl_cookbook

assert Path(verl_cookbook.__file__).resolve().parent == Path("verl_cookbook").resolve()  # this clone's code
try:  # every dependency pyproject.toml declares, the docs and test extras too (a new one means reinstall)
    import tomllib

    project = tomllib.loads(Path("pyproject.toml").read_text(encoding="utf-8"))["project"]
    reqs = project["dependencies"] + [r for extra in project["optional-dependencies"].values() for r in extra]
except ImportError:  # Python 3.10: what the installed metadata declares
    reqs = md.requires("verl-cookbook") or []
for req in reqs:
    md.version(re.split(r"[\s;\[<>=!~(]", req, maxsplit=1)[0])
import sys

assert (Path(sys.prefix) / "newest-markdown-it" / "markdown_it").is_dir()  # install.sh [5/6]
PY
}
if ! installed; then
  echo "test.sh: the package or its test tools are missing in ${VIRTUAL_ENV}: running scripts/install.sh" >&2
  bash scripts/install.sh
fi
# types ([tool.mypy] in pyproject.toml): the longest of these steps (~5 s of CPU from a cold cache), so it runs on
# the second core beside the others; its output follows theirs, and a type error stops the script there
mypy_log=$(mktemp)
mypy >"$mypy_log" 2>&1 &
mypy_pid=$!
trap 'kill "$mypy_pid" 2>/dev/null || true; rm -f "$mypy_log"' EXIT
ruff check .
ruff format --check .
lint-imports --no-cache  # the package's layers ([tool.importlinter] in pyproject.toml)
# 中文 typography (AutoCorrect, .autocorrectrc), “” quotes and the glossary's avoided terms on the page sources
python scripts/prose_lint.py
verl-cookbook check
mypy_status=0
wait "$mypy_pid" || mypy_status=$?
cat "$mypy_log"
trap - EXIT  # mypy has ended: its process id may be another process's from now on
rm -f "$mypy_log"
[ "$mypy_status" -eq 0 ] || exit "$mypy_status"
# every core, a test file per worker (a module's fixtures, such as the served site, are set up once), the
# slowest files first (SLOW_FILES in tests/conftest.py; xdist would otherwise sort files by their number of tests)
python -m pytest -q -n auto --dist loadfile --no-loadscope-reorder
