#!/usr/bin/env python3
"""The code blocks of the project's Markdown files, for Tests/packages/run.sh to build and run as
written.

    code_blocks.py files OUTDIR FILE.md...   writes each Swift or C block whose first line names
                                             its file (`// greeter/Package.swift`,
                                             `/* greeter/app.c: ... */`) to OUTDIR/that path,
                                             without that line
    code_blocks.py list OUTDIR FILE.md...    writes every block of a language we run (c, python,
                                             sh) to OUTDIR/NAME-N.LANG (NAME: the page's path,
                                             a dash for each slash), and OUTDIR/NAME-N.expected
                                             with the lines its `prints` comments announce, and
                                             prints one line per block: LANG PATH, followed by
                                             the file it names when it names one (a C file of a
                                             package, which a session of the page builds)

A `prints` comment (`/* prints X */`, `# prints: X`) says what the line before it prints, so the
README's promises are the test's expectations.
"""
import pathlib
import re
import sys

BLOCK = re.compile(r"^```([A-Za-z0-9_+-]*)[^\n]*\n(.*?)^```", re.M | re.S)
LABEL = re.compile(r"^(?://|/\*)\s+([\w./-]+\.(swift|c))\b.*$")
PRINTS = re.compile(r"(?:/\*|#)\s*prints:?\s+(.*?)\s*(?:\*/)?\s*$")


def blocks(path):
    text = pathlib.Path(path).read_text()
    return [(m.group(1), m.group(2)) for m in BLOCK.finditer(text)]


def write_files(outdir, paths):
    for path in paths:
        for language, code in blocks(path):
            first, _, rest = code.partition("\n")
            label = LABEL.match(first)
            if not label or label.group(2) != language:
                continue
            target = pathlib.Path(outdir, label.group(1))
            if target.exists():
                sys.exit(f"{path}: two blocks write {label.group(1)}")
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_text(rest)
            print(f"{language} {target}")


def list_blocks(outdir, paths):
    extensions = {"c": "c", "python": "py", "sh": "sh"}
    pathlib.Path(outdir).mkdir(parents=True, exist_ok=True)
    for path in paths:
        # README.md -> README, docs/packages.md -> docs-packages: unique, however many READMEs
        name = str(pathlib.Path(path).with_suffix("")).replace("/", "-")
        for index, (language, code) in enumerate(blocks(path)):
            if language not in extensions:
                continue
            stem = pathlib.Path(outdir, f"{name}-{index}")
            stem.with_suffix("." + extensions[language]).write_text(code)
            expected = [m.group(1) for line in code.splitlines() if (m := PRINTS.search(line))]
            stem.with_suffix(".expected").write_text("".join(line + "\n" for line in expected))
            label = LABEL.match(code.partition("\n")[0])
            named = f" {label.group(1)}" if label and label.group(2) == language else ""
            print(f"{language} {stem}.{extensions[language]}{named}")


if __name__ == "__main__":
    if len(sys.argv) < 4 or sys.argv[1] not in ("files", "list"):
        sys.exit(__doc__)
    (write_files if sys.argv[1] == "files" else list_blocks)(sys.argv[2], sys.argv[3:])
