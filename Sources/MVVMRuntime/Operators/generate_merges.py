#!/usr/bin/env python3
"""Writes Publishers.Merge.swift and Publishers.Merge3.swift ... Publishers.Merge8.swift.

The merge publishers of two to eight upstreams differ only in how many they hold, so they are
written from one template, with Apple's names and shapes: each file has the publisher, its
`merge(with:...)` methods that widen it (up to eight), its `Equatable` conformance, and the
`Publisher.merge(with:...)` method that makes it. Their subscription is MergeInner.swift's.

    python3 Sources/MVVMRuntime/Operators/generate_merges.py          # writes the files
    python3 Sources/MVVMRuntime/Operators/generate_merges.py --check  # fails if one is stale
"""
import pathlib
import sys

HERE = pathlib.Path(__file__).resolve().parent
LETTERS = "ABCDEFGH"
# Apple's names for the publishers a merge publisher's own `merge(with:...)` methods add.
ADDED = "ZYXWVU"
COUNT_WORDS = {1: "one", 2: "two", 3: "three", 4: "four", 5: "five", 6: "six", 7: "seven", 8: "eight"}
ORDINALS = ["", "A", "A second", "A third", "A fourth", "A fifth", "A sixth", "A seventh",
            "An eighth"]


def name(n):
    return "Merge" if n == 2 else f"Merge{n}"


def same_kind(pairs):
    """`X.Failure == Y.Failure, X.Output == Y.Output` for each pair, one pair a line."""
    return [f"{x}.Failure == {y}.Failure, {x}.Output == {y}.Output" for x, y in pairs]


def where(clauses, indent):
    lines = [f"{indent}where {clauses[0]}"]
    lines += [f"{indent}      {clause}" for clause in clauses[1:]]
    return ",\n".join(lines)


def example(n):
    """An example in the manner of Apple's: each publisher sends in turn, twice."""
    pubs = [f"pub{LETTERS[i]}" for i in range(n)]
    lines = [f"///     let {p} = PassthroughSubject<Int, Never>()" for p in pubs]
    lines += ["///", "///     cancellable = pubA",
              f"///         .merge(with: {', '.join(pubs[1:])})",
              '///         .sink { print("\\($0)", terminator: " ") }', "///"]
    lines += [f"///     {p}.send({i + 1})" for i, p in enumerate(pubs)]
    lines += [f"///     {p}.send({n + i + 1})" for i, p in enumerate(pubs)]
    printed = " ".join(str(v) for v in range(1, 2 * n + 1))
    lines += ["///", f'///     // Prints: "{printed}"']
    return lines


def publisher_method(n):
    """`Publisher.merge(with:...)` making the merge of `n`."""
    params = list(LETTERS[1:n])
    others = COUNT_WORDS[n - 1]
    doc = ["/// Combines elements from this publisher with those from "
           + ("another publisher" if n == 2 else f"{others} other publishers")
           + ", delivering",
           "/// an interleaved sequence of elements.", "///"]
    if n == 2:
        doc += ["/// Use `merge(with:)` when you want to receive a new element whenever any of the",
                "/// upstream publishers emits an element. To receive tuples of the most-recent value",
                "/// from all the upstream publishers whenever any of them emit a value, use",
                "/// `combineLatest(_:)`. To combine elements from multiple upstream publishers, use",
                "/// `zip(_:)`.", "///",
                "/// In this example, as `merge(with:)` receives input from either upstream",
                "/// publisher, it republishes it to the downstream:", "///",
                "///     let publisher = PassthroughSubject<Int, Never>()",
                "///     let pub2 = PassthroughSubject<Int, Never>()", "///",
                "///     cancellable = publisher",
                "///         .merge(with: pub2)",
                '///         .sink { print("\\($0)", terminator: " " ) }', "///",
                "///     publisher.send(2)", "///     pub2.send(2)", "///     publisher.send(3)",
                "///     pub2.send(22)", "///     publisher.send(45)", "///     pub2.send(22)",
                "///     publisher.send(17)", "///",
                '///     // Prints: "2 2 3 22 45 22 17"', "///",
                "/// The merged publisher continues to emit elements until all upstream publishers",
                "/// finish. If an upstream publisher produces an error, the merged publisher fails",
                "/// with that error and cancels every upstream publisher.", "///",
                "/// The merged publisher asks each upstream publisher for one element as soon as it",
                "/// subscribes to it, and for the next each time it sends one of that publisher’s",
                "/// elements downstream; once the subscriber’s demand is unlimited, it asks each",
                "/// upstream publisher for an unlimited number. An element that arrives while the",
                "/// subscriber has no outstanding demand is held, the latest one of each upstream",
                "/// publisher (one that sends more than it was asked for replaces its held element),",
                "/// and held elements are sent in the order of the upstream publishers as demand",
                "/// arrives; the merged publisher finishes only after sending them. A request for",
                "/// no elements is ignored.", "///",
                "/// Two publishers of the same type make a `Publishers.MergeMany`, which behaves the",
                "/// same.", "///",
                "/// - Parameter other: Another publisher.",
                "/// - Returns: A publisher that emits an event when either upstream publisher emits",
                "///   an event."]
    else:
        method = "merge(with:" + "_:" * (n - 2) + ")"
        doc += [f"/// Use `{method}` when you want to receive a new element whenever any of the",
                "/// upstream publishers emits an element. To receive tuples of the most-recent value",
                "/// from all the upstream publishers whenever any of them emit a value, use",
                "/// `combineLatest`. To combine elements from multiple upstream publishers, use `zip`.",
                "///",
                f"/// In this example, as `{method}` receives input from the upstream",
                "/// publishers, it republishes the interleaved elements to the downstream:", "///"]
        doc += example(n)
        doc += ["///",
                "/// The merged publisher continues to emit elements until all upstream publishers",
                "/// finish. If an upstream publisher produces an error, the merged publisher fails",
                "/// with that error and cancels every upstream publisher. Demand behaves as",
                "/// described for `merge(with:)`.", "///", "/// - Parameters:"]
        doc += [f"///   - {p.lower()}: {ORDINALS[i + 2]} publisher." for i, p in enumerate(params)]
        doc += ["/// - Returns: A publisher that emits an event when any upstream publisher emits an",
                "///   event."]
    if n == 2:
        generics, args = "P: Publisher", "with other: P"
        result = "Publishers.Merge<Self, P>"
        clauses = ["Failure == P.Failure, Output == P.Output"]
        body = "return .init(self, other)"
    else:
        generics = ", ".join(f"{p}: Publisher" for p in params)
        args = "with " + ", _ ".join(f"{p.lower()}: {p}" for p in params)
        result = f"Publishers.{name(n)}<Self, {', '.join(params)}>"
        clauses = ["Failure == B.Failure, Output == B.Output"]
        clauses += same_kind(zip(params, params[1:]))
        body = f"return .init(self, {', '.join(p.lower() for p in params)})"
    lines = ["    " + line for line in doc]
    lines += [f"    public func merge<{generics}>(",
              f"        {args}",
              f"    ) -> {result}",
              where(clauses, "        "),
              "    {", f"        {body}", "    }"]
    return lines


def widening_method(n, m):
    """The method of the merge of `n` that makes the merge of `m` (n < m <= 8)."""
    added = ["P"] if m == n + 1 else list(ADDED[:m - n])
    last = LETTERS[n - 1]
    kept = list(LETTERS[:n])
    generics = ", ".join(f"{p}: Publisher" for p in added)
    if added == ["P"]:
        args = "with other: P"
        values = [p.lower() for p in kept] + ["other"]
    else:
        args = "with " + ", _ ".join(f"{p.lower()}: {p}" for p in added)
        values = [p.lower() for p in kept + added]
    clauses = same_kind(zip([last] + added, added))
    count = COUNT_WORDS[m - n]
    noun = "another publisher" if m == n + 1 else f"{count} other publishers"
    lines = [f"        /// Combines elements from this publisher’s upstream publishers with those from",
             f"        /// {noun}, delivering an interleaved sequence of elements.",
             "        ///"]
    if added == ["P"]:
        lines += ["        /// - Parameter other: Another publisher."]
    else:
        lines += ["        /// - Parameters:"]
        lines += [f"        ///   - {p.lower()}: {'Another' if i == 0 else 'A further'} publisher."
                  for i, p in enumerate(added)]
    lines += ["        /// - Returns: A publisher that emits an event when any upstream publisher emits",
              "        ///   an event.",
              f"        public func merge<{generics}>(",
              f"            {args}",
              f"        ) -> Publishers.{name(m)}<{', '.join(kept + added)}>",
              where(clauses, "            "),
              "        {", f"            return .init({', '.join(values)})", "        }"]
    return lines


def publisher_struct(n):
    letters = list(LETTERS[:n])
    generics = ", ".join(f"{p}: Publisher" for p in letters)
    clauses = same_kind(zip(letters, letters[1:]))
    word = COUNT_WORDS[n]
    lines = ["extension Publishers {", "",
             f"    /// A publisher created by applying the merge function to {word} upstream publishers.",
             f"    public struct {name(n)}<{generics}>: Publisher",
             where(clauses, "        "),
             "    {",
             "        /// The kind of values published by this publisher.", "        ///",
             "        /// This publisher uses its upstream publishers’ shared output type.",
             "        public typealias Output = A.Output", "",
             "        /// The kind of errors this publisher might publish.", "        ///",
             "        /// This publisher uses its upstream publishers’ shared failure type.",
             "        public typealias Failure = A.Failure", ""]
    for i, p in enumerate(letters):
        lines += [f"        /// {ORDINALS[i + 1]} publisher to merge.",
                  f"        public let {p.lower()}: {p}", ""]
    lines += [f"        /// Creates a publisher created by applying the merge function to {word} upstream",
              "        /// publishers.", "        /// - Parameters:"]
    lines += [f"        ///   - {p.lower()}: {ORDINALS[i + 1]} publisher to merge."
              for i, p in enumerate(letters)]
    lines += [f"        public init({', '.join(f'_ {p.lower()}: {p}' for p in letters)}) {{"]
    lines += [f"            self.{p.lower()} = {p.lower()}" for p in letters]
    lines += ["        }", "",
              "        /// Attaches the specified subscriber to this publisher.", "        ///",
              "        /// Implementations of `Publisher` must implement this method.", "        ///",
              "        /// The provided implementation of `Publisher.subscribe(_:)` calls this method.",
              "        ///",
              "        /// - Parameter subscriber: The subscriber to attach to this `Publisher`,",
              "        ///   after which it can receive values.",
              "        public func receive<Downstream: Subscriber>(subscriber: Downstream)",
              "            where Downstream.Failure == Failure, Downstream.Input == Output",
              "        {",
              f"            let inner = MergeInner(downstream: subscriber, upstreamCount: {n})",
              "            subscriber.receive(subscription: inner)"]
    lines += [f"            inner.attach({p.lower()}, at: {i})" for i, p in enumerate(letters)]
    lines += ["        }"]
    for m in range(n + 1, 9):
        lines += [""] + widening_method(n, m)
    lines += ["    }", "}", "",
              f"extension Publishers.{name(n)}: Equatable",
              f"    where {', '.join(f'{p}: Equatable' for p in letters)} {{}}"]
    return lines


def source(n):
    header = ["//", f"//  Publishers.{name(n)}.swift", "//  MVVMRuntime", "//",
              f"//  `{name(n)}` for OpenCombine 0.14.0, which ships without it. Generated, with",
              "//  `Merge` … `Merge8`, by generate_merges.py: edit that and run it, not this file.",
              "//", "", "@preconcurrency import OpenCombine", "", "extension Publisher {", ""]
    lines = header + publisher_method(n) + ["}", ""] + publisher_struct(n)
    return "\n".join(lines) + "\n"


def main():
    check = sys.argv[1:] == ["--check"]
    if sys.argv[1:] not in ([], ["--check"]):
        sys.exit(__doc__)
    stale = []
    for n in range(2, 9):
        path = HERE / f"Publishers.{name(n)}.swift"
        text = source(n)
        if check:
            if not path.exists() or path.read_text() != text:
                stale.append(path.name)
        else:
            path.write_text(text)
    if stale:
        sys.exit("stale (run generate_merges.py): " + ", ".join(stale))


if __name__ == "__main__":
    main()
