"""Exact loop counting: DO trip counts and sums over a loop index.

Data flow: the SAD builder gives a counted loop's bounds (sympy, from sad.analysis.values) and the per-iteration count
of each statement in its body (which may depend on the loop index when inner bounds do); this module returns
the per-entry counts. A triangular nest sums exactly (DO I=1,N / DO J=I,N gives N(N+1)/2 once N ≥ 1, and 0
for an empty range), not a product of averages.
"""
from __future__ import annotations

import itertools
import math
from collections.abc import Callable
from fractions import Fraction
from functools import lru_cache

import sympy

from sad.analysis import (
    assumptionorder,
    atomswalk,
    extremes,
    foldmemo,
    freesymbols,
    logicmemo,
    minmaxmemo,
    piecewisejoin,
    piecewisememo,
    relationmemo,
    sumfold,
    summemo,
)
from sad.analysis.freesymbols import free_symbols
from sad.analysis.products import expand, mul
from sad.common.exactdiv import exact_divisions, numpy_functions

_TAU = sympy.Symbol("tau_trip", integer=True, positive=True)
_K = sympy.Symbol("k", integer=True, nonnegative=True)
assumptionorder.install()  # the same answers in the same order every run
foldmemo.install()  # the Sums built here fold the same conditions again and again
sumfold.install()  # and a sum inside them is not opened by the fold
summemo.install()  # and every substitution that reaches a Sum normalizes the same summand again
minmaxmemo.install()  # and every substitution rebuilds the same Max and Min
piecewisememo.install()  # and the same indicators of tests
piecewisejoin.install()  # whose pieces of one value are joined without sympy's normal form
logicmemo.install()  # and the same conjunctions of their conditions, folded over every combination
relationmemo.install()  # and the same two sides of each relation compared again
atomswalk.install()  # and each fold and Sum looks for the Piecewise in the same shared conditions
freesymbols.install()  # and sympy asks every term and Sum for its symbols again


@lru_cache(maxsize=4096)  # one loop's count is asked for every distinct count in its body
def trip_count(lo: sympy.Expr, hi: sympy.Expr, step: sympy.Expr) -> sympy.Expr:
    """Fortran 77 iteration count MAX(0, INT((hi - lo + step)/step)); for integer operands INT truncates,
    which equals floor whenever the quotient is non-negative, the only case that survives the MAX."""
    lo, hi, step = sympy.sympify(lo), sympy.sympify(hi), sympy.sympify(step)
    if step == 0:
        raise ValueError("DO step of zero")
    raw = hi - lo + step if step == 1 else (hi - lo + step) / step  # x / 1 is x itself
    if step in (1, -1):
        raw = expand(raw)
    else:
        raw = floor(raw)
    return max0(raw)


def mod(p: sympy.Expr, q: sympy.Expr) -> sympy.Expr:
    """sympy.Mod(p, q), built directly where sympy's Mod.eval leaves it as it is after 3-6 ms of questions
    to the assumptions: q an integer ≥ 2 and p
    - an integer symbol of unknown parity (an unrolled loop's MOD(N, 4)): not a number, not 0 or ±q, N/q
      not known to be an integer, |N| not known to be below 2q (a symbol has no bound), gcd(N, q) = 1;
    - or, for q ≥ 3, a linear form c + Σ a·x in such symbols, one of them of unknown sign, with 0 < c < q,
      no a a multiple of q and gcd(c, a…, q) = 1 (MOD(M - J + 1, 4) when a callee's count is bound): then
      also no term changes when taken modulo q, so Mod.eval's term-by-term reduction leaves p as it is.
    Anything else goes to sympy (tests/analysis/test_counting.py compares the two on random forms)."""
    if q.is_Integer and q >= 2:
        if p.is_Symbol and _plain_integer(p):
            return sympy.Mod(p, q, evaluate=False)
        if p.is_Add and q >= 3 and _reduced_linear_form(p, int(q)):
            return sympy.Mod(p, q, evaluate=False)
    return sympy.Mod(p, q)


def _plain_integer(x: sympy.Basic) -> bool:
    """An integer symbol whose parity is not known."""
    facts = x.assumptions0
    return bool(facts.get("integer")) and "even" not in facts and "odd" not in facts


def _reduced_linear_form(p: sympy.Add, q: int) -> bool:
    """p = c + Σ a·x as `mod` needs it for the modulus q (see there)."""
    numbers = [q]
    free = False
    for coeff, x in _coeffs(p):
        if not coeff.is_Integer:
            return False
        if x is sympy.S.One:
            if not 0 < coeff < q:
                return False
            numbers.append(int(coeff))
            continue
        if not (x.is_Symbol and _plain_integer(x)) or coeff % q == 0:
            return False
        numbers.append(int(coeff))
        facts = x.assumptions0
        free = free or ("nonnegative" not in facts and "nonpositive" not in facts)
    return free and math.gcd(*numbers) == 1


def floor(arg: sympy.Expr) -> sympy.Expr:
    """sympy.floor(arg), built directly for a linear form in integer symbols and Mod(L, q) terms (L such a
    form without Mod, q > 0) in which a symbol of free sign has a coefficient, such as a DO step's trip
    count (N + 31)/32 or DOT's (N - MOD(N, 4) + 3)/4, which sympy's floor takes tens of milliseconds of the
    assumptions to leave as it is. Such a form takes both signs, so floor keeps it unevaluated, except for
    the terms that are always integers, which it moves outside (N/2 + M + 1/2 gives M + floor(N/2 + 1/2)).
    That is sympy's answer when neither the form nor a fractional term of it is always an integer: both are
    checked on every residue of the symbols modulo the denominators and moduli (a fractional part depends on
    nothing else). Anything else goes to sympy."""
    terms = _coeffs(arg)
    symbols = sorted(arg.free_symbols, key=lambda x: x.name)
    if not all(coeff.is_Rational and _floor_atom(x) for coeff, x in terms) or \
            not all(_residue_domain(x) for x in symbols) or \
            not any(x.is_Symbol and _free_sign(x) for _, x in terms):
        return sympy.floor(arg)
    period = math.lcm(*[int(coeff.q) for coeff, _ in terms],
                      *[int(m.args[1]) for m in arg.atoms(sympy.Mod)],
                      *[int(c.q) for m in arg.atoms(sympy.Mod) for c, _ in _coeffs(m.args[0])])
    if period ** len(symbols) > _RESIDUES:
        return sympy.floor(arg)
    points = [dict(zip(symbols, (v + period for v in values)))
              for values in itertools.product(range(period), repeat=len(symbols))]
    fractional = [(coeff, x) for coeff, x in terms if not coeff.is_Integer]
    if all(x is sympy.S.One for _, x in fractional):
        return sympy.floor(arg)  # no fractional term but the constant: sympy takes its floor
    values = [[_exact(coeff, point) * _exact(x, point) for coeff, x in terms] for point in points]
    if all(sum(row).denominator == 1 for row in values):
        return sympy.floor(arg)  # possibly always an integer: sympy may say so
    for k, (coeff, _x) in enumerate(terms):
        if not coeff.is_Integer and all(row[k].denominator == 1 for row in values):
            return sympy.floor(arg)
    whole = [coeff * x for coeff, x in terms if coeff.is_Integer]
    rest = [coeff * x for coeff, x in fractional]
    return sympy.Add(*whole) + sympy.floor(sympy.Add(*rest), evaluate=False)


_RESIDUES = 256  # residue combinations checked at most (beyond, sympy decides)


def _floor_atom(x: sympy.Basic) -> bool:
    """1, an integer symbol, or Mod(L, q) with L a linear form in integer symbols with integer
    coefficients and q a positive integer."""
    if x is sympy.S.One or (x.is_Symbol and x.is_integer):
        return True
    if not isinstance(x, sympy.Mod) or not (x.args[1].is_Integer and x.args[1] > 0):
        return False
    return all(c.is_Integer and (y is sympy.S.One or (y.is_Symbol and y.is_integer)) for c, y in _coeffs(x.args[0]))


def _coeffs(e: sympy.Expr) -> list[tuple[sympy.Expr, sympy.Expr]]:
    return [term.as_coeff_Mul() for term in sympy.Add.make_args(e)]


def _residue_domain(x: sympy.Symbol) -> bool:
    """An integer symbol free of parity whose domain holds every integer from 1 up (free sign,
    non-negative or positive), so that v + period is a value of it for every residue v."""
    return bool(x.is_integer and x.is_even is None and x.is_odd is None
                and (_free_sign(x) or x.is_nonnegative))


def max0(raw: sympy.Expr) -> sympy.Expr:
    """Max(0, raw), the same expression sympy.Max builds, without its search for comparable arguments
    (tens of milliseconds through the assumption system for every new symbol): raw when it is known to be
    non-negative, 0 when known non-positive, otherwise the unevaluated Max."""
    raw = sympy.sympify(raw)
    if raw.is_Number:
        return sympy.Max(0, raw)
    if takes_both_signs(raw) or _strip_of_either_sign(raw):
        # neither sign can be proved (the assumptions would say None or False to both, at length): N - J + 1
        return sympy.Max(0, raw, evaluate=False)
    if raw.is_nonnegative:
        return raw
    if raw.is_nonpositive:
        return sympy.Integer(0)
    factored = sympy.factor_terms(raw)   # sympy.Max's second look (MinMaxBase._is_connected): A*B - A = A*(B - 1)
    if factored is not raw and factored.is_nonnegative:
        return raw
    if factored is not raw and factored.is_nonpositive:
        return sympy.Integer(0)
    return sympy.Max(0, raw, evaluate=False)


def substitute(expr: sympy.Expr, subs: dict, memo: dict | None = None, *, as_subs: bool = False) -> sympy.Expr:
    """expr.xreplace(subs), except that a Max(0, x) whose x changes is rebuilt by max0: xreplace rebuilds it
    through sympy.Max, whose search for comparable arguments (the assumption system, for every new
    argument) was most of the cost of expanding a callee's counts into a caller. Shared subexpressions are
    rebuilt once: within expr, and across the calls that pass the same `memo` dict (which must then all
    use the same subs: a callee's counts bound to one call's actuals share most of their terms).
    Only what a count's value needs is bound: a Piecewise's pieces whose conditions did not become false,
    a product's factors only where none is 0 (the count of a path not taken is 0, even where the path's
    own arithmetic would divide by 0). With `as_subs`, a Piecewise is rebuilt as sympy's subs rebuilds it
    (_piecewise_subs) and an undefined value or sympy's error is passed on as subs passes it, so that the
    result is expr.subs's for one old expression that no Sum binds (see _replace)."""
    if not subs:
        return expr
    if memo is None:
        memo = {}

    def walk(e: sympy.Basic) -> sympy.Basic:
        if e in subs:
            return subs[e]
        if not e.args:
            return e
        done = memo.get(e)
        if done is not None:
            return done
        if as_subs and isinstance(e, sympy.Piecewise):
            out = memo[e] = _piecewise_subs(e, walk)
            return out
        if not as_subs and isinstance(e, sympy.Piecewise):
            out = memo[e] = _chosen(_rebuilt(e, walk), e)
            return out
        if isinstance(e, (sympy.Mul, sympy.And, sympy.Or)):
            out = memo[e] = _short_circuit(e, walk, as_subs)
            return out
        if isinstance(e, sympy.ITE):
            out = memo[e] = _chosen_branch(e, walk, as_subs)
            return out
        args = [walk(a) for a in e.args]
        if all(new is old for new, old in zip(args, e.args)):
            out = e
        elif as_subs:
            out = _rebuilt_node(e, args)
        else:
            try:
                out = _rebuilt_node(e, args)
            except Unbindable:
                raise
            except (TypeError, ValueError, ZeroDivisionError) as exc:  # sympy: "Invalid comparison of
                # non-real zoo", "The argument 'nan' is not comparable" (a Max at 0/0), "Modulo by zero"
                # (DGEQR's MOD(M - N, MB - N) under its test MB > N, bound where MB = N)
                raise Unbindable(str(exc)) from exc
        if not as_subs and (out is sympy.zoo or out is sympy.nan):
            raise Unbindable(f"{e} is undefined there")
        memo[e] = out
        return out

    return walk(expr)


def _rebuilt_node(e: sympy.Basic, args: list) -> sympy.Basic:
    """A node with new arguments, Max(0, x), floor and Mod by this module's constructors (max0, floor, mod),
    a Sum of nothing as 0 (not a Sum of 0 holding the limits' symbols), anything else by its class."""
    if isinstance(e, sympy.Max) and len(args) == 2 and sympy.S.Zero in args:
        return max0(args[1] if args[0] == 0 else args[0])
    if isinstance(e, sympy.floor):
        return floor(args[0])
    if isinstance(e, sympy.Mod):
        return mod(*args)
    if isinstance(e, sympy.Sum) and args[0] == 0:
        return sympy.S.Zero
    return e.func(*args)


def _rebuilt(e: sympy.Piecewise, walk) -> sympy.Expr:
    """_piecewise_subs, with sympy's errors in folding the bound choice Unbindable, as for any other node
    (walk): its simplify of a bound condition puts 0 for every symbol (Expr.equals), and DSYTRF's block size
    `MAX(1, LWORK/N) < 8` bound in DLASYF's counts met Max(1, nan) there ("not comparable"), which made
    DSYTRF's whole build an internal error."""
    try:
        return _piecewise_subs(e, walk)
    except Unbindable:
        raise
    except (TypeError, ValueError) as exc:
        raise Unbindable(str(exc)) from exc


def _chosen(out: sympy.Expr, e: sympy.Piecewise) -> sympy.Expr:
    """A Piecewise bound by _piecewise_subs, undefined (Unbindable) where no piece holds or the one chosen
    is: a piece whose condition became false was never bound (LWORK/M where a path tests M.NE.0 first)."""
    if out is sympy.nan or out is sympy.zoo:
        raise Unbindable(f"{e} is undefined there")
    return out


_ABSORBING = {sympy.Mul: sympy.S.Zero, sympy.And: sympy.false, sympy.Or: sympy.true}


def _short_circuit(e: sympy.Basic, walk, as_subs: bool = False) -> sympy.Basic:
    """A product (an And, an Or) bound operand by operand: 0 (false, true) where one operand is, whatever the
    others are. A count is the indicator of its path times the path's trip counts, and where the indicator
    is 0 the path's arithmetic is never done (DGERQF's NB = LWORK/LDWORK, LDWORK = M, on the path a call
    with M = 0 returns before); a test guarded by another (DGEQR's `MOD(M - N, MB - N) .EQ. 0`, reached only
    where MB > N) is undefined where the guard is false, and the conjunction of both is false there. With
    `as_subs` an undefined operand stays as sympy's subs leaves it (zoo, nan), and only one that raises
    (sympy's Mod by 0, the indicator of that MOD's test beside the indicator of its guard) is dropped for
    the absorbing value beside it."""
    absorbing = _ABSORBING[type(e)]
    args: list[sympy.Basic] = []
    failed: Exception | None = None
    for arg in e.args:
        try:
            value = walk(arg)
        except (Unbindable, ZeroDivisionError) as exc:
            failed = exc
            continue
        if value == absorbing:
            return absorbing
        if not as_subs and (value is sympy.zoo or value is sympy.nan):
            failed = Unbindable(f"{arg} is undefined there")
            continue
        args.append(value)
    if failed is not None:
        raise failed
    if all(new is old for new, old in zip(args, e.args)):
        return e
    if as_subs:
        return e.func(*args)
    try:
        return e.func(*args)
    except (TypeError, ValueError) as exc:
        raise Unbindable(str(exc)) from exc


def _chosen_branch(e: sympy.ITE, walk, as_subs: bool = False) -> sympy.Basic:
    """An if-then-else of tests (sympy's form of a choice inside a relation) bound test first: where the test
    is decided, only the branch it takes, as a Piecewise binds only the pieces whose conditions hold; the
    other branch may be undefined there (DGEQR's `TSIZE < MAX(1, NB*N*NBLCKS + 5)`, NBLCKS = (M - N)/(MB - N)
    only where MB > N, bound where MB = N). With `as_subs` sympy's errors are passed on as subs passes them."""
    test = walk(e.args[0])
    if test is sympy.true or test is sympy.false:
        return walk(e.args[1] if test is sympy.true else e.args[2])
    branches = [walk(a) for a in e.args[1:]]
    if test is e.args[0] and all(new is old for new, old in zip(branches, e.args[1:])):
        return e
    if as_subs:
        return sympy.ITE(test, *branches)
    try:
        return sympy.ITE(test, *branches)
    except (TypeError, ValueError) as exc:
        raise Unbindable(str(exc)) from exc


def _piecewise_subs(e: sympy.Piecewise, walk) -> sympy.Expr:
    """What sympy's Piecewise._eval_subs builds, with `walk` as the substitution: each condition
    substituted, a piece's value only where its condition did not become False, the pieces after one whose
    condition became True left out, and Undefined (nan) when every condition became False."""
    pieces = []
    defined = False
    for value, cond in e.args:
        cond = walk(cond)
        if cond != False:  # noqa: E712 (sympy's comparison, as Piecewise._eval_subs makes it)
            defined = True
            value = walk(value)
        pieces.append((value, cond))
        if cond == True:  # noqa: E712
            break
    if len(pieces) == len(e.args) and all(v is old.expr and c is old.cond for (v, c), old in zip(pieces, e.args)):
        return e  # nothing bound in it: the same expression, not rebuilt
    return e.func(*pieces) if defined else e.func((sympy.S.NaN, True))


class Unbindable(ValueError):
    """Values that make an expression undefined in exact arithmetic (a division by zero, a comparison with
    it): IEEE arithmetic gives such a test a meaning (LAPACK's IEEECK divides ONE by ZERO to make an
    infinity) that exact folding cannot."""


def sum_over_index(f: sympy.Expr, index: sympy.Symbol, lo: sympy.Expr, hi: sympy.Expr,
                   step: sympy.Expr) -> sympy.Expr:
    """Σ f(index) over index = lo, lo+step, ... (the DO loop's iterations), in closed form where possible."""
    lo, hi, step = sympy.sympify(lo), sympy.sympify(hi), sympy.sympify(step)
    trips = trip_count(lo, hi, step)
    if index not in free_symbols(f):
        return mul(trips, f)
    if f.is_Mul:
        # the factors free of the index (a body's probabilities, its caller's option tests) multiply the
        # sum: inside it, every closed form expanded and factored them again (STREVC3's build 15 s, 9 s without)
        outside, inside = f.as_independent(index, as_Add=False)
        if outside != 1:
            return mul(outside, sum_over_index(inside, index, lo, hi, step))
    if f.has(sympy.Piecewise) and step in (1, -1):
        counted = _sum_with_indicators(f, index, lo, hi, step, trips)
        if counted is not None:
            return counted
    strips = _strip_sum(f, index, lo, hi, step)
    if strips is not None:
        return strips
    f_k = _replace(_own_inner_indices(f), index, lo + step * _K)
    if trips.is_Integer and int(trips) <= _EXPLICIT_LIMIT:
        return sympy.Add(*[_replace(f_k, _K, sympy.Integer(k)) for k in range(int(trips))])
    closed = _closed_sum(f_k, lo, hi, step)
    if closed is not None:
        return _replace(closed, _TAU, trips)
    if _K not in free_symbols(f_k):  # the index cancelled out: MIN(I, J) - 1 is I - 1 for J = I, ..., N
        return mul(trips, f_k)
    ramps = _ramp_sum(f_k, trips)
    if ramps is not None:
        return ramps
    return _open_sum(f_k, trips)


def is_sum_index(symbol: sympy.Basic) -> bool:
    """Whether a symbol is one of the indices inner sums are renamed to (k1, k2, ...): never free in a count."""
    return isinstance(symbol, sympy.Symbol) and symbol.name[:1] == "k" and symbol.name[1:].isdigit() \
        and symbol.is_integer is True and symbol.is_nonnegative is True


def _own_inner_indices(f: sympy.Expr) -> sympy.Expr:
    """f with every Sum inside it that adds up over k renamed to add up over an index of its own (k1, k2, ...):
    substituting the outer loop's index by k would otherwise be captured by the inner sum (the inner Sum of
    [(i + j) mod 3 = 0] over j = i … n-1, summed over i, came out as n(n+1)/2: every test taken)."""
    inner = [s for s in f.atoms(sympy.Sum) if any(limit[0] == _K for limit in s.limits)]
    if not inner:
        return f
    taken = {str(x) for s in f.atoms(sympy.Sum) for x in s.variables}
    fresh = next(sympy.Symbol(f"k{n}", integer=True, nonnegative=True) for n in range(1, 1000) if f"k{n}" not in taken)
    return f.xreplace({s: s.xreplace({_K: fresh}) for s in inner})


def _ramp_sum(f_k: sympy.Expr, trips: sympy.Expr) -> sympy.Expr | None:
    """Σ_{k=0}^{trips-1} f_k for f_k a sum of a polynomial in k and ramps c·Max(0, a - k) or c·Max(0, k - a)
    (c and a free of k, a an integer): an inner loop DO J = I, 12 summed over the first X trips of a loop
    left early, Max(0, 12 - k). The ramp a - k is positive for its first m = min(trips, max(0, a)) trips:
    m·a - m(m - 1)/2; k - a from s = max(0, a + 1) on, n = max(0, trips - s) trips: n·(s - a) + n(n - 1)/2.
    None for anything else."""
    polynomial: list[sympy.Expr] = []
    ramps: list[sympy.Expr] = []
    for term in sympy.Add.make_args(f_k):
        coeff, dependent = term.as_independent(_K, as_Add=False)
        if polynomial_in(dependent, _K):
            polynomial.append(term)
            continue
        ramp = _ramp(dependent)  # coeff is free of k (as_independent)
        if ramp is None:
            return None
        down, a = ramp
        if down:
            m = extremes.minimum(trips, max0(a))
            ramps.append(mul(coeff, m * a - m * (m - 1) / 2))
        else:
            start = max0(a + 1)
            n = max0(trips - start)
            ramps.append(mul(coeff, n * (start - a) + n * (n - 1) / 2))
    if not ramps:
        return None
    total = _plain_polynomial_sum(sympy.Add(*polynomial))
    if total is None:
        return None
    return _replace(total, _TAU, trips) + sympy.Add(*ramps)


def _ramp(e: sympy.Expr) -> tuple[bool, sympy.Expr] | None:
    """Max(0, a - k) → (True, a), Max(0, k - a) → (False, a), a an integer free of k; else None."""
    if not isinstance(e, sympy.Max) or len(e.args) != 2 or sympy.S.Zero not in e.args:
        return None
    g = e.args[1] if e.args[0] == 0 else e.args[0]
    slope = g.coeff(_K)
    a = g - slope * _K
    if slope not in (1, -1) or _K in free_symbols(a) or not a.is_integer:
        return None
    return slope == -1, expand(a if slope == -1 else -a)


_EXPLICIT_LIMIT = 200
# Terms with a test on the index that a sum is built over at once. sympy's Sum (and summation) folds the
# tests of its summand into one Piecewise, whose pieces multiply from term to term: 16 terms with three
# tests of k each (NNLS's loop over DAXPY unrolled by four) did not fold in minutes.
_FOLD_TERMS = 4


def _indicator_terms(f_k: sympy.Expr) -> int:
    """The terms of f_k with a Piecewise of k in them."""
    if not f_k.has(sympy.Piecewise):
        return 0
    return sum(1 for term in sympy.Add.make_args(f_k)
               if any(_K in free_symbols(p) for p in term.atoms(sympy.Piecewise)))


def _by_terms(f_k: sympy.Expr) -> list[tuple[sympy.Expr, sympy.Expr]]:
    """f_k's terms as (coefficient, factors of k), the terms with the same factors of k added up, in the
    order of f_k's terms."""
    groups: dict[sympy.Expr, list[sympy.Expr]] = {}
    for term in sympy.Add.make_args(f_k):
        coeff, dependent = term.as_independent(_K, as_Add=False)
        groups.setdefault(dependent, []).append(coeff)
    # each group's coefficients added up once: added one at a time, each sum flattened the one before it
    # again (a fifth of STREVC3's sums)
    return [(sympy.Add(*coeffs), dependent) for dependent, coeffs in groups.items()]


def _index_tests(f_k: sympy.Expr) -> int:
    """The distinct Piecewise of k in f_k."""
    if not f_k.has(sympy.Piecewise):
        return 0
    return sum(1 for p in f_k.atoms(sympy.Piecewise) if _K in free_symbols(p))


def _open_sum(f_k: sympy.Expr, trips: sympy.Expr) -> sympy.Expr:
    """Σ_{k=0}^{trips-1} f_k left open; one Sum per group of terms when a single one would fold too many
    tests. The terms are counted once f_k is expanded, also when f_k is one product: a callee's body
    multiplied by its caller's probability, (1 - p)·(p1·(2·(1 - [a])·(1 - [b]) + …) + …), is one term whose
    seven tests of k folded into one Piecewise of every combination (10 861 nodes, 9 CPU s for one sum of
    CTPMLQT's loop over CTPRFB); its 76 expanded terms are 12 groups of at most two tests each (1 718 nodes,
    0.1 s). Only the factors in k are multiplied out (``_index_terms``): each term's coefficient free of k, a
    polynomial in a dozen probabilities, stays as it is (STREVC3's build: 9 s with them multiplied out, 6 s)."""
    if _index_tests(f_k) > 1:
        terms = sympy.Add(*_index_terms(f_k, _K))
        if _indicator_terms(terms) > _FOLD_TERMS:
            return sympy.Add(*[mul(c, open_sum(d, (_K, 0, trips - 1))) for c, d in _by_terms(terms)])
    return open_sum(f_k, (_K, 0, trips - 1))


@lru_cache(maxsize=4096)
def open_sum(summand: sympy.Expr, limits: tuple) -> sympy.Expr:
    """sympy.Sum(summand, limits), the same for every run, built once per process for each summand and
    limits (a function of them alone: a callee's sums come back at each call that binds it alike).
    Building a Sum folds the Piecewise of its summand that hold the index, and sympy masks the others first
    with Dummy symbols numbered in the iteration order of a set (AddWithLimits' _common_new): the folded
    pieces came out in an order that followed PYTHONHASHSEED (DLATRD's two DGEMV calls). Masked here in a
    fixed order, they fold the same each time; put back, the summand is a folded Piecewise, which folding
    leaves as it is. Nothing summed is 0: a Sum of 0 (a callee's count bound where its test is false) kept
    the loop's limits, and the probabilities multiplying it, in the report's parameters."""
    index = limits[0]
    free = sorted((p for p in summand.atoms(sympy.Piecewise) if not p.has(index)), key=sympy.default_sort_key)
    if not free:
        built = sympy.Sum(summand, limits)
    else:
        masks = {p: sympy.Dummy(f"pw{n}") for n, p in enumerate(free)}
        built = sympy.Sum(summand.xreplace(masks), limits).xreplace({mask: p for p, mask in masks.items()})
    return sympy.S.Zero if isinstance(built, sympy.Sum) and built.function == 0 else built


def _summation(f_k: sympy.Expr) -> sympy.Expr | None:
    """sympy.summation of f_k over k = 0 … τ-1, term group by term group when f_k has many tests of k;
    None when sympy raises or a group has no closed form."""
    if any(_K in free_symbols(s) for s in f_k.atoms(sympy.Sum)):
        # an inner loop's sum left open, its range or summand in k: sympy has nothing to sum it by (the
        # inner Sum is no polynomial nor hypergeometric term in k) and gave it back open after up to 6 s
        # each in DTREVC3 (28 such sums, a third of its build)
        return None
    groups = _by_terms(f_k) if _indicator_terms(f_k) > _FOLD_TERMS else [(sympy.Integer(1), f_k)]
    parts = []
    for coeff, dependent in groups:
        try:
            total = sympy.summation(dependent, (_K, 0, _TAU - 1))
        except Exception:  # sympy raises many kinds here; any of them means "no closed form"
            return None
        if total.has(sympy.Sum):
            return None
        parts.append(coeff * total)
    return sympy.Add(*parts)


def _replace(f: sympy.Expr, symbol: sympy.Basic, value: sympy.Expr) -> sympy.Expr:
    """f.subs(symbol, value) for a symbol or a Max(0, g) of f: by substitute (Max(0, x) rebuilt by max0, not
    by sympy.Max's search for comparable arguments, which was most of the cost of summing a loop body over
    its index) when no Sum of f binds `symbol` or a symbol of `value` (subs then renames or stops at the
    bound index). For such an `old`, subs only rebuilds the nodes above its occurrences: Add and Mul match
    only an Add or a Mul, a Pow's base is replaced as any argument is, And and Or rebuild from their
    arguments, and a Piecewise as substitute(as_subs=True) rebuilds it; sympy's own subs walks the tree
    again for each (it was 14 % of `sad check` on LAPACK, the bodies of loops under tests on the index)."""
    if f.has(sympy.Sum) and not _free_sums(f, symbol, value):
        return f.subs(symbol, value)
    return substitute(f, {symbol: value}, as_subs=True)


def _free_sums(f: sympy.Expr, symbol: sympy.Basic, value: sympy.Expr) -> bool:
    """Whether every Sum in f binds indices that are neither `symbol` nor in `value`: substituting then
    rebuilds the sum from its summand and limits as any node is (sympy's subs asks the Sum for its free
    symbols first, which rebuilds the summand with every Min and Max in it: most of DLAQR5's analysis)."""
    taken = free_symbols(value) | ({symbol} if isinstance(symbol, sympy.Symbol) else set())
    return all(all(len(limit) == 3 and limit[0] not in taken for limit in found.limits)
               for found in f.atoms(sympy.Sum))


_NESTED_TRIPS = 10_000  # trips of an outer sum evaluated one by one at most


def outer(s: sympy.Sum) -> tuple[sympy.Expr, sympy.Symbol, sympy.Expr, sympy.Expr]:
    """What a Sum adds up over its outermost index, with that index and its bounds. sympy merges a Sum of a
    Sum into one Sum with both limits (Sum(Sum(f, inner), outer) is Sum(f, inner, outer)): the inner limits
    stay a Sum of the summand."""
    *inner, (k, a, b) = s.limits
    return (sympy.Sum(s.function, *inner) if inner else s.function), k, a, b  # already folded


def evaluate_sums(expr: sympy.Expr) -> sympy.Expr:
    """Replace every Sum whose bounds are numbers by its exact value, adding the terms one by one
    (vectorised). sympy's own numeric evaluation of a Sum approximates, which is wrong for the
    step-shaped summands (indicators, floors) that loop counts are made of."""
    import numpy

    def value(s: sympy.Sum) -> sympy.Expr:
        body, k, a, b = outer(s)
        a, b = _whole(a), _whole(b)  # a bound from a fitted or float value: 9.0 is 9
        if a is None or b is None:
            return s
        if b < a:
            return sympy.Integer(0)
        body = evaluate_sums(body)
        if body.free_symbols - {k}:
            return s
        if body.has(sympy.Sum):  # an inner sum whose bounds depend on k: one trip at a time
            if b - a >= _NESTED_TRIPS:
                return s
            return sympy.Add(*[evaluate_sums(body.subs(k, v)) for v in range(a, b + 1)])
        ks = numpy.arange(int(a), int(b) + 1, dtype=numpy.int64)
        try:
            terms = sympy.lambdify(k, exact_divisions(body), modules=[numpy_functions(), "numpy"])(ks)
        except (NameError, TypeError):  # a function numpy has not (a user function run on known arguments)
            if b - a >= _NESTED_TRIPS:
                return s
            return sympy.Add(*[body.subs(k, v) for v in range(a, b + 1)])
        total = float(numpy.sum(numpy.broadcast_to(terms, ks.shape)))
        return sympy.Integer(int(total)) if total.is_integer() else sympy.Float(total, 17)

    return expr.replace(lambda e: isinstance(e, sympy.Sum), value)


def _whole(bound: sympy.Expr) -> sympy.Integer | None:
    """An integer bound, or a float bound that is a whole number, as an Integer; None otherwise."""
    if bound.is_Integer:
        return bound
    if bound.is_Float and bound.is_finite and float(bound).is_integer():
        return sympy.Integer(int(bound))
    return None


def _strip_sum(f, index, lo, hi, step):
    """Strip mining: DO IV = LO, HI, S with an inner count Min(S, HI - IV + 1) (IL = MIN(S, N-IV+1)) covers
    LO..HI once, so the inner count sums to HI - LO + 1 whatever S is (0 for an empty range)."""
    if not (step.is_Integer and step > 1):
        return None
    total = sympy.Integer(0)
    for term in sympy.Add.make_args(expand(f)):
        parts = sympy.Mul.make_args(term)
        dependent = [a for a in parts if index in free_symbols(a)]
        if len(dependent) != 1:
            return None
        strip = dependent[0]
        if isinstance(strip, sympy.Max) and len(strip.args) == 2 and 0 in strip.args:
            strip = strip.args[1] if strip.args[0] == 0 else strip.args[0]
        if not (isinstance(strip, sympy.Min) and len(strip.args) == 2 and step in strip.args):
            return None
        rest = strip.args[1] if strip.args[0] == step else strip.args[0]
        if expand(rest - (hi - index + 1)) != 0:
            return None
        total += sympy.Mul(*[a for a in parts if a is not dependent[0]]) * sympy.Max(0, hi - lo + 1)
    return total


def resum(expr: sympy.Expr) -> sympy.Expr:
    """Sums left open (an inner bound of unknown sign, a formal argument) can close once values are bound
    (a call site's actual arguments): a polynomial summand is summed in closed form, a summand over a few
    numeric indices term by term, a longer one exactly by evaluate_sums. Others stay."""
    if not expr.has(sympy.Sum):
        return expr
    return _sums_replaced(expr, _resummed)


@lru_cache(maxsize=8192)
def _resummed(s: sympy.Sum) -> sympy.Expr:
    """One Sum closed as resum closes it, once per process: a callee's sums come back alike in every count
    that holds them and at every call that binds them to the same values."""
    body, k, a, b = outer(s)
    body = resum(body)
    if a.is_Integer and b.is_Integer and int(b) - int(a) < _EXPLICIT_LIMIT:
        terms = [body.subs(k, v) for v in range(int(a), int(b) + 1)]
        # an inner sum left open whose bounds held k has numbers for them in each term: closed too
        return sympy.Add(*([resum(t) for t in terms] if body.has(sympy.Sum) else terms))
    if a == 0 and polynomial_in(body, k):  # sympy's is_polynomial walks every open Sum in body by as_dummy
        closed = _polynomial_sum_over(body, k)
        if closed is not None:
            return closed.subs(_TAU, b + 1)
    if a.is_Integer and b.is_Integer:
        return evaluate_sums(open_sum(body, (k, a, b)))
    return open_sum(body, (k, a, b))


def _polynomial_sum_over(body: sympy.Expr, k: sympy.Symbol) -> sympy.Expr | None:
    """Σ_{k=0}^{τ-1} body, body a polynomial in the sum's index k (_polynomial_sum, which sums over _K). An
    inner sum's index is k1, k2, ... (_own_inner_indices), and its summand may hold the outer sum's index,
    which is _K itself: renamed out of the way while k is _K, else the inner index replaced by _K is that
    outer index (DORGRQ's blocked loop over DORGR2's DSCAL calls, Σ_k Σ_k1 (32k + k1 + 104), summed as
    Σ_k Σ (33k + 104): 59 088 iterations, not 14 544)."""
    if k == _K:
        return _polynomial_sum(body)
    outer_index = sympy.Dummy("k_outer", integer=True, nonnegative=True)
    hidden = body.xreplace({_K: outer_index}) if _K in free_symbols(body) else body
    closed = _polynomial_sum(hidden.subs(k, _K))
    return closed if closed is None or hidden is body else closed.xreplace({outer_index: _K})


def _sums_replaced(expr: sympy.Expr, close: Callable[[sympy.Sum], sympy.Expr]) -> sympy.Expr:
    """expr.replace(lambda e: isinstance(e, sympy.Sum), close), the same tree, with each distinct
    subexpression walked once: sympy's replace walks the tree, not the graph, and a callee's bound counts
    repeat their conditions in every piece (SORMQR's in SORMHR: 85 000 nodes in the tree, a few thousand
    distinct; resum was 38 % of SORMHR's `sad check`). The rules of sympy's walk are kept: the arguments
    first, a node rebuilt where they changed (and left as rebuilt where that gives back one of the changed
    arguments), `close` applied to every Sum, its result taken where it differs."""
    memo: dict = {}

    def walk(rv: sympy.Basic) -> sympy.Basic:
        args = getattr(rv, "args", None)
        if not args:   # an atom (a Sum always has arguments)
            return rv
        done = memo.get(rv)
        if done is not None:
            return done
        newargs = tuple([walk(a) for a in args])
        out = rv
        if args != newargs:
            if isinstance(rv, sympy.Sum):
                out = memo[rv] = _rebuilt(newargs)
                return out
            out = rv.func(*newargs)
            if any(out == e and e != new for e, new in zip(args, newargs)):
                memo[rv] = out
                return out
        out = memo[rv] = _closed(out) if isinstance(out, sympy.Sum) else out
        return out

    def _closed(s: sympy.Sum) -> sympy.Basic:
        value = close(s)
        return value if value is not None and value != s else s

    def _rebuilt(newargs: tuple) -> sympy.Basic:
        # Closed as written first where the summand holds a Piecewise: sympy's Sum constructor folds it,
        # which for a callee's blocked loop bound with formulas (its stand-ins' choices) took a driver past
        # 5 minutes (DGERQF's); folded only where the sum stays open.
        if newargs[0].has(sympy.Piecewise):
            unfolded = unfolded_sum(newargs[0], list(newargs[1:]))
            value = close(unfolded)
            if value is not None and value != unfolded:
                return value
        return _closed(sympy.Sum(*newargs))

    return walk(expr)


def unfolded_sum(summand: sympy.Expr, limits: list[sympy.Basic]) -> sympy.Sum:
    """sympy.Sum(summand, *limits) without the Piecewise folding of its constructor (AddWithLimits.__new__
    less _common_new): the same kind of object, its summand as given; sympy folds it where a binding
    rebuilds it with numbers."""
    obj = sympy.Expr.__new__(sympy.Sum)
    obj._args = (summand, *limits)
    obj.is_commutative = summand.is_commutative
    return obj


def _sum_with_indicators(f, index, lo, hi, step, trips):
    """Σ over the loop of terms `rest × [condition on the index]`, each counted exactly: how many indices
    of the range satisfy `index <= E`, `index == E`, `MOD(index, K) == 0`, ... (a branch on the loop
    index is not data-dependent)."""
    first, last = (lo, hi) if step == 1 else (hi, lo)
    parts: list[sympy.Expr] = []  # added up once at the end: adding each to a running sum flattens it again every time
    for term in _index_terms(f, index):
        indicators = [a for a in sympy.Mul.make_args(term)
                      if isinstance(a, sympy.Piecewise) and index in free_symbols(a)]
        rest = sympy.Mul(*[a for a in sympy.Mul.make_args(term) if a not in indicators])
        if index in free_symbols(rest):
            if indicators or rest == f:
                return None  # (rest == f: a Piecewise inside another function, this rule would recurse)
            parts.append(sum_over_index(rest, index, lo, hi, step))
            continue
        if not indicators:
            parts.append(trips * rest)
            continue
        value, indicator = _as_indicator(indicators, index)
        count = None if indicator is None else _indices_where(indicator, index, first, last, trips)
        if count is None:
            return None
        parts.append(rest * value * count)
    return sympy.Add(*parts)


def _index_terms(f: sympy.Expr, index: sympy.Symbol) -> list[sympy.Expr]:
    """f as a sum of terms, each a product in which the index appears in factors that are not sums: the
    factors with the index multiplied out, those without left as they are (a body's share under the
    branches of a loop left early is a polynomial in a dozen probabilities; multiplying it out for each of
    its terms cost 30 ms)."""
    terms: list[sympy.Expr] = []
    for term in sympy.Add.make_args(f):
        coeff, dependent = term.as_independent(index, as_Add=False)  # as _by_terms splits a term
        terms.extend(coeff * part for part in sympy.Add.make_args(expand(dependent)))
    return terms


@lru_cache(maxsize=4096)
def indicator(cond: sympy.Basic) -> sympy.Expr:
    """Piecewise((1, cond), (0, True)): 1 where cond holds, else 0. Remembered: sympy's Piecewise canonicalizes
    its conditions at every construction, and an IF's indicator is built again for every count under it."""
    return sympy.Piecewise((sympy.S.One, cond), (sympy.S.Zero, sympy.true))


def _as_indicator(pieces: list[sympy.Piecewise], index: sympy.Symbol) -> tuple[sympy.Expr, sympy.Piecewise | None]:
    """A product of Piecewise((v, cond), (0, True)) factors, each v free of the index, as
    Π v × Piecewise((1, cond1 ∧ cond2 ∧ ...), (0, True)) (nested IFs on the loop index; a callee's count under
    the caller's condition), else (1, None)."""
    values, conds = [], []
    for piece in pieces:
        if len(piece.args) != 2 or piece.args[1] != (0, True) or index in piece.args[0][0].free_symbols:
            return sympy.Integer(1), None
        values.append(piece.args[0][0])
        conds.append(piece.args[0][1])
    return sympy.Mul(*values), indicator(sympy.And(*conds))


def _indices_where(indicator: sympy.Piecewise, i, a, b, trips):
    """How many integers i in [a, b] make the indicator Piecewise((1, cond), (0, True)) one."""
    if len(indicator.args) != 2 or indicator.args[0][0] != 1 or indicator.args[1] != (0, True):
        return None
    cond = indicator.args[0][1]
    if isinstance(cond, sympy.Ne):
        inner = _indices_where(sympy.Piecewise((1, sympy.Eq(*cond.args)), (0, True)), i, a, b, trips)
        return None if inner is None else trips - inner
    if isinstance(cond, sympy.Eq):
        lhs, rhs = cond.args
        if rhs == 0 and isinstance(lhs, sympy.Mod) and lhs.args[0] == i and i not in lhs.args[1].free_symbols:
            k = lhs.args[1]  # multiples of K in [a, b]
            return max0(floor(b / k) - floor((a - 1) / k))
    residue = _residue_class(cond, i)
    if residue is not None:
        return _in_residues(residue[0], residue[1], a, b)
    if isinstance(cond, sympy.And):
        return _indices_where_all(cond.args, i, a, b)
    solved = solved_relation(cond, i)
    if solved is None:
        return None
    op, bound = solved
    if op is sympy.Eq:
        return sympy.Piecewise((1, sympy.And(sympy.Ge(bound, a), sympy.Le(bound, b),
                                             sympy.Eq(bound, floor(bound)))), (0, True))
    if op in (sympy.Le, sympy.Lt):
        top = floor(bound) if op is sympy.Le else sympy.ceiling(bound) - 1
        return max0(extremes.minimum(b, top) - a + 1)
    low = sympy.ceiling(bound) if op is sympy.Ge else floor(bound) + 1
    return max0(b - extremes.maximum(a, low) + 1)


def _residue_class(cond, i) -> tuple[tuple, frozenset] | None:
    """A test of the index's residue, as ((k, s, c), residues): `cond` holds exactly where Mod(s*i + c, k) is
    one of the residues. cond is Eq or Ne of Mod(s*i + c, k) and an integer, with k an integer >= 2, s = ±1
    and c an integer free of the index (an outer index: a red-black sweep's (i + j) % 2); None otherwise."""
    if not isinstance(cond, (sympy.Eq, sympy.Ne)):
        return None
    lhs, rhs = cond.args
    if isinstance(rhs, sympy.Mod):
        lhs, rhs = rhs, lhs
    if not isinstance(lhs, sympy.Mod) or not rhs.is_Integer:
        return None
    p, k = lhs.args
    if not (k.is_Integer and k >= 2):
        return None
    p = expand(p)
    s = p.coeff(i, 1)
    c = p - s * i
    if s not in (1, -1) or i in free_symbols(c) or not c.is_integer:
        return None
    hit = frozenset({int(rhs)}) & frozenset(range(int(k)))
    return (int(k), int(s), c), (hit if isinstance(cond, sympy.Eq) else frozenset(range(int(k))) - hit)


def _in_residues(key: tuple, residues: frozenset, a, b) -> sympy.Expr:
    """How many integers i in [a, b] have Mod(s*i + c, k) in `residues`, (k, s, c) = key: those with
    i = s*(r - c) modulo k for each residue r, counted by floors."""
    k, s, c = key
    total = sympy.Integer(0)
    for r in sorted(residues):
        t = s * (r - c)
        total += floor((b - t) / k) - floor((a - 1 - t) / k)
    return max0(total)


def _residues_in_bounds(others, classes, i, a, b):
    """The count of `_indices_where_all` where residue tests (`classes`, of one modulus and form) join bounds
    on the index (`others`); None where the moduli differ or another condition is not a bound (an equality
    pins the index: `_indices_where_all` then tests the residues at that point)."""
    if len({key for key, _ in classes}) != 1:
        return None
    allowed = frozenset.intersection(*(r for _, r in classes))
    low, high = a, b
    for cond in others:
        solved = solved_relation(cond, i)
        if solved is None or solved[0] is sympy.Eq:
            return None
        op, bound = solved
        if op in (sympy.Le, sympy.Lt):
            high = sympy.Min(high, floor(bound) if op is sympy.Le else sympy.ceiling(bound) - 1)
        else:
            low = sympy.Max(low, sympy.ceiling(bound) if op is sympy.Ge else floor(bound) + 1)
    return _in_residues(classes[0][0], allowed, low, high)


def solved_relation(cond, i) -> tuple[type, sympy.Expr] | None:
    """A relation `i <op> bound` equivalent to cond (linear in i with coefficient ±1), or None."""
    if not isinstance(cond, (sympy.Eq, sympy.Le, sympy.Lt, sympy.Ge, sympy.Gt)):
        return None
    diff = expand(cond.lhs - cond.rhs)
    coeff = diff.coeff(i)
    bound = -(diff - coeff * i)
    if coeff not in (1, -1) or i in bound.free_symbols:
        return None
    # i <op'> bound, the relation flipped when the coefficient is -1
    flipped = {sympy.Le: sympy.Ge, sympy.Lt: sympy.Gt, sympy.Ge: sympy.Le, sympy.Gt: sympy.Lt, sympy.Eq: sympy.Eq}
    return (type(cond) if coeff == 1 else flipped[type(cond)]), bound / coeff


def _indices_where_all(conds, i, a, b):
    """How many integers i in [a, b] satisfy every condition of a conjunction: an equality i == E pins the
    index (then E must be a whole number in [a, b] and satisfy the others); bounds intersect the range;
    residue tests of one modulus (a switch's later cases: ``i % 4 != 0 && i % 4 == 1``) intersect their
    residues, counted in the range the bounds leave."""
    classes = [_residue_class(c, i) for c in conds]
    if any(classes):
        counted = _residues_in_bounds([c for c, r in zip(conds, classes) if r is None],
                                      [r for r in classes if r is not None], i, a, b)
        if counted is not None:
            return counted
    solved = [solved_relation(c, i) for c in conds]
    if any(s is None for s in solved):
        if not any(s is not None and s[0] is sympy.Eq for s in solved):
            return None
    for cond, s in zip(conds, solved):
        if s is not None and s[0] is sympy.Eq:
            point = s[1]
            others = [c.subs(i, point) for c in conds if c is not cond]
            if any(i in c.free_symbols for c in others):
                return None
            return sympy.Piecewise((1, sympy.And(sympy.Ge(point, a), sympy.Le(point, b),
                                                 sympy.Eq(point, floor(point)), *others)), (0, True))
    low, high = a, b
    for op, bound in solved:
        if op in (sympy.Le, sympy.Lt):
            high = sympy.Min(high, floor(bound) if op is sympy.Le else sympy.ceiling(bound) - 1)
        else:
            low = sympy.Max(low, sympy.ceiling(bound) if op is sympy.Ge else floor(bound) + 1)
    return max0(high - low + 1)


def _closed_sum(f_k: sympy.Expr, lo, hi, step):
    """Σ_{k=0}^{τ-1} f_k in terms of τ, valid for every τ ≥ 0 (τ=0 gives 0), or None.

    Inner trip counts appear as Max(0, g(k)); over the iterations of a non-empty outer loop each g is
    linear in k, so it is non-negative throughout when it is at both ends (k = 0 and k = τ-1). With one
    bound written in terms of τ (hi - lo = step·(τ-1), exact for unit steps) that is decided symbolically,
    the Max drops, and sympy sums the polynomial.
    """
    solved = _bound_in_tau(hi - lo - step * (_TAU - 1), hi, lo) if step in (1, -1) else None
    if solved is None:
        return _plain_polynomial_sum(f_k)
    var, replacement = solved
    for m in sorted(f_k.atoms(sympy.Max), key=sympy.default_sort_key):
        g = _max_zero_argument(m)
        if g is None or not _linear_in_k(g):
            return None
        ends = [_replace(_replace(g, _K, end), var, replacement) for end in (sympy.S.Zero, _TAU - 1)]
        if not all(_nonnegative(e) for e in ends):
            return None
        f_k = _replace(f_k, m, g)
    f_k = expand(_replace(f_k, var, replacement))
    total = _polynomial_sum(f_k)
    if total is None and _periodic_term(f_k):
        return None
    if total is None:
        total = _summation(f_k)
    if total is None or total.has(sympy.Sum):
        return None
    return _factored(total)


def polynomial_in(expr: sympy.Expr, k: sympy.Symbol) -> bool:
    """expr.is_polynomial(k), sympy's answer, from the remembered free symbols (sad.analysis.freesymbols):
    sympy asks every node for its free symbols again, and an open Sum's are found by rebuilding its
    summand (every Min and Max in it through sympy's search for comparable arguments): a minute of
    DLAQR5's sums. Sums, products and non-negative integer powers of polynomials are polynomials; any
    other node is one exactly when k is not in it."""
    stack, seen = [expr], set()
    while stack:
        e = stack.pop()
        if e in seen or k not in free_symbols(e):
            continue
        seen.add(e)
        if e.is_Add or e.is_Mul:
            stack.extend(e.args)
        elif e.is_Pow:
            if k in free_symbols(e.exp) or not (e.exp.is_Integer and e.exp >= 0):
                return False
            stack.append(e.base)
        elif e != k:  # equal, not identical: a symbol made again after sympy's cache dropped it is another object
            return False
    return True


def _plain_polynomial_sum(f_k: sympy.Expr) -> sympy.Expr | None:
    """Σ_{k=0}^{τ-1} f_k for f_k a polynomial in k whatever the loop's bounds (a bound that no symbol can
    be solved from, such as a strip's MIN(64, N - I + 1) or a count Max(0, M - J), or a step other than ±1):
    Faulhaber's polynomial is the sum for every τ ≥ 0, and τ is the trip count, never negative. None for
    anything else (a step function of k needs the bounds, see _closed_sum)."""
    if not polynomial_in(f_k, _K):
        return None
    total = _polynomial_sum(expand(f_k))
    return None if total is None else _factored(total)


@lru_cache(maxsize=4096)
def _factored(total: sympy.Expr) -> sympy.Expr:
    """sympy.factor(total), once per process for each total: most closed sums are the same few polynomials
    in τ alone (τ(τ - 1)/2 of every triangular loop), a few milliseconds of factoring each time."""
    return sympy.factor(total)


def _periodic_term(f_k: sympy.Expr) -> bool:
    """f_k is one term (not a sum) with a MOD, floor or ceiling of k in it, such as the remainder trips
    Mod(M - k, 4) of an unrolled loop called in a loop: sympy.summation finds no closed form for it (it takes
    a product's factors free of k out and needs the rest to be a polynomial or a hypergeometric term in k,
    which a step function is not) and spent tens of milliseconds finding none. A sum of terms is left to
    sympy, which may pair two of them (telescoping)."""
    return not f_k.is_Add and any(_K in free_symbols(a.args[0])
                                  for a in f_k.atoms(sympy.Mod, sympy.floor, sympy.ceiling))


def _polynomial_sum(f_k: sympy.Expr) -> sympy.Expr | None:
    """Σ_{k=0}^{τ-1} f_k for f_k a polynomial in k, by Faulhaber's formula: Σ_{k=0}^{τ-1} k^p =
    (B_{p+1}(τ) - B_{p+1}(0))/(p+1) with the Bernoulli polynomials B. The same polynomial sympy.summation
    finds, without its search through telescoping and solve (seconds per nest)."""
    if not polynomial_in(f_k, _K):
        return None
    total = sympy.Integer(0)
    for power, coeff in _coefficients_in_k(f_k):
        total += coeff * _power_sum(power)
    return expand(total)


def _coefficients_in_k(f_k: sympy.Expr) -> list[tuple[int, sympy.Expr]]:
    """(p, the coefficient of k^p) of a polynomial in k, highest power first, as sympy.Poly(f_k, k).terms()
    gives them. Read off the terms when each is a coefficient free of k times k^p (f_k multiplied out in k,
    as every closed sum asks): Poly builds a domain of every other symbol of the coefficients first (a
    polynomial ring in dozens of probabilities and sizes for a body under many branches), a tenth of
    DTREVC's build. Poly itself for anything else, and where a number is not rational (a Float makes Poly's
    domain the reals, whose coefficients come back as 1.0·P, not P)."""
    if any(not number.is_Rational for number in f_k.atoms(sympy.Number, sympy.NumberSymbol, sympy.I)):
        return _poly_coefficients(f_k)
    by_power: dict[int, list[sympy.Expr]] = {}
    for term in sympy.Add.make_args(f_k):
        coeff, dependent = term.as_independent(_K, as_Add=False)
        if dependent is sympy.S.One:
            power = 0
        elif dependent is _K:
            power = 1
        elif dependent.is_Pow and dependent.base is _K and dependent.exp.is_Integer and dependent.exp > 1:
            power = int(dependent.exp)
        else:
            return _poly_coefficients(f_k)
        by_power.setdefault(power, []).append(coeff)
    return [(power, sympy.Add(*by_power[power])) for power in sorted(by_power, reverse=True)
            if by_power[power] != [0]]


def _poly_coefficients(f_k: sympy.Expr) -> list[tuple[int, sympy.Expr]]:
    return [(power, coeff) for (power,), coeff in sympy.Poly(f_k, _K).terms()]


@lru_cache(maxsize=64)
def _power_sum(power: int) -> sympy.Expr:
    """Σ_{k=0}^{τ-1} k^power multiplied out: (B_{p+1}(τ) - B_{p+1}(0))/(p+1)."""
    b = sympy.bernoulli(power + 1, _TAU) - sympy.bernoulli(power + 1, 0)
    return expand(b / (power + 1))


@lru_cache(maxsize=4096)
def _nonnegative(e: sympy.Expr) -> bool:
    """e >= 0 for every value of its symbols; simplify (slow) only when the assumptions cannot tell and
    e is not visibly negative somewhere. Remembered, as a function of e alone: a routine's sums ask for the
    same few ends of inner trip counts again and again (STREVC3 and SLAQR3: 1 391 times for 17 of them,
    2.5 CPU s of the assumptions' search and simplify, each a new object)."""
    known = e.is_nonnegative
    if known is not None:
        return bool(known)
    if _unbounded_below(e) or -1 in _signs_at_points(e, {-1}):
        return False  # what simplify would answer: no equal form can be proved non-negative
    return bool(sympy.simplify(e).is_nonnegative)


def _unbounded_below(e: sympy.Expr) -> bool:
    """Whether e is linear in its symbols with a term c·x that goes to -∞ on x's own domain (c > 0 and
    nothing bounds the real symbol x below, or c < 0 and nothing bounds it above): then e < 0 for some
    values (the other symbols fixed), so no form of e is non-negative. For `M - 1`, M an integer of
    unknown sign, this answers what sympy.simplify and the assumptions answer, a hundred times faster."""
    if not _linear(e):
        return False
    for coeff, rest in _coeffs(e):
        if rest.is_Symbol and rest.is_real and rest.is_finite:
            if coeff > 0 and not (rest.is_nonnegative or rest.is_positive):
                return True
            if coeff < 0 and not (rest.is_nonpositive or rest.is_negative):
                return True
    return False


def _signs_at_points(e: sympy.Expr, wanted: set[int]) -> set[int]:
    """The signs (-1, 0, 1) e takes at a few integer points of its symbols' domains, found by exact
    arithmetic, the search stopping once every sign in `wanted` is seen; empty when e holds something other
    than numbers, symbols of a kind listed in _DOMAINS, + * integer powers, floor, ceiling, Mod, Max, Min,
    Abs. A sign seen is a sign e takes, so sympy's assumptions, being sound, cannot prove the opposite
    inequality: e > 0 somewhere means neither e.is_nonpositive nor any form of e proved non-positive, as in
    floor(N/4 - Mod(N, 4)/4 + 3/4) (DOT's unrolled trip count, 20 ms of the assumptions to find nothing)."""
    symbols = sorted(free_symbols(e), key=lambda x: x.name)
    domains = [_domain(x) for x in symbols]
    choices = [d for d in domains if d is not None]
    if len(choices) < len(domains):
        return set()
    seen: set[int] = set()
    for values in itertools.islice(itertools.product(*choices), _POINTS):
        try:
            value = _exact(e, dict(zip(symbols, values)))
        except _NotExact:
            return set()
        except ZeroDivisionError:
            continue
        seen.add((value > 0) - (value < 0))
        if wanted <= seen:
            break
    return seen


_POINTS = 32  # points tried at most
_BIG = 10 ** 6


def _domain_values() -> list[tuple[dict, tuple[int, ...]]]:
    """Values to try per kind of symbol, by the symbol's full assumptions (anything else: no values): large
    values of either sign first (a linear form's sign is its leading terms'), then the smallest ones."""
    kinds = [({}, (_BIG, -_BIG, 0, 1, -1)), ({"nonnegative": True}, (0, _BIG, 1)),
             ({"positive": True}, (1, _BIG, 2)), ({"nonpositive": True}, (0, -_BIG, -1)),
             ({"negative": True}, (-1, -_BIG, -2))]
    return [(sympy.Symbol("t", **{base: True}, **sign).assumptions0, values)
            for base in ("integer", "real") for sign, values in kinds]


_KINDS = _domain_values()
_DOMAINS: dict[sympy.Symbol, tuple[int, ...] | None] = {}


def _domain(x: sympy.Basic) -> tuple[int, ...] | None:
    if x not in _DOMAINS:
        facts = x.assumptions0
        _DOMAINS[x] = next((values for kind, values in _KINDS if kind == facts), None)
    return _DOMAINS[x]


class _NotExact(Exception):
    """An expression _exact does not evaluate."""


def _exact(e: sympy.Basic, point: dict) -> Fraction | int:
    """e's value at point (symbol → integer), exactly, with sympy's meaning of each operation (Mod takes
    the divisor's sign, as Python's %)."""
    if e.is_Rational:
        return Fraction(int(e.p), int(e.q))
    if e.is_Symbol:
        return point[e]
    if e.is_Pow:
        if not e.exp.is_Integer:
            raise _NotExact("Pow")
        return Fraction(_exact(e.base, point)) ** int(e.exp)
    operation = _OPERATIONS.get(e.func) or next((op for cls, op in _FUNCTIONS if isinstance(e, cls)), None)
    if operation is None:
        raise _NotExact(e.func.__name__)
    return operation([_exact(a, point) for a in e.args])


_OPERATIONS: dict = {sympy.Add: sum, sympy.Mul: math.prod}
_FUNCTIONS: list = [(sympy.floor, lambda a: math.floor(a[0])), (sympy.ceiling, lambda a: math.ceil(a[0])),
                    (sympy.Mod, lambda a: a[0] % a[1]), (sympy.Max, max), (sympy.Min, min),
                    (sympy.Abs, lambda a: abs(a[0]))]


def _unbounded_both_ways(e: sympy.Expr) -> bool:
    """Whether e = c0 + Σ ci·ti (rational ci; each ti a symbol or the floor of such a form; no symbol in two
    terms) with a term that takes any large value of either sign (a symbol that may be any real or any
    integer, or the floor of a form with one): e then takes values of both signs, so neither e >= 0 nor
    e <= 0 holds for all values (N - J + 1, or the multiples of 3 up to N, floor(N/3 - 1/3) + 1)."""
    rests = _rational_terms(e)
    if rests is None:
        return False
    seen: set[sympy.Basic] = set()
    unbounded = False
    for rest in rests:
        if rest.is_Symbol:
            symbols, either = {rest}, _free_sign(rest)
        elif isinstance(rest, sympy.floor) and not isinstance(rest.args[0], sympy.floor):
            symbols, either = rest.args[0].free_symbols, _unbounded_both_ways(rest.args[0])
            if not either:
                return False
        else:
            return False
        if symbols & seen:
            return False
        seen |= symbols
        unbounded = unbounded or either
    return unbounded


@lru_cache(maxsize=4096)  # asked again for the same forms, as _nonnegative is (7 024 times for 577 of them)
def takes_both_signs(e: sympy.Expr) -> bool:
    """Whether e is seen to take a positive and a negative value (a form of either sign, or a point of its
    symbols' domains for each sign): then no sound reasoning proves e >= 0, e <= 0, e > 0 or e < 0, and
    sympy's assumptions, after their search, leave Max(0, e) and e < 0 unevaluated."""
    return _unbounded_both_ways(e) or {-1, 1} <= _signs_at_points(e, {-1, 1})


@lru_cache(maxsize=4096)
def takes_zero_and_other(e: sympy.Expr) -> bool:
    """Whether e is seen to be 0 at a point of its symbols' domains and not 0 at another: then neither
    e == 0 nor e != 0 holds everywhere, and sympy leaves Eq(e, 0) unevaluated after its search."""
    seen = _signs_at_points(e, {-1, 0, 1})
    return 0 in seen and len(seen) > 1


def _strip_of_either_sign(e: sympy.Expr) -> bool:
    """Whether e is Min(c, x) with c a positive number and x as in _unbounded_both_ways (a strip's
    width, MIN(32, N - JJ + 1)): negative where x is, positive where x is."""
    return (isinstance(e, sympy.Min) and len(e.args) == 2 and e.args[0].is_Number and e.args[0] > 0
            and _unbounded_both_ways(e.args[1]))


def _free_sign(x: sympy.Basic) -> bool:
    """A finite real symbol with no assumption on its sign."""
    return bool(x.is_Symbol and x.is_real and x.is_finite and x.is_nonnegative is None and x.is_nonpositive is None)


def _linear(e: sympy.Expr) -> bool:
    """e = c0 + Σ ci·xi with rational ci and distinct symbols xi."""
    rests = _rational_terms(e)
    return rests is not None and all(r.is_Symbol for r in rests) and len(set(rests)) == len(rests)


def _rational_terms(e: sympy.Expr) -> list[sympy.Basic] | None:
    """What multiplies each term's coefficient (x of c·x; constants left out) when every coefficient is
    rational, else None."""
    terms = _coeffs(e)
    if not all(coeff.is_Rational for coeff, _ in terms):
        return None
    return [rest for _, rest in terms if rest is not sympy.S.One]


def _max_zero_argument(m: sympy.Max):
    """g for Max(0, g), else None."""
    if len(m.args) != 2 or 0 not in m.args:
        return None
    return m.args[1] if m.args[0] == 0 else m.args[0]


def _linear_in_k(g: sympy.Expr) -> bool:
    """g is a polynomial in k of degree at most 1. Read off the terms when each is free of k or k times
    factors free of k (an inner trip count such as M - k - 1); otherwise sympy's Poly decides."""
    if all(_k_degree_at_most_1(term) for term in sympy.Add.make_args(g)):
        return True
    return polynomial_in(g, _K) and sympy.Poly(g, _K).degree() <= 1


def _k_degree_at_most_1(term: sympy.Expr) -> bool:
    factors = sympy.Mul.make_args(term)
    with_k = [f for f in factors if _K in free_symbols(f)]
    return not with_k or with_k == [_K]


def _bound_in_tau(relation: sympy.Expr, hi: sympy.Expr, lo: sympy.Expr):
    """Solve relation = 0 for one symbol of the bounds (hi's first): (symbol, its expression in τ)."""
    candidates = sorted(hi.free_symbols, key=lambda s: s.name) + sorted(lo.free_symbols, key=lambda s: s.name)
    expanded = expand(relation)
    for var in candidates:
        if var == _K:
            continue
        coeff = expanded.coeff(var)
        if coeff != 0 and var not in coeff.free_symbols and \
                expand(relation - coeff * var).free_symbols.isdisjoint({var}):
            return var, expand(var - relation / coeff)
    return None
