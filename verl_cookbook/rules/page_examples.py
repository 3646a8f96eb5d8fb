"""The examples of the rules page's own sections: choosing rules with ``--select``/``--ignore``, and suppression
comments. The page (:mod:`.render`) shows them as written here, and ``tests/test_rules_page.py`` runs each one as a
user would: every command of :data:`SELECT_COMMANDS` reports exactly the rules listed beside it, and each
:data:`SUPPRESSIONS` example reports nothing as shown, while the same file without its comment reports the rule the
comment names (so the comment silences a real finding, never nothing).
"""

from __future__ import annotations

import re

from verl_cookbook.rules import Example

# verl's PPO trainer on Ascend with what every command of it must set (a rollout, the micro-batch sizes verl's
# startup asks for), so that each example shows only the findings it is about.
_PPO = (
    "python3 -m verl.trainer.main_ppo actor_rollout_ref.rollout.name=vllm \\\n"
    "    actor_rollout_ref.actor.ppo_micro_batch_size_per_gpu=2 \\\n"
    "    actor_rollout_ref.rollout.log_prob_micro_batch_size_per_gpu=2 \\\n"
)

SELECT_SCRIPT = Example(
    "sh",
    "#!/usr/bin/env bash\n"
    "export ASCEND_RT_VISIBLE_DEVICES=0,1,2,3,4,5,6,7\n"
    + _PPO
    + "    actor_rollout_ref.rollout.checkpoint_engine.backend=hccl \\\n"
    "    trainer.total_epoch=2\n",
)
SELECT_NAME = "run_grpo.sh"

# (the options given to ``verl-cookbook doctor`` before the script, the rules it then reports)
SELECT_COMMANDS: tuple[tuple[tuple[str, ...], tuple[str, ...]], ...] = (
    ((), ("engine/unknown-backend", "config/unknown-key")),
    (("--select", "engine"), ("engine/unknown-backend",)),
    (("--ignore", "engine/unknown-"), ("config/unknown-key",)),
    (("--select", "engine,config", "--ignore", "config"), ("engine/unknown-backend",)),
)

SUPPRESSIONS: tuple[Example, ...] = (
    Example("md", "<!-- verl-cookbook: ignore[snippet/undeclared] -->\n```text\nconsole output\n```\n"),
    Example(
        "sh",
        "#!/usr/bin/env bash\n" + _PPO + "    +actor_rollout_ref.rollout.my_plugin_setting=1"
        "  # verl-cookbook: ignore[config/not-a-field]\n",
    ),
)

_COMMENT = re.compile(
    r"[ \t]*(?:<!--\s*verl-cookbook:\s*ignore\[([^\]]+)\]\s*-->\n?|#\s*verl-cookbook:\s*ignore\[([^\]]+)\])"
)


def without_suppression(text: str) -> tuple[str, str]:
    """``text`` with its suppression comment taken out, and the rule code the comment named."""
    m = _COMMENT.search(text)
    if m is None:
        raise ValueError("no suppression comment in the example")
    return text[: m.start()] + text[m.end() :], m.group(1) or m.group(2)


def command(options: tuple[str, ...]) -> str:
    """The command line a reader types for ``options``."""
    return " ".join(("verl-cookbook doctor", *options, SELECT_NAME))
