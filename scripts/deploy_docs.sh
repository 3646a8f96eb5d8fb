#!/usr/bin/env bash
# Deploy the current docs with mike as a version of the site, and point the `latest` alias (and the
# site root) at it unless a newer version is already deployed. The version defaults to the pinned verl release the pages are checked against.
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
# `latest` stays on the newest version deployed: republishing an older release's docs must not move it back
newest="$(mike list --json 2>/dev/null | python -c '
import json, sys
from packaging.version import InvalidVersion, Version
def key(v):
    try:
        return (1, Version(v))
    except InvalidVersion:
        return (0, Version("0"))
text = sys.stdin.read().strip()
names = [v["version"] for v in json.loads(text)] if text else []
print(max([*names, sys.argv[1]], key=key))' "$version")"
if [ "$newest" = "$version" ]; then
  mike deploy "${push[@]}" --update-aliases "$version" latest
  mike set-default "${push[@]}" latest
else
  mike deploy "${push[@]}" "$version"
  echo "deploy_docs.sh: deployed $version; latest stays at $newest, the newest version deployed" >&2
fi
