"""``shell/unset-command``: a command named by a variable the script never sets (verl's
examples/sft/gsm8k/run_mimo_7b_mtp_megatron.sh runs ``$COMMAND data.train_files=…`` with COMMAND set nowhere) is a
warning saying what bash does instead, from ``check`` and ``doctor`` alike; a variable the script sets anywhere is
not."""

from __future__ import annotations

from pathlib import Path

import pytest
from helpers import fence, on_page_and_in_doctor

from verl_cookbook.facts import Facts
from verl_cookbook.shell.evaluate import parse_script

UNSET = (
    "#!/usr/bin/env bash\nTRAIN=/data/train.parquet\n"
    "$COMMAND \\\n    data.train_files=${TRAIN} \\\n    trainer.total_epochs=2\n"
)


def test_a_command_named_by_a_variable_never_set_says_bash_runs_the_next_word() -> None:
    (entry,) = parse_script(UNSET).unset_commands
    assert entry == (3, 1, "COMMAND", "data.train_files=/data/train.parquet")


@pytest.mark.parametrize(
    "setting",
    [
        'COMMAND="python3 -m verl.trainer.main_ppo"\n',
        'if [ -n "$X" ]; then COMMAND=torchrun; fi\n',  # set in one branch: not "never set"
        "export COMMAND=torchrun\n",
        "read -r COMMAND < cmd.txt\n",
        "for COMMAND in a b; do :; done\n",
        "f() { local COMMAND=x; }\n",
    ],
)
def test_a_variable_the_script_sets_anywhere_is_not_reported(setting: str) -> None:
    assert parse_script("#!/usr/bin/env bash\n" + setting + UNSET.split("\n", 1)[1]).unset_commands == []


@pytest.mark.parametrize("line", ['"$COMMAND" trainer.total_epochs=2', "${COMMAND:-torchrun} trainer.total_epochs=2"])
def test_a_quoted_or_defaulted_command_name_is_not_reported(line: str) -> None:
    assert parse_script(f"#!/usr/bin/env bash\n{line}\n").unset_commands == []


def test_check_and_doctor_give_the_same_warning(write_page, facts: Facts, tmp_path: Path) -> None:
    page = write_page("# p\n\n" + fence(UNSET, '{ .bash check="shell" }'))
    script = tmp_path / "run.sh"
    script.write_text(UNSET, encoding="utf-8")
    on_page, in_doctor = on_page_and_in_doctor(page, script, facts, "shell/unset-command")
    assert on_page.message == in_doctor.message
    assert (
        "`$COMMAND` is never set" in in_doctor.message and "`data.train_files=/data/train.parquet`" in in_doctor.message
    )
    assert in_doctor.rule.severity == "warning"


def test_a_command_name_left_out_of_a_page_is_not_reported(write_page, facts: Facts) -> None:
    lenient = "python3 -m verl.trainer.main_ppo \\\n    trainer.total_epochs=2 \\\n    ...\n"
    page = write_page("# p\n\n```bash\n" + lenient + "```\n")
    from verl_cookbook.runner import check_paths

    report = check_paths([page], facts, page.parent.parent, {"lenient": True})
    assert "shell/unset-command" not in [f.rule for f in report.findings]
