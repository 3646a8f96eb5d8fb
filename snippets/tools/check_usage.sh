# the whole site (docs/ and snippets/) against the pinned verl release
verl-cookbook check
# one page, against another covered release
verl-cookbook check docs/backends/nccl-hccl.md --verl 0.9.0
# against the newest verl on PyPI
verl-cookbook check --verl latest
# another project's Markdown, against a verl checkout, guessing each block's kind
verl-cookbook check --lenient --verl-src ~/src/verl ~/src/verl/docs
# what the checker knows about verl, with source lines
verl-cookbook facts --format json > verl-facts.json
