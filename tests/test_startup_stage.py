"""The startup stage (verl_cookbook/startup/): verl 0.9.1's own startup checks, run in the isolated environment
scripts/startup_env.sh builds (scripts/install.sh builds it), never in this process.

- the attribution of a failure to the override that set the key (pure, no verl);
- the site's runnable commands held to verl's startup checks, and a planted missing micro-batch key turning red;
- a differential test: for a corpus of override lists, the stage's accept/reject equals the real command line
  (``python -m verl.trainer.main_ppo <overrides>``: Hydra's own argv parsing and composition, the real ``main``),
  stopped where it would start Ray.
"""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest

from tests import helpers
from verl_cookbook import startup
from verl_cookbook.doctor import diagnose
from verl_cookbook.startup import doctor_stage

ROOT = Path(__file__).resolve().parent.parent
DATA = Path(__file__).parent / "data" / "startup"
VERSION = "0.9.1"
A = "actor_rollout_ref"


@pytest.fixture(scope="module")
def startup_python() -> str:
    return helpers.startup_python(VERSION)


# -- attribution (no verl) ---------------------------------------------------------------------------------
def _ov(text: str, line: int, symbolic: bool = False) -> startup.Override:
    return startup.Override(text, line, 5, symbolic)


def test_a_dataclass_check_is_tied_to_the_overrides_that_set_its_fields():
    err = {
        "type": "ValueError",
        "message": "[actor] You have set both 'actor.ppo_micro_batch_size' AND 'actor.ppo_micro_batch_size_per_gpu'.",
        "section": f"{A}.actor",
        "fields_read": ["ppo_micro_batch_size", "ppo_micro_batch_size_per_gpu"],
    }
    ovs = [_ov("data.train_batch_size=8", 3), _ov(f"{A}.actor.ppo_micro_batch_size=4", 4)]
    ovs += [_ov(f"{A}.actor.ppo_micro_batch_size_per_gpu=2", 5), _ov("critic.ppo_micro_batch_size=4", 6)]
    _keys, hit = startup.attribute(err, ovs)
    assert [o.line for o in hit] == [4, 5]


def test_a_failure_no_override_touches_has_no_override_line():
    err = {
        "type": "AssertionError",
        "message": "Please set at least one of 'actor.ppo_micro_batch_size'",
        "section": f"{A}.actor",
    }
    _keys, hit = startup.attribute(err, [_ov("trainer.nnodes=1", 3)])
    assert hit == []


def test_a_failure_that_reads_a_value_from_the_shell_is_a_note_not_a_finding():
    job = startup.Job("j", "x.sh", 2, "verl.trainer.main_ppo", [_ov("data.train_batch_size=$BS", 3, True)])
    res = startup._result(
        job,
        {
            "status": "fail",
            "error": {
                "type": "AssertionError",
                "message": "real_train_batch_size (10) must be …",
                "keys_read": ["data.train_batch_size"],
                "verl_file": "verl/utils/config.py",
                "verl_line": 124,
            },
        },
    )
    found, notes = startup.findings(startup.Environment("py", VERSION, "/"), [res])
    assert found == [] and "shell" in notes[0]


# -- with verl: one stage run (one worker process) for every script below ----------------------------------------
NPU_SCRIPT = ROOT / "snippets" / "doctor" / "run_grpo_npu.sh"
DELTA = ROOT / "snippets" / "recipes" / "delta_sharded_overrides.sh"
# the backend pages' whole commands: a reader copies them as they are
BACKEND_COMMANDS = [
    ROOT / "snippets" / "nccl" / "npu_separate_async.sh",
    ROOT / "snippets" / "kimi" / "npu_kimi_overrides.sh",
    ROOT / "snippets" / "mooncake" / "npu_mooncake_overrides.sh",
]
FIXTURES = ["plain_ok.sh", "both_set_array.sh", "missing_torchrun.sh", "ray_job_bad_name.sh", "symbolic_mbs.sh"]


@pytest.fixture(scope="module")
def staged(facts, startup_python, tmp_path_factory) -> dict:
    """doctor's startup stage (``doctor_stage.apply``) over every script above, in its one worker process. That
    process also runs the differential corpus's jobs (below), after the scripts' own: the worker runs each job on
    its own (a fresh compose, the key log cleared), so one verl start serves the whole module instead of six.
    ``startup.run`` is wrapped, not replaced: apply gets exactly the results of its own jobs; the tests read the
    trainer verl built for a script from the same results apply judged."""
    planted = tmp_path_factory.mktemp("planted") / "planted.sh"
    text = NPU_SCRIPT.read_text()
    planted.write_text("".join(ln for ln in text.splitlines(True) if "actor.ppo_micro_batch_size_per_gpu" not in ln))
    paths = [NPU_SCRIPT, planted, DELTA, *BACKEND_COMMANDS, *(DATA / n for n in FIXTURES)]
    reports = [diagnose(p, facts) for p in paths]
    jobs = [j for r in reports for j in doctor_stage.jobs_for(r.path, r.units, r.env)]
    real_run, runs = startup.run, []

    def run_with_corpus(own: list[startup.Job], python: str, **kw):
        env, results = real_run([*own, *CORPUS_JOBS], python, **kw)
        runs.append((own, results))
        return env, results[: len(own)]

    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(startup, "run", run_with_corpus)
        summary = doctor_stage.apply(reports, startup_python, VERSION, lambda f: f)
    ((own, results),) = runs  # one worker process for every file
    assert [r.job for r in results] == [*own, *CORPUS_JOBS]
    by_name = {Path(r.path).name: r for r in reports}
    return {"reports": by_name, "summary": summary, "jobs": jobs, "results": results}


def _results_of(staged: dict, *scripts: Path) -> list:
    """The stage's results for the commands of ``scripts`` (in the order of the scripts)."""
    return [r for script in scripts for r in staged["results"] if r.job.file == str(script)]


def _startup(report) -> list:
    return [f for f in (getattr(d, "finding", d) for d in report.findings) if f.rule.startswith("startup/")]


def test_the_doctor_page_corrected_npu_script_passes_verl_startup_as_separate_async(staged):
    assert VERSION in staged["summary"]
    report = staged["reports"]["run_grpo_npu.sh"]
    assert _startup(report) == [] and not any("startup" in n for n in report.notes), report.notes
    results = _results_of(staged, NPU_SCRIPT)  # which trainer verl built: separate_async's
    assert [(r.status, r.trainer) for r in results] == [("pass", "PPOTrainerSeparateAsync")]


def test_a_planted_missing_micro_batch_key_in_the_corrected_script_turns_red(staged):
    got = _startup(staged["reports"]["planted.sh"])
    assert [(f.rule, f.line) for f in got] == [(startup.RULE_MISSING, 7)]
    assert got[0].fact_source.startswith("verl/workers/config/actor.py:")
    assert "Please set at least one of 'actor.ppo_micro_batch_size'" in got[0].message


def test_fixtures_give_verl_own_verdicts_at_the_override_lines(staged):
    got = {n: [(f.rule, f.line) for f in _startup(staged["reports"][n])] for n in FIXTURES}
    assert got["plain_ok.sh"] == []
    assert got["both_set_array.sh"] == [(startup.RULE_REJECTED, 7)]  # with line 8, the other key
    assert got["missing_torchrun.sh"] == [(startup.RULE_MISSING, 3)]
    assert got["symbolic_mbs.sh"] == []  # verl's verdict would depend on $MBS
    # verl's startup never reads the rollout name when LoRA is off: the static rule reports it, the stage does not
    assert got["ray_job_bad_name.sh"] == []


def test_the_delta_sync_overrides_pass_verl_startup(staged):
    report = staged["reports"][DELTA.name]
    assert _startup(report) == [] and not any("startup" in n for n in report.notes), report.notes
    results = _results_of(staged, DELTA)  # every check ran: none stopped for want of a model
    assert [(r.status, r.trainer) for r in results] == [("pass", "PPOTrainerSeparateAsync")]


def test_the_backend_pages_commands_pass_verl_startup(staged):
    for script in BACKEND_COMMANDS:
        report = staged["reports"][script.name]
        assert _startup(report) == [] and not any("startup" in n for n in report.notes), (script.name, report.notes)
    results = _results_of(staged, *BACKEND_COMMANDS)
    assert [(r.status, r.trainer) for r in results] == [("pass", "PPOTrainerSeparateAsync")] * len(BACKEND_COMMANDS)


# -- differential: the stage against the real command line ---------------------------------------------------
CORPUS: list[list[str]] = [
    [],
    [
        f"{A}.actor.ppo_micro_batch_size_per_gpu=2",
        f"{A}.rollout.log_prob_micro_batch_size_per_gpu=2",
        "algorithm.adv_estimator=grpo",
    ],
    [
        f"{A}.actor.ppo_micro_batch_size_per_gpu=2",
        f"{A}.actor.ppo_micro_batch_size=2",
        f"{A}.rollout.log_prob_micro_batch_size_per_gpu=2",
        "algorithm.adv_estimator=grpo",
    ],
    [f"{A}.actor.ppo_micro_batch_size_per_gpu=2", "algorithm.adv_estimator=grpo"],
    [
        f"{A}.actor.ppo_micro_batch_size_per_gpu=2",
        f"{A}.rollout.log_prob_micro_batch_size_per_gpu=2",
        "algorithm.adv_estimator=gae",
    ],
    [
        f"{A}.actor.ppo_micro_batch_size_per_gpu=2",
        f"{A}.rollout.log_prob_micro_batch_size_per_gpu=2",
        "algorithm.adv_estimator=gae",
        "critic.ppo_micro_batch_size_per_gpu=2",
    ],
    [
        f"{A}.actor.ppo_micro_batch_size_per_gpu=2",
        f"{A}.rollout.log_prob_micro_batch_size_per_gpu=2",
        "algorithm.adv_estimator=grpo",
        "trainer.n_gpus_per_node=7",
        "data.train_batch_size=10",
    ],
    [
        f"{A}.actor.ppo_micro_batch_size_per_gpu=2",
        f"{A}.rollout.log_prob_micro_batch_size_per_gpu=2",
        "algorithm.adv_estimator=grpo",
        f"{A}.actor.use_kl_loss=true",
    ],
    [f"{A}.actor.use_dynamic_bsz=true", "algorithm.adv_estimator=grpo"],
    [
        f"{A}.actor.ppo_micro_batch_size_per_gpu=2",
        f"{A}.rollout.log_prob_micro_batch_size_per_gpu=2",
        "algorithm.adv_estimator=grpo",
        f"{A}.rollout.val_kwargs.do_sample=true",
        f"{A}.rollout.temperature=0",
    ],
]

# the corpus as the stage's jobs (run in the staged fixture's worker process)
CORPUS_JOBS = [
    startup.Job(f"corpus-{i}", "c", 1, "verl.trainer.main_ppo", [_ov(o, 1) for o in argv])
    for i, argv in enumerate(CORPUS)
]

# Runs in the startup environment: the real entry point as `python -m` runs it (sys.argv, @hydra.main), with
# ray.init replaced by a stop; Hydra turns a failure into exit code 1.
ORACLE = r"""
import json, sys, runpy, warnings, io, contextlib
warnings.simplefilter("ignore")
import ray
from hydra.core.global_hydra import GlobalHydra
class Reached(BaseException): pass
def stop(*a, **k): raise Reached()
ray.init = stop
ray.is_initialized = lambda: False
out = []
for argv in json.load(sys.stdin):
    GlobalHydra.instance().clear()
    sys.argv = ["main_ppo", *argv]
    try:
        with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
            runpy.run_module("verl.trainer.main_ppo", run_name="__main__")
        out.append("returned")
    except Reached:
        out.append("accept")
    except SystemExit as e:
        out.append("reject" if e.code else "returned")
print(json.dumps(out))
"""


def test_stage_accepts_and_rejects_exactly_what_the_real_command_line_does(startup_python, staged, tmp_path):
    # @hydra.main writes outputs/<date>/… into the working directory: run it in a temporary one
    real = subprocess.run(
        [startup_python, "-c", ORACLE],
        input=json.dumps(CORPUS),
        capture_output=True,
        text=True,
        timeout=600,
        cwd=tmp_path,
    )
    assert real.returncode == 0, real.stderr[-2000:]
    verdicts = json.loads(real.stdout.strip().splitlines()[-1])
    results = [r for r in staged["results"] if r.job in CORPUS_JOBS]
    assert [r.job for r in results] == CORPUS_JOBS
    # the real command line stops at ray.init, before the v1 trainer's constructor: compare at that point
    mine = [
        "reject" if r.status == "fail" and r.phase == "main" else "accept" if r.status in ("pass", "fail") else r.status
        for r in results
    ]
    assert mine == verdicts
    assert "accept" in verdicts and "reject" in verdicts  # the corpus exercises both sides
