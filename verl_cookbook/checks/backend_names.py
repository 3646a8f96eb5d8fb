"""``<!-- check: backends names="naive,nccl,…" -->``: a sentence or row that lists every checkpoint-engine backend.

The list must be exactly the backend names verl registers (``CheckpointEngineRegistry.register`` in any module, read
from the facts, so it needs no source tree): a backend verl adds or removes makes the claim fail, naming the
difference. ``since=``/``until=`` say which releases the list is for, as on any claim.
"""

from __future__ import annotations

from verl_cookbook.checks import Context, claim_check
from verl_cookbook.findings import Finding
from verl_cookbook.markdown import Directive


@claim_check("backends")
def check_backends(d: Directive, ctx: Context) -> list[Finding]:
    listed = {n.strip() for n in d.attrs.get("names", "").split(",") if n.strip()}
    if not listed:
        return [Finding(d.page, d.line, 1, "claim/missing-attr", "`check: backends` needs names=…")]
    registered = {r["backend"] for r in ctx.facts.registrations}
    if listed == registered:
        return []
    parts = []
    if registered - listed:
        parts.append(f"registered but not listed: {', '.join(sorted(registered - listed))}")
    if listed - registered:
        parts.append(f"listed but not registered: {', '.join(sorted(listed - registered))}")
    label = ctx.facts.tree.version or ctx.facts.tree.label
    message = f"verl {label} registers {', '.join(sorted(registered))}; {'; '.join(parts)}"
    return [Finding(d.page, d.line, 1, "claim/backends-differ", message)]
