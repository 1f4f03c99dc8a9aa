"""Splits a callgrind profile's instructions into the Swift runtime's type look-ups and the
rest, for callgrind.sh and callgrind_python.sh.

Why: unspecialised generic code (OpenCombine's conduits, key-path projection) asks the runtime
for metadata such as `Optional<String>` on every change, casts ask whether a type conforms to a
protocol, and generic code asks for witness tables. The runtime answers from hash tables keyed by addresses, so how long each probe
runs depends on where the loader placed the library's types: rebuilding the library with one
error message reworded moved a round trip by 160 instructions and create + subscribe + release
by 5,000, all of it inside these look-ups. The number of look-ups and the instructions outside
them do not move; they are what a change of code is judged on.

Usage: python3 callgrind_split.py CASE OPS ONE.out TWO.out, the profiles of a run and of one that
did OPS operations more: prints the case's line, per operation (what the run's set-up costs, the
same in both, drops out).
"""
import re
import subprocess
import sys

# The runtime's entry points for generic metadata, conformances and witness tables. They call one another
# only while a type is first instantiated (set-up, which the scripts' N-against-2N difference
# leaves out), so their inclusive costs add up without counting an operation's work twice.
ENTRY_POINTS = ("swift_getGenericMetadata", "swift_getCanonicalPrespecializedGenericMetadata",
                "swift_conformsToProtocolWithExecutionContext", "swift_conformsToProtocolCommon",
                "swift_getWitnessTable", "swift_getAssociatedTypeWitness",
                "swift_getAssociatedConformanceWitness")


def annotate(path: str, *options: str) -> str:
    return subprocess.run(["callgrind_annotate", "--threshold=100", *options, path],
                          capture_output=True, text=True, check=True).stdout


def number(text: str) -> int:
    return int(text.replace(",", ""))


def split(path: str) -> tuple[int, int, int]:
    """(all instructions, those inside the runtime's type look-ups, how many look-ups)"""
    inclusive = annotate(path, "--inclusive=yes")
    callers = annotate(path, "--tree=caller")
    total = number(re.search(r"^\s*([\d,]+) .*PROGRAM TOTALS", inclusive, re.M).group(1))
    inside = look_ups = 0
    for name in ENTRY_POINTS:
        line = re.compile(r"^\s*([\d,]+) \([^)]*\)\s+(\*\s+)?\?\?\?:" + re.escape(name) + r" \[")
        cost = next((m for m in map(line.match, inclusive.splitlines()) if m), None)
        if cost is None:
            continue
        inside += number(cost.group(1))
        # In the caller tree a function's block lists its callers ("< caller (Nx)") and ends
        # with its own line ("* function"): the calls are the callers' counts added up.
        block: list[str] = []
        for text in callers.splitlines():
            match = line.match(text)
            if match and match.group(2):
                look_ups += sum(number(n) for n in re.findall(r"\(([\d,]+)x\)", "\n".join(block)))
                break
            if text.strip():
                block.append(text)
            else:
                block = []
    return total, inside, look_ups


def per_operation(case: str, ops: float, one: str, two: str) -> str:
    total, inside, look_ups = ((b - a) / ops for a, b in zip(split(one), split(two)))
    return (f"{case:40} {total:10.0f} instructions per operation: {total - inside:8.0f} outside "
            f"{look_ups:5.1f} runtime type look-ups ({inside:.0f} inside)")


if __name__ == "__main__":
    print(per_operation(sys.argv[1], float(sys.argv[2]), sys.argv[3], sys.argv[4]))
