"""Troubleshooting, "Importing torch_npu fails" step 1 (review25g F3): the snippet that prints the environment of the
Python the ``ray`` launcher runs, run on launchers written by pip's own script maker (``PipScriptMaker``, the class
pip's wheel installer uses) for an interpreter at a short path, at a path longer than a shebang may be, and at a path
with a space: the last two get pip's ``#!/bin/sh`` launcher, whose interpreter is on the ``'''exec'`` line, where
reading the ``#!`` line alone ran ``/bin/sh -c …`` and failed.

Statements on the page that a test here holds carry ``<!-- run: test_ray_launcher_python_run.py::<test> -->``.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from pip._internal.operations.install.wheel import PipScriptMaker

from tests.conftest import REPO

PAGES = (REPO / "docs" / "recipes" / "troubleshooting.md", REPO / "docs" / "recipes" / "troubleshooting.en.md")
MARKER = re.compile(r"<!-- run: (test_ray_launcher_python_run\.py)::(\w+) -->")
# interpreter folders: short, longer than the 127 bytes a Linux shebang line may take, and one with a space
FOLDERS = {"short": "env", "long": "e" * 130, "space": "my env"}


def _snippet() -> list[str]:
    """The lines of step 1's block after its first: the launcher, the interpreter it runs, that one's sys.prefix."""
    blocks = []
    for page in PAGES:
        text = page.read_text(encoding="utf-8")
        section = text[text.index("{ #torch-npu-import }") :]
        fence = re.search(r"``` \{ \.bash check=\"shell\" \}\n(.*?)\n\s*```", section, re.S)
        assert fence is not None, page
        blocks.append([line.strip() for line in fence.group(1).splitlines()])
    assert blocks[0] == blocks[1], "the two languages' blocks differ"
    lines = blocks[0]
    # review29g F2: pip show asks the launcher's interpreter, the environment Ray's workers use
    assert lines[0] == 'python3 -c "import sys; print(sys.prefix)"' and lines[-1] == '"$py" -m pip show torch_npu'
    return lines[1:-1]


def _launcher(tmp_path: Path, folder: str, quoted: bool, monkeypatch: pytest.MonkeyPatch) -> tuple[Path, Path]:
    """A ``ray`` launcher as pip writes it for an interpreter at ``tmp_path/folder/bin/python3`` (a link to this
    Python). ``quoted``: pip re-run under that interpreter (``pip --python``, or that environment's own pip), which
    quotes a path with a space; otherwise pip told the interpreter explicitly, which does not."""
    bindir = tmp_path / folder / "bin"
    bindir.mkdir(parents=True)
    python = bindir / "python3"
    python.symlink_to(sys.executable)
    maker = PipScriptMaker(None, str(bindir))
    maker.variants = {""}
    if quoted:
        monkeypatch.setattr(sys, "executable", str(python))
    else:
        maker.executable = str(python)
    maker.make("ray = ray.scripts.scripts:main")
    monkeypatch.undo()
    return bindir / "ray", python


def _prefix(python: Path) -> str:
    out = subprocess.run([str(python), "-c", "import sys; print(sys.prefix)"], capture_output=True, text=True)
    return out.stdout.strip()


@pytest.mark.parametrize("quoted", [True, False])
@pytest.mark.parametrize("kind", list(FOLDERS))
def test_the_snippet_finds_the_launchers_python_for_both_forms_pip_writes(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, kind: str, quoted: bool
) -> None:
    launcher, python = _launcher(tmp_path, FOLDERS[kind], quoted, monkeypatch)
    env = {**os.environ, "PATH": f"{launcher.parent}{os.pathsep}{os.environ['PATH']}"}
    run = subprocess.run(["bash", "-c", "\n".join(_snippet())], capture_output=True, text=True, env=env, timeout=60)
    assert run.returncode == 0, run.stderr
    assert run.stdout.strip() == _prefix(python), (kind, run.stdout, run.stderr)


def test_pip_writes_a_bin_sh_launcher_for_a_long_path_or_a_space(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    """The page: pip writes ``#!<python>`` for a short path and ``#!/bin/sh`` with ``'''exec' <python> "$0" "$@"``
    on the second line for a path longer than about 127 characters or with a space; the old check, the ``#!`` line
    alone, ran ``/bin/sh`` on Python code there."""
    for kind, folder in FOLDERS.items():
        launcher, python = _launcher(tmp_path / kind, folder, True, monkeypatch)
        first, second = launcher.read_text(encoding="utf-8").splitlines()[:2]
        if kind == "short":
            assert first == f"#!{python}" or len(f"#!{python}\n") > 127  # a deep temporary folder: pip's #!/bin/sh
            continue
        assert first == "#!/bin/sh"
        shown = f'"{python}"' if " " in str(python) else str(python)
        assert second == f"'''exec' {shown} \"$0\" \"$@\"", second
        old = f'"$(head -n 1 "{launcher}" | cut -c3-)" -c "import sys; print(sys.prefix)"'
        assert subprocess.run(["bash", "-c", old], capture_output=True, text=True).returncode != 0


PYENV_SHIM = """#!/usr/bin/env bash
set -e
[ -n "$PYENV_DEBUG" ] && set -x

program="${0##*/}"

export PYENV_ROOT="%(root)s"
exec "%(root)s/libexec/pyenv" exec "$program" "$@"
"""
# a stand-in for pyenv: `exec PROGRAM` runs the version's PROGRAM, `which PROGRAM` prints its path
PYENV = """#!/usr/bin/env bash
cmd="$1"; shift
case "$cmd" in
  exec) program="$1"; shift; exec "%(bindir)s/$program" "$@" ;;
  which) echo "%(bindir)s/$1" ;;
esac
"""


def test_a_pyenv_shim_fails_the_snippet_and_pyenv_which_gives_the_launcher(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """review39g-3: with pyenv, ``command -v ray`` finds pyenv's shim (written by pyenv-rehash in the form of
    PYENV_SHIM: a bash script), so ``$py`` is ``/usr/bin/env bash`` and running it fails; the page's
    ``launcher="$(pyenv which ray)"`` gives the version's own pip launcher, and the snippet then works."""
    launcher, python = _launcher(tmp_path / "version", "env", False, monkeypatch)
    root = tmp_path / "pyenv"
    (root / "libexec").mkdir(parents=True)
    (root / "shims").mkdir()
    pyenv = root / "libexec" / "pyenv"
    pyenv.write_text(PYENV % {"bindir": launcher.parent}, encoding="utf-8")
    shim = root / "shims" / "ray"
    shim.write_text(PYENV_SHIM % {"root": root}, encoding="utf-8")
    for f in (pyenv, shim):
        f.chmod(0o755)
    (root / "bin").mkdir()
    (root / "bin" / "pyenv").symlink_to(pyenv)
    env = {**os.environ, "PATH": f"{root / 'shims'}{os.pathsep}{root / 'bin'}{os.pathsep}{os.environ['PATH']}"}
    lines = _snippet()
    assert lines[0] == 'launcher="$(command -v ray)"'
    run = subprocess.run(["bash", "-c", "\n".join(lines)], capture_output=True, text=True, env=env, timeout=60)
    assert shim.read_text(encoding="utf-8").splitlines()[0] == "#!/usr/bin/env bash"
    assert run.returncode != 0 and "/usr/bin/env bash: No such file or directory" in run.stderr, run.stderr
    fix = 'launcher="$(pyenv which ray)"'
    for page in PAGES:
        assert f"`{fix}`" in page.read_text(encoding="utf-8"), page
    run = subprocess.run(["bash", "-c", "\n".join([fix, *lines[1:]])], capture_output=True, text=True, env=env)
    assert run.returncode == 0, run.stderr
    assert run.stdout.strip() == _prefix(python), (run.stdout, run.stderr)


def test_every_run_marker_names_a_test_here() -> None:
    names = {m.group(2) for page in PAGES for m in MARKER.finditer(page.read_text(encoding="utf-8"))}
    assert names == {
        "test_the_snippet_finds_the_launchers_python_for_both_forms_pip_writes",
        "test_pip_writes_a_bin_sh_launcher_for_a_long_path_or_a_space",
        "test_a_pyenv_shim_fails_the_snippet_and_pyenv_which_gives_the_launcher",
    }
