# SPDX-License-Identifier: GPL-2.0
"""The names every part of bench.py shares: the program name for errors (PROG, die), the
modules a run loads (MODULES, V1, VARIANTS, variant_module), the items, and the designs
table's figures and configurations (DESIGN_FIGURES, design_configs), which the planner and
the designs table both read.
"""

import sys


PROG = "bench.py"
MODULES = [("stock", "binder_linux"), ("split", "binder_alloc_split")]
# Item 6: bench/v1-ceiling.patch on the fixes and patch 0001, loaded from binder_alloc_v1.ko (its
# module name is binder_alloc_split); only where the shrinker does not run (it is racy).
V1 = ("v1", "binder_alloc_v1:binder_alloc_split")
# The design alternatives, bench only: bench/variant-NAME.patch on the series, built into
# binder_alloc_NAME.ko (module name binder_alloc_split). Each: what it is, and the items it runs
# in: 0, 1, 7 and 8; item 9 (the cold path) only where it installs pages other than the split
# does, and not as another variant does (v3 and rt do; trylock and trywait install as v3); item
# 10 (real-time callers under reclaim) for the candidates of Documentation/design.md section 13.
# bench/bench.sh builds those of BENCH_VARIANTS; every bench/variant-*.patch must be here.
VARIANTS = {
    "gate": ("the series as of v4 (reclaim_mutex a plain mutex) with a retry that holds no "
             "sleeping lock: on a rollback the allocator counts itself in alloc->retry_pending, waits for "
             "the shrinker with mutex_lock() and mutex_unlock() of reclaim_mutex and retries under "
             "alloc->lock alone, while the shrinker skips the process's pages "
             "(Documentation/design.md, section 13)", (0, 1, 7, 8, 10)),
    "rt": ("the series' v3 design (installs serialized on install_mutex, which the shrinker "
           "holds from clearing an entry until its zap) with install_mutex an rt_mutex: a "
           "waiter lends its priority to the holder (priority inheritance)", (0, 1, 7, 8, 9)),
    "rtgate": ("the gate variant with reclaim_mutex the series' rt_mutex: the allocator's wait "
               "for the shrinker lends the shrinker its priority (Documentation/design.md, "
               "section 13)", (0, 1, 7, 8, 10)),
    "trylock": ("the series' v3 installs with Rust binder's shrinker order: it clears the page "
                "and isolates it under a trylock of alloc->lock, and skips the page when the "
                "trylock fails; nothing rolls back", (0, 1, 7, 8)),
    "trywait": ("the trylock variant, but when the trylock of alloc->lock fails the shrinker "
                "drops the list_lru lock and waits for alloc->lock instead of skipping the page",
                (0, 1, 7, 8)),
    "v3": ("the series' v3: installs serialized on install_mutex, which the shrinker holds "
           "from clearing an entry until its zap, and no lookup", (0, 1, 7, 8, 9)),
    "v4": ("the series as of v4: reclaim_mutex a plain mutex (no priority inheritance without "
           "PREEMPT_RT or proxy execution), and a failed freelist step under the retry turned "
           "into -ENOMEM", (0, 1, 7, 8, 10)),
}


def variant_module(name):
    """(short name, plan MODULE) of a variant."""
    return (name, f"binder_alloc_{name}:binder_alloc_split")


TRYLOCK = variant_module("trylock")
# The kinds of the traced runs (item 7's waits, item 10's pwaits): where the real-time threads
# wait, not how long calls take; in no figure.
TRACED = ("waits", "pwaits")
ITEMS = tuple(range(11))


def die(msg):
    print(f"{PROG}: error: {msg}", file=sys.stderr)
    sys.exit(1)


def design_configs():
    """The configurations of the designs table (DESIGN_FIGURES) and item 7's traced runs of
    them: the only ones the variants run in, and all that the proxy boot runs."""
    return ({cfg for cfg, _, _ in DESIGN_FIGURES}
            | {"inv-waits", "inv-dc-waits", "prio-shr-few-waits"})


# bench.py designs: the figures of the decision table (Documentation/design.md), per boot:
# (config, figure, what)
DESIGN_FIGURES = (
    ("inv", "p999", "item 7: FIFO caller P99.9, no pressure"),
    ("inv-dc", "p999", "item 7: FIFO caller P99.9, drop_caches"),
    ("inv", "p99", "item 7: FIFO caller P99, no pressure"),
    ("inv-dc", "p99", "item 7: FIFO caller P99, drop_caches"),
    ("inv", "f_vcsw", "item 7: FIFO caller voluntary switches per call"),
    ("inv", "c_cpu", "item 7: callers' CPU per call"),
    ("inv", "s_cpu", "item 7: server's CPU per call"),
    ("kinv", "p99", "item 8: FIFO kthread P99, no walker"),
    ("kinv-shrink", "p99", "item 8: FIFO kthread P99, walker"),
    ("cold2-4k", "p50", "item 9: new_buf median, 4 KiB, T=2"),
    ("cold2-4k", "p99", "item 9: new_buf P99, 4 KiB, T=2"),
    ("cold4-4k", "p50", "item 9: new_buf median, 4 KiB, T=4"),
    ("cold4-4k", "p99", "item 9: new_buf P99, 4 KiB, T=4"),
    ("cold2-128k", "p50", "item 9: new_buf median, 128 KiB, T=2"),
    ("cold2-128k", "p99", "item 9: new_buf P99, 128 KiB, T=2"),
    ("cold4-128k", "p50", "item 9: new_buf median, 128 KiB, T=4"),
    ("cold4-128k", "p99", "item 9: new_buf P99, 128 KiB, T=4"),
    ("alloc1-shrink", "freed", "item 0: pages the walker freed, T=1"),
    ("alloc4-shrink", "freed", "item 0: pages the walker freed, T=4"),
    ("alloc4", "ops", "item 0: ops/s, T=4, no walker"),
    ("seed", "tput", "item 1: throughput, no pressure"),
    ("seed-dc", "tput", "item 1: throughput, drop_caches"),
    ("prio-shr-few", "f99_max", "item 10: FIFO 99 max, shrinker, 4 loopers"),
    ("prio-shr-few", "f99_p999", "item 10: FIFO 99 P99.9, shrinker, 4 loopers"),
    ("prio-shr-many", "f99_max", "item 10: FIFO 99 max, shrinker, 16 loopers"),
    ("prio-shr-few", "n19_max", "item 10: nice 19 max, shrinker, 4 loopers"),
    ("prio-shr-limit", "f99_max", "item 10: FIFO 99 alone (the limit) max, shrinker"),
)
