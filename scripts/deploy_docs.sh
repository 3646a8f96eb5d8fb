#!/usr/bin/env bash
# Deploy the current docs with mike as a version of the site, and point the `latest` alias (and the
# site root) at it. The version defaults to the pinned verl release the pages are checked against.
# Usage: bash scripts/deploy_docs.sh [--push] [VERSION]     (run from a clone; commits to gh-pages)
set -euo pipefail
push=()
if [ "${1:-}" = "--push" ]; then
  push=(--push)
  shift
fi
[ -f mkdocs.yml ] || { echo "deploy_docs.sh: run it where mkdocs.yml is (the repository root)" >&2; exit 2; }
version="${1:-$(python -c 'from verl_cookbook.releases import default_release; print(default_release())')}"
export NO_MKDOCS_2_WARNING=1
mike deploy "${push[@]}" --update-aliases "$version" latest
mike set-default "${push[@]}" latest
