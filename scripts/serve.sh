#!/usr/bin/env bash
# Serve the site locally on a fresh machine: create .venv if needed, install, then `mkdocs serve`.
# Usage: bash scripts/serve.sh [extra mkdocs serve options, e.g. -a 0.0.0.0:8000]
set -euo pipefail
cd "$(dirname "$0")/.."
if [ ! -x .venv/bin/python ]; then
  python3 -m venv .venv
fi
# shellcheck disable=SC1091
. .venv/bin/activate
if ! python -c "import verl_cookbook, mkdocs, material" >/dev/null 2>&1 || [ ! -f node_modules/mermaid/dist/mermaid.min.js ]; then
  bash scripts/install.sh
fi
export NO_MKDOCS_2_WARNING=1
exec mkdocs serve "$@"
