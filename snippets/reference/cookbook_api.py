from pathlib import Path

from verl_cookbook import runner, verl_source
from verl_cookbook.facts import load_facts

tree = verl_source.resolve()  # no version given: the pinned release (verl 0.9.1)
report = runner.check_paths([Path("docs")], load_facts(tree))
for finding in report.findings:
    print(finding.path, finding.line, finding.rule, finding.message)
print(f"{report.pages} pages, {report.blocks} code blocks, {len(report.findings)} findings")
