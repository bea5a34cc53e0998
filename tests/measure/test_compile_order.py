"""Fortran 90 modules are compiled before the files that USE them (sad.measure.gcov.compile_order): gfortran
reads a module's .mod file, written when the module's file is compiled."""
from __future__ import annotations

from sad.measure.gcov import compile_order


def test_module_files_first_each_after_the_modules_it_uses(tmp_path):
    (tmp_path / "drv.f").write_text("      CALL S\n      END\n")
    (tmp_path / "user.f90").write_text("subroutine s\n   use b\nend subroutine\n")
    (tmp_path / "b.F90").write_text("module b\n   use a, only: x\n   use, intrinsic :: iso_c_binding\n"
                                    "   interface g\n      module procedure p\n   end interface\nend module b\n")
    (tmp_path / "a.f90").write_text("module a\n   integer, parameter :: x = 1\nend module a\n")
    assert compile_order(["drv.f", "user.f90", "b.F90", "a.f90"], tmp_path) == ["a.f90", "b.F90", "drv.f",
                                                                                   "user.f90"]
