"""Typing, checked (issue 18, item 2): ``mypy --strict`` and ``pyright`` (both from PyPI; the
runner installs them into build/venv) find no error in the package, in the generator
(tools/mvvm_gen) and in a typed sample program over the catalog's typed package
(tests/typing/typed_sample.py; examples/catalog/python/catalog, generated), and report every
mistake of tests/typing/type_errors.py (writing a read-only output, a wrong Literal, a missing
TypedDict key...) on its line.

Without the checkers installed these tests are skipped, unless MVVM_REQUIRE_TYPE_CHECKERS=1
(run_tests.sh sets it), where they fail."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path
from typing import List, Set

import pytest

from libraries import library_path

HERE = Path(__file__).resolve().parent
PACKAGE_ROOT = HERE.parent  # bindings/python (its mvvm_gen: a link to tools/mvvm_gen)
#: Where ``python3 -m mvvm_gen`` is found (it imports nothing of the mvvm package).
GENERATOR_PATH = [PACKAGE_ROOT.parent.parent / "tools"]
#: Where the catalog's typed package is (``import catalog``).
CATALOG_PACKAGE = PACKAGE_ROOT.parent.parent / "examples" / "catalog" / "python"
SAMPLE = HERE / "typing" / "typed_sample.py"
MISTAKES = HERE / "typing" / "type_errors.py"


def _checker(name: str) -> List[str]:
    if name == "mypy":
        try:
            import mypy  # noqa: F401
        except ImportError:
            pass
        else:
            return [sys.executable, "-m", "mypy", "--strict", "--no-incremental", "--hide-error-context",
                    "--no-error-summary", "--show-column-numbers"]
    else:
        found = shutil.which("pyright", path=os.path.dirname(sys.executable)) or shutil.which("pyright")
        if found:
            return [found, "--pythonpath", sys.executable]
    if os.environ.get("MVVM_REQUIRE_TYPE_CHECKERS") == "1":
        pytest.fail("%s is not installed (run_tests.sh installs it: pip install mypy pyright[nodejs])" % name)
    pytest.skip("%s is not installed" % name)


def _run(checker: str, *paths: Path, root: Path = PACKAGE_ROOT) -> subprocess.CompletedProcess[str]:
    """The checker on ``paths`` (under ``root``), finding the mvvm package, the generator and the
    typed packages (``root``'s own, the catalog's) on MYPYPATH and PYTHONPATH (pyright reads the
    interpreter's path)."""
    command = _checker(checker) + [str(p.relative_to(root)) for p in paths]
    path = os.pathsep.join(str(folder) for folder in (root, PACKAGE_ROOT, CATALOG_PACKAGE))
    env = dict(os.environ, MYPYPATH=path, PYTHONPATH=path)
    return subprocess.run(command, cwd=root, capture_output=True, text=True, env=env, timeout=600)


def _error_lines(checker: str, output: str, path: Path) -> Set[int]:
    name = re.escape(path.name)
    if checker == "mypy":
        pattern = r"%s:(\d+):(?:\d+:)? error:" % name
    else:
        pattern = r"%s:(\d+):\d+ - error:" % name
    return {int(line) for line in re.findall(pattern, output)}


@pytest.mark.parametrize("checker", ["mypy", "pyright"])
def test_the_package_and_a_typed_program_have_no_type_error(checker: str) -> None:
    result = _run(checker, PACKAGE_ROOT / "mvvm", SAMPLE)
    assert result.returncode == 0, "%s found errors:\n%s%s" % (checker, result.stdout, result.stderr)


@pytest.mark.parametrize("checker", ["mypy", "pyright"])
def test_the_generator_has_no_type_error(checker: str) -> None:
    """Issue 48, item 18: the generator (tools/mvvm_gen, which the wheel ships) is held to
    the package's strictness; no suite checked it, and mypy --strict found 23 errors there."""
    generator = GENERATOR_PATH[0]
    result = _run(checker, generator / "mvvm_gen", root=generator)
    assert result.returncode == 0, "%s found errors:\n%s%s" % (checker, result.stdout, result.stderr)


@pytest.mark.parametrize("checker", ["mypy", "pyright"])
def test_mistakes_are_type_errors_on_their_lines(checker: str) -> None:
    expected = {number for number, line in enumerate(MISTAKES.read_text().splitlines(), 1) if "# error" in line}
    assert len(expected) >= 6
    result = _run(checker, MISTAKES)
    found = _error_lines(checker, result.stdout + result.stderr, MISTAKES)
    assert found == expected, "%s:\n%s" % (checker, result.stdout)


def test_the_typed_sample_runs() -> None:
    result = subprocess.run([sys.executable, str(SAMPLE)], capture_output=True, text=True, timeout=120,
                            env=dict(os.environ, PYTHONPATH=os.pathsep.join(map(str, (PACKAGE_ROOT, CATALOG_PACKAGE)))))
    assert result.returncode == 0, result.stderr
    assert "startable" in result.stdout


# ------------------------------------------------------------------------------------------------
# A library of one's own: the typed package generated from Tests/outside's libsample.so
# ------------------------------------------------------------------------------------------------

OUTSIDE_SAMPLE = HERE / "typing" / "typed_outside.py"
OUTSIDE_MISTAKES = HERE / "typing" / "outside_errors.py"


@pytest.fixture(scope="module")
def outside_root(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The sample library's typed package (``mvvm_gen --py-package``), ``sample``, with a link to
    the library beside it, and copies of the typed programs."""
    library = library_path("MVVM_SAMPLE_LIBRARY")
    root = tmp_path_factory.mktemp("outside")
    done = subprocess.run([sys.executable, "-m", "mvvm_gen", "--library", library, "--py-package",
                           str(root / "sample")], capture_output=True, text=True, timeout=300,
                          env=dict(os.environ, PYTHONPATH=os.pathsep.join(map(str, GENERATOR_PATH))))
    assert done.returncode == 0, done.stdout + done.stderr
    (root / "sample" / "libsample.so").symlink_to(library)
    for program in (OUTSIDE_SAMPLE, OUTSIDE_MISTAKES):
        shutil.copy(program, root / program.name)
    return root


@pytest.mark.parametrize("checker", ["mypy", "pyright"])
def test_a_typed_program_over_a_librarys_own_stubs_has_no_type_error(checker: str, outside_root: Path) -> None:
    result = _run(checker, outside_root / OUTSIDE_SAMPLE.name, root=outside_root)
    assert result.returncode == 0, "%s found errors:\n%s%s" % (checker, result.stdout, result.stderr)


@pytest.mark.parametrize("checker", ["mypy", "pyright"])
def test_mistakes_over_a_librarys_own_stubs_are_type_errors_on_their_lines(checker: str, outside_root: Path) -> None:
    expected = {number for number, line in enumerate(OUTSIDE_MISTAKES.read_text().splitlines(), 1) if "# error" in line}
    assert len(expected) >= 10
    result = _run(checker, outside_root / OUTSIDE_MISTAKES.name, root=outside_root)
    found = _error_lines(checker, result.stdout + result.stderr, OUTSIDE_MISTAKES)
    assert found == expected, "%s:\n%s" % (checker, result.stdout)


def test_the_typed_program_over_a_librarys_own_classes_runs(outside_root: Path) -> None:
    result = subprocess.run([sys.executable, str(outside_root / OUTSIDE_SAMPLE.name)], capture_output=True, text=True,
                            timeout=120, env=dict(os.environ, PYTHONPATH=os.pathsep.join(map(str, (outside_root, PACKAGE_ROOT)))))
    assert result.returncode == 0, result.stderr
    assert "profile.move_tag failed: no tag at 9 (there are 2)" in result.stdout and "Bergen" in result.stdout


# ------------------------------------------------------------------------------------------------
# A library composed of two Swift modules: one typed wheel, one stub file (issue 41, item 5)
# ------------------------------------------------------------------------------------------------

COMPOSED_SAMPLE = HERE / "typing" / "typed_composed.py"
COMPOSED_MISTAKES = HERE / "typing" / "composed_errors.py"


@pytest.fixture(scope="module")
def composed_root(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Tests/outside's libappsample.so (module AppSample, whose hook also registers module
    AppSampleSwift5's class) shipped by ``python3 -m mvvm_gen.package --library`` with no
    ``--module``, its wheel unpacked beside a copy of the mvvm package and the typed programs."""
    app_sample = library_path("MVVM_APP_SAMPLE_LIBRARY")
    root = tmp_path_factory.mktemp("composed")
    from mvvm_gen import package

    # The debug build needs the toolchain's Swift runtime, which a shipped library must not (the
    # packaging and packages suites ship release builds): that check is left out here.
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(package, "check_library", lambda path: None)
        assert package.main(["--library", app_sample, "--name", "appsample", "--out", str(root / "dist")]) == 0
    wheels = list((root / "dist").glob("appsample-*.whl"))
    assert len(wheels) == 1, wheels
    import zipfile

    with zipfile.ZipFile(wheels[0]) as wheel:
        wheel.extractall(root)
    (root / "appsample" / "libappsample.so").chmod(0o755)
    for program in (COMPOSED_SAMPLE, COMPOSED_MISTAKES):
        shutil.copy(program, root / program.name)
    return root


def test_a_composed_library_ships_one_stub_file_and_one_header_of_both_modules(composed_root: Path) -> None:
    stubs = (composed_root / "appsample" / "__init__.pyi").read_text()
    assert "class MeetingViewModel(" in stubs and "class SignInViewModel(" in stubs  # module AppSample
    assert "class VoteViewModel(" in stubs  # module AppSampleSwift5
    assert "Swift modules AppSample, AppSampleSwift5" in stubs
    header = (composed_root / "dist" / "appsample-c" / "include" / "appsample.h").read_text()
    assert "mvvm_meeting_view_model_new(" in header and "mvvm_vote_view_model_vote(" in header


@pytest.mark.parametrize("checker", ["mypy", "pyright"])
def test_a_typed_program_over_a_composed_librarys_wheel_has_no_type_error(checker: str, composed_root: Path) -> None:
    result = _run(checker, composed_root / COMPOSED_SAMPLE.name, root=composed_root)
    assert result.returncode == 0, "%s found errors:\n%s%s" % (checker, result.stdout, result.stderr)


@pytest.mark.parametrize("checker", ["mypy", "pyright"])
def test_mistakes_over_a_composed_librarys_wheel_are_type_errors_on_their_lines(checker: str,
                                                                               composed_root: Path) -> None:
    expected = {number for number, line in enumerate(COMPOSED_MISTAKES.read_text().splitlines(), 1)
                if "# error" in line}
    assert len(expected) == 4
    result = _run(checker, composed_root / COMPOSED_MISTAKES.name, root=composed_root)
    found = _error_lines(checker, result.stdout + result.stderr, COMPOSED_MISTAKES)
    assert found == expected, "%s:\n%s" % (checker, result.stdout)


def test_the_typed_program_over_a_composed_librarys_wheel_runs(composed_root: Path) -> None:
    result = subprocess.run([sys.executable, str(composed_root / COMPOSED_SAMPLE.name)], capture_output=True,
                            text=True, timeout=120, cwd=composed_root,
                            env=dict(os.environ, PYTHONPATH=os.pathsep.join(map(str, (composed_root, PACKAGE_ROOT)))))
    assert result.returncode == 0, result.stderr
    assert result.stdout.split()[:3] == ["1", "0", "idle"], result.stdout
