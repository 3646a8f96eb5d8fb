"""``--lenient`` reads a block as its readers do (verl_cookbook/block_reading.py, verl_cookbook/lenient.py): output
under a ``bash`` tag is output, an excerpt under a ``python`` tag is an excerpt, a shell command under a ``python``
tag is checked as one, short forms in an explanation are not overrides, and ShellCheck's quoting advice is off unless
selected. Each reading fires on a block written the way project docs write them and stays silent on a script or a
program written the way users write them. The blocks are written for these tests."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.helpers import fence
from verl_cookbook.block_reading import python_excerpt, shell_output
from verl_cookbook.cli import main
from verl_cookbook.runner import check_paths

# -- output under a shell tag --------------------------------------------------------------------------------------
OUTPUT = {
    "log": "epoch:1 - loss/actor:0.412 - time/step:3.20 - grad_norm:1.7 - lr(1e-6):1.0\n"
    "epoch:2 - loss/actor:0.398 - time/step:3.10 - grad_norm:1.5 - lr(1e-6):1.0\n",
    "log-stamped": "2025-11-02 08:14:55,301 INFO worker.py:1812 -- Started a local Ray instance.\n",
    "traceback": 'Traceback (most recent call last):\n  File "train.py", line 3, in <module>\n    run()\n'
    "KeyError: 'reward'\n",
    "error": "RuntimeError: NPU out of memory. Tried to allocate 2.00 GiB (NPU 0; 60.00 GiB total)\n",
    "pip-error": "ERROR: Could not find a version that satisfies the requirement foo==9.9 (from versions: 1.0)\n"
    "ERROR: No matching distribution found for foo==9.9\n",
    "help": "usage: convert.py [-h] --src SRC [--dst DST]\n\noptions:\n  -h, --help  show this help message and exit\n",
    "banner": "========== Cluster status ==========\nNodes:\n  2 alive\n",
    "pip": "Collecting numpy\n  Downloading numpy-2.1.0.tar.gz (18.9 MB)\nSuccessfully installed numpy-2.1.0\n",
    "text": "Cluster started on this node.\n\n------------------\nJoin the other node with the address below\n"
    "    ray start --address=10.0.0.1:6379\n",
}
EXPECTED_WHAT = {"log-stamped": "log", "pip-error": "error", "text": "banner"}

SCRIPTS = {
    "launch": "python3 -m verl.trainer.main_ppo \\\n    trainer.total_epochs=2 \\\n    trainer.logger=console\n",
    "echoes-an-error": 'if [ ! -f model.pt ]; then\n  echo "ERROR: model.pt is missing"\n  exit 1\nfi\n',
    "env": "export INFO_LEVEL=1\nexport HCCL_CONNECT_TIMEOUT=1200\nbash run.sh\n",
    "comment-says-output": "# Output: the merged model under ./hf\npython -m verl.model_merger merge --backend fsdp\n",
}


@pytest.mark.parametrize("name", OUTPUT)
def test_output_under_a_shell_tag_is_read_as_output(name):
    reading = shell_output(OUTPUT[name])
    assert reading is not None and reading.kind == "output"
    assert reading.what == EXPECTED_WHAT.get(name, name)


@pytest.mark.parametrize("name", SCRIPTS)
def test_a_script_is_not_read_as_output(name):
    assert shell_output(SCRIPTS[name]) is None


# -- excerpts under a python tag --------------------------------------------------------------------------------------
EXCERPTS = {
    "command": ("shell", "python scripts/prepare_data.py --out ~/data\n"),
    "marker": ("excerpt", "    for step in range(n):\n        <<<see below>>>\n"),
    "fragment": ("excerpt", "    def save(self, path):\n        return self.engine.save(path)\n    return\n"),
    "data": ("excerpt", '{\n  "prompt": "What is 2+2?",\n  "answer": "4"\n  "source": "gsm8k"\n}\n'),
    "label": ("excerpt", 'Request body:\n{\n  "query": "x",\n  "topk": 3\n}\n'),
    "ellipsis": ("excerpt", "class MyTool(BaseTool):\n    async def execute(self, ...):\n        ...\n"),
    "signature": ("excerpt", "fused_attention(\n    q,\n    k,\n    *,\n    scale=None,\n) -> Tensor\n"),
    "names": ("excerpt", "group = WorkerPool(size=[8], WorkerSpec(Actor))\ngroup.run(batch)\n"),
}
EXCERPT_WHAT = {"label": "data"}

PROGRAMS = {
    "compiles": "from verl import DataProto\n\nbatch = DataProto.from_dict({})\n",
    "unbalanced-call": 'print("unbalanced"\n',
    "imports-then-breaks": "import torch\n\nx = torch.zeros(3,, 2)\n",
}


@pytest.mark.parametrize("name", EXCERPTS)
def test_an_excerpt_under_a_python_tag_is_read_as_an_excerpt(name):
    kind, code = EXCERPTS[name]
    reading = python_excerpt(code)
    assert reading is not None and (reading.kind, reading.what) == (kind, EXCERPT_WHAT.get(name, name))


@pytest.mark.parametrize("name", PROGRAMS)
def test_a_program_is_not_read_as_an_excerpt(name):
    assert python_excerpt(PROGRAMS[name]) is None


# -- what a lenient check reports -------------------------------------------------------------------------------------
def _lenient(page: Path, facts) -> list[tuple[str, int]]:
    return [(f.rule, f.line) for f in check_paths([page], facts, options={"lenient": True}).findings]


def test_output_under_bash_draws_one_info_note_at_the_fence_and_nothing_else(facts, write_page):
    page = write_page("Run it and you will see:\n\n" + fence(OUTPUT["traceback"], "bash"))
    assert _lenient(page, facts) == [("lenient/wrong-language", 3)]


def test_output_under_console_draws_nothing(facts, write_page):
    assert _lenient(write_page(fence(OUTPUT["log"], "console")), facts) == []


def test_an_rst_block_of_output_is_noted_at_its_directive(facts, tmp_path):
    page = tmp_path / "page.rst"
    body = "".join("    " + ln + "\n" for ln in OUTPUT["pip-error"].splitlines())
    page.write_text("Title\n=====\n\nOutput:\n\n.. code-block:: bash\n\n" + body, encoding="utf-8")
    assert _lenient(page, facts) == [("lenient/wrong-language", 6)]


def test_a_transcript_under_bash_is_noted_and_its_commands_still_checked(facts, write_page):
    code = "$ python3 -m verl.trainer.main_ppo trainer.totl_epochs=1\nError executing job with overrides\n"
    assert _lenient(write_page(fence(code, "bash")), facts) == [
        ("lenient/wrong-language", 1),
        ("config/unknown-key", 2),
    ]


def test_a_transcript_without_output_draws_no_note(facts, write_page):
    assert _lenient(write_page(fence("$ ray status\n", "bash")), facts) == []


def test_an_excerpt_under_python_draws_nothing(facts, write_page):
    for name in ("marker", "ellipsis", "signature", "names", "data"):
        assert _lenient(write_page(fence(EXCERPTS[name][1], "python")), facts) == [], name


def test_a_broken_program_under_python_is_still_a_syntax_error(facts, write_page):
    assert _lenient(write_page(fence(PROGRAMS["unbalanced-call"], "python")), facts) == [("python/syntax", 2)]


def test_a_shell_command_under_python_is_noted_and_checked_as_shell(facts, write_page):
    code = "python3 -m verl.trainer.main_ppo trainer.totl_epochs=1\n"
    assert _lenient(write_page(fence(code, "python")), facts) == [
        ("lenient/wrong-language", 1),
        ("config/unknown-key", 2),
    ]


def test_a_script_under_bash_draws_no_note(facts, write_page):
    for name, code in SCRIPTS.items():
        found = [r for r, _ in _lenient(write_page(fence(code, "bash")), facts)]
        assert "lenient/wrong-language" not in found, name


def test_info_notes_alone_exit_0_and_become_github_notices(verl_tree, write_page, capsys):
    page = write_page(fence(OUTPUT["log"], "bash"))
    code = main(["check", "--lenient", "--format", "github", str(page), "--verl-src", str(verl_tree.root)])
    out = capsys.readouterr().out
    assert code == 0
    assert out.startswith("::notice file=") and "title=lenient/wrong-language" in out


def test_an_info_note_beside_an_error_still_exits_1(verl_tree, write_page, capsys):
    page = write_page(fence(OUTPUT["log"], "bash") + "\n" + fence("trainer:\n  totl_epochs: 1\n", "yaml"))
    assert main(["check", "--lenient", str(page), "--verl-src", str(verl_tree.root)]) == 1
    out = capsys.readouterr().out
    assert "lenient/wrong-language (info)" in out and "config/unknown-key" in out


# -- short forms inside an explanation ----------------------------------------------------------------------------
def test_short_forms_of_keys_in_an_explanation_are_not_overrides(facts, write_page):
    code = "actor.fsdp_config.param_offload=True\nref.fsdp_config.param_offload=True\n"
    assert _lenient(write_page("If both are set:\n\n" + fence(code, "bash")), facts) == []


@pytest.mark.parametrize(
    ("code", "rule"),
    [
        # an older release's key (it moved under ray_kwargs): stale, not short, and named with its new place
        ("ray_init.num_cpus=8\n", "upgrade/key-moved"),
        ("trainer.remove_previous_ckpt_in_save=True\n", "config/unknown-key"),  # a wrong key under a top key
        ("actor.fsdp_config.no_such_setting=True\n", "config/unknown-key"),  # no key of the config ends with it
    ],
    ids=["an-older-releases-key", "a-wrong-key-under-a-top-section", "a-suffix-of-no-key"],
)
def test_a_stale_or_unknown_key_in_a_fragment_list_is_still_reported(code, rule, facts, write_page):
    assert [r for r, _ in _lenient(write_page(fence(code, "bash")), facts)] == [rule]


def test_a_short_form_beside_a_real_override_is_judged_as_a_whole(facts, write_page):
    code = "actor.fsdp_config.param_offload=True\ntrainer.totl_epochs=1\n"
    assert "config/unknown-key" in [r for r, _ in _lenient(write_page(fence(code, "bash")), facts)]


# -- ShellCheck's quoting advice --------------------------------------------------------------------------------------
QUOTING = "for arg in $@; do\n  python3 train.py $arg\ndone\n"


def _cli_rules(args: list[str], page: Path, verl_tree, capsys) -> list[str]:
    main(["check", *args, "--format", "json", str(page), "--verl-src", str(verl_tree.root)])
    import json

    return [f["rule"] for f in json.loads(capsys.readouterr().out or "[]")]


def test_quoting_advice_is_off_in_lenient_mode(verl_tree, write_page, capsys):
    assert _cli_rules(["--lenient"], write_page(fence(QUOTING, "bash")), verl_tree, capsys) == []


def test_quoting_advice_is_reported_when_selected_by_code(verl_tree, write_page, capsys):
    found = _cli_rules(
        ["--lenient", "--select", "shellcheck/SC2068"], write_page(fence(QUOTING, "bash")), verl_tree, capsys
    )
    assert found == ["shellcheck/SC2068"]


def test_select_all_leaves_the_quoting_advice_off(verl_tree, write_page, capsys):
    assert _cli_rules(["--lenient", "--select", "ALL"], write_page(fence(QUOTING, "bash")), verl_tree, capsys) == []
