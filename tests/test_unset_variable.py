"""``shell/unset-variable``: a value built on a lowercase variable the script never sets. A user's Ascend launch script
set ``WORKSPACE_HOME=$pwd`` and wrote checkpoints under ``$WORKSPACE_HOME/logs/ckpt`` — ``$pwd`` is not ``$PWD``, so
the checkpoints went to ``/logs/ckpt`` on every node's root disk. Bash itself is the proof: the test runs the line."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest
from helpers import fence, on_page_and_in_doctor

from verl_cookbook.facts import Facts
from verl_cookbook.shell.evaluate import parse_script

PPO = "python3 -m verl.trainer.main_ppo"
SCRIPT = (
    "#!/usr/bin/env bash\nWORKSPACE_HOME=$pwd\nCKPTS_DIR=$WORKSPACE_HOME/logs/ckpt\n"
    f"{PPO} \\\n    trainer.default_local_dir=$CKPTS_DIR\n"
)


def test_bash_expands_a_lowercase_pwd_to_nothing_so_the_path_starts_at_root() -> None:
    out = subprocess.run(
        ["bash", "-c", 'WORKSPACE_HOME=$pwd; echo "$WORKSPACE_HOME/logs/ckpt"'],
        env={"PATH": "/usr/bin:/bin", "PWD": "/work"},
        capture_output=True,
        text=True,
        check=True,
    )
    assert out.stdout.strip() == "/logs/ckpt"


def test_a_value_starting_with_a_lowercase_variable_never_set_is_recorded_where_it_is() -> None:
    assert parse_script(SCRIPT).unset_values == [(2, 16, "pwd", "WORKSPACE_HOME")]


@pytest.mark.parametrize(
    "value",
    [
        "$PWD",  # the working directory, set by bash
        "$(pwd)",
        "${HOME}/ws",  # uppercase: the environment's
        "$MASTER_ADDR",
        "$http_proxy",  # a lowercase name the environment does set
        "/data/$user",  # not at the start: a path that does not collapse to /
        "'$pwd'",  # single quotes: no expansion at all
    ],
)
def test_values_users_write_that_are_not_an_unset_lowercase_variable_are_not_reported(value: str) -> None:
    assert parse_script(f"#!/usr/bin/env bash\nWS={value}\n{PPO} trainer.default_local_dir=$WS\n").unset_values == []


@pytest.mark.parametrize(
    "setting",
    ["root=/data\n", "read -r root < f\n", "for root in /a /b; do :; done\n", "export root=/data\n"],
)
def test_a_lowercase_variable_the_script_sets_anywhere_is_not_reported(setting: str) -> None:
    script = f"#!/usr/bin/env bash\n{setting}WS=$root/ckpt\n{PPO} trainer.default_local_dir=$WS\n"
    assert parse_script(script).unset_values == []


@pytest.mark.parametrize("value", ['"$pwd/x"', '"${pwd}"', "${pwd}/ckpt"])
def test_quoted_and_braced_forms_are_reported_too(value: str) -> None:
    (entry,) = parse_script(f"#!/usr/bin/env bash\nWS={value}\n").unset_values
    assert entry[2:] == ("pwd", "WS")


def test_check_and_doctor_give_the_same_warning(write_page, facts: Facts, tmp_path: Path) -> None:
    page = write_page("# p\n\n" + fence(SCRIPT, '{ .bash check="shell" }'))
    script = tmp_path / "run.sh"
    script.write_text(SCRIPT, encoding="utf-8")
    on_page, in_doctor = on_page_and_in_doctor(page, script, facts, "shell/unset-variable")
    assert on_page.message == in_doctor.message
    assert "`$pwd` is never set" in in_doctor.message and "`WORKSPACE_HOME`" in in_doctor.message
    assert in_doctor.rule.severity == "warning"
    assert (in_doctor.line, in_doctor.col) == (2, 16)


def test_in_another_projects_docs_a_variable_set_in_an_earlier_block_of_the_page_is_not_reported(
    write_page, facts: Facts
) -> None:
    """verl's search-tool page sets `save_path` in one block and builds `index_file=$save_path/…` in the next."""
    page = write_page(
        "# p\n\n```bash\nsave_path=/the/path\npython download.py --save_path $save_path\n```\n\n"
        "```bash\nindex_file=$save_path/e5_Flat.index\npython serve.py --index_path $index_file\n```\n"
    )
    from verl_cookbook.runner import check_paths

    report = check_paths([page], facts, page.parent.parent, {"lenient": True})
    assert "shell/unset-variable" not in [f.rule for f in report.findings]
