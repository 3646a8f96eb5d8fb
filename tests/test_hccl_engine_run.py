"""What verl 0.9.1's HCCL checkpoint engine logs and raises during weight syncs, held by running it.

The engine (verl/checkpoint_engine/hccl_checkpoint_engine.py, the ``nccl`` backend on Ascend) runs unchanged, one
process per rank, in the startup environment (scripts/startup_env.sh); tests/hccl_run/npu_fakes.py replaces only the
device layer under it: torch_npu's ``torch.npu``, vLLM's ``StatelessProcessGroup`` and vllm-ascend's
``PyHcclCommunicator`` (its methods only, carried by gloo, so buckets really travel between the processes).
tests/hccl_run/rank.py calls the engine in the order verl's CheckpointEngineManager does. This process starts the
ranks and reads what they wrote: their stderr (what verl logged), a JSON report, a file of the steps they reached.

Two runs, one module fixture each:
- ``steady``: 2 trainer ranks and 2 rollout ranks, ``rebuild_group`` left at its default, three syncs, at
  ``VERL_LOGGING_LEVEL=INFO``. The second rollout rank is held before its first ``init_process_group`` until the
  three others are inside theirs and what they logged has been read.
- ``rebuild``: 2 trainer ranks and 1 rollout rank with ``rebuild_group: true``, at the default logging level.

Statements on the pages that a test here holds carry ``<!-- run: test_hccl_engine_run.py::<test> -->``; the last
tests keep those markers and the tests in step.
"""

from __future__ import annotations

import json
import os
import re
import signal
import socket
import subprocess
import time
from pathlib import Path

import pytest

from tests import helpers
from tests.conftest import REPO

VERSION = "0.9.1"
RANK = Path(__file__).parent / "hccl_run" / "rank.py"
PAGES = {
    "verify-sync": (REPO / "docs/backends/verify-sync.md", REPO / "docs/backends/verify-sync.en.md"),
    "known-issues": (REPO / "docs/ascend/known-issues.md", REPO / "docs/ascend/known-issues.en.md"),
    "nccl-hccl": (REPO / "docs/backends/nccl-hccl.md", REPO / "docs/backends/nccl-hccl.en.md"),
}
NCCL = REPO / "snippets" / "nccl"
MARKER = re.compile(r"<!-- run: (test_hccl_engine_run\.py)::(\w+) -->")
TIMEOUT = 900  # seconds for a whole run: four imports of torch and verl on a shared two-core machine
LOOK = 3.0  # seconds the early ranks are watched inside init_process_group before the last rank joins

LOG_LINE = re.compile(r"^(?P<level>[A-Z]+):\d{4}-\d\d-\d\d \d\d:\d\d:\d\d,\d{3}:(?P<message>.*)$")
INIT = re.compile(r"^init_process_group rank: (?P<rank>-?\d+), world_size: (?P<world_size>\d+)$")
SENT = re.compile(r"^Rank (?P<rank>\d+) send weights done, time cost: [\d.]+s$")
RECEIVED = re.compile(
    r"^Rank (?P<rank>\d+) receive weights done, total_params: (?P<total_params>\d+), "
    r"time cost: [\d.]+s, bandwidth: [\d.]+ GB/s$"
)


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Ranks:
    """The processes of one run, each a rank.py with its own stderr, report and steps file under ``root``."""

    def __init__(self, root: Path, trainers: int, rollouts: int, syncs: int, engine_kwargs: dict, env: dict):
        self.root, self.env, self.procs = root, env, {}
        self.common = {
            "trainers": trainers,
            "rollouts": rollouts,
            "syncs": syncs,
            "bucket_size": 4096,  # smaller than the embedding (12 KiB in bf16): it goes in chunks
            "engine_kwargs": engine_kwargs,
            "coord_port": _free_port(),
        }
        self.names = [f"trainer{i}" for i in range(trainers)] + [f"rollout{i}" for i in range(rollouts)]

    def start(self, name: str, hold: Path | None = None) -> None:
        role, index = re.fullmatch(r"(trainer|rollout)(\d+)", name).groups()
        cfg = dict(self.common, role=role, index=int(index), out=str(self.root / f"{name}.json"))
        cfg["hold"] = str(hold) if hold else None
        cfg["phase"] = str(self.root / f"{name}.steps")
        with open(self.root / f"{name}.err", "w") as err:
            self.procs[name] = subprocess.Popen(
                [helpers.startup_python(VERSION), str(RANK), json.dumps(cfg)], stderr=err, env=self.env
            )

    def steps(self, name: str) -> list[str]:
        path = self.root / f"{name}.steps"
        return path.read_text().splitlines() if path.exists() else []

    def logged(self, name: str) -> list[tuple[str, str]]:
        """(level, message) of each line verl logged in that process, in its format LEVEL:time:message."""
        lines = (self.root / f"{name}.err").read_text().splitlines()
        return [(m["level"], m["message"]) for m in map(LOG_LINE.match, lines) if m]

    def wait_until(self, done, what: str) -> None:
        deadline = time.monotonic() + TIMEOUT
        while not done():
            dead = [n for n, p in self.procs.items() if p.poll() not in (None, 0)]
            if dead or time.monotonic() > deadline:
                self.stop()
                pytest.fail(f"{what}: {'ranks ' + ', '.join(dead) + ' died' if dead else 'timed out'}\n{self.tails()}")
            time.sleep(0.2)

    def finish(self) -> dict:
        self.wait_until(lambda: all(p.poll() is not None for p in self.procs.values()), "the run did not end")
        return {n: json.loads((self.root / f"{n}.json").read_text()) for n in self.names}

    def stop(self) -> None:
        for p in self.procs.values():
            if p.poll() is None:
                p.send_signal(signal.SIGUSR1)  # rank.py prints every thread's stack
        time.sleep(1)
        for p in self.procs.values():
            if p.poll() is None:
                p.kill()
                p.wait()

    def tails(self) -> str:
        return "\n".join(
            f"--- {n}\n" + (self.root / f"{n}.err").read_text()[-3000:]
            for n in self.names
            if (self.root / f"{n}.err").exists()
        )


def _env(**extra: str) -> dict:
    env = {k: v for k, v in os.environ.items() if k != "VERL_LOGGING_LEVEL"}
    env.update(OMP_NUM_THREADS="1", **extra)
    return env


@pytest.fixture(scope="module")
def steady(tmp_path_factory) -> dict:
    ranks = Ranks(tmp_path_factory.mktemp("hccl-steady"), 2, 2, 3, {}, _env(VERL_LOGGING_LEVEL="INFO"))
    early, hold = ["trainer0", "trainer1", "rollout0"], ranks.root / "let-rollout1-join"
    for name in early:
        ranks.start(name)
    ranks.start("rollout1", hold=hold)
    ranks.wait_until(
        lambda: all("0 init_process_group" in ranks.steps(n) for n in early) and "0 held" in ranks.steps("rollout1"),
        "the ranks never reached init_process_group",
    )
    time.sleep(LOOK)
    before = {n: (ranks.logged(n), ranks.steps(n)) for n in early}
    hold.touch()
    reports = ranks.finish()
    return {"before_last_joined": before, "reports": reports, "logged": {n: ranks.logged(n) for n in ranks.names}}


@pytest.fixture(scope="module")
def rebuild(tmp_path_factory) -> dict:
    ranks = Ranks(tmp_path_factory.mktemp("hccl-rebuild"), 2, 1, 2, {"rebuild_group": True}, _env())
    for name in ranks.names:
        ranks.start(name)
    reports = ranks.finish()
    return {"reports": reports, "logged": {n: ranks.logged(n) for n in ranks.names}}


def _messages(logged: list[tuple[str, str]], pattern: re.Pattern) -> list[re.Match]:
    return [m for _level, msg in logged if (m := pattern.match(msg))]


def _page_says(page: str, text: str) -> None:
    for path in PAGES[page]:
        assert text in path.read_text(encoding="utf-8"), f"{path.name} no longer says {text!r}"


# -- the input: the run is a weight sync through verl's engine ------------------------------------------------------
def test_the_run_uses_verls_hccl_engine_and_moves_the_weights_intact(steady):
    reports = steady["reports"]
    assert {r["engine"] for r in reports.values()} == {"HCCLCheckpointEngine"}, "nccl did not resolve to HCCL"
    for name in ("rollout0", "rollout1"):
        assert [sync["equal"] for sync in reports[name]["received"]] == [True, True, True], reports[name]
        assert len(reports[name]["received"][0]["names"]) == 6
    assert all(r["syncs_done"] == 3 and r["error"] is None for r in reports.values())


# -- statements of verify-sync ---------------------------------------------------------------------------------------
def test_init_process_group_is_logged_on_every_sync_even_when_the_group_is_reused(steady):
    """rebuild_group false: the group is created once (same rank every time), its line is logged every sync."""
    _page_says("verify-sync", "init_process_group")
    for name, rank in (("trainer0", 0), ("rollout0", 1), ("rollout1", 2)):
        assert steady["reports"][name]["ranks"] == [rank] * 3
        inits = _messages(steady["logged"][name], INIT)
        assert [int(m["rank"]) for m in inits] == [rank] * 3, f"{name}: {inits}"


def test_the_init_line_is_logged_only_after_every_member_has_joined(steady):
    """Printed after the barrier: while one member is missing, nobody logs it, so a logged line means the group
    formed."""
    before = steady["before_last_joined"]
    for name in ("trainer0", "rollout0"):
        logged, steps = before[name]
        assert steps == ["0 init_process_group"], f"{name} left init_process_group alone: {steps}"
        assert not _messages(logged, INIT), f"{name} logged init_process_group before the group was complete"
    assert before["trainer1"] == ([], ["0 init_process_group", "0 init_process_group returned"]), "rank -1 waits"
    assert all(_messages(steady["logged"][n], INIT) for n in ("trainer0", "rollout0", "rollout1"))


def test_world_size_is_the_rollout_ranks_plus_trainer_rank_0_and_other_trainer_ranks_log_nothing(steady):
    members = ("trainer0", "rollout0", "rollout1")
    sizes = {int(m["world_size"]) for n in members for m in _messages(steady["logged"][n], INIT)}
    assert sizes == {2 + 1}
    assert steady["reports"]["trainer1"]["ranks"] == [-1] * 3
    assert steady["logged"]["trainer1"] == [], steady["logged"]["trainer1"]


def test_each_sync_logs_one_send_on_trainer_rank_0_and_one_receive_per_rollout_rank_with_the_same_total_params(steady):
    _page_says("verify-sync", "send weights done")
    _page_says("verify-sync", "receive weights done")
    assert [int(m["rank"]) for m in _messages(steady["logged"]["trainer0"], SENT)] == [0, 0, 0]
    totals = set()
    for name, rank in (("rollout0", 1), ("rollout1", 2)):
        received = _messages(steady["logged"][name], RECEIVED)
        assert [int(m["rank"]) for m in received] == [rank] * 3, f"{name}: {received}"
        totals |= {m["total_params"] for m in received}
    assert len(totals) == 1, f"total_params differ between rollout ranks: {totals}"


def test_the_engines_lines_are_printed_in_verls_format_only_at_info(steady, rebuild):
    """At INFO every line goes through verl's root handler (LEVEL:time:message); at the default level (WARN) the
    same syncs print nothing."""
    for name in ("trainer0", "rollout0"):
        assert {level for level, _ in steady["logged"][name]} == {"INFO"}
    assert rebuild["reports"]["rollout0"]["received"][0]["equal"], "the sync at the default level did not happen"
    assert all(logged == [] for logged in rebuild["logged"].values()), rebuild["logged"]


EXPECTED = REPO / "snippets" / "backends" / "verify_sync_expected.txt"


def _shape(messages: list[str]) -> list[tuple]:
    """What a sync's lines say, times and sizes left out: (kind, rank, world_size or total_params)."""
    out: list[tuple] = []
    for msg in messages:
        if m := INIT.match(msg):
            out.append(("init", int(m["rank"]), int(m["world_size"])))
        elif m := SENT.match(msg):
            out.append(("send", int(m["rank"])))
        elif m := RECEIVED.match(msg):
            out.append(("receive", int(m["rank"]), int(m["total_params"])))
        else:
            raise AssertionError(f"not a line the engine logs: {msg!r}")
    return out


def test_the_expected_output_shown_is_what_the_engine_logs(steady):
    """The page's sample: the lines of one sync, each in verl's format, as the run's first sync logged them."""
    lines = EXPECTED.read_text(encoding="utf-8").splitlines()
    assert all(m and m["level"] == "INFO" for m in map(LOG_LINE.match, lines)), lines
    shown = _shape([LOG_LINE.match(line)["message"] for line in lines])
    first_sync = []
    for name in ("trainer0", "rollout0", "rollout1"):
        first_sync += [msg for _level, msg in steady["logged"][name][:2]]
    assert sorted(shown) == sorted(_shape(first_sync)), f"shown {shown}, logged {_shape(first_sync)}"


# -- statements of known-issues ---------------------------------------------------------------------------------------
DESTROY = "'PyHcclCommunicator' object has no attribute 'destroyComm'"


def test_rebuild_group_true_ends_the_first_sync_with_attribute_error_on_trainer_rank_0_and_every_rollout_rank(rebuild):
    """With a communicator offering vllm-ascend's methods, finalize() fails after the weights arrived; trainer
    ranks other than 0 (rank -1) pass."""
    _page_says("known-issues", DESTROY)
    reports = rebuild["reports"]
    assert reports["rollout0"]["received"][0]["equal"], "the weights did not arrive before finalize"
    for name in ("trainer0", "rollout0"):
        err = reports[name]["error"]
        assert err and (err["sync"], err["step"], err["type"]) == (0, "finalize", "AttributeError"), err
        assert err["message"] == DESTROY
    assert reports["trainer1"]["error"] is None and reports["trainer1"]["ranks"] == [-1]
    # rank -1 runs finalize() too (rank.py calls it on every rank, as verl's manager does) and returns from it:
    # only the destroyComm call is skipped, so its first sync counts as done
    assert reports["trainer1"]["syncs_done"] == 1, reports["trainer1"]


# -- statements of nccl-hccl ------------------------------------------------------------------------------------
def test_backend_hccl_raises_value_error_naming_the_registered_backends_and_the_failed_imports(steady):
    """The page's ValueError is what verl raises on an NPU host without cupy, checkpoint-engine or Mooncake."""
    shown = (NCCL / "hccl_backend_valueerror.txt").read_text(encoding="utf-8").strip()
    assert steady["reports"]["trainer1"]["wrong_configs"]["backend_hccl"] == shown


def test_multi_sender_under_engine_kwargs_nccl_raises_type_error_on_npu(steady):
    shown = (NCCL / "multi_sender_typeerror.txt").read_text(encoding="utf-8").strip()
    assert steady["reports"]["trainer1"]["wrong_configs"]["multi_sender"] == shown


# -- the pages and the tests stay in step -----------------------------------------------------------------------------
def _markers(path: Path) -> list[str]:
    return [name for _file, name in MARKER.findall(path.read_text(encoding="utf-8"))]


def _tests_here() -> set[str]:
    return {n for n in globals() if n.startswith("test_")}


NOT_PAGE_STATEMENTS = {
    "test_every_run_marker_on_the_pages_names_a_test_here",
    "test_both_languages_mark_the_same_statements_in_the_same_order",
    "test_every_test_that_holds_a_statement_is_marked_on_a_page",
}


def test_every_run_marker_on_the_pages_names_a_test_here():
    for zh, en in PAGES.values():
        for path in (zh, en):
            markers = set(_markers(path))
            assert markers, f"{path.name}: no statement is marked as held by a run"
            unknown = markers - (_tests_here() - NOT_PAGE_STATEMENTS)
            assert not unknown, f"{path.name}: no such test: {sorted(unknown)}"


def test_both_languages_mark_the_same_statements_in_the_same_order():
    for zh, en in PAGES.values():
        assert _markers(zh) == _markers(en), zh.name


def test_every_test_that_holds_a_statement_is_marked_on_a_page():
    marked = {m for zh, _en in PAGES.values() for m in _markers(zh)}
    unmarked = _tests_here() - NOT_PAGE_STATEMENTS - marked
    assert not unmarked, f"tests that hold no marked statement: {sorted(unmarked)}"
