#!/usr/bin/env python3
"""Every launch script under the folders given, judged through a ``check="shell"`` block and through ``doctor``,
asking both for the same stages (static and required values): the findings of the one judge
(``verl_cookbook.checks.launch``) must be the same. Prints each script where they differ, then the counts; exit 1
when any differs. tests/test_one_judge.py does this for the site's and the tests' own commands; this script is for a
verl checkout's examples, which the tests do not have:

    python scripts/judge_differential.py /path/to/verl/examples --verl-src /path/to/verl
"""

from __future__ import annotations

import argparse
import sys
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from verl_cookbook.checks import launch  # noqa: E402
from verl_cookbook.checks.shell import check_script  # noqa: E402
from verl_cookbook.doctor import diagnose  # noqa: E402
from verl_cookbook.facts import load_facts  # noqa: E402
from verl_cookbook.verl_source import resolve_source  # noqa: E402

OUTSIDE_THE_JUDGE = ("ascend/", "shell/syntax", "shell/timeout")  # doctor's machine rules; bash's syntax


def judged(findings) -> Counter:
    kept = (f for f in findings if not str(f.rule).startswith(OUTSIDE_THE_JUDGE))
    return Counter((f.rule, f.line, f.col, f.message) for f in kept)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("folders", nargs="+", type=Path)
    ap.add_argument("--verl-src", help="the verl tree to judge against (default: the pinned release)")
    args = ap.parse_args()
    source = resolve_source(None, args.verl_src, None, True)
    facts = load_facts(source.tree, whole=source.whole)
    scripts = sorted(p for folder in args.folders for p in folder.rglob("*.sh"))
    differ = 0
    findings = 0
    for path in scripts:
        report = diagnose(path, facts, stages=launch.DOCTOR)
        in_doctor = judged(d.finding for d in report.findings)
        text = path.read_text(encoding="utf-8", errors="replace")
        on_page = judged(
            check_script(text, lambda ln, p=path: (str(p), ln), facts, report.device.value, stages=launch.DOCTOR)
        )
        findings += sum(in_doctor.values())
        if in_doctor != on_page:
            differ += 1
            print(f"{path}: doctor only {dict(in_doctor - on_page)}; check only {dict(on_page - in_doctor)}")
    print(f"{len(scripts)} scripts, {findings} findings of the judge, {differ} differing", file=sys.stderr)
    return 1 if differ else 0


if __name__ == "__main__":
    raise SystemExit(main())
