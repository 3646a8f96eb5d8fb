"""Run the canary's two commands in a verl checkout; write the drift record and the drift pages from it.

    python scripts/verl_drift.py /path/to/verl            # a checkout of verl (any commit; the canary uses main)

1. ``verl-cookbook check --lenient`` over the checkout's ``docs/`` and every ``README*.md`` outside it;
2. ``verl-cookbook doctor`` over every launch script under ``examples/``;
both in JSON, once per language (the messages in English and in 中文), against the checkout's own source
(``--verl-src .``). When ``check`` has ``--diff``, the mechanical fixes are recorded as one patch per verl file.

The record (tests/data/verl_drift_run.json) keeps the previous run's commit, date and finding keys, so that the page
can say what is new and what was fixed since (verl_cookbook/drift_page.py). The pages (docs/tools/drift.md,
docs/tools/drift.en.md) are rendered from the record; tests/test_drift_page.py holds them equal. The tests cannot
repeat the measurement (they have no verl checkout): `.github/workflows/canary.yml` runs this script weekly.
"""

from __future__ import annotations

import argparse
import datetime
import json
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from verl_cookbook.drift_page import finding_key, render  # noqa: E402

RECORD = REPO / "tests" / "data" / "verl_drift_run.json"
PAGES = {"zh": REPO / "docs" / "tools" / "drift.md", "en": REPO / "docs" / "tools" / "drift.en.md"}
_SKIP_DIRS = {".git", "node_modules", "third_party"}
# the READMEs outside docs/ as a shell word list, for the commands the page shows (what targets() reads)
READMES = "$(git ls-files 'README*.md' '**/README*.md' | grep -v '^docs/')"


def _cookbook(args: list[str], checkout: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "verl_cookbook", *args],
        cwd=checkout,
        capture_output=True,
        text=True,
        check=False,
    )


def _json(args: list[str], checkout: Path) -> Any:
    run = _cookbook(args, checkout)
    if run.returncode not in (0, 1):
        raise SystemExit(f"verl-cookbook {' '.join(args)} exited {run.returncode}:\n{run.stderr}")
    return json.loads(run.stdout)


def targets(checkout: Path) -> tuple[list[str], list[str]]:
    """The docs and READMEs ``check`` reads, and the launch scripts ``doctor`` reads, relative to the checkout."""
    readmes = sorted(
        str(p.relative_to(checkout))
        for p in checkout.rglob("README*.md")
        if not (_SKIP_DIRS | {"docs"}) & set(p.relative_to(checkout).parts)
    )
    scripts = sorted(
        str(p.relative_to(checkout))
        for p in (checkout / "examples").rglob("*.sh")
        if not _SKIP_DIRS & set(p.relative_to(checkout).parts)
    )
    return ["docs/", *readmes], scripts


def _line_text(checkout: Path, path: str, line: int) -> str:
    try:
        lines = (checkout / path).read_text(encoding="utf-8", errors="replace").splitlines()
    except OSError:
        return ""
    return lines[line - 1] if 0 < line <= len(lines) else ""


def measure(checkout: Path, previous: dict[str, Any] | None) -> dict[str, Any]:
    commit = subprocess.run(
        ["git", "rev-parse", "HEAD"], cwd=checkout, capture_output=True, text=True, check=True
    ).stdout.strip()
    commit_date = subprocess.run(  # the day the commit was made, so the page says how old the state it shows is
        ["git", "show", "-s", "--format=%cs", "HEAD"], cwd=checkout, capture_output=True, text=True, check=True
    ).stdout.strip()
    docs, scripts = targets(checkout)
    check = ["check", "--verl-src", ".", "--lenient", *docs]
    doctor = ["doctor", "--verl-src", ".", *scripts]
    findings: list[dict[str, Any]] = []
    for source, args, key in (("docs", check, None), ("examples", doctor, "findings")):
        by_lang = {lang: _json([*args, "--format", "json", "--lang", lang], checkout) for lang in ("en", "zh")}
        en = by_lang["en"] if key is None else by_lang["en"][key]
        zh = by_lang["zh"] if key is None else by_lang["zh"][key]
        for f_en, f_zh in zip(en, zh, strict=True):
            findings.append(
                {
                    "source": source,
                    "path": f_en["path"],
                    "line": f_en["line"],
                    "col": f_en["col"],
                    "rule": f_en["rule"],
                    "severity": f_en["severity"],
                    "message_en": f_en["message"],
                    "message_zh": f_zh["message"],
                    "line_text": _line_text(checkout, f_en["path"], f_en["line"]),
                    # what the finding is made from: tests/test_drift_page.py makes each message again from it with
                    # today's rules, so a rule whose words change fails there until the record is measured again
                    "data": f_en.get("data") or {},
                    "fact": f_en.get("fact"),
                    "fact_source": f_en.get("fact_source"),
                }
            )
    # the mechanical fixes: which files `check --diff` changes and how many findings it fixes (the patch itself is
    # what a contributor runs the command for; verl's text is not copied here)
    diff = _cookbook([*check, "--diff"], checkout)
    patched = sorted({line[6:].strip() for line in diff.stdout.splitlines() if line.startswith("+++ b/")})
    fixed = re.search(r"can fix (\d+) of", diff.stderr)
    fixes = {"command": "verl-cookbook " + " ".join(check[:4]) + f" docs/ {READMES} --diff", "files": patched,
             "findings": int(fixed.group(1)) if fixed else 0}  # fmt: skip
    record: dict[str, Any] = {
        "commit": commit,
        "commit_date": commit_date,
        "measured": datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M"),
        "commands": [
            "verl-cookbook " + " ".join(check[:4]) + f" docs/ {READMES}",
            # every level: git's * matches / (bash's ** would need globstar, off by default)
            "verl-cookbook " + " ".join(doctor[:3]) + " $(git ls-files 'examples/*.sh')",
        ],
        "findings": findings,
        "fixes": fixes,
        "previous": None,
    }
    if previous:
        record["previous"] = {
            "commit": previous["commit"],
            "measured": previous["measured"],
            "keys": sorted(list(finding_key(f)) for f in previous["findings"]),
        }
    return record


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("checkout", type=Path, nargs="?", help="a verl checkout (a git work tree)")
    parser.add_argument("--pages-only", action="store_true", help="render the pages from the committed record")
    args = parser.parse_args()
    if not args.pages_only and args.checkout is None:
        parser.error("give a verl checkout, or --pages-only")
    if args.pages_only:
        record = json.loads(RECORD.read_text(encoding="utf-8"))
    else:
        previous = json.loads(RECORD.read_text(encoding="utf-8")) if RECORD.exists() else None
        record = measure(args.checkout.resolve(), previous)
        RECORD.write_text(json.dumps(record, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
        print(f"wrote {RECORD}")
    for lang, page in PAGES.items():
        page.write_text(render(record, lang), encoding="utf-8")
        print(f"wrote {page}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
