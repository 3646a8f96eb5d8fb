"""The install overview's vllm-ascend build: what has to be installed before a `--no-build-isolation` build."""

from __future__ import annotations

import platform
import re
import subprocess
from pathlib import Path

import pytest

from verl_cookbook.stack_facts import stack_facts

REPO = Path(__file__).resolve().parent.parent
SNIPPETS = ["snippets/install/vllm_ascend_npu.sh", "snippets/install/vllm_ascend_npu.zh.sh"]


def _commands(path: str) -> list[str]:
    lines = (REPO / path).read_text(encoding="utf-8").splitlines()
    return [line.strip() for line in lines if line.strip() and not line.lstrip().startswith("#")]


def _first(commands: list[str], pattern: str) -> int:
    return next(i for i, c in enumerate(commands) if re.search(pattern, c))


@pytest.mark.parametrize("path", SNIPPETS)
def test_the_vllm_ascend_build_installs_its_build_requirements_first_in_both_languages(path: str) -> None:
    """vllm-ascend's setup.py imports setuptools_scm at the top (a fact at v0.23.0), listed in its requirements.txt;
    a --no-build-isolation build uses what is installed, so requirements.txt goes in first, inside the clone, after
    CANN's environment is loaded."""
    assert stack_facts()["vllm_ascend.v0.23.0.setup_imports_setuptools_scm"][0].value == "setuptools_scm"
    assert stack_facts()["vllm_ascend.v0.23.0.requirements.setuptools_scm"][0].value == "setuptools-scm>=8"
    commands = _commands(path)
    cann = _first(commands, r'^source "\$ASCEND_SET_ENV"$')
    into = _first(commands, r"^cd vllm-ascend$")
    reqs = _first(commands, r"pip install -r requirements\.txt")
    build = _first(commands, r"pip install -e \. --no-build-isolation")
    assert cann < into < reqs < build
    assert "cd .." not in commands[into:build]  # both run inside the clone


@pytest.mark.parametrize("path", SNIPPETS)
def test_the_requirements_step_pins_memfabric_and_memcache_as_the_branch_verls_script_clones(
    path: str, tmp_path: Path
) -> None:
    """review41a-1: verl's install script and its images clone vllm-ascend's releases/v0.23.0 branch, whose
    requirements.txt pins memfabric_hybrid and memcache_hybrid to 1.2.0; the v0.23.0 tag the page clones lists both
    unpinned. The page's requirements step names the branch's pins, and pip, given the tag's unpinned lines and the
    pins on one command line, installs the pinned versions."""
    import sys

    facts = stack_facts()
    assert facts["verl.npu_install_script.vllm_ascend_after_vllm"][0].value == "releases/v0.23.0"
    pins = {
        name: facts[f"vllm_ascend.releases_v0.23.0.requirements.{name}"][0].value
        for name in ("memfabric_hybrid", "memcache_hybrid")
    }
    for name in pins:
        assert facts[f"vllm_ascend.v0.23.0.requirements.{name}_unpinned"][0].value == name
    commands = _commands(path)
    reqs = commands[_first(commands, r"pip install -r requirements\.txt")].split()
    assert {f"{n}=={v}" for n, v in pins.items()} <= set(reqs)
    # pip merges the unpinned lines of the tag's requirements.txt with the pins of the command line
    (tmp_path / "requirements.txt").write_text("".join(f"{n}\n" for n in pins), encoding="utf-8")
    report = tmp_path / "report.json"
    cmd = [sys.executable, "-m", "pip", "install", "--dry-run", "--quiet", "--ignore-installed", "--no-deps"]
    cmd += ["--only-binary=:all:", "--platform", "manylinux_2_28_aarch64", "--python-version", "3.11"]
    cmd += ["--target", str(tmp_path / "t"), "--report", str(report), "-r", str(tmp_path / "requirements.txt")]
    cmd += [f"{n}=={v}" for n, v in pins.items()]
    subprocess.run(cmd, check=True, capture_output=True, timeout=600)
    import json

    got = {i["metadata"]["name"]: i["metadata"]["version"] for i in json.loads(report.read_text())["install"]}
    assert got == pins


def test_both_languages_run_the_same_commands() -> None:
    en, zh = (_commands(p) for p in SNIPPETS)
    assert en == zh


@pytest.mark.parametrize("name", ["list_registered_backends.sh", "list_registered_backends.zh.sh"])
def test_the_backend_listing_runs_on_releases_that_keep_no_import_errors(tmp_path: Path, name: str) -> None:
    """install/index's check: verl 0.7.1–0.9.0 have ``CheckpointEngineRegistry._registry`` but no ``_import_errors``
    (users10: the snippet printed the list, then failed with AttributeError there). Run against a stand-in package
    shaped like those releases' registry, as read from their source."""
    import subprocess
    import sys

    from verl_cookbook.verl_source import from_release

    for release in ("0.7.1", "0.8.0", "0.9.0"):
        base = (from_release(release).root / "verl/checkpoint_engine/base.py").read_text(encoding="utf-8")
        assert "_registry: dict" in base and "_import_errors" not in base, release
    pkg = tmp_path / "verl" / "checkpoint_engine"
    pkg.mkdir(parents=True)
    (tmp_path / "verl" / "__init__.py").write_text("")
    (pkg / "__init__.py").write_text("class CheckpointEngineRegistry:\n    _registry = {'naive': object}\n")
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    (bin_dir / "python3").symlink_to(sys.executable)
    snippet = (REPO / "snippets/install" / name).read_text(encoding="utf-8")
    env = {"PATH": f"{bin_dir}:/usr/bin:/bin", "PYTHONPATH": str(tmp_path), "PYTHONNOUSERSITE": "1"}
    out = subprocess.run(["bash", "-e", "-c", snippet], env=env, capture_output=True, text=True, timeout=60)
    assert (out.returncode, out.stdout) == (0, "registered: ['naive']\n"), out.stderr


STUBS = """
source() { :; }
uname() { echo "$FAKE_ARCH"; }
git() {
  if [ "$1" = clone ]; then
    d="$(basename "${*: -1}" .git)"
    if [ -e "$d" ]; then echo "fatal: destination path '$d' already exists" >&2; return 128; fi
    mkdir -p "$d"
  fi
}
python3() { echo "python3 $*" >> "$LOG"; }
"""


@pytest.mark.parametrize("path", SNIPPETS)
@pytest.mark.parametrize("arch", ["x86_64", "aarch64"])
def test_pytorchs_cpu_index_is_added_on_x86_64_only(tmp_path: Path, path: str, arch: str) -> None:
    """review15a F5: the page says PyTorch's CPU index is needed on x86_64 (the x86_64 torch-npu wheel requires
    torch==2.10.0+cpu); on aarch64 torch comes from PyPI, and an extra index there would let pip prefer a ``+cpu``
    local version. Run the snippet with git, pip and uname stubbed: the index is on the pip lines on x86_64 only."""
    log = tmp_path / "pip.log"
    snippet = (REPO / path).read_text(encoding="utf-8")
    set_env = tmp_path / "set_env.sh"
    set_env.write_text("", encoding="utf-8")
    env = {"PATH": "/usr/bin:/bin", "FAKE_ARCH": arch, "LOG": str(log), "ASCEND_SET_ENV": str(set_env)}
    out = subprocess.run(
        ["bash", "-e", "-c", STUBS + snippet], cwd=tmp_path, env=env, capture_output=True, text=True, timeout=60
    )
    assert out.returncode == 0, out.stderr
    calls = log.read_text(encoding="utf-8").splitlines()
    reqs = next(c for c in calls if "install -r requirements.txt" in c)
    assert ("download.pytorch.org/whl/cpu" in reqs) == (arch == "x86_64"), reqs
    assert sum("download.pytorch.org" in c for c in calls) == (arch == "x86_64")


@pytest.mark.parametrize("path", SNIPPETS)
def test_the_vllm_ascend_build_loads_cann_from_ascend_set_env_and_says_so_when_there_is_none(
    tmp_path: Path, path: str
) -> None:
    """review18a F8: verl's A2/A3 guide loads /usr/local/Ascend/ascend-toolkit/set_env.sh, its 950PR/950DT guide
    (install_guidance_A5.rst) /usr/local/Ascend/cann/set_env.sh, and the step serves both. The snippet tries that order
    unless ASCEND_SET_ENV names the script, and prints an error naming the variable when there is none (it used to
    source the toolkit path only, and a missing file surfaced later as a failed vllm-ascend build)."""
    text = (REPO / path).read_text(encoding="utf-8")
    assert "for f in /usr/local/Ascend/ascend-toolkit/set_env.sh /usr/local/Ascend/cann/set_env.sh; do" in text
    stubs = "".join(line + "\n" for line in STUBS.splitlines() if not line.startswith("source()"))

    def run(set_env: str | None) -> subprocess.CompletedProcess[str]:
        env = {
            "PATH": "/usr/bin:/bin",
            "FAKE_ARCH": "aarch64",
            "LOG": str(tmp_path / "pip.log"),
            **({"ASCEND_SET_ENV": set_env} if set_env is not None else {}),
        }
        work = tmp_path / "work"
        work.mkdir(exist_ok=True)
        return subprocess.run(
            ["bash", "-e", "-c", stubs + text], cwd=work, env=env, capture_output=True, text=True, timeout=60
        )

    script = tmp_path / "set_env.sh"
    script.write_text("echo sourced-set-env\n", encoding="utf-8")
    out = run(str(script))
    assert out.returncode == 0 and "sourced-set-env" in out.stdout and "error:" not in out.stderr, out.stderr
    # run again where the first run left its clones (review21a F2: the page says to run the step again)
    out = run(str(script))
    assert out.returncode == 0 and "fatal:" not in out.stderr, out.stderr
    (tmp_path / "pip.log").unlink()
    out = run(str(tmp_path / "nowhere.sh"))
    assert f"error: CANN's set_env.sh not found at {tmp_path / 'nowhere.sh'}; set ASCEND_SET_ENV" in out.stderr
    # it stops there: nothing is installed or built without CANN's environment
    assert out.returncode != 0 and not (tmp_path / "pip.log").exists()
    if not Path("/usr/local/Ascend").exists():  # this machine has no CANN: neither default path is there
        out = run(None)
        assert "error: CANN's set_env.sh not found; set ASCEND_SET_ENV" in out.stderr, out.stderr


@pytest.mark.parametrize("path", ["snippets/install/vllm_ascend_npu.sh", "snippets/install/vllm_ascend_npu.zh.sh"])
def test_the_vllm_ascend_build_loads_nnal_next_to_cann_and_warns_when_it_is_missing(tmp_path: Path, path: str) -> None:
    """review24a F3: verl's install guide and images load NNAL's nnal/atb/set_env.sh after the toolkit's (vllm-ascend
    needs its libatb.so); the step loads it from the same Ascend folder as CANN's set_env.sh, and warns without it."""
    text = (REPO / path).read_text(encoding="utf-8")
    stubs = "".join(line + "\n" for line in STUBS.splitlines() if not line.startswith("source()"))
    toolkit = tmp_path / "Ascend" / "ascend-toolkit" / "set_env.sh"
    toolkit.parent.mkdir(parents=True)
    toolkit.write_text("echo sourced-toolkit\n", encoding="utf-8")

    def run() -> subprocess.CompletedProcess[str]:
        env = {"PATH": "/usr/bin:/bin", "FAKE_ARCH": "aarch64", "LOG": str(tmp_path / "pip.log")}
        env["ASCEND_SET_ENV"] = str(toolkit)
        work = tmp_path / "work"
        work.mkdir(exist_ok=True)
        return subprocess.run(
            ["bash", "-e", "-c", stubs + text], cwd=work, env=env, capture_output=True, text=True, timeout=60
        )

    out = run()
    assert out.returncode == 0 and "sourced-toolkit" in out.stdout, out.stderr
    assert f"warning: NNAL's set_env.sh not found under {tmp_path / 'Ascend'}/nnal/atb/" in out.stderr
    nnal = tmp_path / "Ascend" / "nnal" / "atb" / "set_env.sh"
    nnal.parent.mkdir(parents=True)
    nnal.write_text("echo sourced-nnal\n", encoding="utf-8")
    out = run()
    assert out.returncode == 0 and "sourced-toolkit\nsourced-nnal" in out.stdout and "warning:" not in out.stderr


MOONCAKE = ["mooncake_build_prereqs.sh", "mooncake_build_prereqs.zh.sh", "mooncake_build.sh", "mooncake_build.zh.sh"]
MOONCAKE_STUBS = """
git() {
  if [ "$1" = clone ]; then
    d="$(basename "${*: -1}" .git)"
    if [ -e "$d" ]; then echo "fatal: destination path '$d' already exists" >&2; return 128; fi
    mkdir -p "$d"
  fi
  echo "git $*" >> "$CALLS"
}
sudo() { echo "sudo $*" >> "$CALLS"; }
cmake() { echo "cmake $*" >> "$CALLS"; }
python3() { echo "python3 $*" >> "$CALLS"; }
"""


def _run_mooncake(tmp_path: Path, name: str, set_env: str | None) -> subprocess.CompletedProcess[str]:
    snippet = (REPO / "snippets/install" / name).read_text(encoding="utf-8")
    calls = tmp_path / "calls.log"
    calls.unlink(missing_ok=True)
    env = {
        "PATH": "/usr/bin:/bin",
        "CALLS": str(calls),
        **({"ASCEND_SET_ENV": set_env} if set_env is not None else {}),
    }
    work = tmp_path / "work"
    (work / "Mooncake").mkdir(parents=True, exist_ok=True)
    cwd = work if "prereqs" in name else work / "Mooncake"  # the build step runs inside the clone
    return subprocess.run(
        ["bash", "-c", MOONCAKE_STUBS + snippet], cwd=cwd, env=env, capture_output=True, text=True, timeout=60
    )


@pytest.mark.parametrize("name", MOONCAKE)
def test_the_mooncake_build_loads_cann_from_ascend_set_env_and_says_so_when_there_is_none(
    tmp_path: Path, name: str
) -> None:
    """review15a F4: verl's CANN images and guide load /usr/local/Ascend/ascend-toolkit/set_env.sh, Mooncake's docs
    /usr/local/Ascend/cann/set_env.sh. The build snippets try that order unless ASCEND_SET_ENV names the script, and
    print an error naming the variable when there is none (the old ones sourced the cann path only)."""
    text = (REPO / "snippets/install" / name).read_text(encoding="utf-8")
    assert "for f in /usr/local/Ascend/ascend-toolkit/set_env.sh /usr/local/Ascend/cann/set_env.sh; do" in text
    cann = tmp_path / "cann"
    lib = cann / f"{platform.machine()}-linux" / "lib64"
    lib.mkdir(parents=True)
    for so in ("libascendcl.so", "libllm_datadist.so"):
        (lib / so).touch()
    script = tmp_path / "set_env.sh"
    script.write_text(f"export ASCEND_HOME_PATH={cann}\necho sourced-set-env\n", encoding="utf-8")
    out = _run_mooncake(tmp_path, name, str(script))
    assert "sourced-set-env" in out.stdout and "error:" not in out.stderr, out.stderr
    if "prereqs" in name:
        assert f"{cann}\nfound libascendcl.so\nfound libllm_datadist.so\n" in out.stdout
    assert (tmp_path / "calls.log").exists()  # the step ran its commands
    # a second run where the first left its clone reuses it
    out = _run_mooncake(tmp_path, name, str(script))
    assert "fatal:" not in out.stderr, out.stderr
    out = _run_mooncake(tmp_path, name, str(tmp_path / "nowhere.sh"))
    assert f"error: CANN's set_env.sh not found at {tmp_path / 'nowhere.sh'}; set ASCEND_SET_ENV" in out.stderr
    # review22a F1: without CANN's environment nothing else runs (no sudo, no uninstall, no build)
    assert not (tmp_path / "calls.log").exists(), (tmp_path / "calls.log").read_text()
    if not Path("/usr/local/Ascend").exists():  # this machine has no CANN: neither default path is there
        out = _run_mooncake(tmp_path, name, None)
        assert "error: CANN's set_env.sh not found; set ASCEND_SET_ENV" in out.stderr, out.stderr


@pytest.mark.parametrize("lang", ["", ".zh"])
def test_steps_3_and_verify_load_cann_and_nnal_into_the_current_shell_from_step_2s_paths(
    tmp_path: Path, lang: str
) -> None:
    """review43a-1: step 2 loads CANN's and NNAL's set_env.sh inside `( … )`, so nothing it loads reaches the shell the
    reader types step 3 and the Verification commands in; the load snippet keeps them in the current shell, tries the
    same paths as step 2, and leaves the shell open when CANN is missing."""
    build = _commands(f"snippets/install/vllm_ascend_npu{lang}.sh")
    assert build[0] == "(" and build[-1] == ")"
    load = REPO / f"snippets/install/load_cann_env{lang}.sh"
    paths = [c for c in _commands(str(load.relative_to(REPO))) if c.startswith("for f in ")]
    assert paths == [c for c in build if c.startswith("for f in ")] and len(paths) == 1
    toolkit = tmp_path / "Ascend" / "ascend-toolkit" / "set_env.sh"
    toolkit.parent.mkdir(parents=True)
    toolkit.write_text("export LD_LIBRARY_PATH=/fake/cann/lib64\n", encoding="utf-8")
    nnal = tmp_path / "Ascend" / "nnal" / "atb" / "set_env.sh"
    nnal.parent.mkdir(parents=True)
    nnal.write_text("export ATB_HOME_PATH=/fake/atb\n", encoding="utf-8")

    def run(set_env: Path) -> subprocess.CompletedProcess[str]:
        script = f'source "{load}"\necho "kept:$LD_LIBRARY_PATH:$ATB_HOME_PATH"\n'
        env = {"PATH": "/usr/bin:/bin", "ASCEND_SET_ENV": str(set_env)}
        return subprocess.run(["bash", "-c", script], env=env, capture_output=True, text=True, timeout=60)

    out = run(toolkit)
    assert out.returncode == 0 and out.stdout == "kept:/fake/cann/lib64:/fake/atb\n", out.stderr
    out = run(tmp_path / "missing" / "set_env.sh")
    assert out.stdout == "kept::\n" and "error: CANN's set_env.sh not found" in out.stderr
