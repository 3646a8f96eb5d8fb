"""troubleshooting #fully-async-param-version-0 (review32d-2): the log line ``Parameter version updated from … to …``
belongs to the ``recipe/fully_async_policy`` code of verl's repository up to the v0.7.0 tag; no covered release prints
it, and the first PyPI package that ships ``fully_async``'s code (0.8.0) syncs through the checkpoint engine. Held by
reading every covered release (the unpacked wheel, nothing imported). That the v0.7.1 tag already had the checkpoint
engine path is read from verl's git history, which the page marks ※."""

from __future__ import annotations

from pathlib import Path

import pytest

from verl_cookbook.releases import covered_releases, version_key
from verl_cookbook.verl_source import from_release

REPO = Path(__file__).resolve().parent.parent
PAGES = [REPO / "docs" / "recipes" / f"troubleshooting{s}.md" for s in ("", ".en")]
LINE = "Parameter version updated from"
TRAINER = "verl/experimental/fully_async_policy/fully_async_trainer.py"


@pytest.mark.parametrize("release", covered_releases())
def test_no_covered_release_prints_the_parameter_version_line(release: str) -> None:
    tree = from_release(release)
    printing = [
        p.relative_to(tree.root).as_posix()
        for p in sorted(tree.root.rglob("*.py"))
        if LINE in p.read_text(encoding="utf-8", errors="replace")
    ]
    assert not printing, f"verl {release} prints {LINE!r} again: {printing}; re-read the entry"
    code = sorted(p.name for p in (tree.package / "experimental" / "fully_async_policy").glob("*.py"))
    if version_key(release) < version_key("0.8.0"):
        assert not code, f"verl {release}'s package ships fully_async code: {code}; the entry says 0.8.0 is the first"
    else:
        assert "await self.checkpoint_manager.update_weights(" in tree.read(TRAINER), release
    for page in PAGES:
        assert "recipe/fully_async_policy" in page.read_text(encoding="utf-8"), page
