"""The bytes of a C integer array's elements as declared (char 1, short 2, int 4, long 8): the IR calls them all
"integer", the memory model reads the declaration's size (ir.Variable.elem_bytes)."""
from __future__ import annotations

from tests.predict.loop_nests import inner_loop

SOURCE = """#include <stdio.h>
static char c[1000]; static short s[1000]; static int n[1000]; static long l[1000]; static double d[1000];
int main(void) {
    int i; long t = 0;
    for (i = 0; i < 1000; i++)
        t += c[i] + s[i] + n[i] + l[i] + (long)d[i];
    printf("%ld\\n", t);
    return 0;
}
"""


def test_each_integer_kind_has_its_declared_size(tmp_path):
    loop, _trips = inner_loop(tmp_path, SOURCE, 5)
    sizes = {ref.array: ref.elem_bytes for ref in loop.refs}
    assert sizes == {"c": 1, "s": 2, "n": 4, "l": 8, "d": 8}
