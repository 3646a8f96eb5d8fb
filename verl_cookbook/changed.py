"""``--changed [REV]``: check only the pages a change can affect.

The files ``git diff`` names against REV (default ``HEAD``: what is not committed yet; in CI the branch the pull
request targets, e.g. ``origin/main``), compared from where the two histories meet, plus the files git does not
track yet. A page is checked when it changed itself, when a file it includes (``--8<--``, ``literalinclude``)
changed, or when it names a changed file by its path (a page citing ``verl/workers/config/rollout.py:120`` is
checked when that file changes). A change elsewhere in verl's code can still break a page that does not name the
file: run the whole check on the main branch too.
"""

from __future__ import annotations

import subprocess
from pathlib import Path


class ChangedError(Exception):
    """git cannot say what changed (not a repository, an unknown revision)."""


def _git(args: list[str], cwd: Path) -> str:
    try:
        done = subprocess.run(["git", *args], cwd=cwd, capture_output=True, text=True, timeout=60)
    except (OSError, subprocess.TimeoutExpired) as e:
        raise ChangedError(f"--changed needs git: {e}") from None
    if done.returncode != 0:
        raise ChangedError(f"--changed: git {' '.join(args)}: {done.stderr.strip() or 'failed'}")
    return done.stdout


def is_revision(rev: str, cwd: Path) -> bool:
    """Whether git in ``cwd`` knows ``rev`` as a commit."""
    try:
        _git(["rev-parse", "--verify", "--quiet", f"{rev}^{{commit}}"], cwd)
    except ChangedError:
        return False
    return True


def changed_files(rev: str, cwd: Path) -> set[Path]:
    """Absolute paths of the files changed since ``rev`` (from the merge base), uncommitted changes and untracked
    files included."""
    top = Path(_git(["rev-parse", "--show-toplevel"], cwd).strip())
    base = _git(["merge-base", rev, "HEAD"], cwd).strip() if rev != "HEAD" else "HEAD"
    names = _git(["diff", "--name-only", "--no-renames", base, "--"], cwd).splitlines()
    names += _git(["ls-files", "--others", "--exclude-standard"], cwd).splitlines()
    return {(top / n).resolve() for n in names if n}


def select(files: list[Path], changed: set[Path], root: Path) -> list[Path]:
    """The pages of ``files`` a change to ``changed`` can affect (see the module's doc)."""
    from verl_cookbook.doc_reader import read_page
    from verl_cookbook.markdown import MarkdownError

    cwd = Path.cwd()
    rel_names = set()
    for c in changed:
        for base in (cwd, root):
            try:
                rel_names.add(str(c.relative_to(base.resolve())))
            except ValueError:
                pass
    out = []
    for f in files:
        if f.resolve() in changed:
            out.append(f)
            continue
        try:
            page = read_page(f, cwd, bases=[root])
        except MarkdownError:
            continue
        included = {(cwd / inc).resolve() for b in page.blocks for inc in b.includes}
        if included & changed or any(name in page.text for name in rel_names if "/" in name):
            out.append(f)
    return out
