"""The C headers shipped with sad cover the POSIX and C11 headers real scientific C includes (the set of
pycparser's fake libc that such programs use); a missing header names itself and suggests -I."""
from __future__ import annotations

from pathlib import Path

from sad.analysis.pipeline import analyze

INCLUDE = Path(__file__).resolve().parents[2] / "frontends" / "c" / "include"
# C11 and POSIX headers met in HPC codes (PolyBench, NPB-C, Rodinia, SPEC-like kernels)
EXPECTED = """assert.h complex.h ctype.h errno.h fcntl.h fenv.h float.h inttypes.h iso646.h limits.h locale.h math.h
setjmp.h signal.h stdalign.h stdarg.h stdatomic.h stdbool.h stddef.h stdint.h stdio.h stdlib.h stdnoreturn.h
string.h tgmath.h threads.h time.h wchar.h wctype.h alloca.h dirent.h dlfcn.h endian.h features.h getopt.h
glob.h libgen.h malloc.h poll.h pthread.h pwd.h regex.h sched.h semaphore.h strings.h syslog.h termios.h
unistd.h sys/mman.h sys/param.h sys/resource.h sys/select.h sys/stat.h sys/time.h sys/times.h sys/types.h
sys/utsname.h sys/wait.h sys/socket.h netinet/in.h arpa/inet.h""".split()  # noqa: SIM905  (a block of words reads better than a list)

POLYBENCH_STYLE = """#include <stdio.h>
#include <unistd.h>
#include <string.h>
#include <time.h>
#include <sys/time.h>
#include <sys/resource.h>
#include <sched.h>
#include <math.h>
#include <stdlib.h>
static void *xmalloc(size_t n)
{
    void *p = 0;
    int ret = posix_memalign(&p, 4096, n);
    if (!p || ret) {
        fprintf(stderr, "[PolyBench] posix_memalign: cannot allocate memory");
        exit(1);
    }
    return p;
}
int main(void)
{
    int i;
    double *a = (double *)xmalloc(100 * sizeof(double));
    for (i = 0; i < 100; i++)
        a[i] = sqrt((double)i);
    printf("%f\\n", a[99]);
    free(a);
    return 0;
}
"""


def test_every_expected_header_is_shipped_and_parses(tmp_path):
    missing = [h for h in EXPECTED if not (INCLUDE / h).is_file()]
    assert not missing, missing
    src = tmp_path / "all.c"
    src.write_text("".join(f"#include <{h}>\n" for h in EXPECTED) + "int main(void) { return 0; }\n")
    analysis = analyze([str(src)])
    assert not analysis.errors, [str(d) for d in analysis.errors]


def test_polybench_style_program_parses(tmp_path):
    src = tmp_path / "pb.c"
    src.write_text(POLYBENCH_STYLE)
    analysis = analyze([str(src)])
    assert not analysis.errors, [str(d) for d in analysis.errors]
    assert [p.name for p in analysis.program.procedures] == ["xmalloc", "main"]


def test_missing_header_names_itself_and_suggests_I(tmp_path):
    src = tmp_path / "m.c"
    src.write_text('#include "mylib.h"\nint main(void) { return 0; }\n')
    analysis = analyze([str(src)])
    (err,) = analysis.errors
    assert err.loc.line == 1 and "header 'mylib.h' not found" in err.message and "-I DIR" in err.message
    assert str(INCLUDE) not in err.message


def test_posix_memalign_wrapper_error_exit_not_taken(tmp_path, monkeypatch):
    """`ret = posix_memalign(&p, ...)` writes p: the `if (!p || ret)` error exit is not folded to taken
    from `p = 0` before it; every line agrees with gcov."""
    import io

    from sad.cli.main import run
    monkeypatch.chdir(tmp_path)
    (tmp_path / "pb.c").write_text(POLYBENCH_STYLE)
    out = io.StringIO()
    assert run(["check-counts", "pb.c", "--", "./pb"], out, io.StringIO()) == 0, out.getvalue()
    assert "MISMATCH" not in out.getvalue()
