"""mvvm_gen: every typed surface of a libmvvm library, generated from the classes it registers.

One source of truth: the library's own descriptions (``mvvm_classes``), read into one typed
model (:mod:`mvvm_gen.model`) and rendered through one template per language
(``templates/*.tmpl``), each language's naming rule in one file beside what renders it (C's and
Ruby's data, ``naming.json`` and ``naming-ruby.json``; Python's code, ``pynames.py``, which the
mvvm package imports too; JavaScript's beside the Node module, bindings/node/naming.json) and the
ABI modules' C types read from data (``abi-types.json``). It runs with the standard library alone: it imports no binding and runs no other language's interpreter. A class is declared once, in Swift;
every restatement of it is made here. Run it on libmvvm, or on a library of your own that links
MVVMExport:

    python3 -m mvvm_gen --library PATH/libyours.so [--module YourModule ...] \\
        [--header include/yours.h] [--swift Sources/Yours/TypedCalls.generated.swift] \\
        [--py-package DIR/NAME] [--rbs sig/yours.rbs [--rbs-namespace Yours]] [--dts classes.d.ts [--dts-module mvvm]] [--check]

--header fills the part of a header between the "@generated" markers with the typed C calls
(``mvvm_<class>_<verb>``) and their documentation (with --module, a header that does not exist
yet is made). --swift writes their definitions (``@_cdecl`` functions over the generic calls).
--py-package writes the typed Python package NAME of the library ``libNAME.so`` put beside it
(``__init__.py``, which loads it with ``mvvm.load`` on first use; ``__init__.pyi``, the stubs of
the classes the ``mvvm`` package builds of it at run time, named by the Python naming rule,
pynames.py; ``py.typed``), as a wheel of ``python3 -m mvvm_gen.package`` carries it
(examples/catalog/python/catalog is the catalog's); --rbs
Ruby signatures of those the Ruby binding builds, in the module a host names the library's namespace
by (``Yours = Mvvm.load(path)``: --rbs-namespace, by default the library's file name in CamelCase,
libyours.so -> Yours); --dts TypeScript declarations of those the Node.js module builds (importing
the module's own types from --dts-module: ``mvvm`` by default), named by the JavaScript naming rule
whose data is bindings/node/naming.json. --fuzz writes the fuzzer's tables of typed
calls. --arities writes the export API's command and constructor methods of each number of
arguments (Sources/MVVMExport/Generated/Arities.swift). --naming writes the registration check's
table of the naming rule (Sources/MVVMExport/Generated/Naming.swift) from ``naming.json``, whose
ABI names it refreshes from the header (``--c-header``). --py-abi writes the ``mvvm`` package's ABI module from the header (``--c-header``,
default include/mvvm.h), --rb-abi the Ruby bindings' (``abi.rb``), --status-swift and --status-c the status names'
tables (the library's, the C tests'). --merges writes the Merge publishers of two to eight upstreams
(Sources/MVVMRuntime/Operators/Publishers.Merge*.swift) from ``templates/merges.tmpl``. --module keeps the classes of one Swift module (a package of your
own; given several times, or as a comma-separated list, the classes of each, as the catalog's typed
calls are made from MVVMCatalog, MVVMViewModels and MVVMModels into include/mvvm_catalog.h). Without
--module, the classes of every module but the catalog's (those three): a library composed of several
packages (docs/packages.md) gets one header, one typed package; of the catalog's library alone (libcatalog.so), the catalog's. --check writes nothing and exits 1, showing the difference, when a file is not what it
would write (``make test`` runs it so). Standard library only.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import List, Optional, Tuple

from .model import GenerationError

# The renderers are imported by main() when it runs, not with the package: the mvvm package
# imports mvvm_gen.model and mvvm_gen.pynames, and nothing else of the generator.

__all__ = ["main"]


def main(argv: Optional[List[str]] = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    if argv[:1] == ["derive"]:
        from .derive import main as derive
        return derive(argv[1:])
    if argv[:1] == ["package"]:  # (python3 -m mvvm_gen.package, as an installed mvvm-gen says it)
        from .package import main as package
        return package(argv[1:])
    from . import files
    parser = argparse.ArgumentParser(prog="python3 -m mvvm_gen", description=(__doc__ or "").split("\n")[0])
    parser.add_argument("--library", help="the library to describe (yours, or an example's such as build/catalog/libcatalog.so)")
    parser.add_argument("--module", action="append",
                        help="the classes this Swift module registers (a package of your own); repeatable, or a "
                             "comma-separated list; default: every module's but the catalog's")
    parser.add_argument("--header", help="a header with @generated markers to fill (made if missing, with --module)")
    parser.add_argument("--swift", help="the Swift file of typed call definitions to write")
    parser.add_argument("--py-package", help="the typed Python package (a folder named as the package) to write")
    parser.add_argument("--rbs", help="the Ruby signatures (RBS) of the classes to write")
    parser.add_argument("--rbs-namespace",
                        help="the Ruby constant the signatures declare the classes in, as the host names the "
                             "library (Yours = Mvvm.load(path)); default: from the file name, libyours.so -> Yours")
    parser.add_argument("--dts", help="the TypeScript declarations (.d.ts) of the classes to write")
    parser.add_argument("--dts-module", default="mvvm",
                        help="the module the declarations import the Node binding's types from (default: mvvm)")
    parser.add_argument("--fuzz", help="the fuzzer's table of typed calls to write")
    parser.add_argument("--py-abi", help="the mvvm package's ABI module to write (from --c-header)")
    parser.add_argument("--rb-abi", help="the Ruby bindings' ABI module to write (from --c-header)")
    parser.add_argument("--c-header", default=None, help="the libmvvm header the ABI is read from (default include/mvvm.h)")
    parser.add_argument("--json", help="write the descriptions themselves, pretty-printed")
    parser.add_argument("--arities", help="the export API's methods of each number of arguments to write")
    parser.add_argument("--naming", help="the registration check's Swift table of the naming rule to write "
                                         "(and naming.json's ABI names, from --c-header)")
    parser.add_argument("--merges", help="the folder of the Merge publishers (Publishers.Merge*.swift) to write")
    parser.add_argument("--status-swift", help="the library's Swift table of status names to write (from --c-header)")
    parser.add_argument("--status-c", help="the C tests' table of status names to write (from --c-header)")
    parser.add_argument("--check", action="store_true", help="write nothing; exit 1 when a file is stale")
    args = parser.parse_args(argv)
    try:
        outputs = _render(args)
    except (GenerationError, ValueError, OSError) as error:
        print("mvvm_gen: %s" % error, file=sys.stderr)
        return 2
    return files.write(outputs, args.check, "make generate")


def _render(args: argparse.Namespace) -> List[Tuple[Path, str]]:
    from . import abi, arities, c, dts, fuzz, merges, naming, python, ruby, status, swift
    from .model import Library, descriptions_json
    from .modules import choose, module_list, modules_of, named

    outputs: List[Tuple[Path, str]] = []
    header = Path(args.c_header or Path(__file__).resolve().parents[2] / "include" / "mvvm.h")
    if args.py_abi:
        outputs.append((Path(args.py_abi), python.abi_module(abi.read(header))))
    if args.rb_abi:
        outputs.append((Path(args.rb_abi), ruby.abi_module(abi.read(header))))
    if args.arities:
        outputs.append((Path(args.arities), arities.methods()))
    if args.merges:
        outputs.extend(merges.files(Path(args.merges)))
    if args.status_swift:
        outputs.append((Path(args.status_swift), status.swift_table(header)))
    if args.status_c:
        outputs.append((Path(args.status_c), status.c_table(header)))
    if args.naming:
        rule = naming.load()
        outputs.append((naming.DATA, naming.data(rule, header)))
        # The table from the data file as it will be (its ABI names read from the header now).
        outputs.append((Path(args.naming), naming.swift_table(naming.Naming(rule.patterns, naming.abi_names(header), rule.c_keywords,
                                                                           rule.cpp_keywords))))
    wants_classes = any((args.header, args.swift, args.py_package, args.rbs, args.dts, args.fuzz, args.json))
    if not wants_classes:
        return outputs
    if not args.library:
        raise GenerationError("--library is needed to describe classes")
    raw = descriptions_json(Path(args.library))
    whole = Library.from_json(raw)
    asked = module_list(args.module)
    library = choose(whole, asked)
    # The modules covered (every one but the catalog's unless asked), and one name for them in what
    # the generated files say about their making.
    modules = asked or modules_of(library)
    module = " --module ".join(modules) or None
    if args.header:
        path = Path(args.header)
        text = path.read_text() if path.exists() or not modules else c.new_header(path, modules)
        outputs.append((path, c.splice(text, c.declarations(library))))
    if args.swift:
        if not module:
            raise GenerationError("--swift: the library registers no class of a Swift module")
        outputs.append((Path(args.swift), swift.definitions(library, module)))
    import json
    # The descriptions themselves: every class's, unless modules are asked for.
    classes = [cls for cls in json.loads(raw) if not asked or cls.get("swift_module") in asked]
    if args.py_package:
        folder = Path(args.py_package)
        for name, text in python.typed_package(library, whole, folder.name, named(modules_of(library))).items():
            outputs.append((folder / name, text))
    if args.rbs:
        namespace = ruby.namespace_of(Path(args.library).name, args.rbs_namespace)
        outputs.append((Path(args.rbs), ruby.generate_rbs(library, *ruby.ruby_reserved(), namespace=namespace)))
    if args.dts:
        outputs.append((Path(args.dts), dts.generate_dts(library, Path(args.library).name, args.dts_module)))
    if args.fuzz:
        outputs.append((Path(args.fuzz), fuzz.tables(library)))
    if args.json:
        outputs.append((Path(args.json), json.dumps(classes, indent=2) + "\n"))
    return outputs
