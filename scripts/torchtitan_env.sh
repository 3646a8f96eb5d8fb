#!/usr/bin/env bash
# Build the environment where tests/test_torchtitan_save_run.py calls torchtitan's checkpointer the way verl's
# TorchTitan engine calls it: a venv that sees the startup environment's packages (torch, verl; a .pth file, so
# torch is not installed twice) plus torchtitan from the package index, without dependencies (its full set pulls
# wandb, tensorboard and datasets; the checkpointer imports none of them). The list below is what
# `import torchtitan.components.checkpoint` needs, found by importing it until it imports.
#
#   bash scripts/torchtitan_env.sh [DEST]
# DEST defaults to <this Python's prefix>/torchtitan-env (where the test looks). Needs the startup environment
# (scripts/startup_env.sh). Re-running on a complete env does nothing.
set -euo pipefail
cd "$(dirname "$0")/.."
py="${PYTHON:-python3}"
dest="${1:-$("$py" -c 'import sys; print(sys.prefix)')/torchtitan-env}"
startup="${VERL_COOKBOOK_STARTUP_PYTHON:-$("$py" -c 'from verl_cookbook import startup; from verl_cookbook.releases import covered_releases; print(startup.built_env_python(covered_releases()[-1]) or "")')}"
[ -n "${startup}" ] || { echo "torchtitan_env.sh: build the startup environment first (scripts/startup_env.sh)" >&2; exit 1; }
if [ -f "${dest}/.complete" ] && "${dest}/bin/python" -c 'import torchtitan.components.checkpoint, verl' >/dev/null 2>&1; then
  echo "torchtitan_env.sh: ${dest} is complete" >&2
  exit 0
fi
rm -rf "${dest}"
"$py" -m venv "${dest}"
site=$("${dest}/bin/python" -c 'import sysconfig; print(sysconfig.get_paths()["purelib"])')
"${startup}" -c 'import sysconfig; print(sysconfig.get_paths()["purelib"])' > "${site}/startup_env.pth"
"${dest}/bin/python" -m pip install -q --disable-pip-version-check --no-deps \
  torchtitan==0.3.0 spmd_types==0.2.3 torch_checkpointing==0.1.1 tyro==1.0.17 docstring_parser==0.18.0 einops==0.8.2
"${dest}/bin/python" -c 'import torchtitan.components.checkpoint, verl'
touch "${dest}/.complete"
echo "torchtitan_env.sh: done, ${dest}" >&2
