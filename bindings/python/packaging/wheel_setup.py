"""setup.py of the platform wheel of the mvvm bindings (bindings/python/packaging/build_wheel.sh).

build_wheel.sh copies bindings/python into a temporary folder, puts libmvvm.so into its mvvm/
package folder (pyproject.toml's package-data ships ``*.so``) and this file beside pyproject.toml
as setup.py. pyproject.toml keeps all the metadata; this file only makes the wheel a platform
wheel.

The bindings are pure Python (ctypes), so setuptools would make a py3-none-any wheel. With a
machine-code library inside it is not one: it works with any Python 3 (there is no extension
module, so no Python ABI), but only on this platform. So:

* the distribution says it has extension modules (``has_ext_modules``): setuptools then builds
  and installs into platlib, and bdist_wheel makes a non-pure wheel (Root-Is-Purelib: false,
  files at the wheel's root);
* bdist_wheel's ``get_tag`` keeps the platform (linux_x86_64 here) but gives the Python tag py3
  and the ABI tag none, rather than the cp3XX-cp3XX an extension module would need.

Result: mvvm-VERSION-py3-none-linux_x86_64.whl.
"""

from setuptools import setup
from setuptools.dist import Distribution

try:  # setuptools >= 70.1 has its own bdist_wheel
    from setuptools.command.bdist_wheel import bdist_wheel
except ImportError:  # older setuptools: the one of the `wheel` package
    from wheel.bdist_wheel import bdist_wheel  # type: ignore[no-redef]


class PlatformDistribution(Distribution):
    def has_ext_modules(self) -> bool:
        return True


class platform_bdist_wheel(bdist_wheel):
    def get_tag(self):  # type: ignore[no-untyped-def]
        _python, _abi, platform = super().get_tag()
        return "py3", "none", platform


setup(distclass=PlatformDistribution, cmdclass={"bdist_wheel": platform_bdist_wheel})
