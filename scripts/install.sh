#!/usr/bin/env bash
# Install the project with its docs and test extras into the active Python environment,
# plus Debian's chromium for the browser tests when running as root (CI, a fresh machine).
# Each step says what it is doing on stderr: the whole install takes a minute or two.
set -euo pipefail
cd "$(dirname "$0")/.."
step() { echo "install.sh: $*" >&2; }
# ShellCheck (Debian package) for check="shell" blocks; without it those blocks get `bash -n` only.
if ! command -v shellcheck >/dev/null 2>&1 && [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
  step "[1/8] installing shellcheck (apt)"
  apt-get install -y -q shellcheck >/dev/null 2>&1 || { apt-get update -q >/dev/null && apt-get install -y -q shellcheck >/dev/null; }
else
  step "[1/8] shellcheck: $(command -v shellcheck || echo 'not installed (not root): shell blocks get bash -n only')"
fi
# Debian's chromium (browser tests; `playwright install` is not used) and a CJK font so 中文 pages render
# in it. Only as root and only when missing; without chromium the browser tests fail and say so.
if { ! command -v chromium >/dev/null 2>&1 || ! fc-list :lang=zh 2>/dev/null | grep -q .; } \
  && [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
  step "[2/8] installing chromium and a CJK font (apt)"
  apt-get update -q >/dev/null
  DEBIAN_FRONTEND=noninteractive apt-get install -y -q chromium fonts-wqy-microhei >/dev/null
else
  step "[2/8] chromium: $(command -v chromium || echo 'not installed (not root): browser tests will say so')"
fi
# mermaid, served by the site itself (pinned in package.json / package-lock.json; no CDN at runtime)
step "[3/8] npm ci (mermaid, pinned in package-lock.json)"
npm ci --ignore-scripts --no-audit --no-fund --loglevel=error
step "[4/8] pip install -e .[docs,test] into $(python -c 'import sys; print(sys.prefix)')"
python -m pip install -q --upgrade pip
python -m pip install -q -e ".[docs,test]"
# The newest markdown-it-py, beside the environment's: pytest-markdown-docs (a test tool) holds the environment
# below 4, while `pip install verl-cookbook` gets the newest. tests/test_newest_markdown_it.py checks the site
# with this copy first on PYTHONPATH, so the parser users get is tested too. (The folder name is NEWEST_MARKDOWN_IT
# in tests/helpers.py.)
newest="$(python -c 'import sys; print(sys.prefix)')/newest-markdown-it"
step "[5/8] markdown-it-py, newest release, into ${newest}"
python -m pip install -q --no-deps --upgrade --target "${newest}" "markdown-it-py>=4"
# Download and unpack every covered verl release once (the wheel lands in pip's cache too), so the site build
# (compat pages) and the tests' own cold cache get them without the package index. (`facts --verl X` would not:
# the covered releases' facts ship with the package, so it downloads nothing.)
releases=$(python -c "from verl_cookbook.releases import covered_releases; print(' '.join(covered_releases()))")
step "[6/8] caching verl releases ${releases} in $(python -c 'from verl_cookbook.verl_source import cache_dir; print(cache_dir())')"
for v in ${releases}; do
  python -c "import sys; from verl_cookbook.verl_source import from_release; from_release(sys.argv[1])" "$v"
done
# Wheels of the package's dependencies (and of setuptools, its build backend), so that
# tests/test_install_as_documented.py installs the package into a fresh venv the way the docs say, from a
# local build of this checkout, with no index (--no-index --find-links) and none of this user's caches.
wheelhouse="$(python -c 'import sys; print(sys.prefix)')/wheelhouse"
step "[7/8] wheels of the dependencies into ${wheelhouse}"
python -m pip wheel -q -w "${wheelhouse}" . "setuptools>=77"
rm -f "${wheelhouse}"/verl_cookbook-*.whl
# The startup stage's isolated environment (verl_cookbook/startup/): the newest covered release with what its entry
# points import on a CPU-only machine, ~1.9 GB, a few minutes the first time; skipped when already complete.
step "[8/8] startup-stage environment (scripts/startup_env.sh)"
bash scripts/startup_env.sh
# torchtitan beside the startup environment's torch and verl (tests/test_torchtitan_save_run.py): a few MB, seconds
step "[8/8] and the torchtitan environment beside it (scripts/torchtitan_env.sh)"
bash scripts/torchtitan_env.sh
step "done"
