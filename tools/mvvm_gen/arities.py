"""The export API's methods of each number of arguments (commands, async commands,
constructors), written out from one template for 0 to MOST arguments."""

from __future__ import annotations

from .templates import Templates

t = Templates("arities")

#: The most arguments a command or constructor takes.
MOST = 8


def takes(numbers: range, method: str) -> str:
    """The line binding v1, v2… to the arguments as their Swift types; none for no argument."""
    if not numbers:
        return ""
    return t("takes", names=", ".join(t("value_name", n=n) for n in numbers),
             values=", ".join(t("take", n=n, method=method, index=n - 1) for n in numbers)) + "\n"


def methods(most: int = MOST) -> str:
    blocks = []
    for count in range(most + 1):
        numbers = range(1, count + 1)
        blocks.append(t(
            "command", count=count, plural="" if count == 1 else t("plural"),
            generics="".join(t("generic", n=n) for n in numbers),
            params="".join(t("parameter", n=n) for n in numbers),
            types="".join(t("type", n=n) for n in numbers),
            specs=", ".join(t("spec", n=n) for n in numbers),
            # Every argument taken as its Swift type before the command runs: a refusal
            # refuses the call (Argument.command, .take, .constructor).
            commandTakes=takes(numbers, "command"), asyncTakes=takes(numbers, "take"),
            constructorTakes=takes(numbers, "constructor"),
            passes="".join(t("pass", n=n) for n in numbers)))
    return t("file", most=most, methods="\n\n".join(blocks)) + "\n"
