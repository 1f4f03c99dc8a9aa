"""Publishers.Merge.swift and Publishers.Merge3.swift ... Publishers.Merge8.swift, from
``templates/merges.tmpl`` (``python3 -m mvvm_gen --merges Sources/MVVMRuntime/Operators``).

The merge publishers of two to eight upstreams differ only in how many they hold, so they are
written from one template, with Apple's names and shapes: each file has the publisher, its
`merge(with:...)` methods that widen it (up to eight), its `Equatable` conformance, and the
`Publisher.merge(with:...)` method that makes it. Their subscription is MergeInner.swift's. The
text is the template's; this module only chooses the blocks and the names they are filled with."""

from __future__ import annotations

from pathlib import Path
from typing import Dict, Iterable, List, Sequence, Tuple

from .templates import Templates

t = Templates("merges")

LETTERS = "ABCDEFGH"
#: Apple's names for the publishers a merge publisher's own `merge(with:...)` methods add.
ADDED = "ZYXWVU"
#: one ... eight, from the template.
COUNT_WORDS = dict(enumerate(t("count_words").split(), 1))
#: "A", "A second", ... "An eighth" (index 1...), from the template.
ORDINALS = [""] + t("ordinals").splitlines()


def name(n: int) -> str:
    return "Merge" if n == 2 else "Merge%d" % n


def file_name(n: int) -> str:
    return "Publishers.%s.swift" % name(n)


def where(pairs: Sequence[Tuple[str, str]], indent: str, first: Sequence[str] = ()) -> str:
    """A ``where`` clause: ``first`` clauses, then X and Y of the same kind for each pair, one a line."""
    clauses = list(first) + [t("same_kind", x=x, y=y) for x, y in pairs]
    lines = [t("where_first", indent=indent, clause=clauses[0])]
    lines += [t("where_more", indent=indent, clause=clause) for clause in clauses[1:]]
    return ",\n".join(lines)


def joined(block: str, separator: str, items: Iterable[Dict[str, object]]) -> str:
    """The block filled with each of ``items``, joined by ``separator``."""
    return separator.join(t(block, **item) for item in items)


def publisher_method(n: int) -> str:
    """`Publisher.merge(with:...)` making the merge of `n`."""
    if n == 2:
        return t("method_two", where=where([], "        ", ["Failure == P.Failure, Output == P.Output"]))
    params = list(LETTERS[1:n])
    publishers = ["pub" + LETTERS[i] for i in range(n)]
    return t("method_many", others=COUNT_WORDS[n - 1], method="merge(with:" + "_:" * (n - 2) + ")",
             subjects=joined("example_subject", "\n", ({"publisher": p} for p in publishers)),
             merged=", ".join(publishers[1:]),
             sends=joined("example_send", "\n", ({"publisher": p, "value": i + 1} for i, p in enumerate(publishers * 2))),
             printed=" ".join(str(v) for v in range(1, 2 * n + 1)),
             parameters=joined("method_parameter", "\n",
                               ({"name": p.lower(), "ordinal": ORDINALS[i + 2]} for i, p in enumerate(params))),
             generics=joined("generic", ", ", ({"type": p} for p in params)),
             arguments=joined("argument", ", _ ", ({"name": p.lower(), "type": p} for p in params)),
             name=name(n), types=", ".join(params),
             where=where(list(zip(params, params[1:])), "        ", ["Failure == B.Failure, Output == B.Output"]),
             values=", ".join(p.lower() for p in params))


def widening_method(n: int, m: int) -> str:
    """The method of the merge of `n` that makes the merge of `m` (n < m <= 8)."""
    added = ["P"] if m == n + 1 else list(ADDED[:m - n])
    kept = list(LETTERS[:n])
    if added == ["P"]:
        parameters = t("widening_other")
        arguments = t("argument", name="other", type="P")
        values = [p.lower() for p in kept] + ["other"]
        noun = t("another_publisher")
    else:
        further = t("further").splitlines()
        parameters = t("widening_parameters", parameters=joined("widening_parameter", "\n", (
            {"name": p.lower(), "which": further[min(i, 1)]} for i, p in enumerate(added))))
        arguments = joined("argument", ", _ ", ({"name": p.lower(), "type": p} for p in added))
        values = [p.lower() for p in kept + added]
        noun = t("other_publishers", count=COUNT_WORDS[m - n])
    return t("widening", noun=noun, parameters=parameters, generics=joined("generic", ", ", ({"type": p} for p in added)),
             arguments=arguments, name=name(m), types=", ".join(kept + added),
             where=where(list(zip([LETTERS[n - 1]] + added, added)), "            "), values=", ".join(values))


def source(n: int) -> str:
    letters = list(LETTERS[:n])
    members = "\n\n".join(t("member", ordinal=ORDINALS[i + 1], name=p.lower(), type=p) for i, p in enumerate(letters))
    return t("file", name=name(n), method=publisher_method(n), word=COUNT_WORDS[n],
             generics=joined("generic", ", ", ({"type": p} for p in letters)),
             where=where(list(zip(letters, letters[1:])), "        "), members=members + "\n",
             init_parameters=joined("init_parameter", "\n",
                                    ({"name": p.lower(), "ordinal": ORDINALS[i + 1]} for i, p in enumerate(letters))),
             init_arguments=joined("init_argument", ", ", ({"name": p.lower(), "type": p} for p in letters)),
             assignments=joined("assignment", "\n", ({"name": p.lower()} for p in letters)), count=n,
             attachments=joined("attachment", "\n", ({"name": p.lower(), "index": i} for i, p in enumerate(letters))),
             widening="".join("\n\n" + widening_method(n, m) for m in range(n + 1, 9)),
             equatable=joined("equatable", ", ", ({"type": p} for p in letters))) + "\n"


def files(folder: Path) -> List[Tuple[Path, str]]:
    """Each merge publisher's file in ``folder`` (Sources/MVVMRuntime/Operators) and its text."""
    return [(folder / file_name(n), source(n)) for n in range(2, 9)]
