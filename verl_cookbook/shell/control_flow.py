"""Control flow read statically: ``ControlFlow`` decides ``if``/``case`` conditions that compare known
strings (``[[ x == pattern ]]`` matches bash's glob) and runs the branch bash would take; when a condition is not
known it reads every branch and keeps the first branch's assignments, with a note naming what differs. A ``for``
over words whose number is known (``"${ARGS[@]}"`` of an array the script builds, even when a value in it comes
from a command's output) runs its body once per word, with ``continue`` and ``break`` (commands counted once);
other loops are read once, with a note on what they may add."""

from __future__ import annotations

import re

from tree_sitter import Node

from verl_cookbook.shell.expansion import Expander
from verl_cookbook.shell.patterns import glob_match
from verl_cookbook.shell.values import Field, Var, copy_vars, is_int, strip_split, var_text
from verl_cookbook.shell.words import shell_words

_MAX_LOOP = 1000  # words of a `for` loop run one by one


class LoopJump(Exception):  # noqa: N818 - named for what bash does
    """``continue`` or ``break`` in a loop body: raised by the statement, caught by the loop it leaves."""

    def __init__(self, kind: str) -> None:
        super().__init__(kind)
        self.kind = kind


class ControlFlow(Expander):
    """``if``, ``case`` and loops: the branch bash would take, or each branch read when that is not known."""

    loops = 0  # loops the statement being read is in: `continue` and `break` mean something only there

    def run(self, node: Node) -> None:
        """One statement (defined by the evaluator, which runs the branches chosen here)."""
        raise NotImplementedError

    def condition(self, node: Node | None) -> bool | None:
        """True/False when a condition compares strings the script fixes; None when it cannot be known."""
        if node is None:
            return None
        t = node.type
        if t == "list":
            kids = node.children
            result = self.condition(kids[0]) if kids else None
            i = 1
            while i + 1 < len(kids):
                op, right = kids[i].type, self.condition(kids[i + 1])
                if op == "&&":
                    result = False if result is False or right is False else (True if result and right else None)
                elif op == "||":
                    result = (
                        True
                        if result is True or right is True
                        else (False if result is False and right is False else None)
                    )
                i += 2
            return result
        if t == "negated_command":
            inner = self.condition(node.named_children[0]) if node.named_children else None
            return None if inner is None else not inner
        if t == "test_command":
            exprs = node.named_children
            return self.condition(exprs[0]) if len(exprs) == 1 else None
        if t == "parenthesized_expression":
            return self.condition(node.named_children[0]) if node.named_children else None
        if t == "unary_expression":
            op = self.text(node.children[0]) if node.children else ""
            arg = node.named_children[-1] if node.named_children else None
            if op == "!" and arg is not None:
                negated = self.condition(arg)
                return None if negated is None else not negated
            s = self._known_text(arg)
            if s is None or op not in ("-z", "-n"):
                return None
            return (s == "") if op == "-z" else (s != "")
        if t == "binary_expression":
            op_n = node.child_by_field_name("operator")
            op = self.text(op_n) if op_n is not None else ""
            if op in ("==", "=", "!=") and _in_double_brackets(node):
                return self._pattern_test(node, op_n, op == "!=")
            lhs = self._known_text(node.child_by_field_name("left"))
            rhs = self._known_text(node.child_by_field_name("right"))
            if lhs is None or rhs is None:
                return None
            if op in ("=", "=="):
                return lhs == rhs
            if op == "!=":
                return lhs != rhs
            if op in ("-eq", "-ne", "-lt", "-le", "-gt", "-ge") and is_int(lhs) and is_int(rhs):
                a, b = int(lhs), int(rhs)
                return {"-eq": a == b, "-ne": a != b, "-lt": a < b, "-le": a <= b, "-gt": a > b, "-ge": a >= b}[op]
            return None
        if t == "command":
            name = node.child_by_field_name("name")
            word = self.text(name) if name is not None else ""
            return {"true": True, "false": False, ":": True}.get(word)
        if t in ("string", "word", "simple_expansion", "expansion", "concatenation", "raw_string", "number"):
            s = self._known_text(node)
            return None if s is None else s != ""
        return None

    def _pattern_test(self, node: Node, op_n: Node | None, negate: bool) -> bool | None:
        """``[[ x == pattern ]]``: the right side is a glob (its quoted parts literal), matched by bash against the
        whole left side; None when that is not fixed by the script."""
        kids = node.children
        k = next((i for i, c in enumerate(kids) if op_n is not None and c.id == op_n.id), None)
        if k is None or k == 0 or k + 1 >= len(kids):
            return None
        left = self.join(kids[:k], quoted=True)
        pattern = self.join(kids[k + 1 :], quoted=False)
        if len(left) != 1 or len(pattern) != 1:
            return None
        got = glob_match(left[0], pattern[0])
        return None if got is None else got != negate

    def if_statement(self, node: Node) -> None:
        branches: list[tuple[Node | None, list[Node]]] = []  # (condition, body statements)
        cond: Node | None = node.child_by_field_name("condition")
        body: list[Node] = []
        seen_then = False
        for c in node.children:
            if c.type == "then":
                seen_then = True
            elif c.type in ("elif_clause", "else_clause"):
                if seen_then:
                    branches.append((cond, body))
                    seen_then = False
                if c.type == "elif_clause":
                    sub = [x for x in c.named_children]
                    ccond = c.child_by_field_name("condition") or (sub[0] if sub else None)
                    after = False
                    stmts = []
                    for x in c.children:
                        if x.type == "then":
                            after = True
                        elif after and x.is_named:
                            stmts.append(x)
                    branches.append((ccond, stmts))
                else:
                    branches.append((None, [x for x in c.named_children]))
                body = []
            elif seen_then and c.is_named and c.type != "comment":
                body.append(c)
        if seen_then:
            branches.append((cond, body))
        has_else = any(x.type == "else_clause" for x in node.children)
        self._choose(branches, has_else, node, "if")

    def _choose(
        self,
        branches: list[tuple[Node | None, list[Node]]],
        has_else: bool,
        node: Node,
        what: str,
        decided: bool = True,
    ) -> None:
        undecided: list[list[Node]] = []
        for i, (cond, stmts) in enumerate(branches):
            is_else = has_else and i == len(branches) - 1 and cond is None
            verdict = (True if is_else else self.condition(cond)) if decided else None
            if verdict is True and not undecided:
                for s in stmts:
                    self.run(s)
                return
            if verdict is False:
                continue
            undecided.append(stmts)
            if verdict is True:
                break
        if not undecided:
            return
        before = copy_vars(self.vars)
        results = []
        jumped = False
        for stmts in undecided:
            self.vars = copy_vars(before)
            try:
                for s in stmts:
                    self.run(s)
            except LoopJump:
                jumped = True  # the loop goes on: whether bash would leave this pass is not known
            results.append(self.vars)
        if jumped:
            self.note(
                node,
                f"`{what}` at this line decides a `continue` or `break` on something not known statically; the loop "
                "was read as if it went on",
            )
        self.vars = results[0]
        differ = sorted(
            k
            for k in set().union(*[set(r) for r in results])
            if any(var_text(r.get(k)) != var_text(results[0].get(k)) for r in results[1:])
        )
        if differ and (len(results) > 1 or not has_else):
            self.note(
                node,
                f"`{what}` at this line depends on something not known statically; its first branch was "
                f"followed for {', '.join(differ[:5])}{'…' if len(differ) > 5 else ''}",
            )

    def case_statement(self, node: Node) -> None:
        value = self._known_text(node.child_by_field_name("value"))
        undecided: list[list[Node]] = []
        for item in node.named_children:
            if item.type != "case_item":
                continue
            values = item.children_by_field_name("value")
            body = [c for c in item.named_children if c.type != "comment" and c not in values]
            texts = [self._known_text(v) for v in values]
            if value is not None and not undecided:
                if value in texts or "*" in texts:
                    for s in body:
                        self.run(s)
                    return
                if all(t is not None and not any(ch in t for ch in "*?[|") for t in texts):
                    continue
            undecided.append(body)
        self._choose([(None, b) for b in undecided], False, node, "case", decided=False)

    def loop(self, node: Node) -> None:
        """A ``for NAME in WORDS`` whose words are known runs its body once per word, as bash does (so
        ``ARGS+=("++x.${k}=1")`` over a literal list gives every override); any other loop (unknown words,
        ``while``, C-style ``for``) is read once, and a note says what it may add that was not followed."""
        body = node.child_by_field_name("body")
        var = node.child_by_field_name("variable")
        if node.type == "for_statement" and var is not None:
            values = node.children_by_field_name("value")
            fields = [f for g in shell_words(self.src, values) for f in self.word_fields(g)] if values else None
            name = self.text(var)
            # each word is one pass, as bash runs it; a word may hold parts not known (an element of an array set
            # from a command's output) as long as where one word ends is known
            if fields is not None and all(_one_word(f) for f in fields) and len(fields) <= _MAX_LOOP:
                sc = self.script
                self.loops += 1
                try:
                    for i, f in enumerate(fields):
                        self.vars[name] = Var([strip_split(f)], False, self.pos(node)[0])
                        kept = (len(sc.commands), len(sc.exports), len(sc.notes))
                        try:
                            if body is not None:
                                self.run(body)
                        except LoopJump as jump:
                            if jump.kind == "break":
                                break
                        finally:
                            if i:  # the commands are those of the first pass: a command is judged once, not per word
                                new_notes = [n for n in sc.notes[kept[2] :] if n not in sc.notes[: kept[2]]]
                                del sc.commands[kept[0] :], sc.exports[kept[1] :], sc.notes[kept[2] :]
                                sc.notes += list(dict.fromkeys(new_notes))  # a note of a later pass, once
                finally:
                    self.loops -= 1
                return
            self.vars[name] = Var(None, False, self.pos(node)[0])
            why = (
                f"more than {_MAX_LOOP} words"
                if fields is not None and all(_one_word(f) for f in fields)
                else "words not known statically"
            )
        else:
            why = "a condition not known statically"
        before = {k: var_text(v) for k, v in self.vars.items()}
        self.loops += 1
        try:
            if body is not None:
                self.run(body)
        except LoopJump:
            pass  # read once: what follows a `continue` or `break` in the body is not read
        finally:
            self.loops -= 1
        grown = sorted(k for k, v in self.vars.items() if var_text(v) != before.get(k) and k != self.text(var or node))
        if grown:
            self.note(
                node,
                f"the loop at this line repeats over {why}: it was read once, so what it adds to "
                f"{', '.join(f'`{k}`' for k in grown[:5])}{'…' if len(grown) > 5 else ''} may be incomplete",
            )


def _in_double_brackets(node: Node) -> bool:
    """Whether a test expression sits in ``[[ … ]]``, where ``==`` matches a pattern (in ``[ … ]`` it compares
    strings)."""
    parent = node.parent
    while parent is not None and parent.type != "test_command":
        parent = parent.parent
    return parent is not None and bool(parent.children) and parent.children[0].type == "[["


def _one_word(f: Field) -> bool:
    """Whether a field is known to be one word: each part is known, or is a quoted expansion of one value (not split,
    and not ``"${X[@]}"`` or ``"$@"`` of values not known, which are as many words as there are values)."""
    return all(s.known or not (s.split or _ALL_VALUES.search(s.text)) for s in f)


_ALL_VALUES = re.compile(r"\[@\]|^\$\{?[@*]")
