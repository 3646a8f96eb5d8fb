#!/usr/bin/env bash
# Install the project with its docs and test extras into the active Python environment,
# plus Debian's chromium for the browser tests when running as root (CI, a fresh machine).
set -euo pipefail
cd "$(dirname "$0")/.."
# ShellCheck (Debian package) for check="shell" blocks; without it those blocks get `bash -n` only.
if ! command -v shellcheck >/dev/null 2>&1 && [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
  apt-get install -y -q shellcheck >/dev/null 2>&1 || { apt-get update -q >/dev/null && apt-get install -y -q shellcheck >/dev/null; }
fi
# Debian's chromium (browser tests; `playwright install` is not used) and a CJK font so 中文 pages render
# in it. Only as root and only when missing; without chromium the browser tests fail and say so.
if { ! command -v chromium >/dev/null 2>&1 || ! fc-list :lang=zh 2>/dev/null | grep -q .; } \
  && [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
  apt-get update -q >/dev/null
  DEBIAN_FRONTEND=noninteractive apt-get install -y -q chromium fonts-wqy-microhei >/dev/null
fi
# mermaid, served by the site itself (pinned in package.json / package-lock.json; no CDN at runtime)
npm ci --ignore-scripts --no-audit --no-fund --loglevel=error
python -m pip install -q --upgrade pip
python -m pip install -q -e ".[docs,test]"
# Cache every covered verl release (wheel + facts) once, so the site build (compat pages) and the
# release-matrix test read them from ~/.cache/verl-cookbook instead of the package index.
for v in $(python -c "from verl_cookbook.releases import covered_releases; print(' '.join(covered_releases()))"); do
  python -m verl_cookbook facts --verl "$v" >/dev/null
done
