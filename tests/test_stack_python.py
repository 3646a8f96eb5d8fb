"""review18b #2: the plans that ship are for CPython 3.11; verl's Ascend guide recommends 3.12 and its CANN 9.1.0
images are py3.12, so a reader on those asks for ``--python 3.12 --refresh`` (without --refresh the tool says so)."""

import re

from verl_cookbook.cli import main
from verl_cookbook.stack_facts import stack_facts
from verl_cookbook.stack_resolve import Ask, plans_snapshot


def test_every_plan_that_ships_is_for_cpython_311_the_default() -> None:
    pythons = {re.search(r" python=(\S+) ", key).group(1) for key in plans_snapshot()["plans"]}  # type: ignore[union-attr]
    assert pythons == {"3.11"} == {Ask("0.9.1", "A3").python}


def test_verls_091_guide_allows_310_to_312_and_recommends_312() -> None:
    (fact,) = stack_facts()["verl.guide.0.9.1.a3.python"][:1]
    assert fact.value == ">=3.10, <3.13" and "推荐 ``3.12``" in fact.text


def test_python_312_without_refresh_asks_for_refresh(capsys) -> None:
    code = main(["stack", "--verl", "0.9.1", "--product", "A3", "--python", "3.12"])
    _out, err = capsys.readouterr()
    assert code == 2 and "--refresh resolves it" in err
