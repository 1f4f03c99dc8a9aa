"""Build hook: a non-editable install (``pip install ./bindings/python``) copies the repository's
``libmvvm.so`` into the package, so ``import mvvm`` works without MVVM_LIBRARY afterwards.

The library copied is the one ``import mvvm`` would find from this source tree: MVVM_LIBRARY
(the file or its folder), else ``.build/release/libmvvm.so``, else ``.build/debug/libmvvm.so``
under the folder holding ``Package.swift``. Nothing is copied when none exists, or for an
editable install (which finds the build folders itself). Everything else is in pyproject.toml.
"""

import os
import shutil
from pathlib import Path

from setuptools import setup
from setuptools.command.build_py import build_py


def repository_library():
    explicit = os.environ.get("MVVM_LIBRARY")
    if explicit:
        path = Path(explicit)
        path = path / "libmvvm.so" if path.is_dir() else path
        return path if path.is_file() else None
    here = Path(__file__).resolve().parent
    for folder in [here, *here.parents]:
        if (folder / "Package.swift").is_file():
            for kind in ("release", "debug"):
                path = folder / ".build" / kind / "libmvvm.so"
                if path.is_file():
                    return path
            return None
    return None


class build_py_with_library(build_py):
    def run(self):
        super().run()
        if getattr(self, "editable_mode", False):
            return
        library = repository_library()
        if library is not None:
            target = Path(self.build_lib) / "mvvm" / "libmvvm.so"
            target.parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(library, target)
            print("copied %s into the package" % library)


setup(cmdclass={"build_py": build_py_with_library})
