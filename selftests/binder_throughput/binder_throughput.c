// SPDX-License-Identifier: GPL-2.0
/*
 * binder_throughput: binderThroughputTest on the raw binder UAPI. This file
 * owns main() and the order of a run. bt.h lists the units and what they
 * share.
 *
 * The parent mounts a private binderfs, creates a fresh binder device through
 * binder-control and becomes its context manager. It forks the workers; each
 * opens the device, registers its node with the parent (CODE_ADD) and, once
 * all are registered, fetches a handle to every other worker (CODE_GET). A
 * worker runs a server (one looper plus up to --server-threads - 1 more that
 * the driver asks for, BINDER_SET_MAX_THREADS) and --threads client threads.
 *
 * Per round the parent releases the workers through pipes and times the round
 * until every worker reports back. Clients time each transaction:
 *   sync      BC_TRANSACTION to BR_REPLY (the server echoes the header)
 *   oneway    BC_TRANSACTION(TF_ONE_WAY) to BR_TRANSACTION_COMPLETE, at most
 *             --window calls not yet handled by the server (shared counter)
 *   pipeline  up to --window oneway calls in flight, each completed by a
 *             oneway callback transaction from the server to the client's
 *             worker; latency is send to callback
 * Every request carries a header (slot, sequence number, round) and a payload
 * pattern derived from them; servers check the pattern, clients check that
 * each reply or callback matches its request.
 *
 * --alloc-bench N runs no transactions: it maps a fresh device and asks the
 * module's <debugfs>/binder/alloc_bench (make bench's modules only, items 0,
 * 8 and 9) to run N kthreads of binder_alloc_new_buf + write +
 * binder_alloc_free_buf on that device's binder_alloc (--alloc-fifo: at nice
 * 19, beside one timed SCHED_FIFO kthread; --alloc-cold: first-touch
 * installs), and reports what the module measured.
 *
 * Output is KTAP: one test, diagnostics on "# " lines. Exit 0 pass, 1 fail,
 * 4 skip (not root, or no binder/binderfs), 2 bad command line.
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <unistd.h>

#include "bt.h"

int main(int argc, char **argv)
{
	parse_args(argc, argv);
	parent->pid = getpid();
	ktap_begin();
	if (cfg->alloc_threads) {
		say("alloc: %u kthreads%s, %u ms, buffers of %s%u bytes%s%s", cfg->alloc_threads,
		    cfg->alloc_fifo ? " at nice 19 and 1 SCHED_FIFO" : "", cfg->alloc_ms,
		    cfg->alloc_cold ? "" : "8 to ", cfg->alloc_max,
		    cfg->alloc_shrink ? ", freelist walker" : "",
		    cfg->alloc_cold ? ", first-touch installs" : "");
		if (cfg->hogs)
			say("CPU hogs: %u at nice 0 during the run", cfg->hogs);
		install_signals();
		if (cfg->timeout)
			alarm(cfg->timeout);
		setup_binderfs();
		alloc_bench();
		finish(KSFT_PASS, NULL);
	}
	say("%s: %u workers%s, %u iterations, %s%u-byte payload, %u client and %u server threads, %u warmup and %u measured rounds%s%s%s%s%s",
	    mode_names[cfg->mode], cfg->workers,
	    cfg->pairs ? " in pairs" : "", cfg->iterations, cfg->random_size ? "0 to " : "",
	    cfg->payload, cfg->threads, cfg->server_threads, cfg->warmup, cfg->rounds,
	    cfg->pressure ? ", drop_caches pressure" : "", cfg->fifo ? ", SCHED_FIFO" : "",
	    cfg->server_fifo ? ", SCHED_FIFO servers" : "", cfg->hogs ? ", CPU hogs" : "",
	    cfg->faults ? ", fault injection" : "");
	if (cfg->fifo_threads)
		say("client threads per worker: %u SCHED_FIFO %d (timed, %u us apart), %u at nice %d (counted)",
		    cfg->fifo_threads, FIFO_PRIO, cfg->fifo_sleep_us, cfg->nice_threads, cfg->nice);
	install_signals();
	if (cfg->timeout)
		alarm(cfg->timeout);
	setup_binderfs();

	shm_map();
	start_workers();
	run();
	finish(KSFT_PASS, NULL);
}
