"""The package's layout: the runtime split by concern (no module patching another, no
compatibility shims), its modules in layers that import one another without a cycle, one reader
of the description and one naming rule (the generator's, imported), nothing loaded by ``import
mvvm``, no class built by converting a value, and one owner base for every class that owns a
handle (close, finalizer, context manager, ``_as_parameter_``)."""

from __future__ import annotations

import ast
import ctypes
import gc
import importlib
import json
import subprocess
import sys
import textwrap
from pathlib import Path
from typing import Any, Dict, List, Optional, Set

import pytest

import mvvm
from mvvm._registry import registry
from mvvm._owner import Owner
from mvvm._values import take_string
from libraries import catalog, library_path

PACKAGE = Path(mvvm.__file__).resolve().parent
#: The package's C extension (mvvm/_fast.c): a module of the lowest layer, importing none of the others.
EXTENSIONS = {"_fast"}
#: The catalog's generic C functions.
lib = catalog.functions


def test_the_runtime_is_split_by_concern() -> None:
    for module, names in {
        "mvvm._abi": ["Value", "FlatEvent", "SIGNATURES", "Status", "LoopKind"],
        "mvvm._library": ["Library", "load", "open_library"],
        "mvvm._values": ["Scalar", "to_c", "from_c", "encode_name", "decode"],
        "mvvm._records": ["Record", "record_class"],
        "mvvm._description": ["Description", "descriptions"],
        "mvvm._splices": ["Splice"],
        "mvvm._interrupts": ["in_callback", "keep_interrupt", "raise_kept_interrupt", "ctrl_c_between_slices"],
        "mvvm._releases": ["release_soon", "release_pending"],
        "mvvm._report": ["report", "callable_name"],
        "mvvm._registry": ["registry", "Entry"],
        "mvvm._trampolines": ["EVENT_TRAMPOLINE", "DESTROY_TRAMPOLINE", "REQUEST_TRAMPOLINE", "DONE_TRAMPOLINE"],
        "mvvm._threadstates": ["keep_this_thread_state", "delete_ended_thread_states"],
        "mvvm._owner": ["Owner"],
        "mvvm._loop": ["Loop"],
        "mvvm._object": ["MvvmObject", "Subscription"],
        "mvvm._members": ["Property", "Child", "command"],
        "mvvm._calls": ["AsyncCall", "start"],
        "mvvm._build": ["Namespace"],
        "mvvm._operations": ["close", "subscribe", "get", "set", "call"],
        "mvvm._requests": ["Request", "ServiceRequest", "Service"],
    }.items():
        loaded = importlib.import_module(module)
        for name in names:
            assert hasattr(loaded, name), (module, name)
    for gone in ("_core", "_callbacks", "_lib", "_dynamic", "_classes"):  # no compatibility shims, no grab bag
        assert not (PACKAGE / (gone + ".py")).exists(), gone
    for path in PACKAGE.glob("*.py"):
        assert len(path.read_text().splitlines()) < 700, path.name


def test_no_module_patches_another_at_import() -> None:
    """No module of the package assigns to an attribute of another of its modules (as
    _callbacks.py once set _lib.reraise_interrupt): each reads what it needs from where it lives."""
    for path in PACKAGE.glob("*.py"):
        tree = ast.parse(path.read_text())
        modules = {alias.asname or alias.name.split(".")[0] for node in ast.walk(tree)
                   if isinstance(node, ast.Import) for alias in node.names if alias.name.startswith("mvvm")}
        modules |= {alias.asname or alias.name for node in ast.walk(tree) if isinstance(node, ast.ImportFrom)
                    and node.level and node.module is None for alias in node.names}  # from . import x
        for node in ast.walk(tree):
            targets = node.targets if isinstance(node, ast.Assign) else \
                [node.target] if isinstance(node, (ast.AugAssign, ast.AnnAssign)) else []
            for target in targets:
                if isinstance(target, ast.Attribute) and isinstance(target.value, ast.Name):
                    assert target.value.id not in modules, "%s:%d assigns %s.%s" % (
                        path.name, node.lineno, target.value.id, target.attr)


def _is_type_checking(test: ast.expr) -> bool:
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or \
        (isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING")


def _imports(tree: ast.AST, modules: Set[str]) -> Set[str]:
    """The package's modules ``tree`` imports, at any depth (in functions too), but under ``if
    TYPE_CHECKING:`` (annotations, never run: every module has ``from __future__ import
    annotations``). ``__init__`` for a name taken from the package itself."""
    found: Set[str] = set()
    for node in ast.iter_child_nodes(tree):
        if isinstance(node, ast.If) and _is_type_checking(node.test):
            for other in node.orelse:
                found |= _imports(other, modules)
            continue
        if isinstance(node, ast.ImportFrom) and node.level:
            assert node.level == 1, ast.dump(node)
            if node.module is None:  # from . import _abi, or a name of the package's __init__
                found |= {alias.name if alias.name in modules else "__init__" for alias in node.names}
            else:
                found.add(node.module.split(".")[0])
        elif isinstance(node, (ast.Import, ast.ImportFrom)):
            names = [alias.name for alias in node.names] if isinstance(node, ast.Import) else [node.module or ""]
            assert not any(name == "mvvm" or name.startswith("mvvm.") for name in names), \
                "line %d imports the package by its name: %s" % (node.lineno, ast.dump(node))
        found |= _imports(node, modules)
    return found


def _cycle(graph: Dict[str, Set[str]]) -> Optional[List[str]]:
    """A cycle of ``graph`` (its modules in order, the first again at the end), or None."""
    state: Dict[str, int] = {}  # 1: on the path being walked, 2: done
    path: List[str] = []

    def walk(module: str) -> Optional[List[str]]:
        state[module] = 1
        path.append(module)
        for imported in sorted(graph[module]):
            if state.get(imported) == 1:
                return path[path.index(imported):] + [imported]
            if imported not in state:
                found = walk(imported)
                if found:
                    return found
        path.pop()
        state[module] = 2
        return None

    for module in sorted(graph):
        if module not in state:
            found = walk(module)
            if found:
                return found
    return None


def test_the_modules_import_one_another_in_layers_without_a_cycle() -> None:
    """Every import of one of the package's modules by another, at module level or in a function,
    goes down: no cycle, and none imports the package (its ``__init__``, the top layer, imports
    them). A low layer that must reach a higher one is handed it (the class builder registers with
    the library). The C extension, mvvm._fast, is a module
    of the lowest layer (what it calls back is handed to it). And what converts values (the values,
    the description, the records) reaches no module of objects, members or class building."""
    modules = {path.stem for path in PACKAGE.glob("*.py")} | EXTENSIONS
    graph: Dict[str, Set[str]] = {extension: set() for extension in EXTENSIONS}
    for module in sorted(modules - EXTENSIONS):
        path = PACKAGE / (module + ".py")
        try:
            graph[module] = _imports(ast.parse(path.read_text()), modules) - {module}
        except AssertionError as error:
            raise AssertionError("%s: %s" % (path.name, error)) from None
        assert graph[module] <= modules, (module, graph[module] - modules)
    for module in sorted(modules - {"__init__"}):
        assert "__init__" not in graph[module], "%s imports the package's __init__" % module
    cycle = _cycle(graph)
    assert cycle is None, "an import cycle: " + " -> ".join(cycle or [])

    def reach(module: str) -> Set[str]:
        seen: Set[str] = set()
        todo = [module]
        while todo:
            for imported in graph[todo.pop()] - seen:
                seen.add(imported)
                todo.append(imported)
        return seen
    for converting in ("_values", "_records", "_description", "_kinds"):
        above = reach(converting) & {"_object", "_members", "_list", "_build", "_requests", "_loop", "_library"}
        assert not above, (converting, sorted(above))


def test_converting_a_value_builds_no_class() -> None:
    """Records (read, set, heard, as arguments and results, in arrays, optionals and records) and
    Foundation's values (a UUID, a date, a URL, a decimal, in a record too), converted on a freshly
    loaded library through objects of no Python class of their own: the record classes come from
    the description's records alone, and no view-model class is made (counted: the class builder
    and every subclass of MvvmObject) until a class is asked for, which then has the very same
    record classes. The library is opened as mvvm.load opens it, but without building its classes
    (which mvvm.load does, to refuse a bad registration at once)."""
    program = textwrap.dedent("""
        import ctypes, sys, uuid
        from datetime import datetime, timezone
        from decimal import Decimal
        import mvvm
        from mvvm import _build
        from mvvm._library import Library, open_library
        from mvvm._values import Values

        namespaces, classes = [], []
        building = _build.Namespace.__init__
        def counted(self, *args, **kwargs):
            namespaces.append(args)
            building(self, *args, **kwargs)
        _build.Namespace.__init__ = counted
        mvvm.MvvmObject.__init_subclass__ = classmethod(lambda cls, **kwargs: classes.append(cls.__name__))

        library = Library(*open_library(sys.argv[1]))
        class SampleLoop(mvvm.Loop):  # a loop of the library, made without its namespace of classes
            _class_library = library
        def plain(loop, c_name):  # an object of the library, of no class of its own (mvvm.MvvmObject)
            out, values = ctypes.c_uint64(), Values([])
            library.functions.mvvm_new_named(loop, c_name, None, values.array, 0, ctypes.byref(out))
            made = mvvm.MvvmObject.__new__(mvvm.MvvmObject)
            made._adopt(library, out.value, loop)
            return made

        Speaker, Slot, LineItem = library.records["speaker"], library.Slot, library.records["line_item"]
        with SampleLoop.virtual() as loop:
            agenda = plain(loop, b"agenda")
            assert mvvm.get(agenda, "speaker") == Speaker("nobody", False)
            heard = []
            mvvm.subscribe(agenda, "speaker", lambda name, value: heard.append(value))
            ada = Speaker("Ada", False, "ada@example.org")
            mvvm.set(agenda, "speaker", ada)
            assert heard == [ada] and type(heard[0]) is Speaker
            assert mvvm.call(agenda, "add", ada) == 1
            assert mvvm.call(agenda, "add", {"name": "Grace", "is_completed": True}) == 2
            assert mvvm.get(agenda, "speakers") == [ada, Speaker("Grace", True)]
            assert mvvm.call(agenda, "next") == ada._replace(is_completed=True)
            assert mvvm.call(agenda, "next") is None
            mvvm.set(agenda, "slot", Slot(ada, None, 25))
            assert mvvm.get(agenda, "slot") == Slot(ada, None, 25)
            order = plain(loop, b"order")
            moment = datetime(1900, 1, 1, 0, 0, 0, 500000, tzinfo=timezone.utc)
            line = mvvm.call(order, "make_line", uuid.UUID(int=7), moment, "https://a.example/", Decimal("-0.001"))
            assert line == LineItem(uuid.UUID(int=7), moment, "https://a.example/", Decimal("-0.001"), None)
            mvvm.set(order, "line", line)
            assert mvvm.get(order, "line") == line
            mvvm.set(order, "related", [uuid.UUID(int=10)])
            mvvm.set(order, "placed", moment)
            mvvm.set(order, "cost", Decimal("0.5"))
            assert mvvm.get(order, "cost") == "0.5"  # (rendered as a Decimal by its class's property)
            mvvm.close(agenda)
            mvvm.close(order)
        assert (namespaces, classes) == ([], []), (namespaces, classes)

        # A class asked for: the classes are built, once, around the same record classes.
        assert library.Agenda.c_class == "agenda" and len(namespaces) == 1 and "Agenda" in classes
        assert library.Speaker is Speaker and library.records["speaker"] is Speaker
        assert library.Agenda._model is not None and library._built().records["slot"] is Slot
        print("ok")
    """)
    done = subprocess.run([sys.executable, "-c", program, library_path("MVVM_SAMPLE_LIBRARY")], capture_output=True,
                          text=True, timeout=120)
    assert (done.returncode, done.stdout, done.stderr) == (0, "ok\n", "")


def test_importing_the_package_loads_no_library() -> None:
    """``import mvvm`` (and the description's model it reads with) loads nothing, and nothing but
    a library's path loads one: no name of the package does (there is no default library)."""
    program = textwrap.dedent("""
        import sys
        import mvvm, mvvm.aio, mvvm_gen.model
        def loaded():
            return [line for line in open("/proc/self/maps") if line.split()[-1].rsplit("/", 1)[-1].startswith("libcatalog")]
        assert not loaded(), loaded()
        loop_class, error = mvvm.Loop, mvvm.CommandError  # the package's own names load nothing
        assert not hasattr(mvvm, "Counter") and not loaded(), loaded()
        mvvm.load(sys.argv[1]).Counter
        assert loaded()
        print("ok")
    """)
    done = subprocess.run([sys.executable, "-c", program, str(catalog.path)], capture_output=True, text=True,
                          timeout=60)
    assert (done.returncode, done.stdout, done.stderr) == (0, "ok\n", "")


def test_one_reader_of_the_description_and_one_naming_rule() -> None:
    """The Python tree reads the description with one model and names by one rule, each in one
    file beside the generator's Python renderer (tools/mvvm_gen/model.py, pynames.py), which the
    package imports: it has no copy of either, and the generator has no data restating the rule."""
    import mvvm_gen.model
    import mvvm_gen.pynames
    from mvvm import _build, _description, _members, _records, _requests

    tools = PACKAGE.parents[2] / "tools" / "mvvm_gen"
    assert Path(mvvm_gen.model.__file__).resolve() == (tools / "model.py").resolve()
    assert Path(mvvm_gen.pynames.__file__).resolve() == (tools / "pynames.py").resolve()
    for gone in ("_model.py", "_names.py"):
        assert not (PACKAGE / gone).exists(), gone
    assert not list(tools.glob("naming-python*")), "the Python rule is code, in pynames.py"
    assert _description.LibraryModel is mvvm_gen.model.Library
    assert _description.namespace_names is mvvm_gen.pynames.namespace_names
    for module in (_build, _members, _records, _requests):
        assert module.python_names is mvvm_gen.pynames.python_names, module.__name__
    # No module of the package declares a model of its own (the generator's are dataclasses).
    for path in PACKAGE.glob("*.py"):
        assert "dataclass" not in path.read_text(), path.name


def test_every_handle_owning_class_derives_from_the_owner_base() -> None:
    for cls in (mvvm.Loop, mvvm.MvvmObject, mvvm.Service, mvvm.Request, mvvm.Subscription,
                catalog.SignUpViewModel, catalog.SignUpRequest):
        assert issubclass(cls, Owner), cls
        for member in ("close", "__enter__", "__exit__", "_as_parameter_", "handle", "closed"):
            assert hasattr(cls, member), (cls, member)


def test_an_owner_is_a_ctypes_argument_for_its_handle() -> None:
    with catalog.Loop.virtual() as loop, catalog.Counter(loop) as counter:
        counter.increment()
        out = ctypes.c_void_p()
        lib.mvvm_snapshot(counter, ctypes.byref(out))  # the object itself, not counter.handle
        assert json.loads(take_string(lib.mvvm_string_free, out, "snapshot")) == {"count": 1}
        lib.mvvm_loop_advance(loop, 5)
        assert loop.now() == 5
    with pytest.raises(ctypes.ArgumentError, match="ClosedError"):  # ctypes wraps it
        lib.mvvm_loop_advance(loop, 5)


def test_close_is_idempotent_and_with_closes_for_every_owner() -> None:
    requests: List[Any] = []
    with catalog.Loop.virtual() as loop:
        with catalog.Service(requests.append) as service:
            vm = catalog.WelcomeViewModel(loop, api=service)
            with vm.subscribe("on_show_welcome", lambda name, value: None) as sub:
                vm.view_did_load()
                assert sub.active and not sub.closed
            assert sub.closed and not sub.active
            sub.close()
            (request,) = requests
            with request:
                assert not request.closed
            assert request.closed and request.done  # leaving with cancels it
            request.close()
        assert service.closed
        service.close()
        vm.close()
        vm.close()
        assert vm.closed
    assert loop.closed
    loop.close()


def test_the_finalizer_of_the_base_releases_a_dropped_owner() -> None:
    with catalog.Loop.virtual() as loop:
        counter = catalog.Counter(loop)
        handle = counter.handle
        del counter
        gc.collect()
        with pytest.raises(mvvm.InvalidHandleError):
            lib.mvvm_snapshot(handle, ctypes.byref(ctypes.c_void_p()))
