# SPDX-License-Identifier: GPL-2.0
"""The parts of bench/bench.py (make bench's host side), one module each; bench.py is the
command line. Python 3 stdlib only."""
