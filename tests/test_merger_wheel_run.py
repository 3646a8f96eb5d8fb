"""Two model-merger page claims held by running verl 0.9.1's own environment (the startup stage's, in its own
process; nothing of verl is imported here):

* the config classes of the vision-language models in the Transformers that verl 0.9.1 resolves to have no
  top-level ``num_hidden_layers``, the attribute the Megatron merger reads first (review35i-6), so every listed
  vision-language ``dist_ckpt`` merge stops there on this stack;
* the verl wheel installs its ``scripts`` folder as a top-level package, so the layout migration runs with
  ``python -m scripts.migrate_megatron_checkpoint_layout`` and takes ``--checkpoint`` and ``--dry-run`` (review35i-3).
"""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

from tests import helpers

REPO = Path(__file__).resolve().parents[1]
VERSION = "0.9.1"
VL_CONFIGS = (
    "Qwen2_5_VLConfig",
    "Qwen3VLConfig",
    "Qwen3VLMoeConfig",
    "Llama4Config",
    "Qwen3_5Config",
    "Qwen3_5MoeConfig",
)
PROBE = """
import json, sys, transformers
out = {"transformers": transformers.__version__}
for name in sys.argv[1:]:
    config = getattr(transformers, name)()
    out[name] = {"top": hasattr(config, "num_hidden_layers"),
                 "text": hasattr(getattr(config, "text_config", None), "num_hidden_layers")}
print(json.dumps(out))
"""


def _python(*args: str) -> subprocess.CompletedProcess:
    py = helpers.startup_python(VERSION)
    env = {"HF_HUB_OFFLINE": "1", "TRANSFORMERS_OFFLINE": "1", "PATH": "/usr/bin:/bin"}
    return subprocess.run([py, *args], capture_output=True, text=True, timeout=300, env=env)


def test_vision_language_configs_hold_the_layer_count_only_under_text_config() -> None:
    r = _python("-c", PROBE, *VL_CONFIGS)
    assert r.returncode == 0, r.stderr[-3000:]
    seen = json.loads(r.stdout.strip().splitlines()[-1])
    assert seen["transformers"].startswith("5."), seen  # the Transformers verl 0.9.1 requires (>=5.5.3,<5.11)
    for name in VL_CONFIGS:
        assert seen[name] == {"top": False, "text": True}, (name, seen[name])
    for page in ("model-merger.md", "model-merger.en.md"):
        text = (REPO / "docs" / "recipes" / page).read_text(encoding="utf-8")
        assert "<!-- run: test_merger_wheel_run.py::" in text


def test_the_wheel_runs_the_layout_migration_as_a_module_with_the_flags_the_page_gives() -> None:
    r = _python("-m", "scripts.migrate_megatron_checkpoint_layout", "--help")
    assert r.returncode == 0, r.stderr[-3000:]
    assert "--checkpoint CHECKPOINT" in r.stdout and "--dry-run" in r.stdout, r.stdout
    r = _python("-c", "import importlib.util as u; print(u.find_spec('scripts.megatron_merge_lora') is not None)")
    assert r.returncode == 0 and r.stdout.strip() == "True", r.stderr[-3000:]
