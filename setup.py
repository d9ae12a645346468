"""Build closingbell's compiled engines (Cython), each optional.

Everything else is declared in ``pyproject.toml``. Every extension here is optional: when
one cannot be compiled (no C compiler, no Python headers), the install goes on without it
and ``closingbell.native`` falls back to the pure-Python rules, which are the reference.
"""

from __future__ import annotations

import importlib.util
import os
import sys
from pathlib import Path

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext

NATIVE = Path("src/closingbell/native")
MODULES = sorted(p.stem for p in NATIVE.glob("*.pyx"))
"""Every ``.pyx`` file of the package is one extension module."""

# IEEE arithmetic exactly as Python does it: no fused multiply-adds, no fast-math, so that
# compiled code that computes with floats gives the reference's numbers bit for bit. No
# debugging information (Python's own flags ask for it): it takes a quarter of the build's
# time, and profilers still find every function by its name.
FLAGS = ["-O2", "-g0", "-ffp-contract=off", "-fno-fast-math"]


JOBS = os.cpu_count() or 1
"""Modules translated and compiled at once: one per core."""


def generate_includes() -> None:
    """Write the engines' generated ``.pxi`` files from the games' data modules.

    ``scripts/native_codegen.py`` is read by path: closingbell is not importable while it is
    built (``pip install`` with build isolation).
    """
    path = Path(__file__).resolve().parent / "scripts" / "native_codegen.py"
    spec = importlib.util.spec_from_file_location("native_codegen", path)
    assert spec is not None and spec.loader is not None
    codegen = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = codegen  # its dataclasses look their module up
    spec.loader.exec_module(codegen)
    codegen.generate(path.parent.parent)


def extensions() -> list[Extension]:
    """The compiled modules, or none when Cython is missing or CLOSINGBELL_PURE is set."""
    if os.environ.get("CLOSINGBELL_PURE"):
        return []
    try:
        from Cython.Build import cythonize
    except ImportError:
        return []
    generate_includes()
    modules = [
        Extension(
            f"closingbell.native.{name}",
            [str(NATIVE / f"{name}.pyx")],
            include_dirs=[str(NATIVE)],
            extra_compile_args=FLAGS,
        )
        for name in MODULES
    ]
    built = cythonize(
        modules,
        compiler_directives={"language_level": 3, "embedsignature": True},
        quiet=True,
        nthreads=JOBS,
    )
    for ext in built:
        ext.optional = True  # a module that fails to compile is left out, not fatal
    return built


class BuildExt(build_ext):
    """``build_ext`` that compiles the modules side by side unless told ``--parallel``."""

    def finalize_options(self) -> None:
        if self.parallel is None:
            self.parallel = JOBS
        super().finalize_options()


setup(ext_modules=extensions(), cmdclass={"build_ext": BuildExt})
