"""ShellCheck run once for many shell snippets, instead of once per snippet.

ShellCheck's start-up dominates its cost on a snippet of a few lines (a fresh process per code block
of the site: the largest part of a cold site check). ``shellcheck_many`` writes the snippets to a
private temporary folder and runs one ``shellcheck`` on all of them (in chunks, so the command line
stays short), then hands each snippet its own comments, as ``shellcheck -f json1 -`` on that snippet
alone gives them (``file`` dropped). ``bash_many`` does the same for ``bash -n``. ``start_shellcheck`` and
``start_bash`` only start the processes: ``checks/shell_tools.py`` starts both for all the blocks of a run, checks
the pages without shell blocks meanwhile, and falls back to one process per block when a batch gives None.

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
from collections.abc import Callable, Sequence

CHUNK = 200  # snippets per process
TIMEOUT_S = 10  # per process, plus this much per snippet
TIMEOUT_PER_SNIPPET_S = 0.5


class Batch:
    """Snippets written to a private temporary folder and one process per ``CHUNK`` of them, started and left to
    run (on another core while this process works); ``outputs()`` waits for them, ``close()`` removes the folder."""

    def __init__(
        self,
        prefix: str,
        codes: Sequence[str],
        encoding: str,
        command: Callable[[list[str]], list[str]],
        env: dict | None = None,
    ) -> None:
        self._tmp = tempfile.TemporaryDirectory(prefix=prefix)
        self.paths: list[str] = []
        self.procs: list[tuple[list[str], subprocess.Popen]] = []
        try:
            for i, code in enumerate(codes):
                path = os.path.join(self._tmp.name, f"snippet{i}")  # no extension: the shell comes from -s only
                with open(path, "w", encoding=encoding, newline="") as fh:
                    fh.write(code)
                self.paths.append(path)
            for start in range(0, len(self.paths), CHUNK):
                chunk = self.paths[start : start + CHUNK]
                proc = subprocess.Popen(
                    command(chunk), stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env
                )
                self.procs.append((chunk, proc))
        except (OSError, UnicodeError):
            self.close()
            raise

    def outputs(self) -> list[tuple[list[str], str]] | None:
        """(chunk, standard output) of each process once it has finished; None if one outlasts its deadline."""
        out = []
        try:
            for chunk, proc in self.procs:
                stdout, _ = proc.communicate(timeout=TIMEOUT_S + TIMEOUT_PER_SNIPPET_S * len(chunk))
                out.append((chunk, stdout))
        except subprocess.TimeoutExpired:
            return None
        return out

    def close(self) -> None:
        for _chunk, proc in self.procs:
            if proc.poll() is None:
                proc.kill()
                proc.communicate()
        self._tmp.cleanup()


def start_shellcheck(codes: Sequence[str], args: Sequence[str]) -> Callable[[], list[list[dict]] | None] | None:
    """Start ShellCheck on ``codes``; the function returned waits and gives what ``shellcheck_many`` gives.
    None when ShellCheck is not installed or cannot be started."""
    exe = shutil.which("shellcheck")
    if not exe:
        return None
    try:
        batch = Batch("verl-cookbook-shellcheck-", codes, "utf-8", lambda chunk: [exe, *args, *chunk])
    except (OSError, UnicodeError):
        return None

    def result() -> list[list[dict]] | None:
        try:
            outputs = batch.outputs()
            if outputs is None:
                return None
            out: list[list[dict]] = [[] for _ in codes]
            index = {p: i for i, p in enumerate(batch.paths)}
            for _chunk, stdout in outputs:
                for c in json.loads(stdout or "{}").get("comments", []):
                    i = index.get(c.pop("file", None))
                    if i is None:
                        return None  # a comment on a file we did not pass: do not guess whose it is
                    out[i].append(c)
            return out
        except (json.JSONDecodeError, AttributeError):
            return None
        finally:
            batch.close()

    return result


def shellcheck_many(codes: Sequence[str], args: Sequence[str]) -> list[list[dict]] | None:
    """ShellCheck's comments for each of ``codes`` (same order), from one process per ``CHUNK`` snippets.

    ``args``: the options the caller would give ``shellcheck`` for one snippet (``-s bash -f json1 ...``,
    without the ``-`` for standard input; ``-f json1`` is required). None when ShellCheck is not
    installed or a run fails (timeout, unreadable output): the caller then checks snippet by snippet.
    """
    result = start_shellcheck(codes, args)
    return result() if result else None


_BASH_LOOP = 'for f in "$@"; do "$BASH_EXE" -n < "$f" 2> "$f.err"; echo $? > "$f.rc"; done'


def start_bash(codes: Sequence[str]) -> Callable[[], list[tuple[int, str]] | None] | None:
    """Start ``bash -n`` on ``codes``; the function returned waits and gives what ``bash_many`` gives."""
    exe = shutil.which("bash")
    if not exe:
        return None
    enc = locale.getpreferredencoding(False)  # what subprocess.run(text=True) uses for input and stderr
    env = {**os.environ, "BASH_EXE": exe}
    try:
        batch = Batch("verl-cookbook-bash-", codes, enc, lambda chunk: [exe, "-c", _BASH_LOOP, "bash", *chunk], env)
    except (OSError, UnicodeError):
        return None

    def result() -> list[tuple[int, str]] | None:
        try:
            if batch.outputs() is None:
                return None
            out: list[tuple[int, str]] = []
            for path in batch.paths:
                with open(path + ".rc", encoding="ascii") as fh:
                    rc = int(fh.read().strip())
                with open(path + ".err", encoding=enc) as fh:
                    out.append((rc, fh.read()))
            return out
        except (OSError, ValueError, UnicodeError):
            return None
        finally:
            batch.close()

    return result


def bash_many(codes: Sequence[str]) -> list[tuple[int, str]] | None:
    """``(returncode, stderr)`` of ``bash -n`` with each of ``codes`` on standard input (same order), from one
    ``bash`` per ``CHUNK`` snippets; None when bash is missing or a run fails (the caller goes one by one)."""
    result = start_bash(codes)
    return result() if result else None
