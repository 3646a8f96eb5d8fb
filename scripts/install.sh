#!/usr/bin/env bash
# Install the project with its docs and test extras into the active Python environment,
# plus Debian's chromium for the browser tests when running as root (CI, a fresh machine).
set -euo pipefail
cd "$(dirname "$0")/.."
# ShellCheck (Debian package) for check="shell" blocks; without it those blocks get `bash -n` only.
if ! command -v shellcheck >/dev/null 2>&1 && [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
  apt-get install -y -q shellcheck >/dev/null 2>&1 || { apt-get update -q >/dev/null && apt-get install -y -q shellcheck >/dev/null; }
fi
python -m pip install -q --upgrade pip
python -m pip install -q -e ".[docs,test]"
# Cache every covered verl release (wheel + facts) once, so the site build (compat pages) and the
# release-matrix test read them from ~/.cache/verl-cookbook instead of the package index.
for v in $(python -c "from verl_cookbook.releases import covered_releases; print(' '.join(covered_releases()))"); do
  python -m verl_cookbook facts --verl "$v" >/dev/null
done
