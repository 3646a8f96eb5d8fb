"""Run the verl-ci page's commands in a verl checkout and record what they print in tests/data/verl_main_run.json.

    python scripts/measure_verl_main.py /path/to/verl          # a checkout at the commit the page names

The page (docs/tools/verl-ci(.en).md) states the figure and shows the README run; tests/test_tool_pages.py holds the
page equal to this record and the record's command equal to the page's snippet. The record is a measurement: the
tests cannot repeat it (they have no verl checkout), so rerun this after a change that alters what `check` reports
on verl's docs, and commit the new record with the page.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
RECORD = REPO / "tests" / "data" / "verl_main_run.json"
SNIPPET = REPO / "snippets" / "tools" / "verl_checkout.sh"
COMMIT = "1dda039b9c63"  # the verl main commit the page names
README = "verl/checkpoint_engine/README.md"


def site_command() -> list[str]:
    """The snippet's baseline-writing command, without the baseline: what the page's figure counts."""
    line = next(x for x in SNIPPET.read_text(encoding="utf-8").splitlines() if "--write-baseline" in x)
    words = line.split()
    i = words.index("--write-baseline")
    return words[:i] + words[i + 2 :]


def _run(words: list[str], checkout: Path, lang: str = "en") -> subprocess.CompletedProcess[str]:
    argv = [sys.executable, "-m", "verl_cookbook", *words[1:], "--lang", lang]
    return subprocess.run(argv, cwd=checkout, capture_output=True, text=True, check=False)


def measure(checkout: Path) -> dict[str, object]:
    head = subprocess.run(["git", "rev-parse", "HEAD"], cwd=checkout, capture_output=True, text=True, check=True)
    commit = head.stdout.strip()
    if not commit.startswith(COMMIT):
        raise SystemExit(f"{checkout} is at {commit[:12]}, the page names {COMMIT}")
    command = site_command()
    as_json = _run([*command, "--format", "json"], checkout)
    findings = json.loads(as_json.stdout)
    summary = _run(command, checkout).stderr.strip().splitlines()[-1]  # the text format ends with it
    readme = ["verl-cookbook", "check", "--lenient", README, "--verl-src", "."]
    shown = _run(readme, checkout)
    readme_zh = ["verl-cookbook", "check", "--lang", "zh", "--lenient", README, "--verl-src", "."]
    shown_zh = _run(readme_zh, checkout, "zh")
    return {
        "commit": commit,
        "command": " ".join(command),
        "findings": len(findings),
        "summary": summary,
        "docs_rst": len(list((checkout / "docs").rglob("*.rst"))),
        "docs_md": len(list((checkout / "docs").rglob("*.md"))),
        "readme_command": " ".join(readme),
        "readme_output": (shown.stdout + shown.stderr).rstrip("\n"),
        "readme_command_zh": " ".join(readme_zh),  # the 中文 page shows the run with --lang zh
        "readme_output_zh": (shown_zh.stdout + shown_zh.stderr).rstrip("\n"),
    }


if __name__ == "__main__":
    if len(sys.argv) != 2:
        raise SystemExit(__doc__)
    RECORD.write_text(json.dumps(measure(Path(sys.argv[1])), indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
    print(f"wrote {RECORD}")
