"""Install snippets run in a sandbox (``check --run-install``): each declared run executes its snippet in a
throwaway virtualenv where pip sees only the wheels of a wheelhouse, then checks what the manifest says must hold.

The fast tests use a small pair of wheels built here that ship the same package (``mc/``), as the two Mooncake
wheels do, and a ``manylinux_2_35`` wheel for the platform question; pip itself installs, uninstalls and decides
tags. The run with the real Mooncake wheels from the package index (17 MB + 98 MB) is ``test_real_*``, marked
``install_run`` and run in every suite run (a fresh machine downloads the 115 MB once; pip's cache serves reruns)."""

from __future__ import annotations

import argparse
import base64
import hashlib
import os
import platform
import sys
import zipfile
from pathlib import Path

import pytest

from verl_cookbook import install_manifest, install_run
from verl_cookbook.check_command import install_runs

PY = f"cp{sys.version_info.major}{sys.version_info.minor}"


def _wheel(house: Path, name: str, version: str, files: dict[str, str], tag: str = "py3-none-any") -> None:
    dist = name.replace("-", "_")
    info = f"{dist}-{version}.dist-info"
    contents = {
        **files,
        f"{info}/METADATA": f"Metadata-Version: 2.1\nName: {name}\nVersion: {version}\n",
        f"{info}/WHEEL": f"Wheel-Version: 1.0\nGenerator: test\nRoot-Is-Purelib: true\nTag: {tag}\n",
    }
    rows = []
    for path, text in contents.items():
        digest = base64.urlsafe_b64encode(hashlib.sha256(text.encode()).digest()).rstrip(b"=").decode()
        rows.append(f"{path},sha256={digest},{len(text.encode())}")
    rows.append(f"{info}/RECORD,,")
    with zipfile.ZipFile(house / f"{dist}-{version}-{tag}.whl", "w") as z:
        for path, text in contents.items():
            z.writestr(path, text)
        z.writestr(f"{info}/RECORD", "\n".join(rows) + "\n")


@pytest.fixture(scope="session")
def wheelhouse(tmp_path_factory) -> Path:
    """Two wheels that install the same ``mc/`` files (a CUDA and an NPU build), and one tagged manylinux_2_35."""
    house = tmp_path_factory.mktemp("wheelhouse")
    shared = {"mc/__init__.py": "from mc.build import NAME\n"}
    _wheel(house, "mc-cuda", "1.0", {**shared, "mc/build.py": "NAME = 'cuda'\n"})
    # like the Mooncake NPU wheel, a file of its own besides the shared ones: the folder outlives the uninstall
    _wheel(house, "mc-npu", "1.0", {**shared, "mc/build.py": "NAME = 'npu'\n", "mc/npu_only.py": ""})
    _wheel(house, "mc-npu-bin", "1.0", {"mcbin/__init__.py": ""}, tag=f"{PY}-{PY}-manylinux_2_35_{platform.machine()}")
    return house


def _site(tmp_path: Path, snippet: str, run: str) -> Path:
    (tmp_path / "snippets").mkdir(exist_ok=True)
    (tmp_path / "snippets" / "s.sh").write_text(snippet, encoding="utf-8")
    (tmp_path / "install-runs.yaml").write_text(f"runs:\n  - snippet: snippets/s.sh\n{run}", encoding="utf-8")
    return tmp_path


def _run(site: Path, house: Path) -> install_run.Outcome:
    outcomes = install_run.run_all(site, house)
    assert len(outcomes) == 1, [o.findings for o in outcomes]
    return outcomes[0]


def _rules(outcome: install_run.Outcome) -> list[str]:
    return sorted(str(f.rule) for f in outcome.findings)


MC_EXPECT = """    expect:
      - listed: mc-npu
      - unlisted: mc-cuda
      - importable: mc
      - intact: true
"""


def test_uninstalling_the_other_build_after_installing_leaves_pip_listing_a_package_whose_files_are_gone(
    tmp_path, wheelhouse
) -> None:
    snippet = "pip install mc-cuda\npython3 -m pip install mc-npu\npython3 -m pip uninstall -y mc-cuda\n"
    outcome = _run(_site(tmp_path, snippet, MC_EXPECT), wheelhouse)
    assert _rules(outcome) == ["install/expectation", "install/expectation"]
    messages = " ".join(f.message for f in outcome.findings)
    assert "pip lists mc-npu 1.0 but 2 of the files its RECORD names are gone (mc/__init__.py" in messages
    assert "`import mc` fails after the snippet: AssertionError: only a namespace package is left" in messages


def test_uninstalling_the_other_build_first_leaves_the_package_whole(tmp_path, wheelhouse) -> None:
    snippet = "pip install mc-cuda\npython3 -m pip uninstall -y mc-cuda\npython3 -m pip install mc-npu\n"
    assert _run(_site(tmp_path, snippet, MC_EXPECT), wheelhouse).findings == []


START_STATES = """    start:
      the CUDA build only:
        - pip install -q mc-cuda
      both builds:
        - pip install -q mc-cuda
        - pip install -q mc-npu
    expect:
      - listed: mc-npu
      - unlisted: mc-cuda
      - file: mc/build.py
"""


def test_a_run_with_start_states_runs_once_from_each_and_names_the_state_a_finding_comes_from(
    tmp_path, wheelhouse
) -> None:
    # the NPU install says "already satisfied" over both builds, after the uninstall deleted the shared files
    snippet = "pip uninstall -y mc-cuda\npip install mc-npu\n"
    outcomes = install_run.run_all(_site(tmp_path, snippet, START_STATES), wheelhouse)
    assert [o.run.start for o in outcomes] == ["the CUDA build only", "both builds"]
    assert outcomes[1].run.name == "snippets/s.sh, starting from both builds"
    assert [_rules(o) for o in outcomes] == [[], ["install/expectation"]]
    (f,) = outcomes[1].findings
    assert f.message.startswith("`mc/build.py` is not on disk after the snippet (mc/ holds npu_only.py)")
    assert f.message.endswith("(starting from both builds)")


def test_removing_both_builds_before_installing_leaves_the_file_on_disk_from_every_start_state(
    tmp_path, wheelhouse
) -> None:
    snippet = "pip uninstall -y mc-cuda mc-npu\npip install mc-npu\n"
    outcomes = install_run.run_all(_site(tmp_path, snippet, START_STATES), wheelhouse)
    assert len(outcomes) == 2 and [o.findings for o in outcomes] == [[], []]


@pytest.mark.parametrize(
    ("start", "said"),
    [
        ("    start: [pip install mc-cuda]\n", "start: is a mapping of a state's name to the commands"),
        ("    start:\n      one: pip install mc-cuda\n", "start state 'one' is not a list of commands"),
        ("    start: {}\n", "start: names no state"),
    ],
)
def test_start_states_that_cannot_be_read_are_reported(tmp_path, wheelhouse, start, said) -> None:
    runs, bad = install_manifest.load_manifest(_site(tmp_path, "pip install mc-npu\n", start + MC_EXPECT))
    assert runs == [] and [str(f.rule) for f in bad] == ["install/manifest"] and said in bad[0].message


PLATFORM_CHECK = """if python3 -m pip install --dry-run --no-deps --only-binary=:all: --quiet \\
    {extra}mc-npu-bin==1.0; then
  echo "available for this host"
else
  echo "no wheel for this host"
fi
"""


@pytest.mark.parametrize(("glibc", "answer"), [("2.34", "no wheel for this host"), ("2.35", "available for this host")])
def test_the_platform_check_gets_pips_own_answer_for_a_faked_glibc(tmp_path, wheelhouse, glibc, answer) -> None:
    run = f'    glibc: "{glibc}"\n    expect:\n      - stdout: {answer}\n'
    outcome = _run(_site(tmp_path, PLATFORM_CHECK.format(extra=""), run), wheelhouse)
    assert outcome.findings == [] and answer in outcome.stdout


def test_a_platform_check_that_forces_the_tag_says_yes_below_glibc_2_35_and_is_red(tmp_path, wheelhouse) -> None:
    forced = f"--platform manylinux_2_35_{platform.machine()} --target /tmp/t "
    run = '    glibc: "2.34"\n    expect:\n      - stdout: no wheel for this host\n'
    outcome = _run(_site(tmp_path, PLATFORM_CHECK.format(extra=forced), run), wheelhouse)
    (f,) = outcome.findings
    assert str(f.rule) == "install/expectation" and "glibc faked as 2.34" in f.message
    assert "available for this host" in f.message


def test_a_command_that_fails_in_the_sandbox_is_red_with_pips_error(tmp_path, wheelhouse) -> None:
    outcome = _run(_site(tmp_path, "pip install mc-gpu\n", "    expect:\n      - intact: true\n"), wheelhouse)
    (f,) = outcome.findings
    assert str(f.rule) == "install/command-failed" and "mc-gpu" in f.message


def test_commands_declared_as_needing_an_npu_are_skipped_visibly_with_their_reason(tmp_path, wheelhouse) -> None:
    snippet = "pip install mc-npu\npython3 -c 'import sys; sys.exit(7)'  # the NPU part\n"
    run = (
        "    skip:\n      - match: sys.exit(7)\n        needs: npu\n        reason: loads libascendcl.so\n"
        "    expect:\n      - importable: mc\n"
    )
    outcome = _run(_site(tmp_path, snippet, run), wheelhouse)
    assert outcome.findings == []
    (line,) = outcome.skipped
    assert line.startswith("snippets/s.sh:2:") and "needs an NPU: loads libascendcl.so" in line


def test_the_sandbox_leaves_home_and_the_users_pip_alone(tmp_path, wheelhouse) -> None:
    snippet = 'pip install mc-npu\ntest "$HOME" != "' + os.environ.get("HOME", "/root") + '"\n'
    snippet += 'python3 -c "import sys; assert sys.prefix != sys.base_prefix"\n'
    assert _run(_site(tmp_path, snippet, "    expect:\n      - listed: mc-npu\n"), wheelhouse).findings == []


@pytest.mark.parametrize(
    ("run", "said"),
    [
        (
            "    expect:\n      - intact: true\n"
            "    skip:\n      - match: nowhere\n        needs: npu\n        reason: r\n",
            "matches no command",
        ),
        ("    expect: []\n", "states nothing that must hold"),
        (
            "    expect:\n      - intact: true\n    skip:\n      - match: pip\n        needs: gpu\n        reason: r\n",
            "`needs=` one of `npu`, `cluster`, `download`",
        ),
    ],
)
def test_a_manifest_entry_that_cannot_check_anything_is_reported(tmp_path, wheelhouse, run, said) -> None:
    site = _site(tmp_path, "pip install mc-npu\n", run)
    found = [f for o in install_run.run_all(site, wheelhouse) for f in o.findings]
    assert [str(f.rule) for f in found] == ["install/manifest"] and said in found[0].message
    assert found[0].path == "install-runs.yaml" and found[0].line >= 2


def test_the_sites_manifest_reads_without_complaint() -> None:
    root = Path(__file__).resolve().parents[1]
    runs, bad = install_manifest.load_manifest(root)
    assert bad == [] and {r.snippet for r in runs} >= {"snippets/install/kimi_ckpt_engine_npu.sh"}


def test_a_manifest_read_before_is_read_again_without_pyyaml_and_to_the_same_runs(tmp_path) -> None:
    import subprocess

    site = _site(tmp_path, "pip install mc-npu\n", "    expect:\n      - listed: mc-npu\n")
    code = (
        "import sys; from pathlib import Path; from verl_cookbook import install_manifest as m; "
        "runs, bad = m.load_manifest(Path(sys.argv[1])); "
        "print(repr((runs, bad)), 'yaml' in sys.modules)"
    )
    env = {**os.environ, "VERL_COOKBOOK_CACHE": str(tmp_path / "cache")}
    first, second = (
        subprocess.run([sys.executable, "-c", code, str(site)], capture_output=True, text=True, env=env, check=True)
        for _ in range(2)
    )
    assert first.stdout.rsplit(" ", 1) == [second.stdout.rsplit(" ", 1)[0], "True\n"]
    assert second.stdout.endswith(" False\n") and "Run(snippet='snippets/s.sh'" in second.stdout


def test_a_manifest_that_json_cannot_hold_as_it_is_is_read_each_time_and_still_right(tmp_path, monkeypatch) -> None:
    monkeypatch.setenv("VERL_COOKBOOK_CACHE", str(tmp_path / "cache"))
    site = _site(tmp_path, "pip install mc-npu\n", "    expect:\n      - listed: 2026-12-05\n")  # YAML reads a date
    for _ in range(2):
        runs, bad = install_manifest.load_manifest(site)
        assert bad == [] and runs[0].expect == (("listed", "2026-12-05"),)
    assert list((tmp_path / "cache").rglob("manifest-*.json")) == []
    (site / "install-runs.yaml").write_text("runs:\n  - snippet: snippets/s.sh\n    expect:\n      - listed: x\n")
    install_manifest.load_manifest(site)
    assert len(list((tmp_path / "cache").rglob("manifest-*.json"))) == 1  # the same folder keeps what JSON holds


def test_a_manifest_that_is_not_yaml_is_reported_at_its_line(tmp_path) -> None:
    site = _site(tmp_path, "pip install mc-npu\n", "    expect:\n      - listed: mc-npu\n")
    (site / "install-runs.yaml").write_text("runs:\n  - snippet: [unclosed\n", encoding="utf-8")
    runs, (f,) = install_manifest.load_manifest(site)
    assert runs == [] and (str(f.rule), f.line) == ("install/manifest", 3)


def _args(run: bool) -> argparse.Namespace:
    return argparse.Namespace(run_install=run)


def test_the_default_check_says_which_pages_have_install_runs_it_did_not_run(tmp_path, capsys) -> None:
    site = _site(tmp_path, "pip install mc-npu\n", "    expect:\n      - listed: mc-npu\n")
    (site / "docs").mkdir()
    (site / "docs" / "p.md").write_text('# p\n\n```bash\n--8<-- "snippets/s.sh"\n```\n', encoding="utf-8")
    assert install_runs(_args(False), [site / "docs" / "p.md"], site) == []
    assert "p.md: install runs not run (snippets/s.sh; --run-install runs them)" in capsys.readouterr().err


def test_the_default_check_reports_a_manifest_entry_it_cannot_run(tmp_path, capsys) -> None:
    site = _site(tmp_path, "pip install mc-npu\n", "    expect:\n      - listed: mc-npu\n")
    with (site / "install-runs.yaml").open("a", encoding="utf-8") as fh:
        fh.write("  - snippet: snippets/gone.sh\n    expect:\n      - listed: x\n")
    (site / "docs").mkdir()
    (site / "docs" / "p.md").write_text('# p\n\n```bash\n--8<-- "snippets/s.sh"\n```\n', encoding="utf-8")
    (f,) = install_runs(_args(False), [site / "docs" / "p.md"], site)
    assert (str(f.rule), f.path, f.line) == ("install/manifest", "install-runs.yaml", 5)
    assert "`snippets/gone.sh`, which is not a file of the site" in f.message
    assert "p.md: install runs not run (snippets/s.sh;" in capsys.readouterr().err


def test_a_page_without_declared_snippets_gets_no_install_note(tmp_path, capsys) -> None:
    site = _site(tmp_path, "pip install mc-npu\n", "    expect:\n      - listed: mc-npu\n")
    (site / "docs").mkdir()
    (site / "docs" / "p.md").write_text("# p\n\nno snippets\n", encoding="utf-8")
    assert install_runs(_args(False), [site / "docs" / "p.md"], site) == []
    assert "install runs" not in capsys.readouterr().err


# -- the real wheels, once ----------------------------------------------------------------------------------


@pytest.fixture(scope="session")
def site_runs(tmp_path_factory) -> tuple[Path, list[install_run.Outcome]]:
    """Every declared run of the site (``run_all``, as ``check --run-install`` runs them) and the wheelhouse it
    downloaded every wheel the runs use into, once per test session (pip's own cache makes reruns cheap): the tests
    below run their own snippets from that wheelhouse, without a second ``pip download`` of each wheel."""
    house = tmp_path_factory.mktemp("real-wheels")
    return house, install_run.run_all(Path(__file__).resolve().parents[1], house)


@pytest.fixture(scope="session")
def real_wheels(site_runs) -> Path:
    """Every wheel the site's runs use (fetched by run_all: a failed download is a finding of the site's run)."""
    house, outcomes = site_runs
    fetch = [f.message for o in outcomes for f in o.findings if o.run.snippet == install_manifest.MANIFEST]
    assert fetch == []
    return house


@pytest.mark.install_run
@pytest.mark.network
def test_real_mooncake_wheels_every_declared_run_of_the_site_holds(site_runs) -> None:
    _house, outcomes = site_runs
    assert [f for o in outcomes for f in o.findings] == []
    skipped = [s for o in outcomes for s in o.skipped]
    assert any("needs an NPU" in s for s in skipped)


def _kimi_runs(root: Path) -> dict[str, install_manifest.Run]:
    runs, _ = install_manifest.load_manifest(root)
    return {r.start: r for r in runs if r.snippet == "snippets/install/kimi_ckpt_engine_npu.sh"}


def _with_commands(tmp_path: Path, run: install_manifest.Run, pip_lines: list[str]) -> Path:
    """A copy of the site's kimi snippet whose pip commands are ``pip_lines`` (its checks kept)."""
    root = Path(__file__).resolve().parents[1]
    code = (root / run.snippet).read_text(encoding="utf-8").splitlines()
    kept = [ln for ln in code if " -m pip " not in ln]
    (tmp_path / "snippets" / "install").mkdir(parents=True)
    (tmp_path / run.snippet).write_text("\n".join(pip_lines + kept) + "\n", encoding="utf-8")
    return tmp_path


def test_the_kimi_run_starts_from_every_state_the_pages_left_readers_in() -> None:
    assert set(_kimi_runs(Path(__file__).resolve().parents[1])) == {
        "nothing installed",
        "the CUDA wheel only",
        "both wheels",
        "the NPU wheel with its shared files deleted",
    }


@pytest.mark.install_run
@pytest.mark.network
def test_real_mooncake_wheels_uninstall_after_install_is_red(tmp_path, real_wheels) -> None:
    """The first page's order (install the NPU wheel, then remove the CUDA one) from the CUDA wheel alone."""
    run = _kimi_runs(Path(__file__).resolve().parents[1])["the CUDA wheel only"]
    site = _with_commands(
        tmp_path,
        run,
        [
            "python3 -m pip install 'checkpoint-engine>=0.4.0'",
            "python3 -m pip install mooncake-transfer-engine-npu",
            "python3 -m pip uninstall -y mooncake-transfer-engine",
        ],
    )
    outcome = install_run.run_one(run, site, real_wheels)
    messages = " ".join(f.message for f in outcome.findings)
    from verl_cookbook.stack_facts import shared_paths, wheel

    shared = shared_paths(
        wheel("mooncake-transfer-engine-npu==0.3.13.post1"), wheel("mooncake-transfer-engine==0.3.13.post1")
    )
    # as many files gone as the two wheels' RECORDs share (the index's metadata, wheel_facts.json)
    assert f"pip lists mooncake-transfer-engine-npu 0.3.13.post1 but {len(shared)} of the files" in messages
    assert "`import mooncake` fails after the snippet: AssertionError: only a namespace package is left" in messages


@pytest.mark.install_run
@pytest.mark.network
def test_real_kimi_snippet_without_reinstalling_the_npu_wheel_is_red_from_both_wheels(tmp_path, real_wheels) -> None:
    """The previous snippet (remove the CUDA wheel first, then install) passes from the CUDA wheel alone but, from
    both wheels, deletes the shared files and leaves pip saying "Requirement already satisfied"."""
    runs = _kimi_runs(Path(__file__).resolve().parents[1])
    previous = [
        "python3 -m pip uninstall -y mooncake-transfer-engine",
        "python3 -m pip install 'checkpoint-engine>=0.4.0'",
        "python3 -m pip install mooncake-transfer-engine-npu",
    ]
    site = _with_commands(tmp_path, runs["both wheels"], previous)
    assert install_run.run_one(runs["the CUDA wheel only"], site, real_wheels).findings == []
    outcome = install_run.run_one(runs["both wheels"], site, real_wheels)
    assert "Requirement already satisfied: mooncake-transfer-engine-npu" in outcome.stdout
    messages = [f.message for f in outcome.findings]
    assert any(m.startswith("the snippet stops in the sandbox, starting from both wheels:") for m in messages)
    assert any(m.startswith("`mooncake/engine.so` is not on disk after the snippet") for m in messages)


def test_run_install_runs_the_pages_snippets_and_reports_skips_and_findings(tmp_path, capsys) -> None:
    snippet = "python3 -c 'import json'\nnpu-smi info\n"
    run = (
        "    skip:\n      - match: npu-smi\n        needs: npu\n        reason: queries the NPU driver\n"
        "    expect:\n      - importable: json\n      - listed: mc-npu\n"
    )
    site = _site(tmp_path, snippet, run)
    (site / "docs").mkdir()
    (site / "docs" / "p.md").write_text('# p\n\n```bash\n--8<-- "snippets/s.sh"\n```\n', encoding="utf-8")
    (f,) = install_runs(_args(True), [site / "docs" / "p.md"], site)
    assert str(f.rule) == "install/expectation" and "pip does not list mc-npu" in f.message
    err = capsys.readouterr().err
    assert "skipped: snippets/s.sh:2: `npu-smi info` skipped, needs an NPU: queries the NPU driver" in err
    assert "install run failed: snippets/s.sh" in err


@pytest.mark.install_run
@pytest.mark.network
def test_real_npu_wheel_a_platform_check_forcing_the_tag_says_yes_on_glibc_2_34_and_is_red(
    tmp_path, real_wheels
) -> None:
    root = Path(__file__).resolve().parents[1]
    runs, _ = install_manifest.load_manifest(root)
    run = next(r for r in runs if r.snippet.endswith("mooncake_npu_wheel_platform.sh") and r.glibc == "2.34")
    code = (root / run.snippet).read_text(encoding="utf-8")
    forced = f"--platform manylinux_2_35_{platform.machine()} --target /tmp/t \\\n    mooncake-transfer-engine-npu"
    (tmp_path / "snippets" / "install").mkdir(parents=True)
    (tmp_path / run.snippet).write_text(code.replace("\\\n    mooncake-transfer-engine-npu", forced), "utf-8")
    (f,) = install_run.run_one(run, tmp_path, real_wheels).findings
    assert str(f.rule) == "install/expectation" and "available for this host" in f.message


def test_a_snippet_past_its_deadline_is_red_saying_it_did_not_finish(tmp_path, wheelhouse, monkeypatch) -> None:
    monkeypatch.setattr(install_run, "SNIPPET_S", 1.0)
    site = _site(tmp_path, "pip install mc-npu\nsleep 300\n", "    expect:\n      - listed: mc-npu\n")
    (finding,) = _run(site, wheelhouse).findings
    assert finding.rule == "install/command-failed"
    assert "the snippet snippets/s.sh did not finish within 1 s (stopped)" in finding.message


def test_a_wheel_download_past_its_deadline_is_named_with_the_time(tmp_path, monkeypatch) -> None:
    monkeypatch.setattr(install_run, "DOWNLOAD_S", 0.01)  # pip cannot even start in that time: no index is asked
    (error,) = install_run.fetch_wheels(["mc-npu==1.0"], tmp_path)
    assert error == "mc-npu==1.0: pip download mc-npu==1.0 did not finish within 0.01 s (stopped)"
