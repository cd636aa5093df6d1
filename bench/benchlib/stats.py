# SPDX-License-Identifier: GPL-2.0
"""The statistics of the report: Mann-Whitney U (exact or normal), its smallest reachable p,
the Hodges-Lehmann estimate and interval, Benjamini-Hochberg, the smallest detectable
difference, and the verdict of each summary row.
"""

import math
import statistics


ALPHA = 0.05
EXACT_LIMIT = 200000  # enumerate the rank sums while C(n1 + n2, n1) is at most this


# ---- statistics ----

def cdf_points(samples):
    """A run's latency CDF from its raw samples (ns): the sample at index n * p / 100 of the
    sorted samples for p = 0..99, then P99.5, P99.9 and the largest (bench-samples "ns")."""
    v = sorted(samples)
    n = len(v)
    if not n:
        return []
    return [v[n * p // 100] for p in range(100)] + [v[n * 995 // 1000], v[n * 999 // 1000], v[-1]]


def delivery_stats(samples):
    """Item 5's in-kernel delivery times from their raw samples (us): n, the mean to 0.1 us,
    P50, P90, P99 (the sample at index n * p / 100) and the largest (bench-samples "k_us")."""
    v = sorted(samples)
    n = len(v)
    if not n:
        return {"n": 0.0}
    return {"n": float(n), "avg_us": float(f"{sum(v) / n:.1f}"), "p50_us": float(v[n * 50 // 100]),
            "p90_us": float(v[n * 90 // 100]), "p99_us": float(v[n * 99 // 100]),
            "max_us": float(v[-1])}


def midranks(values):
    """Ranks 1..n of values, ties sharing the mean of their ranks."""
    order = sorted(range(len(values)), key=lambda i: values[i])
    ranks = [0.0] * len(values)
    i = 0
    while i < len(order):
        j = i
        while j + 1 < len(order) and values[order[j + 1]] == values[order[i]]:
            j += 1
        for k in range(i, j + 1):
            ranks[order[k]] = (i + j) / 2 + 1
        i = j + 1
    return ranks


def mann_whitney(x, y, asymptotic=False):
    """Mann-Whitney U test, two-sided. Returns (U of x, p, method).

    Exact: the permutation distribution of x's rank sum over every way to pick len(x) of the
    pooled midranks (exact with ties too), while there are at most EXACT_LIMIT ways. Otherwise
    the normal approximation with the tie correction and a continuity correction of 0.5.
    """
    n1, n2 = len(x), len(y)
    if n1 == 0 or n2 == 0:
        raise ValueError("empty sample")
    ranks = midranks(list(x) + list(y))
    r1 = sum(ranks[:n1])
    u = r1 - n1 * (n1 + 1) / 2
    mean = n1 * n2 / 2
    if not asymptotic and math.comb(n1 + n2, n1) <= EXACT_LIMIT:
        dev = abs(u - mean) - 1e-9
        off = n1 * (n1 + 1) / 2
        # How many of the picks of n1 pooled midranks have each rank sum. Midranks are
        # multiples of 1/2: count the picks by twice their sum, one rank at a time (ways[k][s]:
        # picks of k of the ranks so far whose sum is s / 2), instead of listing every pick.
        twice = [round(2 * r) for r in ranks]
        top = sum(sorted(twice)[-n1:])
        ways = [[0] * (top + 1) for _ in range(n1 + 1)]
        ways[0][0] = 1
        for i, t in enumerate(twice):
            for k in range(min(i + 1, n1), 0, -1):
                below, row = ways[k - 1], ways[k]
                for s in range(top - t, -1, -1):
                    if below[s]:
                        row[s + t] += below[s]
        total = math.comb(n1 + n2, n1)
        hits = sum(c for s, c in enumerate(ways[n1]) if c and abs(s / 2 - off - mean) >= dev)
        return u, hits / total, "exact"
    n = n1 + n2
    ties = {}
    for v in ranks:
        ties[v] = ties.get(v, 0) + 1
    tie = sum(t ** 3 - t for t in ties.values())
    var = n1 * n2 / 12 * ((n + 1) - tie / (n * (n - 1)))
    if var <= 0:
        return u, 1.0, "normal"
    z = max(abs(u - mean) - 0.5, 0) / math.sqrt(var)
    return u, min(1.0, math.erfc(z / math.sqrt(2))), "normal"


def min_p(n1, n2):
    """The smallest two-sided exact p that samples of these sizes can reach (no ties)."""
    if math.comb(n1 + n2, n1) > EXACT_LIMIT:
        return 0.0
    return min(1.0, 2 / math.comb(n1 + n2, n1))


def min_p_ties(x, y):
    """The smallest two-sided p that the rank test can give for samples of these sizes with
    the pooled values of x and y (their ties): that of the most extreme split of them."""
    pooled = sorted(list(x) + list(y))
    return mann_whitney(pooled[:len(x)], pooled[len(x):])[1]


def u_null_counts(n1, n2):
    """How many of the C(n1 + n2, n1) rank assignments give each U = 0 .. n1 * n2 (no ties):
    N(m, n, u) = N(m - 1, n, u - n) + N(m, n - 1, u)."""
    prev = [[1] + [0] * (n1 * n2) for _ in range(n2 + 1)]  # m = 0: only U = 0
    for m in range(1, n1 + 1):
        cur = [[1] + [0] * (n1 * n2)]  # n = 0: only U = 0
        for n in range(1, n2 + 1):
            row = [0] * (n1 * n2 + 1)
            for u in range(m * n + 1):
                row[u] = (prev[n][u - n] if u >= n else 0) + cur[n - 1][u]
            cur.append(row)
        prev = cur
    return prev[n2]


def u_critical(n1, n2, alpha=ALPHA):
    """The largest c with P(U <= c) <= alpha / 2 under the null (no ties), or -1 if none:
    exact while C(n1 + n2, n1) is at most EXACT_LIMIT, else the normal approximation."""
    if math.comb(n1 + n2, n1) <= EXACT_LIMIT:
        counts, total = u_null_counts(n1, n2), math.comb(n1 + n2, n1)
        c, cum = -1, 0
        for u, k in enumerate(counts):
            cum += k
            if cum / total > alpha / 2:
                break
            c = u
        return c
    z = statistics.NormalDist().inv_cdf(1 - alpha / 2)
    return math.floor(n1 * n2 / 2 - z * math.sqrt(n1 * n2 * (n1 + n2 + 1) / 12) - 0.5)


def hodges_lehmann(base, other, alpha=ALPHA):
    """The Hodges-Lehmann estimate of other against base and its (1 - alpha) interval, the
    one the rank test gives (Moses): the median of the pairwise differences, and their
    (c+1)-th smallest and largest, c = u_critical(). On logs, as a ratio, when every value
    is above 0; else as a shift in the figure's unit. Returns (kind, estimate, low, high),
    kind "ratio" or "shift"; low and high are None when the sizes allow no interval."""
    ratio = all(v > 0 for v in list(base) + list(other))
    f = math.log if ratio else (lambda v: v)
    d = sorted(f(b) - f(a) for a in base for b in other)
    est = statistics.median(d)
    c = u_critical(len(base), len(other), alpha)
    lo, hi = (d[c], d[len(d) - 1 - c]) if c >= 0 else (None, None)
    if ratio:
        return ("ratio", math.exp(est), *(None if v is None else math.exp(v) for v in (lo, hi)))
    return "shift", est, lo, hi


def compare(base, other):
    """What a row says of other against base: the Hodges-Lehmann estimate and interval, the
    detectable difference, the rank test and the smallest p the sizes allow."""
    kind, est, lo, hi = hodges_lehmann(base, other)
    u, p, meth = mann_whitney(other, base)
    return dict(est_kind=kind, est=est, ci_lo=lo, ci_hi=hi,
                detectable=detectable(base, other, kind), u=u, p=p, method=meth,
                min_p=min_p(len(base), len(other)))


def benjamini_hochberg(ps):
    """Benjamini-Hochberg adjusted p-values (q) of ps, in the same order."""
    m = len(ps)
    order = sorted(range(m), key=lambda i: ps[i])
    q = [1.0] * m
    run = 1.0
    for rank in range(m, 0, -1):
        i = order[rank - 1]
        run = min(run, ps[i] * m / rank)
        q[i] = run
    return q


def detectable(base, other, kind, power=0.8, alpha=ALPHA):
    """The smallest difference (a ratio, or a shift in the unit) that samples of these sizes
    and this spread would find with the given power: the normal approximation of the rank
    test (its efficiency 3/pi against the t test), with the pooled standard deviation of the
    values (of their logs for a ratio). None with fewer than 2 values a side."""
    n1, n2 = len(base), len(other)
    if n1 < 2 or n2 < 2:
        return None
    f = math.log if kind == "ratio" else (lambda v: v)
    sd = math.sqrt(((n1 - 1) * statistics.variance([f(v) for v in base])
                    + (n2 - 1) * statistics.variance([f(v) for v in other])) / (n1 + n2 - 2))
    nd = statistics.NormalDist()
    delta = ((nd.inv_cdf(1 - alpha / 2) + nd.inv_cdf(power)) * sd
             * math.sqrt(1 / n1 + 1 / n2) / math.sqrt(3 / math.pi))
    return math.exp(delta) if kind == "ratio" else delta


def verdicts(rows):
    """The verdict of every row that has a test, with the Benjamini-Hochberg correction over
    all of them (q: the adjusted p; false discovery rate ALPHA):
      differs                 q < ALPHA
      p < ALPHA, not after correction   p < ALPHA <= q
      no difference detected  p >= ALPHA, and p < ALPHA was possible
      too few runs (p >= X always)      the sample sizes cannot reach p < ALPHA
      too few distinct values           the sizes can, but not with these ties"""
    tested = [r for r in rows if "p" in r]
    for r, q in zip(tested, benjamini_hochberg([r["p"] for r in tested])):
        r["q"] = q
        if q < ALPHA:
            r["verdict"] = "differs"
        elif r["p"] < ALPHA:
            r["verdict"] = f"p < {ALPHA}, not after correction"
        elif r["min_p"] >= ALPHA:
            r["verdict"] = f"too few runs (p >= {r['min_p']:.2f} always)"
        elif min_p_ties(r["a"], r["b"]) >= ALPHA:  # a second enumeration: only here
            r["verdict"] = "too few distinct values"
        else:
            r["verdict"] = "no difference detected"
    return rows
