#!/usr/bin/env bash
# Build the isolated environment where the startup stage runs verl's own startup checks (verl_cookbook/startup/):
# a venv with one verl release and what importing its entry points needs on a CPU-only machine, nothing else.
# verl itself is installed without its dependencies (its full set pulls vLLM-era pins, wandb, tensorboard, ...);
# the list below is what `import verl.trainer.main_ppo` and the v1 trainers' constructors import, found by
# importing them in an empty venv and adding each missing module until they import (see the module docstring of
# verl_cookbook/startup/__init__.py). Nothing is stubbed.
#
#   bash scripts/startup_env.sh [VERSION] [DEST]
# VERSION defaults to the newest covered release; DEST to <this Python's prefix>/startup-env/<VERSION> (the place
# `verl-cookbook doctor --startup` and the tests look). Re-running on a complete env does nothing.
# torch: the CPU build when one is at hand (STARTUP_TORCH, default torch==2.13.0, which this project's machines
# hold on disk); elsewhere pip takes PyPI's build for the platform.
set -euo pipefail
cd "$(dirname "$0")/.."
py="${PYTHON:-python3}"
version="${1:-$("$py" -c 'from verl_cookbook.releases import covered_releases; print(covered_releases()[-1])')}"
dest="${2:-$("$py" -c 'import sys; print(sys.prefix)')/startup-env/${version}}"
torch_req="${STARTUP_TORCH:-torch==2.13.0}"
if [ -f "${dest}/.complete" ] && "${dest}/bin/python" -c 'import verl' >/dev/null 2>&1; then
  echo "startup_env.sh: ${dest} is complete (verl ${version})" >&2
  exit 0
fi
start=$(date +%s)
rm -rf "${dest}"
"$py" -m venv "${dest}"
pip=("${dest}/bin/python" -m pip install -q --disable-pip-version-check)
echo "startup_env.sh: [1/3] ${torch_req} into ${dest}" >&2
"${pip[@]}" "${torch_req}"
# keep the torch just installed: packages below that ask for torch must not replace it
"${dest}/bin/python" -c 'import torch; print(f"torch=={torch.__version__}")' > "${dest}/constraints.txt"
echo "startup_env.sh: [2/3] verl==${version} (no dependencies)" >&2
"${pip[@]}" --no-deps "verl==${version}"
echo "startup_env.sh: [3/3] what verl's entry points import" >&2
"${pip[@]}" -c "${dest}/constraints.txt" \
  hydra-core omegaconf numpy packaging ray "tensordict!=0.9.0,<=0.10.0,>=0.8.0" "transformers!=5.6.0,<5.11,>=5.5.3" \
  codetiming datasets pillow "TransferQueue>=0.1.10" cachetools uvicorn fastapi torchdata peft openai
"${dest}/bin/python" -c 'import verl.trainer.main_ppo, verl.trainer.ppo.v1, verl.trainer.sft_trainer, verl.trainer.main_generation_server' 2>/dev/null
echo "${version}" > "${dest}/.complete"
echo "startup_env.sh: done in $(( $(date +%s) - start )) s, $(du -sh "${dest}" | cut -f1) at ${dest}" >&2
