"""ShellCheck run once for many shell snippets, instead of once per snippet.

ShellCheck's start-up dominates its cost on a snippet of a few lines (a fresh process per code block
of the site: the largest part of a cold site check). ``shellcheck_many`` writes the snippets to a
private temporary folder and runs one ``shellcheck`` on all of them (in chunks, so the command line
stays short), then hands each snippet its own comments, as ``shellcheck -f json1 -`` on that snippet
alone gives them (``file`` dropped). Not wired into the checks: ``checks/shell.py`` may call it for all
the blocks of a run and fall back to one process per block when it returns None.

ShellCheck looks for a ``.shellcheckrc`` above the file it checks (here: the temporary folder), and
above the working directory for standard input: pass ``--norc`` in both ways of calling it to get the
same comments whatever rc files exist.
"""

from __future__ import annotations

import json
import locale
import os
import shutil
import subprocess
import tempfile
from collections.abc import Sequence

CHUNK = 200  # snippets per process
TIMEOUT_S = 10  # per process, plus this much per snippet
TIMEOUT_PER_SNIPPET_S = 0.5


def shellcheck_many(codes: Sequence[str], args: Sequence[str]) -> list[list[dict]] | None:
    """ShellCheck's comments for each of ``codes`` (same order), from one process per ``CHUNK`` snippets.

    ``args``: the options the caller would give ``shellcheck`` for one snippet (``-s bash -f json1 ...``,
    without the ``-`` for standard input; ``-f json1`` is required). None when ShellCheck is not
    installed or a run fails (timeout, unreadable output): the caller then checks snippet by snippet.
    """
    exe = shutil.which("shellcheck")
    if not exe:
        return None
    out: list[list[dict]] = [[] for _ in codes]
    with tempfile.TemporaryDirectory(prefix="verl-cookbook-shellcheck-") as tmp:
        paths = []
        for i, code in enumerate(codes):
            path = os.path.join(tmp, f"snippet{i}")  # no extension: the shell comes from -s only
            with open(path, "w", encoding="utf-8") as fh:
                fh.write(code)
            paths.append(path)
        index = {p: i for i, p in enumerate(paths)}
        for start in range(0, len(paths), CHUNK):
            chunk = paths[start : start + CHUNK]
            timeout = TIMEOUT_S + TIMEOUT_PER_SNIPPET_S * len(chunk)
            try:
                proc = subprocess.run([exe, *args, *chunk], capture_output=True, text=True, timeout=timeout)
                comments = json.loads(proc.stdout or "{}").get("comments", [])
            except (subprocess.TimeoutExpired, json.JSONDecodeError, OSError):
                return None
            for c in comments:
                i = index.get(c.pop("file", None))
                if i is None:
                    return None  # a comment on a file we did not pass: do not guess whose it is
                out[i].append(c)
    return out


_BASH_LOOP = 'for f in "$@"; do "$BASH_EXE" -n < "$f" 2> "$f.err"; echo $? > "$f.rc"; done'


def bash_many(codes: Sequence[str]) -> list[tuple[int, str]] | None:
    """``(returncode, stderr)`` of ``bash -n`` with each of ``codes`` on standard input (same order), from one
    ``bash`` per ``CHUNK`` snippets; None when bash is missing or a run fails (the caller goes one by one)."""
    exe = shutil.which("bash")
    if not exe:
        return None
    enc = locale.getpreferredencoding(False)  # what subprocess.run(text=True) uses for input and stderr
    out: list[tuple[int, str]] = []
    with tempfile.TemporaryDirectory(prefix="verl-cookbook-bash-") as tmp:
        try:
            paths = []
            for i, code in enumerate(codes):
                path = os.path.join(tmp, f"snippet{i}")
                with open(path, "w", encoding=enc, newline="") as fh:
                    fh.write(code)
                paths.append(path)
            for start in range(0, len(paths), CHUNK):
                chunk = paths[start : start + CHUNK]
                timeout = TIMEOUT_S + TIMEOUT_PER_SNIPPET_S * len(chunk)
                env = {**os.environ, "BASH_EXE": exe}
                subprocess.run([exe, "-c", _BASH_LOOP, "bash", *chunk], env=env, capture_output=True, timeout=timeout)
                for path in chunk:
                    with open(path + ".rc", encoding="ascii") as fh:
                        rc = int(fh.read().strip())
                    with open(path + ".err", encoding=enc) as fh:
                        out.append((rc, fh.read()))
        except (subprocess.TimeoutExpired, OSError, ValueError, UnicodeError):
            return None
    return out
