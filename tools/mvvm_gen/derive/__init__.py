"""``python3 -m mvvm_gen derive``: a package's registration, derived from its view models' code.

    python3 -m mvvm_gen derive --package DIR --target NAME [--target NAME...] [--output FILE] [--control FILE]
                               [--check] [-Xswiftc FLAG] [-Xlinker FLAG] [-Xcc FLAG]

Reads the target's ``ObservableObject`` and ``@Observable`` classes (and its classes of the
transform style, ``transform(input:)``; of every target named, for a package whose models and view
models are modules of their own) through the compiler's symbol
graphs (``swift package dump-symbol-graph``, which builds the package first: give the build flags
the package's library is built with, ``-Xlinker --version-script=...``, so that it builds what
``swift build`` with them builds) and writes one Swift file (default
``<first target's folder>/Exports.derived.swift``) holding ``register<Target>Exports()`` (with
several targets, ``register<Package>Exports()``, the package's name in CamelCase), which registers
them as a careful hand registration would, with the records and enums their members use. The file
joins a module: the target's own (internal classes and members too), or, with ``--output`` in
another target's folder, that one (public and package ones). A package without a registration
hook gets one beside it (``LibraryHook.swift``). What cannot be exported is left out with a
comment in the file and a warning here; the control file (``mvvm-derive.json`` beside
``Package.swift``, :mod:`.control`) excludes, renames and documents where the code cannot say.
``--check`` writes nothing and exits 1, showing the difference, when the file is not what the code
derives now. When the package does not build with the derived file as it is (stale), the file is
replaced for the build by a stub of its function and put back after a check."""

from __future__ import annotations

import argparse
import re
import sys
from pathlib import Path
from typing import Dict, List, Optional, Sequence, Set, Tuple

from .. import files, naming
from . import render
from .classes import Classes
from .control import FILE_NAME, load
from .graph import DeriveError, Graph, Symbol, Target, dump, targets
from .values import Values

#: The build flags passed through to SwiftPM, as `swift build` takes them.
BUILD_FLAGS = ("-Xswiftc", "-Xlinker", "-Xcc", "-Xcxx")
#: The file a package without a registration hook gets, beside the derived file.
HOOK_FILE = "LibraryHook.swift"


def split_build_flags(argv: Sequence[str]) -> Tuple[List[str], List[str]]:
    """The arguments, and the ``-Xlinker FLAG`` pairs among them (argparse would take a flag
    that starts with ``-`` for an option of its own)."""
    rest: List[str] = []
    flags: List[str] = []
    items = iter(argv)
    for item in items:
        if item in BUILD_FLAGS:
            flags += [item, next(items, "")]
        else:
            rest.append(item)
    return rest, flags


def main(argv: Optional[Sequence[str]] = None) -> int:
    arguments, build_flags = split_build_flags(list(sys.argv[1:] if argv is None else argv))
    parser = argparse.ArgumentParser(
        prog="python3 -m mvvm_gen derive", description="A package's registration, derived from its view models' code.",
        epilog="-Xswiftc, -Xlinker, -Xcc and -Xcxx FLAG pass to the package's build as `swift build` takes them: give the "
               "flags its library is built with (-Xlinker --version-script=.../exports.map).")
    parser.add_argument("--package", default=".", help="the Swift package (default: the current folder)")
    parser.add_argument("--target", required=True, action="append",
                        help="the target whose view models are registered (again for each further one)")
    parser.add_argument("--output", help="the derived file (default: <first target's folder>/Exports.derived.swift)")
    parser.add_argument("--control", help="the control file (default: %s beside Package.swift)" % FILE_NAME)
    parser.add_argument("--check", action="store_true", help="write nothing; exit 1 when the derived file is stale")
    parser.add_argument("--scratch-path", help="the build's scratch folder, as `swift build --scratch-path` takes it "
                                               "(default: the package's .build)")
    args = parser.parse_args(arguments)
    if args.scratch_path:
        build_flags = ["--scratch-path", str(Path(args.scratch_path).resolve())] + build_flags
    try:
        return derive(args, build_flags)
    except DeriveError as error:
        print("mvvm_gen derive: %s" % error, file=sys.stderr)
        return 2


def _camel_case(name: str) -> str:
    """A package's name as a Swift identifier's part: ``todo-app`` -> ``TodoApp``."""
    return "".join(part[:1].upper() + part[1:] for part in re.split(r"[^A-Za-z0-9]+", name) if part)


def _output_target(all_targets: Dict[str, Target], output: Path) -> Target:
    for target in all_targets.values():
        if target.path == output.parent or target.path in output.parents:
            return target
    raise DeriveError("%s is in no target's folder: the derived file joins a module" % output)


def _declared(text: Optional[str]) -> Dict[str, Set[str]]:
    """The conformances a derived file declares, by type: the package's own are the others."""
    found: Dict[str, Set[str]] = {}
    for type_name, protocol in re.findall(r"^extension ([\w.]+): (\w+) \{\}$", text or "", flags=re.M):
        found.setdefault(type_name, set()).add(protocol)
    return found


def _symbol_graph(package: Path, modules: Sequence[str], output: Path, old_text: Optional[str], function: str,
                  build_flags: Sequence[str]) -> Graph:
    """The package's symbol graphs; when the package does not build with the derived file as it
    is (a view model changed under it), with a stub of the file's function in its place (its old
    conformances kept, then none), the file put back afterwards by the caller."""
    files, log = dump(package, modules, build_flags)
    if files is not None:
        return Graph.load(files)
    imports = re.findall(r"^import (\w+)$", old_text or "", flags=re.M) or ["MVVMExport"]
    declared = re.findall(r"^extension ([\w.]+): (\w+) \{\}$", old_text or "", flags=re.M)
    adapted = render.old_adapters(old_text)
    # The old conformances and adapters (a hand registration may name an adapter), then none.
    stubs = [render.stub(function, imports, declared, adapted)] if declared or adapted else []
    stubs.append(render.stub(function, ["MVVMExport"], []))
    for stub in stubs:
        output.write_text(stub)
        files, log = dump(package, modules, build_flags)
        if files is not None:
            print("mvvm_gen derive: the package does not build %s %s (%s): derived with a stub of %s() in its place"
                  % ("with" if old_text is not None else "without", output,
                     "stale?" if old_text is not None else "a hook calls it", function), file=sys.stderr)
            return Graph.load(files)
    raise DeriveError("the package does not build, even with a stub in place of %s:\n%s" % (output, log.strip()[-4000:]))


def derive(args: argparse.Namespace, build_flags: Sequence[str]) -> int:
    package = Path(args.package).resolve()
    control = load(Path(args.control).resolve() if args.control else package / FILE_NAME)
    package_name, all_targets = targets(package)
    for name in args.target:
        if name not in all_targets:
            raise DeriveError("no target %s in %s (its targets: %s)" % (name, package, ", ".join(sorted(all_targets))))
    chosen = [all_targets[name] for name in dict.fromkeys(args.target)]
    target = chosen[0]
    modules = [each.module for each in chosen]
    output = Path(args.output).resolve() if args.output else target.path / "Exports.derived.swift"
    into = _output_target(all_targets, output)
    if "MVVMExport" not in into.products:
        raise DeriveError('target %s holds the derived file: it depends on .product(name: "MVVMExport", package: "libmvvm")'
                          % into.name)
    function = "register%sExports" % (target.module if len(chosen) == 1 else _camel_case(package_name))
    old_text = output.read_text() if output.exists() else None
    try:
        graph = _symbol_graph(package, modules, output, old_text, function, build_flags)
    finally:
        # A stub stood in for the build alone: the file is put back as it was (what is derived
        # is written below).
        if (output.read_text() if output.exists() else None) != old_text:
            if old_text is None:
                output.unlink()
            else:
                output.write_text(old_text)

    def visible(symbol: Symbol) -> bool:
        if symbol.module == into.module:
            return symbol.access in ("internal", "package", "public", "open")
        return symbol.access in ("package", "public", "open")

    values = Values(graph, visible, _declared(old_text), control)
    classes = Classes(graph, modules, control, values, naming.load(), visible, into.module)
    body = render.records(values, control) + [render.class_left_out(*excluded) for excluded in classes.excluded]
    body += [render.view_model(model) for model in classes.view_models.values()]
    unused = control.unused({model.symbol.qualified for model in classes.view_models.values()})
    if unused:
        raise DeriveError("%s names what the code of %s %s does not have: %s"
                          % (control.path, "module" if len(modules) == 1 else "modules", ", ".join(modules), ", ".join(unused)))
    for model in classes.view_models.values():
        for entry in model.entries:
            if entry.left_out and not entry.excluded and entry.warn:
                print("mvvm_gen derive: warning: %s.%s left out: %s" % (model.symbol.qualified, entry.swift, entry.left_out),
                      file=sys.stderr)
    for swift_name, why, by_control in classes.excluded:
        if not by_control:
            print("mvvm_gen derive: warning: %s %s" % (swift_name, why), file=sys.stderr)
    if not classes.view_models:
        print("mvvm_gen derive: warning: %s has no ObservableObject or @Observable class to register"
              % ", ".join(modules), file=sys.stderr)

    command = "".join(" --target %s" % each.name for each in chosen)
    if args.output:
        command += " --output %s" % (output.relative_to(package) if package in output.parents else output)
    combine = "MVVMCombine" if "MVVMCombine" in into.products or not into.products else "OpenCombine"
    text = render.derived_file(command, modules, function, control.path.name if control.path else "",
                               render.imports(classes, values, into.module, modules, combine),
                               render.conformances(values), body, render.adapters(classes))
    outputs = [(output, text)]
    if not graph.hooks():
        outputs.append((output.parent / HOOK_FILE, render.hook(function)))
    regenerate = "python3 -m mvvm_gen derive --package %s%s" % (args.package, command)
    return files.write(outputs, args.check, regenerate)
