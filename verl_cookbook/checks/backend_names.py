"""``<!-- check: backends names="naive,nccl,…" -->``: a sentence or row that lists every checkpoint-engine backend.

The list must be exactly the backend names verl registers (``CheckpointEngineRegistry.register`` in any module, read
from the facts, so it needs no source tree): a backend verl adds or removes makes the claim fail, naming the
difference. ``since=``/``until=`` say which releases the list is for, as on any claim.
"""

from __future__ import annotations

from verl_cookbook.checks import Context, claim_check
from verl_cookbook.findings import Finding
from verl_cookbook.markdown import Directive
from verl_cookbook.rules.claims import CLAIM_BACKENDS_DIFFER, CLAIM_MISSING_ATTR


@claim_check("backends")
def check_backends(d: Directive, ctx: Context) -> list[Finding]:
    listed = {n.strip() for n in d.attrs.get("names", "").split(",") if n.strip()}
    if not listed:
        return [CLAIM_MISSING_ATTR.at(d.page, d.line, 1, kind="backends", missing=["names"])]
    registered = {r["backend"] for r in ctx.facts.registrations}
    if listed == registered:
        return []
    label = ctx.facts.tree.version or ctx.facts.tree.label
    return [
        CLAIM_BACKENDS_DIFFER.at(
            d.page, d.line, 1, release=label, registered=sorted(registered),
            unlisted=sorted(registered - listed), extra=sorted(listed - registered),
        )
    ]  # fmt: skip
