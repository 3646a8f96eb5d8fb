#!/usr/bin/env bash
# Serve the site locally: a .venv with what building and serving need (the package and its docs extra, nothing
# else), then `mkdocs serve`. Diagrams are pre-rendered SVGs in docs/diagrams/: drawing them again is a
# maintainer's step with its own command (npm ci, then python scripts/render_diagrams.py); the tests and their
# tools are scripts/test.sh's.
# Usage: bash scripts/serve.sh [mkdocs serve options, e.g. -a 0.0.0.0:8000]
set -euo pipefail
cd "$(dirname "$0")/.."
say() { echo "serve.sh: $*" >&2; }
say "getting ready to serve the site from $(pwd)"
if [ ! -x .venv/bin/python ]; then
  say "creating the virtualenv .venv"
  python3 -m venv .venv
fi
# shellcheck disable=SC1091
. .venv/bin/activate
if ! python -c "import verl_cookbook, mkdocs, material, mkdocs_static_i18n, mkdocstrings_handlers.python, jieba" >/dev/null 2>&1; then
  say "installing the package and its docs extra into .venv (pip; a minute or two the first time)"
  python -m pip install --disable-pip-version-check --progress-bar off -e ".[docs]" |
    grep -E --line-buffered '^(Collecting|Successfully installed)' | sed -u 's/^/  pip: /' >&2 || true
  python -c "import verl_cookbook, mkdocs, material" || { say "the install failed: see pip's output above"; exit 1; }
fi
addr=127.0.0.1:8000
args=("$@")
for i in "${!args[@]}"; do
  case "${args[$i]}" in
    -a | --dev-addr) addr="${args[$((i + 1))]:-$addr}" ;;
    --dev-addr=*) addr="${args[$i]#--dev-addr=}" ;;
  esac
done
path=$(python -c "import re; print(re.sub(r'^https?://[^/]+', '', next((l.split(':', 1)[1].strip() for l in open('mkdocs.yml', encoding='utf-8') if l.startswith('site_url:')), '/')) or '/')")
say "building the site; then 中文 is served at http://${addr}${path} and English at http://${addr}${path}en/ (Ctrl-C stops)"
export NO_MKDOCS_2_WARNING=1 # Material's end-of-life notice, printed on import before any hook could silence it
exec mkdocs serve "$@"
