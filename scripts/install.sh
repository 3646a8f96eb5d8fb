#!/usr/bin/env bash
# Install the project with its docs and test extras into the active Python environment,
# plus Debian's chromium for the browser tests when running as root (CI, a fresh machine).
set -euo pipefail
cd "$(dirname "$0")/.."
python -m pip install -q --upgrade pip
python -m pip install -q -e ".[docs,test]"
