"""The generator's text (issue 48, item 6): a doc, an allowed string, a Swift name or a module name
is written as its author wrote it, and nothing in it breaks a generated file. A class doc ending
in a double quote made the stubs' docstring end in four quotes (a SyntaxError: a package's typed
wheel shipped an unusable .pyi). Each target is generated from one description whose every text
holds what breaks some language (triple and trailing quotes, ``*/`` and ``/*``, backslashes at a
line's end, trigraphs, line breaks of every kind, NUL and other control characters, ``${}``,
backticks, ``#{}``, ``\\(``), and is checked by that language's own tools: Python's parser and
mypy --strict, cc and c++ -Wall -Wextra -Werror -pedantic, tsc --strict, RBS's parser and
validator, swiftc's parser; and no text leaks out of its comment into the code (a marker word
of the docs appears in no token but a comment)."""

from __future__ import annotations

import ast
import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any, Dict, Iterator, List

import pytest

from mvvm_gen import c, dts, fuzz, python, ruby, swift
from mvvm_gen.escape import c_string, python_string, rbs_string, swift_string, ts_string
from mvvm_gen.model import Library

ROOT = Path(__file__).resolve().parents[3]

#: In every doc, and in no name or allowed string: wherever it is found outside a comment or a
#: docstring, a doc has leaked into the code.
MARK = "LEAKED"

#: Texts that end a comment, a docstring or a literal early in one language or another.
HOSTILE = [
    'Ends in a quote: "done"',
    '"""Triple""" quotes, and \\""" escaped ones, and four """"',
    "A C comment's end */ int LEAKED_c; /* and a nested start",
    "A backslash at the end \\",
    "A star, a backslash and a line break *\\\n/ make */ in C; so does a slash /\\\n* start one",
    "A trigraph ??/\nof a backslash, ??? and ?\\?",
    "Line breaks: LF\nCRLF\r\nCR\rVT\x0bFF\x0cNEL\x85LS\u2028PS\u2029end",
    "Control characters: NUL \x00 BEL \x07 ESC \x1b DEL \x7f ^D \x04 ^Z \x1a tab\t",
    "Templates: ${name} `backtick ${x}` #{ruby} \\(swift) %s {braces} $$",
    "# a Ruby comment\n=begin\n__END__\n=end",
    "Non-ASCII: é, ü, 日本, 😀",
    '*/',
    '"',
    "'''Python's other quotes''' and \\'",
    '<!-- --> // /// */ /** @type {never} */',
]

#: Allowed strings (no marker: they are literals); RBS cannot write some exactly (a backslash).
VALUES = ["plain", 'say "hi"', "back\\slash", "new\nline", "*/", "${x}`y`", "", "é😀", "it's", "#{x}", "tab\t", "end\\"]


def _doc(index: int) -> str:
    """A hostile text, the marker word first on each of its lines (a line break of any language)."""
    text = "%s %d: %s" % (MARK, index, HOSTILE[index % len(HOSTILE)])
    return re.sub("[\r\n\x0b\x0c\x1c-\x1e\x85\u2028\u2029]+", lambda found: found.group(0) + MARK + " ", text)


def _description() -> List[Dict[str, Any]]:
    docs = iter(range(1000))

    def doc() -> str:
        return _doc(next(docs))

    properties = [{"name": "p%d" % i, "type": "string", "access": "rw" if i % 2 else "ro", "doc": doc(),
                   "c_type": "const char *"} for i in range(len(HOSTILE))]
    properties.append({"name": "mode", "type": "string", "access": "rw", "doc": doc(), "values": VALUES,
                       "c_type": "const char *"})
    properties.append({"name": "stamp", "type": "date", "access": "rw", "doc": doc(), "c_type": "double"})
    properties.append({"name": "flag", "type": "bool", "access": "rw", "doc": doc(), "c_type": "bool"})
    properties.append({"name": "count", "type": "int", "access": "ro", "doc": doc(), "c_type": "int64_t"})
    properties.append({"name": "line", "type": "record", "access": "rw", "doc": doc(), "optional": True,
                       "record": "line", "c_type": "const mvvm_value *"})
    commands = [{"name": "c%d" % i, "arguments": [{"name": "text", "type": "string", "c_type": "const char *"}],
                 "result": {"type": "int", "c_type": "int64_t"}, "throws": bool(i % 2), "async": False, "doc": doc()}
                for i in range(len(HOSTILE))]
    commands.append({"name": "reset", "arguments": [], "result": {"type": "none", "c_type": "void"},
                     "throws": False, "async": False, "doc": doc()})
    commands.append({"name": "fetch", "arguments": [], "result": {"type": "string", "c_type": "const char *"},
                     "throws": True, "async": True, "doc": doc()})
    record = {"name": "line", "display": "Line", "swift_name": "Line", "doc": doc(),
              "fields": [{"name": "f%d" % i, "type": "string", "c_type": "const char *", "doc": doc()} for i in range(3)]}
    return [
        {"class": "hostile", "display": "Hostile", "swift_name": 'Outer<"*/">.Inner', "swift_module": "Hostile",
         "doc": _doc(0), "properties": properties, "commands": commands,
         "signals": [{"name": "said", "type": "string", "doc": doc()}], "children": ["part"],
         "child_classes": {"part": "hostile_part"}, "records": {"line": record},
         "constructors": [{"name": "new", "doc": doc(), "arguments": []},
                          {"name": "new_with_text", "doc": doc(),
                           "arguments": [{"name": "text", "type": "string", "c_type": "const char *"}]}]},
        {"class": "hostile_part", "display": "HostilePart", "swift_name": "Part", "swift_module": "Hostile",
         "doc": HOSTILE[0], "properties": [], "commands": [], "signals": [], "children": [], "records": {},
         "child_classes": {}, "constructors": []},
    ]


def _docs(described: List[Dict[str, Any]]) -> Iterator[str]:
    for cls in described:
        yield cls["doc"]
        for member in cls["properties"] + cls["commands"] + cls["signals"] + cls["constructors"]:
            yield member["doc"]
        for record in cls["records"].values():
            yield record["doc"]
            yield from (f["doc"] for f in record["fields"])


DESCRIBED = _description()
LIBRARY = Library.from_json(json.dumps(DESCRIBED))


def _run(command: List[str], **options: Any) -> subprocess.CompletedProcess[str]:
    return subprocess.run(command, capture_output=True, text=True, timeout=600, **options)


def _tool(name: str) -> str:
    found = shutil.which(name)
    if found is None:
        pytest.fail("%s is not installed (make deps installs it)" % name)
    return found


def test_the_hostile_description_is_one_a_library_could_give() -> None:
    jsonschema = pytest.importorskip("jsonschema")
    schema = json.loads((ROOT / "docs" / "description.schema.json").read_text())
    jsonschema.validate(DESCRIBED, schema)
    assert all(MARK in doc for doc in _docs(DESCRIBED[:1]))


# --- Python


def _stubs() -> str:
    return python.generate_pyi(LIBRARY, LIBRARY, {"name": "hostile", "module": "Swift module Hostile",
                                                  "library": "libhostile.so"})


def test_the_python_stubs_parse_and_each_docstring_is_its_doc() -> None:
    tree = ast.parse(_stubs())
    docstrings = {node.name: ast.get_docstring(node, clean=False) for node in ast.walk(tree)
                  if isinstance(node, ast.ClassDef)}
    assert docstrings["Hostile"] == _doc(0)
    assert docstrings["HostilePart"] == HOSTILE[0]  # a doc ending in a double quote
    assert docstrings["Line"] == DESCRIBED[0]["records"]["line"]["doc"]
    docstring_nodes = {id(node.body[0].value) for node in ast.walk(tree)
                       if isinstance(node, (ast.ClassDef, ast.Module)) and node.body
                       and isinstance(node.body[0], ast.Expr) and isinstance(node.body[0].value, ast.Constant)}
    leaked = [ast.dump(node) for node in ast.walk(tree) if id(node) not in docstring_nodes
              and MARK in (node.value if isinstance(node, ast.Constant) and isinstance(node.value, str)
                           else getattr(node, "id", "") or getattr(node, "attr", "") or "")]
    assert not leaked
    literal = re.search(r"def mode\(self\) -> (Literal\[.*\]): \.\.\.", _stubs())
    assert literal is not None and ast.literal_eval(literal.group(1)[len("Literal"):]) == VALUES


def test_the_python_stubs_have_no_type_error(tmp_path: Path) -> None:
    from test_typing import _checker

    package = tmp_path / "hostile"
    package.mkdir()
    (package / "__init__.pyi").write_text(_stubs(), encoding="utf-8")
    (package / "py.typed").write_text("")
    env = dict(os.environ, MYPYPATH="%s%s%s" % (tmp_path, os.pathsep, ROOT / "bindings" / "python"))
    done = _run(_checker("mypy") + ["-p", "hostile"], cwd=tmp_path, env=env)
    assert done.returncode == 0, done.stdout + done.stderr


def test_python_literals_are_their_text() -> None:
    for text in HOSTILE + VALUES + ["\ud800 a lone surrogate"]:
        assert ast.literal_eval(python_string(text)) == text


# --- C


def test_the_c_header_compiles_as_c_and_cpp_and_its_docs_stay_in_comments(tmp_path: Path) -> None:
    header = tmp_path / "hostile.h"
    header.write_text(c.splice(c.new_header(header, ["Hostile */ int LEAKED_module; /*"]), c.declarations(LIBRARY)),
                      encoding="utf-8")
    use = tmp_path / "use.c"
    use.write_text('#include "hostile.h"\nint main(void) { return mvvm_hostile_new(0, 0) == MVVM_OK; }\n')
    flags = ["-Wall", "-Wextra", "-Werror", "-pedantic", "-I", str(ROOT / "include"), "-I", str(tmp_path)]
    for compiler, standard in ((_tool("cc"), ["-std=c11"]), (_tool("c++"), ["-std=c++17", "-x", "c++"])):
        done = _run([compiler] + standard + flags + ["-fsyntax-only", str(use)])
        assert done.returncode == 0, done.stderr
    # Preprocessed, comments are gone: no doc is left, and every typed call is declared.
    done = _run([_tool("cc"), "-std=c11", "-E", "-P", "-I", str(ROOT / "include"), str(header)])
    assert done.returncode == 0, done.stderr
    assert MARK not in done.stdout
    declared = set(re.findall(r"\b(mvvm_hostile\w*)\(", done.stdout))
    expected = {name for _, name, _ in swift.typed_calls(LIBRARY.classes[0])}
    assert declared == expected


def test_c_string_literals_are_their_text(tmp_path: Path) -> None:
    program = tmp_path / "strings.c"
    texts = [text for text in HOSTILE + VALUES if "\x00" not in text]  # a C string ends at its NUL
    program.write_text("#include <stdio.h>\nint main(void) {\n%s    return 0;\n}\n"
                       % "".join("    fputs(%s, stdout); putchar(0);\n" % c_string(text) for text in texts),
                       encoding="utf-8")
    built = tmp_path / "strings"
    done = _run([_tool("cc"), "-std=c11", "-Wall", "-Wextra", "-Werror", "-pedantic", str(program), "-o", str(built)])
    assert done.returncode == 0, done.stderr
    out = subprocess.run([str(built)], capture_output=True, timeout=60).stdout
    assert out.split(b"\x00")[:-1] == [text.encode() for text in texts]


def test_the_fuzzers_tables_write_class_names_as_c_strings() -> None:
    tables = fuzz.tables(LIBRARY)
    assert '{ mvvm_hostile_reset, "hostile" },' in tables and '    "hostile_part",' in tables


# --- TypeScript

_SCAN = r"""
const ts = require('typescript');
const text = require('fs').readFileSync(process.argv[1], 'utf8');
const scanner = ts.createScanner(ts.ScriptTarget.Latest, false, ts.LanguageVariant.Standard, text);
const trivia = new Set([ts.SyntaxKind.MultiLineCommentTrivia, ts.SyntaxKind.SingleLineCommentTrivia,
                        ts.SyntaxKind.WhitespaceTrivia, ts.SyntaxKind.NewLineTrivia]);
const code = [], strings = [];
for (let kind = scanner.scan(); kind !== ts.SyntaxKind.EndOfFileToken; kind = scanner.scan()) {
  if (kind === ts.SyntaxKind.StringLiteral) strings.push(scanner.getTokenValue());
  else if (!trivia.has(kind)) code.push(scanner.getTokenText());
}
console.log(JSON.stringify({code, strings}));
"""


def test_the_typescript_declarations_check_and_their_docs_stay_in_comments(tmp_path: Path) -> None:
    declarations = tmp_path / "hostile.d.ts"
    index = ROOT / "bindings" / "node" / "index"
    declarations.write_text(dts.generate_dts(LIBRARY, "libhostile.so\n*/ LEAKED", str(index)), encoding="utf-8")
    done = _run([_tool("tsc"), "--strict", "--noEmit", "--target", "es2020", "--lib", "es2020", "--module", "commonjs",
                 "--moduleResolution", "node", str(declarations)])
    assert done.returncode == 0, done.stdout + done.stderr
    env = dict(os.environ, NODE_PATH=os.pathsep.join(filter(None, [os.environ.get("NODE_PATH"), "/usr/share/nodejs"])))
    done = _run([_tool("node"), "-e", _SCAN, str(declarations)], env=env)
    assert done.returncode == 0, done.stderr
    tokens = json.loads(done.stdout)
    assert not [token for token in tokens["code"] if MARK in token]
    assert str(index) in tokens["strings"] and all(value in tokens["strings"] for value in VALUES)


def test_typescript_literals_are_their_text(tmp_path: Path) -> None:
    texts = HOSTILE + VALUES
    script = tmp_path / "strings.js"
    script.write_text("process.stdout.write(JSON.stringify([%s]));\n" % ", ".join(ts_string(t) for t in texts),
                      encoding="utf-8")
    done = _run([_tool("node"), str(script)])
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout) == texts


# --- Ruby (RBS)

_RBS = r"""
require "rbs"
require "json"
mvvm = RBS::Parser.parse_signature(File.read(ARGV[0], encoding: "UTF-8")).first
found = mvvm.members.map do |decl|
  methods = decl.members.grep(RBS::AST::Members::MethodDefinition).to_h do |method|
    types = method.respond_to?(:overloads) ? method.overloads.map(&:method_type) : method.types
    [method.name.to_s, types.map(&:to_s)]
  end
  [decl.name.to_s, { "comment" => decl.comment&.string, "methods" => methods }]
end
puts JSON.generate(found.to_h)
"""


def test_the_ruby_signatures_are_valid_and_their_docs_stay_in_comments(tmp_path: Path) -> None:
    sig = tmp_path / "sig"
    sig.mkdir()
    shutil.copy(ROOT / "bindings" / "ruby" / "sig" / "mvvm.rbs", sig)
    signatures = sig / "hostile.rbs"
    text = ruby.generate_rbs(LIBRARY, *ruby.ruby_reserved())
    signatures.write_text(text, encoding="utf-8")
    # RBS ends a comment at a line feed only.
    assert not [line for line in text.split("\n") if MARK in line and not line.lstrip().startswith("#")]
    ruby_program = _tool("ruby")
    done = _run([ruby_program, "-e", _RBS, str(signatures)])
    assert done.returncode == 0, done.stderr
    found = json.loads(done.stdout)
    assert found["Hostile"]["comment"].startswith(MARK + " 0: ")
    assert found["Line"]["comment"].startswith(MARK)
    # Values RBS cannot write exactly (a backslash) make the type the plain one.
    assert (found["Hostile"]["methods"]["mode"], found["Hostile"]["methods"]["mode="]) == (
        ["() -> String"], ["(text value) -> text"])
    done = _run([ruby_program, "-e", 'load Gem.bin_path("rbs", "rbs")', "--", "-I", str(sig), "validate", "--silent"])
    assert done.returncode == 0, done.stdout + done.stderr


def test_rbs_literals_are_their_text_or_none() -> None:
    writable = [text for text in HOSTILE + VALUES if rbs_string(text) is not None]
    assert "back\\slash" not in writable and 'say "hi"' in writable and "new\nline" in writable
    program = ('require "rbs"; require "json"; '
               'puts JSON.generate(JSON.parse(STDIN.read).map { |source| RBS::Parser.parse_type(source).literal })')
    done = _run([_tool("ruby"), "-e", program], input=json.dumps([rbs_string(text) for text in writable]))
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout) == writable


# --- Swift


def test_the_swift_typed_calls_parse(tmp_path: Path) -> None:
    definitions = tmp_path / "TypedCalls.generated.swift"
    text = swift.definitions(LIBRARY, "Hostile\n%s garbage(" % MARK)
    definitions.write_text(text, encoding="utf-8")
    assert not [line for line in re.split("\r\n|[\r\n]", text) if MARK in line and not line.startswith("//")]
    strings = tmp_path / "Strings.swift"
    strings.write_text("let texts: [String] = [%s]\n" % ", ".join(swift_string(t) for t in HOSTILE + VALUES),
                       encoding="utf-8")
    done = _run([_tool("swiftc"), "-parse", "-parse-as-library", str(definitions), str(strings)])
    assert done.returncode == 0, done.stdout + done.stderr


if __name__ == "__main__":
    sys.exit(pytest.main([__file__, "-q"]))
