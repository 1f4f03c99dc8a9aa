"""Checks an installed mvvm wheel and the catalog's typed wheel beside it (as `python3 -m
mvvm_gen.package` ships any package of one's own), run by Tests/packaging/test_packaging.sh with
the virtualenv's Python, from a folder outside the repository, with no MVVM_LIBRARY and no Swift
toolchain on PATH or LD_LIBRARY_PATH, twice: with the wheel's C extension, and with
MVVM_FASTPATH=0 (ctypes alone). Prints one "PASS name" or "FAIL name: why" line per check; exits 1
if any failed.
"""

import os
import sys
import sysconfig
import traceback
from pathlib import Path

results = []


def check(name):
    def run(fn):
        try:
            fn()
        except Exception as error:  # noqa: BLE001 - every failure is reported, then counted
            results.append(False)
            print("FAIL %s: %s: %s" % (name, type(error).__name__, error))
            traceback.print_exc(file=sys.stdout)
        else:
            results.append(True)
            print("PASS %s" % name)
        return fn

    return run


@check("import mvvm and catalog from their wheels: no library in mvvm's, the catalog's beside its package")
def _():
    assert "MVVM_LIBRARY" not in os.environ, "MVVM_LIBRARY is set"
    import catalog
    import mvvm

    site = Path(sysconfig.get_paths()["platlib"]).resolve()
    package = Path(mvvm.__file__).resolve().parent
    assert package.parent == site, "mvvm imported from %s, not the virtualenv's %s" % (package, site)
    assert not [p for p in package.iterdir() if p.name.startswith("lib") and ".so" in p.name], "a library in mvvm"
    assert not hasattr(mvvm, "Counter") and not hasattr(mvvm, "default_library"), "mvvm has a default library"
    library = Path(catalog.library.path).resolve()
    assert library == Path(catalog.__file__).resolve().with_name("libcatalog.so"), "library loaded from %s" % library
    assert library.parent.parent == site
    print("  mvvm %s; catalog's library %s (version %s)" % (mvvm.__version__, library, catalog.library.version))


@check("the C extension is the wheel's and in use, unless MVVM_FASTPATH=0")
def _():
    import mvvm

    package = Path(mvvm.__file__).resolve().parent
    if os.environ.get("MVVM_FASTPATH") == "0":
        assert not mvvm.fast_path and mvvm.fast_path_reason == "not in use: MVVM_FASTPATH=0", mvvm.fast_path_reason
    else:
        assert mvvm.fast_path, mvvm.fast_path_reason
        assert mvvm.fast_path_reason == "in use: %s" % (package / "_fast.abi3.so"), mvvm.fast_path_reason
    print("  %s" % mvvm.fast_path_reason)


@check("no Swift runtime in the process")
def _():
    import catalog

    catalog.Counter  # the first use of a class loads the library: now it is mapped

    with open("/proc/self/maps") as maps:
        mapped = {line.split()[-1] for line in maps if len(line.split()) >= 6}
    swift = sorted(p for p in mapped if "/opt/swift" in p or "libswift" in p or "libdispatch" in p
                   or "libFoundation" in p or "libBlocksRuntime" in p)
    assert not swift, "mapped: %s" % ", ".join(swift)
    assert any(p.endswith("/catalog/libcatalog.so") for p in mapped), "libcatalog.so is not mapped"


@check("SignUpViewModel: validation enables sign-up; a subscription sees it")
def _():
    import catalog

    with catalog.Loop.virtual() as loop, catalog.SignUpViewModel(loop) as form:
        seen = []
        form.subscribe("is_sign_up_enabled", lambda name, value: seen.append((name, value)))
        assert form.is_sign_up_enabled is False
        form.user_id = "newuser"
        form.password = "password1"
        form.confirm_password = "password1"
        assert form.is_sign_up_enabled is False, "enabled before agreeing"
        form.agreed = True
        loop.advance(0)
        assert form.is_sign_up_enabled is True
        assert seen == [("is_sign_up_enabled", True)], seen
        form.confirm_password = "password2"
        loop.advance(0)
        assert form.is_sign_up_enabled is False
        assert seen == [("is_sign_up_enabled", True), ("is_sign_up_enabled", False)], seen


@check("StopWatchViewModel: 00:00:01.23 after 1230 ms")
def _():
    import catalog

    with catalog.Loop.virtual() as loop, catalog.StopWatchViewModel(loop) as watch:
        times = []
        watch.subscribe("time", lambda name, value: times.append(value))
        assert watch.time == "00:00:00.00"
        assert watch.main_action_title == "Start"
        watch.main_action()
        loop.advance(1230)
        assert watch.time == "00:00:01.23", watch.time
        assert times and times[-1] == "00:00:01.23", times[-3:]
        assert watch.main_action_title == "Stop"
        watch.main_action()
        loop.advance(500)
        assert watch.time == "00:00:01.23", watch.time
        assert watch.clear_action_enabled is True


@check("the generator ships in the wheel: python -m mvvm_gen makes the typed package the catalog's wheel holds; derive is there")
def _():
    import subprocess
    import tempfile

    import catalog

    with tempfile.TemporaryDirectory() as folder:
        made = Path(folder) / "catalog"
        done = subprocess.run([sys.executable, "-m", "mvvm_gen", "--library", str(catalog.library.path),
                               "--module", "MVVMCatalog,MVVMViewModels,MVVMModels", "--py-package", str(made)],
                              capture_output=True, text=True, timeout=120)
        assert done.returncode == 0, done.stdout + done.stderr
        shipped = Path(catalog.__file__).resolve().parent
        for name in ("__init__.py", "__init__.pyi", "py.typed"):
            assert (made / name).read_text() == (shipped / name).read_text(), name
        # Derivation ships too (its subpackage and template): its usage, without Swift.
        done = subprocess.run([sys.executable, "-m", "mvvm_gen", "derive", "--help"], capture_output=True, text=True,
                              timeout=120)
        assert done.returncode == 0 and "--target" in done.stdout, done.stdout + done.stderr


failed = results.count(False)
print("wheel check: %d passed, %d failed" % (results.count(True), failed))
sys.exit(1 if failed else 0)
