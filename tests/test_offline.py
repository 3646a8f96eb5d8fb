"""A covered release works with no network: what ships with the package (its YAML, the files doctor reads, the list
of its files with their line counts) is enough for ``doctor`` on a launch script and ``check`` on a user's own page;
what needs more of verl's source fetches the release and says why, and a failure names the ways out."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import time
import zipfile
from pathlib import Path

import pytest
from helpers import findings_for, rules

from verl_cookbook.checks import required_values
from verl_cookbook.cli import main
from verl_cookbook.doctor_rules import ascend_env
from verl_cookbook.facts import delta_guards, load_facts
from verl_cookbook.releases import covered_releases, default_release
from verl_cookbook.verl_source import (
    CACHE_ENV,
    SHIPPED_PY,
    SOURCES_DIR,
    VerlTree,
    from_release,
    resolve_source,
    shipped_release,
    shipped_sources,
)

REPO = Path(__file__).resolve().parent.parent
DATA = REPO / "tests" / "data"
CLI = [sys.executable, "-m", "verl_cookbook"]

USER_PAGE = """# Our cluster's checkpoint engine

``` { .yaml check="config" device="npu" }
actor_rollout_ref:
  rollout:
    checkpoint_engine:
      backend: nccl
```

``` { .bash check="shell" device="npu" }
python3 -m verl.trainer.main_ppo \\
    actor_rollout_ref.rollout.checkpoint_engine.backend=nccl \\
    trainer.n_gpus_per_node=8
```

The registry is in `verl/checkpoint_engine/base.py:60-70`; in 0.9.0 at (0.9.0 `verl/checkpoint_engine/base.py:60`).
"""

CLAIM_PAGE = """# Claim

<!-- check: contains file="verl/checkpoint_engine/base.py" match="class CheckpointEngineRegistry" -->
The registry is a class.
"""


def _offline_ok() -> bool:
    """Whether this machine lets an unprivileged user make a network namespace (``unshare -rn``)."""
    if not shutil.which("unshare"):
        return False
    return subprocess.run(["unshare", "-rn", "true"], capture_output=True).returncode == 0


needs_unshare = pytest.mark.skipif(not _offline_ok(), reason="unshare -rn (a network namespace) is not permitted here")


def _offline(args: list[str], cache: Path, cwd: Path, pip_log: Path) -> tuple[subprocess.CompletedProcess, float]:
    """``verl-cookbook ARGS`` in a network namespace with no network (only a loopback that is down), a fresh cache,
    and pip told to log anything it is asked to do into ``pip_log``."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("PIP_")}
    env.update({CACHE_ENV: str(cache), "PIP_LOG": str(pip_log), "PYTHONPATH": str(REPO)})
    start = time.perf_counter()
    proc = subprocess.run(["unshare", "-rn", *CLI, *args], capture_output=True, text=True, cwd=cwd, env=env)
    return proc, time.perf_counter() - start


@needs_unshare
def test_doctor_and_check_on_a_users_page_work_with_no_network_and_a_fresh_cache(tmp_path: Path) -> None:
    cache, pip_log = tmp_path / "cache", tmp_path / "pip.log"
    script = tmp_path / "run_grpo.sh"
    shutil.copy(DATA / "doctor" / "hccl_backend.sh", script)
    page = tmp_path / "notes.md"
    page.write_text(USER_PAGE, encoding="utf-8")

    doctor, t_doctor = _offline(["doctor", str(script), "--device", "npu"], cache, tmp_path, pip_log)
    assert doctor.returncode == 1, doctor.stderr  # the script's real mistake, found offline
    assert "engine/unknown-backend" in doctor.stdout and "Traceback" not in doctor.stderr
    check, t_check = _offline(["check", str(page)], cache, tmp_path, pip_log)
    assert check.returncode == 0, check.stdout + check.stderr
    assert "2 checked; 0 findings" in check.stderr

    for proc in (doctor, check):
        assert "downloading" not in proc.stderr and "needed for" not in proc.stderr
    assert not pip_log.exists()  # pip was never started
    assert not (cache / "releases" / default_release()).exists()  # no whole release was unpacked
    print(f"\noffline, fresh cache: doctor {t_doctor:.2f} s, check {t_check:.2f} s")


PYTHON_PAGE = """# Python

```python {check="python"}
from verl.checkpoint_engine import CheckpointEngineRegistry
```
"""


@needs_unshare
@pytest.mark.parametrize(
    ("text", "needs"),
    [
        (CLAIM_PAGE, "claim.md:3 declares `check: contains`"),
        # a Python block importing verl needs the whole release too (the verl-ci page says so for verl's own docs)
        (PYTHON_PAGE, "claim.md:3: a Python block imports verl"),
    ],
)
def test_a_page_whose_claim_needs_the_release_says_which_page_and_the_ways_out(
    tmp_path: Path, text: str, needs: str
) -> None:
    page = tmp_path / "claim.md"
    page.write_text(text, encoding="utf-8")
    proc, _ = _offline(["check", str(page)], tmp_path / "cache", tmp_path, tmp_path / "pip.log")
    assert proc.returncode == 2
    err = proc.stderr
    assert f"verl {default_release()}:" in err and needs in err
    assert "--verl-src DIR" in err and "--wheel PATH" in err and "PIP_NO_INDEX=1 PIP_FIND_LINKS=DIR" in err
    assert "Traceback" not in err and "--verl 0.9.1:" not in err  # the user named no --verl


def test_check_without_a_path_or_docs_says_so_before_reading_verl(tmp_path: Path, monkeypatch, capsys) -> None:
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv(CACHE_ENV, str(tmp_path / "cache"))
    assert main(["check"]) == 2
    assert "no PATH given and no docs/ folder" in capsys.readouterr().err
    assert not (tmp_path / "cache").exists()  # verl was not looked for


@pytest.mark.parametrize("version", covered_releases())
def test_every_covered_release_ships_what_a_users_run_reads(version: str, tmp_path: Path, monkeypatch) -> None:
    monkeypatch.setenv(CACHE_ENV, str(tmp_path))
    tree = shipped_release(version)
    assert tree is not None and not tree.whole
    assert tree.exists("verl/trainer/main_ppo.py") and not tree.exists("verl/trainer/no_such_module.py")
    assert (tree.root / "verl/trainer/config/ppo_trainer.yaml").is_file()  # Hydra composes from here
    assert not (tree.root / "verl/trainer/main_ppo.py").exists()  # listed, not shipped: a claim fetches it


def test_the_files_doctors_rules_read_are_shipped() -> None:
    read = {p.file for p in required_values.PAIRS} | {"verl/workers/rollout/base.py", ascend_env.HCCL_ENGINE}
    read |= {g.rel for g in delta_guards.GUARD_FILES}
    assert read <= set(SHIPPED_PY)


@pytest.mark.network
@pytest.mark.parametrize("version", covered_releases())
def test_the_shipped_sources_are_what_the_release_gives(version: str) -> None:
    shipped = json.loads((SOURCES_DIR / f"{version}.json").read_text(encoding="utf-8"))
    assert shipped == shipped_sources(from_release(version)), (
        f"what ships of verl {version} is out of date: run `python scripts/build_facts.py {version}`"
    )


@pytest.mark.network
@pytest.mark.parametrize("version", covered_releases())
def test_doctor_finds_the_same_on_what_ships_as_on_the_whole_release(
    version: str, tmp_path: Path, monkeypatch, capsys
) -> None:
    scripts = sorted(
        [*(DATA / "doctor").glob("*.sh"), *(DATA / "doctor").glob("*.yaml"), *(DATA / "launch").glob("*.sh")]
    )
    from_release(version)  # the whole release, in the run's cache

    def run() -> str:
        assert main(["doctor", *map(str, scripts), "--device", "npu", "--verl", version, "--format", "json"]) in (0, 1)
        return capsys.readouterr().out

    whole = run()
    monkeypatch.setenv(CACHE_ENV, str(tmp_path / "fresh"))  # no whole release there: what ships is read
    assert resolve_source(version).whole is not None
    shipped = run()
    assert json.loads(shipped) == json.loads(whole) and '"rule"' in whole


CITES = """# p

Whole: `verl/checkpoint_engine/base.py:60-70`, bare (`hccl_checkpoint_engine.py:103`, `:116`).
Past the end: `verl/checkpoint_engine/base.py:99998`. Missing: `verl/checkpoint_engine/hccl_engine.py:10`.
Old (0.9.0 `hccl_checkpoint_engine.py:99990`), fine (0.9.0 `hccl_checkpoint_engine.py:80-81`).
"""


@pytest.mark.network
def test_citations_judged_from_what_ships_equal_those_judged_from_the_release(
    write_page, facts, tmp_path: Path, monkeypatch
) -> None:
    page = write_page(CITES)
    whole = [(f.line, f.rule, f.message) for f in findings_for(page, facts)]
    monkeypatch.setenv(CACHE_ENV, str(tmp_path / "fresh"))
    source = resolve_source(default_release())
    shipped = [(f.line, f.rule, f.message) for f in findings_for(page, load_facts(source.tree, whole=source.whole))]
    assert shipped == whole
    assert sorted(r for _l, r, _m in whole) == ["cite/line-out-of-range", "cite/line-out-of-range", "cite/missing-file"]
    assert not (tmp_path / "fresh" / "releases" / "0.9.0").exists()  # the 0.9.0 citations downloaded nothing


def _fake_install(site: Path, release: VerlTree) -> None:
    """verl "installed" in ``site``: the release's files, with a package ``__init__`` that fails if imported."""
    shutil.copytree(release.package, site / "verl")
    (site / "verl" / "__init__.py").write_text("raise RuntimeError('verl was imported')\n", encoding="utf-8")


@pytest.mark.network
def test_the_installed_verl_is_read_by_default_and_never_imported(verl_tree: VerlTree, tmp_path: Path) -> None:
    site = tmp_path / "site"
    _fake_install(site, verl_tree)
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(site), str(REPO)]), CACHE_ENV: str(tmp_path / "c")}
    script = DATA / "doctor" / "hccl_backend.sh"
    proc = subprocess.run([*CLI, "doctor", str(script), "--device", "npu"], capture_output=True, text=True, env=env)
    assert proc.returncode == 1, proc.stderr
    assert f"reading the installed verl {default_release()} (installed at {site / 'verl'})" in proc.stderr
    assert "engine/unknown-backend" in proc.stdout and "verl was imported" not in proc.stderr


def test_verl_installed_without_verl_says_so(tmp_path: Path, monkeypatch, capsys) -> None:
    monkeypatch.setenv(CACHE_ENV, str(tmp_path))
    assert main(["doctor", str(DATA / "doctor" / "hccl_backend.sh"), "--verl", "installed"]) == 2
    err = capsys.readouterr().err
    assert "--verl installed: this Python" in err and "has no verl to read" in err and "Traceback" not in err


@pytest.mark.network
def test_a_wheel_given_with_wheel_is_read_offline(verl_tree: VerlTree, tmp_path: Path, monkeypatch, capsys) -> None:
    wheel = tmp_path / f"verl-{default_release()}-py3-none-any.whl"
    with zipfile.ZipFile(wheel, "w") as zf:
        for p in sorted(verl_tree.package.rglob("*")):
            if p.is_file():
                zf.write(p, p.relative_to(verl_tree.root).as_posix())
    monkeypatch.setenv(CACHE_ENV, str(tmp_path / "cache"))
    page = tmp_path / "claim.md"
    page.write_text(CLAIM_PAGE, encoding="utf-8")
    assert main(["check", str(page), "--wheel", str(wheel)]) == 0
    assert f"verl {default_release()} (wheel {wheel.name})" in capsys.readouterr().err


def test_a_file_that_is_not_a_wheel_is_refused(tmp_path: Path, capsys) -> None:
    bad = tmp_path / "verl-0.9.1-py3-none-any.whl"
    bad.write_text("not a zip")
    assert main(["facts", "--wheel", str(bad)]) == 2
    assert "--wheel" in capsys.readouterr().err


def test_a_claim_in_a_page_checked_from_what_ships_reads_the_whole_release_once(
    write_page, tmp_path: Path, monkeypatch
) -> None:
    monkeypatch.setenv(CACHE_ENV, str(tmp_path))
    source = resolve_source(default_release())
    asked: list[str] = []

    def whole(why: str) -> VerlTree:
        asked.append(why)
        raise_offline = f"verl {default_release()}: offline"
        from verl_cookbook.verl_source import VerlSourceError

        raise VerlSourceError(raise_offline)

    facts = load_facts(source.tree, whole=whole)
    assert rules(findings_for(write_page("# p\n\nNo claim here.\n"), facts)) == [] and asked == []
    page = write_page(CLAIM_PAGE)
    from verl_cookbook.verl_source import VerlSourceError

    with pytest.raises(VerlSourceError):
        findings_for(page, facts)
    assert asked == [f"{page}:3 declares `check: contains`, which reads verl's source"]
