"""Products of counts and of a count and a number, built as sympy builds them, without its flatten pass where
the result is known.

Data flow: the SAD builder multiplies counts by branch probabilities and trip counts (`mul`: sad.analysis.
buildstate, builder, calls, counting) and the mapper multiplies counts by seconds and by operation counts
(`times`: sad.predict.mapper, sad.codebase.routines). sympy's Mul sorts every factor again and asks the
assumptions system about every fresh number at each product; most products here add one factor to a product
in canonical order or put a number in front of one, and those are built directly. Every result is the tree
sympy's own product gives (tests compare them tree for tree on random products).
"""
from __future__ import annotations

from bisect import insort
from functools import cmp_to_key, lru_cache

import mpmath.libmp as mlib
import sympy
from sympy.core.add import _addsort
from sympy.core.mul import _mulsort

from sad.common.formulatext import written_sizes


def mul(a: sympy.Expr | int, b: sympy.Expr | int) -> sympy.Expr:
    """a·b: the other factor when one equals 1 (a Float 1.0 too, which sympy's product would keep), else the
    tree sympy builds: a number put in front of a product's factors (`_number_times`) or one factor inserted
    into a product (`_extend_product`) directly, sympy's product otherwise."""
    if is_number(a, 1):
        return b
    if is_number(b, 1):
        return a
    for number, other in ((a, b), (b, a)):
        if _finite_nonzero(number) and isinstance(other, sympy.Basic):
            return _number_times(other, number) or a * b
    if isinstance(b, sympy.Mul):
        extended = _extend_product(a, b)
        if extended is not None:
            return extended
    elif isinstance(a, sympy.Mul):
        extended = _extend_product(b, a)
        if extended is not None:
            return extended
    return a * b


def _finite_nonzero(value) -> bool:
    """An Integer, Rational or Float other than 0, ±∞ and nan."""
    if isinstance(value, sympy.Float):
        return value._mpf_ not in _SPECIAL_FLOATS
    return isinstance(value, sympy.Rational) and value is not sympy.S.Zero


def is_number(value: sympy.Expr | int, number: int) -> bool:
    """value == number, asked of sympy only for a number (an expression compared with an int is sympified
    and compared tree against tree, to say False)."""
    if isinstance(value, sympy.Basic) and not value.is_Number:
        return False
    return bool(value == number)


_ARG_ORDER = cmp_to_key(sympy.Basic.compare)


def _extend_product(factor, product: sympy.Mul) -> sympy.Expr | None:
    """factor·product built as sympy's Mul would build it, when nothing combines: a new commutative
    factor (no number, no product, its base not among the product's bases) inserted in sympy's canonical
    order of the product's factors (the number, if any, stays first). sympy's own Mul sorts all factors
    again at every product: the counts of statements nested k IFs deep are products of k probabilities,
    and 150 nested IFs took minutes. None when the general product is needed."""
    if not isinstance(factor, sympy.Basic) or factor.is_Number or factor.is_Mul or \
            not factor.is_commutative or not product.is_commutative:
        return None
    base = factor.as_base_exp()[0]
    args = list(product.args)
    if any(arg.as_base_exp()[0] == base for arg in args):
        return None
    coeff = [args.pop(0)] if args[0].is_Number else []
    insort(args, factor, key=_ARG_ORDER)
    return sympy.Mul._from_args(coeff + args, is_commutative=True)


_INFINITE = (sympy.S.Infinity, sympy.S.NegativeInfinity, sympy.S.ComplexInfinity, sympy.S.NaN)


def _has_infinite(expr: sympy.Basic) -> bool:
    """count.has(oo, -oo, zoo, nan), visiting each distinct subexpression once (has visits a shared one at
    each of its occurrences: minutes on VODE's formula)."""
    seen = {id(expr)}
    stack = [expr]
    while stack:
        e = stack.pop()
        if any(e is x for x in _INFINITE):
            return True
        for arg in e.args:
            if id(arg) not in seen:  # every arg lives as long as expr: ids are not reused meanwhile
                seen.add(id(arg))
                stack.append(arg)
    return False


def times(count: sympy.Expr, seconds: sympy.Expr) -> sympy.Expr:
    """count × seconds, the tree sympy builds. A block that costs nothing (a CONTINUE, a label) is 0 without
    sympy's product: to multiply by 0, sympy asks whether each factor is infinite (0 × ∞ is nan), and on a
    long count formula that question took 30 ms; a count without an infinite atom in it is finite."""
    if seconds is sympy.S.Zero and not _has_infinite(count):
        return sympy.S.Zero
    if seconds is sympy.S.One:
        return count
    if count is sympy.S.One:
        return seconds
    if not _finite_nonzero(seconds):
        return count * seconds
    if seconds.is_Float and count.is_Add:
        # sympy distributes the Float over the sum: Add(Float × term, ...), each product built as above
        return sympy.Add(*[times(term, seconds) for term in count.args])
    return _number_times(count, seconds) or count * seconds


def _number_times(count: sympy.Expr, number: sympy.Number) -> sympy.Expr | None:
    """A finite non-zero number (seconds, an operation's count per block, a trip count) times a count whose factors
    Mul.flatten keeps as they are, built directly; None for the others.

    Mul.flatten multiplies the numbers into one coefficient (the number first, then the count's own
    coefficient, as done here) and puts it before the other factors, which it keeps in their order when each
    is its own base (no two share one: they would be combined), is not a number raised to a power (those it
    may combine with the coefficient) and is not a sum left alone with a coefficient (it distributes the
    coefficient over it). Skipping its pass also skips the assumptions it asks of the fresh coefficient: a
    tenth of a routine's pricing otherwise."""
    factors = list(count.args) if count.is_Mul else [count]
    coefficient = number
    if factors[0].is_Rational:
        coefficient = interned(number * factors[0])
        factors = factors[1:]
    if not factors or not all(_plain(f) for f in factors):
        return None
    if len(factors) > 1 and len({f.as_base_exp()[0] for f in factors}) < len(factors):
        return None
    ordered = list(factors)
    _mulsort(ordered)
    if any(a is not b for a, b in zip(ordered, factors)):
        return None
    if coefficient is sympy.S.One:   # an integer times the count's own 1/n
        return factors[0] if len(factors) == 1 else sympy.Mul(*factors, evaluate=False)
    if len(factors) == 1 and factors[0].is_Add:
        return None
    return sympy.Mul(coefficient, *factors, evaluate=False)


def interned(value: sympy.Expr) -> sympy.Expr:
    """value itself, or, for a Float, the equal Float (the same binary value and precision) met first in
    this process. sympy deduces a Float's assumptions (is it zero, negative, …) on the object the first time
    a product or a sum asks, a fifth of a millisecond each; the coefficients of priced counts are the same few
    values in every routine (2.5e-7 s for a block's seconds times 1/2 of a count), so each is deduced once.
    The two objects are the same tree: nothing printed or computed can tell them apart."""
    if not isinstance(value, sympy.Float):
        return value
    key = (value._mpf_, value._prec)
    known = _FLOATS.get(key)
    if known is None:
        if len(_FLOATS) >= _FLOATS_KEPT:
            _FLOATS.clear()
        known = _FLOATS[key] = value
    return known


_FLOATS: dict[tuple, sympy.Float] = {}
_FLOATS_KEPT = 1 << 16
_SPECIAL_FLOATS = {mlib.fzero, mlib.finf, mlib.fninf, mlib.fnan}
_PLAIN = (sympy.Symbol, sympy.Max, sympy.Min, sympy.Piecewise, sympy.Mod, sympy.floor, sympy.ceiling, sympy.Sum,
          sympy.Add)


def _plain(factor: sympy.Basic) -> bool:
    """A commutative factor Mul.flatten keeps as it is: one of the kinds above, or one of them raised to a
    rational power."""
    if factor.is_Pow:
        return factor.exp.is_Rational and _plain(factor.base)
    return isinstance(factor, _PLAIN) and factor.is_commutative is True


# Counts are kept multiplied out (edge weights, tidied counts) only up to this many terms: a product of k
# two-term factors has 2**k of them (k guards `IF (N .EQ. j) RETURN` in a row, k nested IF blocks whose ELSE
# arms return), and multiplying out such a count took minutes. The corpus and the generated codebase need at
# most 39.
EXPANSION_LIMIT = 256


def multiplied_out(expr: sympy.Basic) -> bool:
    """Whether expr is a sum of products of numbers, symbols and integer powers of symbols (an IF's
    1 - P_A_IF1, a trip count N - 1, P·X·Y): sympy.expand gives such an expression back as it is, after
    asking each of its terms every expansion hint."""
    return expr.is_Atom or all(_monomial(term) for term in sympy.Add.make_args(expr))


def _monomial(term: sympy.Basic) -> bool:
    return all(f.is_Number or f.is_Symbol or (f.is_Pow and f.base.is_Symbol and f.exp.is_Integer)
               for f in sympy.Mul.make_args(term))


def expand(expr: sympy.Expr) -> sympy.Expr:
    """sympy.expand(expr), without its walk when expr is multiplied out already."""
    return expr if multiplied_out(expr) else _expanded(expr)


# sympy.expand's hints, all on (sympy.core.function.expand); applied in Expr.expand's order, multinomial
# before mul, then the three of them again until nothing changes
_HINTS = {"power_base": True, "power_exp": True, "mul": True, "log": True, "multinomial": True, "basic": True}
_FIRST = [f"_eval_expand_{h}" for h in sorted(_HINTS, key=lambda h: "mulz" if h == "mul" else h)]
_AGAIN = ["_eval_expand_multinomial", "_eval_expand_mul", "_eval_expand_log"]


@lru_cache(maxsize=1024)
def _expanded(expr: sympy.Expr) -> sympy.Expr:
    """sympy.expand(expr), the same tree, with each distinct subexpression expanded once per hint. sympy's
    Expr.expand walks the tree written out for each hint (Expr._expand_hint): a count is a graph whose
    shared parts (a callee's probabilities, the visits of a GOTO region) occur in many terms, and CTPMLQT's
    sums over its calls of CTPRFB walked 1.6 million nodes for a few thousand distinct ones. Expr.expand,
    like this, is cached per expression; every _eval_expand_ method is a function of its expression. The
    subexpressions' answers are kept across calls too (_hint_memo): the expanded counts of one loop body
    share most of their factors (STREVC's sums: 1.3 million nodes walked for 900 expansions)."""
    for hint in _FIRST:
        expr = _expand_hint(expr, hint, _hint_memo(hint))[0]
    while True:
        was = expr
        for hint in _AGAIN:
            expr = _expand_hint(expr, hint, _hint_memo(hint))[0]
        if expr == was:
            return expr


_HINT_MEMO_LIMIT = 100_000  # subexpressions remembered per hint (a long `sad check` worker analyzes many programs)
_HINT_MEMOS: dict[str, dict] = {}


def _hint_memo(hint: str) -> dict:
    """The answers of _expand_hint for `hint` so far in this process (each a function of its expression and
    the hint alone), emptied once past _HINT_MEMO_LIMIT entries."""
    memo = _HINT_MEMOS.setdefault(hint, {})
    if len(memo) > _HINT_MEMO_LIMIT:
        memo.clear()
    return memo


def _expand_hint(expr, hint: str, memo: dict) -> tuple[sympy.Basic, bool]:
    """Expr._expand_hint(expr, hint, deep=True, **_HINTS): (the expression, whether it changed), its
    arguments first; each distinct subexpression once (memo)."""
    done = memo.get(expr)
    if done is not None:
        return done
    hit = False
    out = expr
    if getattr(expr, "args", ()) and not expr.is_Atom:
        args = []
        for arg in expr.args:
            arg, changed = _expand_hint(arg, hint, memo)
            hit |= changed
            args.append(arg)
        if hit:
            out = expr.func(*args)
    result = (out, hit)
    method = getattr(out, hint, None)
    if method is not None:
        new = method(**_HINTS)
        if new != out:
            result = (new, True)
    memo[expr] = result
    return result


def expanded_terms(expr: sympy.Expr, cap: int) -> int:
    """An upper bound of the number of terms of expr multiplied out (powers with negative exponents counted
    as their bases multiplied out, as cancel does to a denominator), or a number above `cap` once the bound
    passes it; a function or a symbol is one term."""
    if expr.is_Add:
        total = 0
        for arg in expr.args:
            total += expanded_terms(arg, cap)
            if total > cap:
                break
        return total
    if expr.is_Mul:
        total = 1
        for arg in expr.args:
            total *= expanded_terms(arg, cap)
            if total > cap:
                break
        return total
    if expr.is_Pow and expr.exp.is_Integer:
        base, power = expanded_terms(expr.base, cap), abs(int(expr.exp))
        if base == 1:
            return 1
        return base ** power if power < 64 and base ** power <= cap else cap + 1
    return 1


def tree_size(exprs) -> int:
    """The number of nodes of the expressions written out as trees (a subexpression that occurs twice counts
    twice): what substituting into them, pricing and printing them costs. Linear in the distinct
    subexpressions (each one's size is remembered while counting)."""
    exprs = list(exprs)
    size = written_sizes(exprs)
    return sum(size[e] for e in exprs)


def larger_than(expr: sympy.Basic, cap: int) -> bool:
    """Whether expr has more than `cap` nodes as a tree, looking at no more than cap + 1 of them (sympy's
    own walks, count_ops and atoms, visit a shared subexpression at each of its occurrences)."""
    seen = 0
    stack = [expr]
    while stack:
        seen += 1
        if seen > cap:
            return True
        stack.extend(stack.pop().args)
    return False


def total(terms: list[sympy.Expr]) -> sympy.Expr:
    """sympy.Add(*terms), the tree sympy builds, for priced terms (finite numbers and products with a finite
    number in front): the terms are collected as Add.flatten collects them, in its order (nested sums' terms
    after the others, so that Float coefficients add up in the same order), and a term whose coefficient
    did not change is kept as it is instead of being multiplied again by Mul's full pass (the assumption
    queries on each fresh product were a twentieth of pricing a routine). Anything else goes to sympy."""
    seq = [t for t in terms if t is not sympy.S.Zero]
    coefficient: sympy.Expr = sympy.S.Zero
    collected: dict[sympy.Expr, sympy.Expr] = {}
    kept: dict[sympy.Expr, sympy.Expr] = {}      # rest → the term it came from, while no other adds to it
    for term in seq:  # seq grows: a nested sum's terms go to its end, as in Add.flatten
        if term.is_Add:
            seq.extend(term.args)
            continue
        if term.is_Number:
            if not _finite_number(term):
                return sympy.Add(*terms)
            coefficient += term
            continue
        if (term.is_Pow and term.base.is_Number) or not term.is_commutative:
            return sympy.Add(*terms)
        c, rest = term.as_coeff_Mul() if term.is_Mul else (sympy.S.One, term)
        if not _finite_number(c):
            return sympy.Add(*terms)
        if rest in collected:
            collected[rest] += c
            kept.pop(rest, None)
        else:
            collected[rest] = c
            kept[rest] = term
    args = []
    for rest, c in collected.items():
        if c.is_zero:
            continue
        if c is sympy.S.One:
            args.append(rest)
        elif rest in kept:
            args.append(kept[rest])
        elif rest.is_Mul:
            args.append(rest._new_rawargs(*((c,) + rest.args)))
        elif rest.is_Add:
            args.append(sympy.Mul(c, rest, evaluate=False))
        else:
            args.append(sympy.Mul(c, rest))
    _addsort(args)
    if coefficient is not sympy.S.Zero:
        args.insert(0, coefficient)
    if len(args) < 2:
        return args[0] if args else sympy.S.Zero
    return sympy.Add._exec_constructor_postprocessors(sympy.Add._from_args(args, True))


def _finite_number(number: sympy.Expr) -> bool:
    """A finite number: 0 or one of _finite_nonzero's."""
    return _finite_nonzero(number) or number.is_zero is True
