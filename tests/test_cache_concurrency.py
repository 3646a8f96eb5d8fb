"""The release cache under parallel runs and after damage: parallel cold runs print what one run prints,
a tree that is not whole is rebuilt or refused (exit 2), never read as if it were verl.

The package index is replaced by a local folder holding a wheel built from the cached pinned release, so
these tests need no network and still go through the real ``pip download``.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

from verl_cookbook import verl_source
from verl_cookbook.facts import load_facts
from verl_cookbook.releases import covered_releases, default_release
from verl_cookbook.verl_source import CORE_FILES, MANIFEST, VerlSourceError, VerlTree, from_checkout, from_release

REPO = Path(__file__).resolve().parent.parent
PAGES = ["docs/backends", "docs/ascend"]  # pages whose findings depend on the engine registry


@pytest.fixture(scope="module")
def local_index(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A find-links folder with a wheel of every covered release (pages cite older releases too, e.g.
    "0.9.0 `file.py:N`"), each rebuilt from its cached tree."""
    folder = tmp_path_factory.mktemp("index")
    for version in covered_releases():
        tree = from_release(version)
        dist = f"verl-{version}.dist-info"
        with zipfile.ZipFile(folder / f"verl-{version}-py3-none-any.whl", "w", zipfile.ZIP_DEFLATED) as zf:
            for path in sorted((tree.root / "verl").rglob("*")):
                if path.is_file():
                    zf.write(path, path.relative_to(tree.root).as_posix())
            zf.writestr(f"{dist}/METADATA", f"Metadata-Version: 2.1\nName: verl\nVersion: {version}\n")
            zf.writestr(
                f"{dist}/WHEEL", "Wheel-Version: 1.0\nGenerator: test\nRoot-Is-Purelib: true\nTag: py3-none-any\n"
            )
            zf.writestr(f"{dist}/RECORD", "")
    return folder


def _env(cache: Path, index: Path) -> dict[str, str]:
    env = dict(os.environ)
    env.update(
        {verl_source.CACHE_ENV: str(cache), "PIP_NO_INDEX": "1", "PIP_FIND_LINKS": str(index), "PYTHONHASHSEED": "0"}
    )
    return env


def _check_cmd() -> list[str]:
    return [sys.executable, "-m", "verl_cookbook", "check", *PAGES, "--verl", default_release(), "--format", "json"]


@pytest.fixture
def use_index(local_index: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """This process's cache is an empty folder and its package index the local one."""
    cache = tmp_path / "cache"
    for k, v in _env(cache, local_index).items():
        monkeypatch.setenv(k, v)
    return cache


def test_parallel_cold_runs_print_exactly_what_one_run_prints(local_index: Path, tmp_path: Path) -> None:
    single = subprocess.run(
        _check_cmd(), cwd=REPO, env=_env(tmp_path / "one", local_index), capture_output=True, timeout=300
    )
    assert single.returncode in (0, 1), single.stderr.decode()
    assert b"downloading verl" in single.stderr
    shared = _env(tmp_path / "shared", local_index)
    procs = [
        subprocess.Popen(_check_cmd(), cwd=REPO, env=shared, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        for _ in range(4)
    ]
    results = [(p.wait(timeout=300), p.stdout.read(), p.stderr.read().decode()) for p in procs]
    for code, out, err in results:
        assert "internal error" not in err and "Traceback" not in err, err
        assert (code, out) == (single.returncode, single.stdout), err
    fetched = re.findall(r"downloading verl (\S+) from", single.stderr.decode())
    assert fetched
    for version in fetched:  # each release downloaded once, by one process; the others waited for it
        assert sum(f"downloading verl {version} from" in err for _, _, err in results) == 1, version


def test_a_truncated_tree_in_the_cache_is_detected_and_rebuilt(use_index: Path) -> None:
    tree = from_release()
    base = tree.root / "verl" / "checkpoint_engine" / "base.py"
    whole = base.read_bytes()
    victim = sorted((tree.root / "verl").rglob("*.py"))[-1]
    victim_bytes = victim.read_bytes()
    base.write_bytes(whole[: len(whole) // 2])  # cut short, as by a killed unpack
    victim.unlink()
    again = from_release()
    assert again.root == tree.root
    assert base.read_bytes() == whole and victim.read_bytes() == victim_bytes


def test_a_tree_left_without_its_manifest_is_rebuilt(use_index: Path) -> None:
    tree = from_release()
    (tree.root / MANIFEST).unlink()
    (tree.root / "verl" / "trainer" / "config" / "ppo_trainer.yaml").unlink()
    from_release()
    assert not verl_source.missing_core_files(tree.root) and (tree.root / MANIFEST).is_file()


def test_a_whole_cached_tree_is_used_without_pip(use_index: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from_release()
    monkeypatch.setattr(subprocess, "run", lambda *a, **k: pytest.fail("pip must not run"))
    assert not verl_source.missing_core_files(from_release().root)


@pytest.mark.parametrize("core", CORE_FILES)
def test_a_checkout_without_a_core_file_exits_2_and_names_it(verl_copy: VerlTree, capsys, core: str) -> None:
    from verl_cookbook.cli import main

    if core != "verl/checkpoint_engine/base.py":  # without base.py it is not recognised as verl at all
        (verl_copy.root / core).unlink()
        with pytest.raises(VerlSourceError, match=core):
            load_facts(from_checkout(verl_copy.root), use_cache=False)
    else:
        (verl_copy.root / core).unlink()
    assert main(["facts", "--verl-src", str(verl_copy.root)]) == 2
    err = capsys.readouterr().err
    assert "Traceback" not in err and ("base.py" in err if core.endswith("base.py") else core in err)


def test_a_checkout_whose_registry_registers_nothing_exits_2(verl_copy: VerlTree, capsys) -> None:
    from verl_cookbook.cli import main

    for path in (verl_copy.root / "verl" / "checkpoint_engine").glob("*.py"):
        path.write_text(path.read_text(encoding="utf-8").replace("register(", "registered("), encoding="utf-8")
    assert main(["facts", "--verl-src", str(verl_copy.root), "--no-cache"]) == 2
    assert "no checkpoint engine registers itself" in capsys.readouterr().err


def test_a_whole_checkout_gives_facts(verl_copy: VerlTree) -> None:
    facts = load_facts(verl_copy, use_cache=False)
    assert facts.backends()
