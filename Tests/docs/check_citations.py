#!/usr/bin/env python3
"""Every file, folder, Swift target and `make` target the docs cite exists.

The docs are read as a reader meets them: in backticks and in links. A citation is
- a path (`Sources/MVVMExport/API.swift`, `docs/install.md`, a link's target): it must exist in
  the repository, from its root or from the citing document's folder (as its links resolve);
- a bare file name with an extension (`Published.swift`, `check_header.sh`): some file of the
  repository has that name;
- `make NAME`: the Makefile (or the one of the folder a `make -C DIR` names) has that target;
- an `MVVM…` name: a target or product of one of the packages, or a type the sources declare.

What the docs name but the repository does not hold — a user's own files in an example, what a
build writes, a placeholder — is told apart by shape (under `build/`, `.build`, a `$VAR`, `<x>`,
`NAME`, a glob) or listed, with its reason, in `cited_elsewhere.txt` beside this script.

    python3 Tests/docs/check_citations.py [ROOT] [--doc FILE ...]

Prints each citation that names nothing and exits 1 when there is any.
"""
from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent

# The documents a reader reads: the front page, the project's records and every manual.
# CHANGELOG.md is history: it names what has since been renamed, on purpose.
DOC_GLOBS = ["README.md", "RELIABILITY.md", "BENCHMARKS.md", "docs/*.md", "bindings/*/README.md",
             "examples/*/README.md", "examples/*/*/README.md", "Tests/*/README.md"]

FILE_EXTENSIONS = ("swift c h py pyi sh md rb rbs lua js mjs cjs ts json toml txt supp in "
                   "modulemap gir typelib css html yml yaml cfg ini plist png gyb").split()
EXTENSION = "|".join(sorted(FILE_EXTENSIONS, key=len, reverse=True))
BARE_FILE = re.compile(rf"^[A-Za-z0-9_][A-Za-z0-9_.+-]*\.(?:{EXTENSION})$")
PATHLIKE = re.compile(r"^[A-Za-z0-9_.+@-]+(?:/[A-Za-z0-9_.+@-]+)+/?$")
# `make [-C DIR] [VAR=value ...] TARGET ...`, at the start of a code span or of a shell command.
MAKE = re.compile(r"(?:^|&&|;|\||\$)\s*make\s+([^;&|`]*)")
SWIFT_NAME = re.compile(r"^MVVM[A-Za-z0-9]+$")
INLINE_CODE = re.compile(r"(?<!`)`([^`\n]+)`(?!`)")
LINK = re.compile(r"\]\(([^)\s]+)\)")
FENCE = re.compile(r"^(```|~~~)")

# Shapes that stand for something the repository does not hold.
NOT_IN_REPOSITORY = re.compile(
    r"(^build/|/build/|\.build|^/|^~|\$|<|>|\*|\{|…|\.\.\.|NAME|^https?:|^[a-z]+://|node_modules"
    r"|^\.\./shared|^dist/|\.egg-info|__pycache__|\bsite-packages\b|(?:^|/)[A-Z][A-Z_]+/|\.[A-Z][A-Z_]*(?:\.|$)|%)")


def repository_files(root: Path) -> tuple[set[str], set[str], set[str]]:
    """The repository's files (what git tracks and would track; every file of a copy that is no
    checkout), its folders, and its files' names."""
    if (root / ".git").exists():
        listed = subprocess.run(["git", "-C", str(root), "ls-files", "--cached", "--others", "--exclude-standard"],
                                check=True, capture_output=True, text=True).stdout.split("\n")
    else:
        skipped = {".git", ".build", "build", "node_modules", "__pycache__"}
        listed = [str(path.relative_to(root)) for path in root.rglob("*")
                  if path.is_file() and not skipped & set(path.relative_to(root).parts)]
    files = {name for name in listed if name and (root / name).exists()}
    folders = {str(Path(name).parent) for name in files}
    folders |= {str(parent) for name in folders for parent in Path(name).parents}
    return files, folders, {Path(name).name for name in files}


def make_targets(makefile: Path) -> set[str]:
    targets: set[str] = set()
    if not makefile.exists():
        return targets
    for line in makefile.read_text().splitlines():
        match = re.match(r"^([A-Za-z0-9_.%/ -]+?)\s*:(?!=)", line)
        if match and not line.startswith("\t"):
            targets.update(match.group(1).split())
    return targets


def swift_names(root: Path, files: set[str]) -> set[str]:
    names: set[str] = set()
    for manifest in (name for name in files if name.endswith("Package.swift")):
        names.update(re.findall(r'name:\s*"([^"]+)"', (root / manifest).read_text()))
    declaration = re.compile(r"\b(?:class|struct|enum|protocol|typealias|actor|func|var|let|case)\s+(MVVM\w+)")
    for source in (name for name in files if name.endswith((".swift", ".h", ".c"))):
        text = (root / source).read_text(errors="replace")
        names.update(declaration.findall(text))
        names.update(re.findall(r"\b(MVVM[A-Z]\w*)\s*[({=]", text))
        names.update(re.findall(r"#define\s+(MVVM\w+)", text))
    return names


def cited_elsewhere() -> set[str]:
    path = HERE / "cited_elsewhere.txt"
    return {line.split("#", 1)[0].strip() for line in path.read_text().splitlines()
            if line.split("#", 1)[0].strip()} if path.exists() else set()


def prose_lines(text: str):
    """Each line outside fenced blocks, with its number; the shell lines of fenced blocks too,
    for their `make` commands."""
    fenced = False
    language = ""
    for number, line in enumerate(text.splitlines(), 1):
        if FENCE.match(line.strip()):
            fenced = not fenced
            language = line.strip()[3:].strip() if fenced else ""
            continue
        if not fenced:
            yield number, line, "prose"
        elif language in ("", "sh", "bash", "shell", "console"):
            yield number, line, "shell"


def check(root: Path, documents: list[Path]) -> list[str]:
    files, folders, basenames = repository_files(root)
    swift = swift_names(root, files)
    top_level = {name.split("/", 1)[0] for name in files} | {".."}
    allowed = cited_elsewhere()
    makefiles: dict[str, set[str]] = {}
    problems: list[str] = []

    def exists(path: str, document: Path) -> bool:
        path = path.rstrip("/").split("#", 1)[0].split(":", 1)[0]
        if not path:
            return True
        relative_to_doc = (document.parent / path).resolve()
        try:
            from_doc = str(relative_to_doc.relative_to(root))
        except ValueError:
            from_doc = None
        return any(candidate in files or candidate in folders for candidate in (path, from_doc) if candidate)

    for document in documents:
        name = str(document.relative_to(root))
        for number, line, where in prose_lines(document.read_text()):
            where_cited = f"{name}:{number}"
            citations = [] if where == "shell" else INLINE_CODE.findall(line)
            for target in ([] if where == "shell" else LINK.findall(line)):
                if not NOT_IN_REPOSITORY.search(target) and not target.startswith(("#", "mailto:")):
                    if not exists(target, document):
                        problems.append(f"{where_cited}: the link {target} names no file of the repository")
            for cited in citations:
                words = cited.split()
                for word in words if len(words) > 1 else [cited]:
                    word = word.strip("(),;\"'")
                    if word in allowed or NOT_IN_REPOSITORY.search(word):
                        continue
                    if PATHLIKE.match(word) and ("." in Path(word).name or word.endswith("/")):
                        # Another project's path (`gobject/gsignal.c`) or a user's (`greeter/app.c`)
                        # starts with no folder of this repository.
                        first = word.split("/", 1)[0]
                        ours = first in top_level or (document.parent / first).exists()
                        if ours and not exists(word, document):
                            problems.append(f"{where_cited}: `{word}` is no file or folder of the repository")
                    elif BARE_FILE.match(word) and len(words) == 1:
                        if word not in basenames and not exists(word, document):
                            problems.append(f"{where_cited}: no file of the repository is named `{word}`")
                    elif SWIFT_NAME.match(word) and len(words) == 1 and word not in swift:
                        problems.append(f"{where_cited}: `{word}` is no Swift target, product or declaration")
            for text in [line] if where == "shell" else citations:
                for match in MAKE.finditer(text):
                    words = match.group(1).split()
                    folder, names = ".", []
                    while words:
                        word = words.pop(0)
                        if word == "-C" and words:
                            folder = words.pop(0)
                        elif word.startswith("-") or "=" in word:
                            continue
                        elif re.fullmatch(r"[a-z][a-z0-9_-]*", word) and not word.endswith("-"):
                            names.append(word)
                        else:
                            break  # `make test-NAME`, prose after the command
                    if Path(folder).name == "libmvvm":
                        folder = "."  # the walkthroughs' checkout beside the user's package
                    if NOT_IN_REPOSITORY.search(folder):
                        continue
                    targets = makefiles.setdefault(folder, make_targets(root / folder / "Makefile"))
                    for target in names:
                        if target not in targets and f"make {target}" not in allowed:
                            problems.append(f"{where_cited}: `make {target}` names no target of {folder}/Makefile")
    return problems


def main(argv: list[str]) -> int:
    root = Path(argv[0]).resolve() if argv and not argv[0].startswith("--") else HERE.parent.parent
    if "--doc" in argv:
        documents = [Path(name).resolve() for name in argv[argv.index("--doc") + 1:]]
    else:
        documents = sorted({path for pattern in DOC_GLOBS for path in root.glob(pattern)})
    problems = check(root, documents)
    for problem in problems:
        print(problem)
    print(f"{len(documents)} documents read; {len(problems)} citations name nothing")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
