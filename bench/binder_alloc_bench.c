// SPDX-License-Identifier: GPL-2.0-only
/*
 * binder_alloc_bench.c - make bench's allocator microbenchmark (items 0, 8
 * and 9).
 *
 * Bench only, not in the series: built into a binder module with BAS_BENCH=1;
 * bench/alloc-bench-hook.patch calls binder_alloc_bench_init(), and
 * bench/shrinker-skips-*.patch report each page binder_alloc_free_page()
 * skips, and why, to binder_alloc_bench_skip().
 *
 * Writing "fd=F threads=N ms=T max=S shrink=0|1 fifo=0|1 cold=0|1" to
 * <debugfs>/binder/alloc_bench runs N kthreads for T ms on the binder_alloc
 * behind the caller's (mapped) binder file descriptor F:
 *
 * - by default each loops binder_alloc_new_buf() of a random size in [8, S],
 *   one write of the whole buffer with binder_alloc_copy_to_buffer(),
 *   binder_alloc_free_buf(). Freed pages go to the freelist and are mostly
 *   taken back from it. With shrink=1 one more kthread walks alloc->freelist
 *   with binder_alloc_free_page() every millisecond, so pages are also
 *   zapped and reinstalled (item 0).
 * - fifo=1: the N kthreads run at nice 19, and one more, SCHED_FIFO 50,
 *   times each of its own ops and sleeps 1 ms after each: a real-time
 *   caller among low-priority ones on one binder_alloc (item 8).
 * - cold=1: first-touch installs (item 9). In rounds: every kthread
 *   allocates buffers of exactly S bytes, and keeps them, until together
 *   they hold half of the mapping; each binder_alloc_new_buf() installs the
 *   pages it covers, which no buffer used since the last round. Then the
 *   buffers are freed and every page on binder's (global) freelist is
 *   reclaimed with binder_alloc_free_page(), outside the timed part.
 *
 * The write returns when the run is over; a read then gives its result on
 * one line of key=value fields: ops ns errors walks freed max_ns, skip_*
 * (the shrinker's LRU_SKIPs per reason, enum binder_bench_skip, all but
 * skip_retry, which only alloc_bench_counts gives), fifo_ops
 * fifo_max_ns fifo_over_1ms, and with cold=1 rounds alloc_ns (summed over
 * the rounds) and installs (the entries of alloc->pages[] set after each
 * round; none is set at its start). ns is the run's wall time; ops and
 * max_ns leave out the SCHED_FIFO kthread, whose own are in fifo_*. An op is
 * one new_buf + write + free (cold=1: one binder_alloc_new_buf()).
 *
 * <debugfs>/binder/alloc_bench_samples gives, per kthread, a line
 * "thread=I fifo=0|1 ops=N max_ns=M n=K" and one of K op times in ns, a
 * reservoir sample of its N ops: percentiles weigh each sample by N / K.
 * <debugfs>/binder/alloc_bench_counts gives the rollbacks (counted by
 * binder_alloc_bench_retry()) and the skip_* counts since the module was
 * loaded or the last run started.
 */

#include <linux/debugfs.h>
#include <linux/delay.h>
#include <linux/file.h>
#include <linux/kthread.h>
#include <linux/list_lru.h>
#include <linux/random.h>
#include <linux/sched.h>
#include <linux/seq_file.h>
#include <linux/slab.h>
#include <linux/uaccess.h>
#include <linux/wait.h>

#include "binder_alloc.h"
#include "binder_internal.h"

#define BENCH_MAX_THREADS 8
#define BENCH_SAMPLES 8192
#define BENCH_FIFO_SAMPLES 65536
#define BENCH_MAX_MS 60000
/* list_lru_walk()s of a cold round's reclaim before it counts as failed */
#define BENCH_RECLAIM_TRIES 100
/* A cold round's allocations that take longer than this fail the run */
#define BENCH_ROUND_TIMEOUT (10 * HZ)

/* Cold mode: the rounds, started by bench_cold_rounds() */
struct bench_cold {
	wait_queue_head_t start;
	unsigned int round;
	atomic_t left;
	struct completion done;
};

struct bench_worker {
	struct binder_alloc *alloc;
	struct task_struct *task;
	bool *over;		/* the run's time is up: start no more ops */
	struct bench_cold *cold;
	size_t max;
	bool fifo;
	bool nice;
	u64 ops;
	u64 errors;
	u64 over_1ms;
	u32 max_ns;
	unsigned int cap;
	unsigned int nsamples;
	u32 *samples;
	u8 *src;
	unsigned int nbufs;
	unsigned int held;
	struct binder_buffer **bufs;
};

struct bench_shrinker {
	struct binder_alloc *alloc;
	struct task_struct *task;
	u64 walks;
	u64 freed;
};

/* What alloc_bench_samples shows of each kthread of the last run */
struct bench_thread {
	u64 ops;
	u32 max_ns;
	unsigned int nsamples;
	bool fifo;
	const u32 *samples;
};

/* One run at a time; guards bench_result, bench_threads, bench_samples */
static DEFINE_MUTEX(bench_lock);
static char bench_result[1024];
static struct bench_thread bench_threads[BENCH_MAX_THREADS];
static unsigned int bench_nthreads;
/* The kthreads' reservoirs: BENCH_SAMPLES each, then the SCHED_FIFO one's */
static u32 bench_samples[BENCH_MAX_THREADS * BENCH_SAMPLES + BENCH_FIFO_SAMPLES];
static atomic_long_t bench_skips[BINDER_BENCH_SKIP_NR];
static atomic_long_t bench_retries;

/**
 * binder_alloc_bench_skip() - count one LRU_SKIP of binder_alloc_free_page()
 * @why: the reason
 *
 * Called by binder_alloc_free_page() with the list_lru lock held.
 */
void binder_alloc_bench_skip(enum binder_bench_skip why)
{
	atomic_long_inc(&bench_skips[why]);
}

/**
 * binder_alloc_bench_retry() - count one rollback of binder_alloc_new_buf()
 *
 * Called by binder_alloc_new_buf() with alloc->lock held, each time the
 * shrinker made an allocation roll back and retry.
 */
void binder_alloc_bench_retry(void)
{
	atomic_long_inc(&bench_retries);
}

/* One op of @dt ns: counted, and kept in a reservoir sample of w->cap. */
static void bench_sample(struct bench_worker *w, u64 dt)
{
	u32 v = min_t(u64, dt, U32_MAX);
	u32 slot;

	w->ops++;
	if (dt > NSEC_PER_MSEC)
		w->over_1ms++;
	w->max_ns = max(w->max_ns, v);
	if (w->nsamples < w->cap) {
		w->samples[w->nsamples++] = v;
		return;
	}
	/* Reservoir sampling: every op has the same chance to be kept. */
	slot = w->ops <= U32_MAX ? get_random_u32_below(w->ops) : U32_MAX;
	if (slot < w->cap)
		w->samples[slot] = v;
}

/* Until kthread_stop(): a kthread must not return before it is stopped. */
static void bench_idle(void)
{
	set_current_state(TASK_INTERRUPTIBLE);
	while (!kthread_should_stop()) {
		schedule();
		set_current_state(TASK_INTERRUPTIBLE);
	}
	__set_current_state(TASK_RUNNING);
}

static int bench_worker_fn(void *data)
{
	struct bench_worker *w = data;
	struct binder_buffer *buf;
	size_t size;
	u64 t0;

	while (!READ_ONCE(*w->over)) {
		size = 8 + get_random_u32_below(w->max - 7);
		t0 = ktime_get_ns();
		buf = binder_alloc_new_buf(w->alloc, size, 0, 0, 0);
		if (IS_ERR(buf)) {
			w->errors++;
		} else {
			if (binder_alloc_copy_to_buffer(w->alloc, buf, 0, w->src, size))
				w->errors++;
			binder_alloc_free_buf(w->alloc, buf);
			bench_sample(w, ktime_get_ns() - t0);
		}
		/* A SCHED_FIFO thread must sleep: cond_resched() lets no lower one run */
		if (w->fifo)
			usleep_range(1000, 1100);
		else
			cond_resched();
	}
	bench_idle();
	return 0;
}

/* Cold mode: each round, allocate w->nbufs buffers of w->max bytes and keep them. */
static int bench_cold_fn(void *data)
{
	struct bench_worker *w = data;
	struct bench_cold *c = w->cold;
	struct binder_buffer *buf;
	unsigned int seen = 0;
	u64 t0;

	for (;;) {
		/* Pairs with the release in bench_cold_rounds(): c->left, w->held */
		wait_event_interruptible(c->start, smp_load_acquire(&c->round) != seen ||
					 kthread_should_stop());
		if (kthread_should_stop())
			break;
		seen = smp_load_acquire(&c->round);	/* as above */
		while (w->held < w->nbufs) {
			t0 = ktime_get_ns();
			buf = binder_alloc_new_buf(w->alloc, w->max, 0, 0, 0);
			if (IS_ERR(buf)) {
				w->errors++;
				break;
			}
			bench_sample(w, ktime_get_ns() - t0);
			w->bufs[w->held++] = buf;
		}
		if (atomic_dec_and_test(&c->left))
			complete(&c->done);
	}
	return 0;
}

/* The pages of @alloc that are installed */
static unsigned long bench_installed(struct binder_alloc *alloc)
{
	unsigned long i, n = 0;

	for (i = 0; i < alloc->buffer_size / PAGE_SIZE; i++)
		n += !!READ_ONCE(alloc->pages[i]);
	return n;
}

/* Reclaim every page of @alloc, all of them free: 0, or -EBUSY. */
static int bench_reclaim(struct binder_alloc *alloc)
{
	unsigned int tries;

	for (tries = 0; tries < BENCH_RECLAIM_TRIES; tries++) {
		if (!bench_installed(alloc))
			return 0;
		list_lru_walk(alloc->freelist, binder_alloc_free_page, NULL, ULONG_MAX);
		cond_resched();
	}
	return bench_installed(alloc) ? -EBUSY : 0;
}

/*
 * Cold mode, from the writer's context: rounds of allocation by the
 * kthreads (timed), then free and reclaim (not timed), until @ms are over.
 */
static int bench_cold_rounds(struct binder_alloc *alloc, struct bench_cold *c,
			     struct bench_worker *w, unsigned int nthreads,
			     unsigned int ms, u64 *rounds, u64 *alloc_ns,
			     u64 *installs)
{
	u64 end = ktime_get_ns() + (u64)ms * NSEC_PER_MSEC, t0, errors;
	unsigned int i, j;
	int ret;

	while (ktime_get_ns() < end) {
		atomic_set(&c->left, nthreads);
		reinit_completion(&c->done);
		t0 = ktime_get_ns();
		/* Pairs with the acquire in bench_cold_fn() */
		smp_store_release(&c->round, c->round + 1);
		wake_up_all(&c->start);
		if (!wait_for_completion_timeout(&c->done, BENCH_ROUND_TIMEOUT))
			return -ETIMEDOUT;
		*alloc_ns += ktime_get_ns() - t0;
		(*rounds)++;
		*installs += bench_installed(alloc);
		for (i = 0, errors = 0; i < nthreads; i++) {
			for (j = 0; j < w[i].held; j++)
				binder_alloc_free_buf(alloc, w[i].bufs[j]);
			w[i].held = 0;
			errors += w[i].errors;
		}
		/* The result reports the failed allocations */
		if (errors)
			return 0;
		ret = bench_reclaim(alloc);
		if (ret)
			return ret;
	}
	return 0;
}

static int bench_shrinker_fn(void *data)
{
	struct bench_shrinker *s = data;

	while (!kthread_should_stop()) {
		s->freed += list_lru_walk(s->alloc->freelist, binder_alloc_free_page,
					  NULL, ULONG_MAX);
		s->walks++;
		usleep_range(1000, 1100);
	}
	return 0;
}

static int bench_run(struct binder_alloc *alloc, unsigned int nthreads,
		     unsigned int ms, size_t max, bool shrink, bool fifo,
		     bool cold)
{
	unsigned int nw = nthreads + fifo, i, started = 0;
	u64 ops = 0, errors = 0, rounds = 0, alloc_ns = 0, installs = 0;
	u32 max_ns = 0;
	struct bench_shrinker s = { .alloc = alloc };
	struct bench_worker *w, *f = NULL;
	long skips[BINDER_BENCH_SKIP_NR];
	struct bench_cold c;
	bool over = false;
	u64 start, ns;
	int ret = 0;

	lockdep_assert_held(&bench_lock);
	bench_nthreads = 0;
	init_waitqueue_head(&c.start);
	c.round = 0;
	init_completion(&c.done);
	w = kcalloc(nw, sizeof(*w), GFP_KERNEL);
	if (!w) {
		ret = -ENOMEM;
		goto out;
	}
	for (i = 0; i < nw; i++) {
		w[i].alloc = alloc;
		w[i].over = &over;
		w[i].max = max;
		w[i].nice = fifo;
		w[i].cap = BENCH_SAMPLES;
		w[i].samples = bench_samples + i * BENCH_SAMPLES;
		if (cold) {
			w[i].cold = &c;
			w[i].nbufs = alloc->buffer_size / 2 / nthreads / max ?: 1;
			w[i].bufs = kcalloc(w[i].nbufs, sizeof(*w[i].bufs), GFP_KERNEL);
			if (!w[i].bufs) {
				ret = -ENOMEM;
				goto out;
			}
			continue;
		}
		w[i].src = kvmalloc(max, GFP_KERNEL);
		if (!w[i].src) {
			ret = -ENOMEM;
			goto out;
		}
		memset(w[i].src, 0x5a, max);
	}
	if (fifo) {
		f = &w[nthreads];
		f->fifo = true;
		f->nice = false;
		f->cap = BENCH_FIFO_SAMPLES;
		f->samples = bench_samples + BENCH_MAX_THREADS * BENCH_SAMPLES;
	}
	for (i = 0; i < BINDER_BENCH_SKIP_NR; i++)
		atomic_long_set(&bench_skips[i], 0);
	atomic_long_set(&bench_retries, 0);
	if (shrink) {
		s.task = kthread_run(bench_shrinker_fn, &s, "binder_bench_shrink");
		if (IS_ERR(s.task)) {
			ret = PTR_ERR(s.task);
			s.task = NULL;
			goto out;
		}
	}
	for (i = 0; i < nw; i++) {
		w[i].task = kthread_create(cold ? bench_cold_fn : bench_worker_fn, &w[i],
					   "binder_bench/%u", i);
		if (IS_ERR(w[i].task)) {
			ret = PTR_ERR(w[i].task);
			w[i].task = NULL;
			break;
		}
		/* Set here, not by the thread: bench_run() resets it before stopping */
		if (w[i].fifo)
			sched_set_fifo(w[i].task);
		else if (w[i].nice)
			set_user_nice(w[i].task, MAX_NICE);
		started++;
	}
	start = ktime_get_ns();
	for (i = 0; i < started; i++)
		wake_up_process(w[i].task);
	if (!ret && cold)
		ret = bench_cold_rounds(alloc, &c, w, nthreads, ms, &rounds, &alloc_ns,
					&installs);
	else if (!ret)
		msleep(ms);
	WRITE_ONCE(over, true);
	ns = ktime_get_ns() - start;
	/* Nice 19 kthreads preempted by the hogs would take long to see @over */
	for (i = 0; i < started; i++)
		if (w[i].nice)
			set_user_nice(w[i].task, 0);
	for (i = 0; i < started; i++)
		kthread_stop(w[i].task);
	if (s.task)
		kthread_stop(s.task);
	for (i = 0; i < BINDER_BENCH_SKIP_NR; i++)
		skips[i] = atomic_long_read(&bench_skips[i]);
	/* Buffers of a round that bench_cold_rounds() did not finish */
	for (i = 0; cold && i < nw; i++)
		while (w[i].held)
			binder_alloc_free_buf(alloc, w[i].bufs[--w[i].held]);
	if (ret)
		goto out;

	for (i = 0; i < nw; i++) {
		bench_threads[i] = (struct bench_thread){
			.ops = w[i].ops, .max_ns = w[i].max_ns, .fifo = w[i].fifo,
			.nsamples = w[i].nsamples, .samples = w[i].samples,
		};
		errors += w[i].errors;
		if (w[i].fifo)
			continue;
		ops += w[i].ops;
		max_ns = max(max_ns, w[i].max_ns);
	}
	bench_nthreads = nw;
	if (!ops || (f && !f->ops)) {
		snprintf(bench_result, sizeof(bench_result),
			 "ops=0 ns=%llu errors=%llu\n", ns, errors);
		ret = -EIO;
		goto out;
	}
	i = scnprintf(bench_result, sizeof(bench_result),
		      "ops=%llu ns=%llu errors=%llu walks=%llu freed=%llu max_ns=%u skip_mmget=%ld skip_mmap=%ld skip_mutex=%ld skip_vma=%ld skip_lock=%ld",
		      ops, ns, errors, s.walks, s.freed, max_ns,
		      skips[BINDER_BENCH_SKIP_MMGET], skips[BINDER_BENCH_SKIP_MMAP],
		      skips[BINDER_BENCH_SKIP_MUTEX], skips[BINDER_BENCH_SKIP_VMA],
		      skips[BINDER_BENCH_SKIP_LOCK]);
	if (f)
		i += scnprintf(bench_result + i, sizeof(bench_result) - i,
			       " fifo_ops=%llu fifo_max_ns=%u fifo_over_1ms=%llu", f->ops,
			       f->max_ns, f->over_1ms);
	if (cold)
		i += scnprintf(bench_result + i, sizeof(bench_result) - i,
			       " rounds=%llu alloc_ns=%llu installs=%llu", rounds, alloc_ns,
			       installs);
	scnprintf(bench_result + i, sizeof(bench_result) - i, "\n");
out:
	if (w)
		for (i = 0; i < nw; i++) {
			kvfree(w[i].src);
			kfree(w[i].bufs);
		}
	kfree(w);
	return ret;
}

static ssize_t bench_write(struct file *file, const char __user *ubuf,
			   size_t count, loff_t *ppos)
{
	unsigned int nthreads, ms, shrink, fifo, cold;
	struct binder_proc *proc;
	struct file *bfile;
	char buf[128];
	size_t max;
	int fd, ret;

	if (count >= sizeof(buf))
		return -EINVAL;
	if (copy_from_user(buf, ubuf, count))
		return -EFAULT;
	buf[count] = '\0';
	if (sscanf(buf, "fd=%d threads=%u ms=%u max=%zu shrink=%u fifo=%u cold=%u", &fd,
		   &nthreads, &ms, &max, &shrink, &fifo, &cold) != 7)
		return -EINVAL;
	/* fifo=1 adds a kthread; cold=1 does its own reclaim */
	if (shrink > 1 || fifo > 1 || cold > 1 || (cold && (shrink || fifo)))
		return -EINVAL;
	if (!nthreads || nthreads > BENCH_MAX_THREADS - fifo || !ms || ms > BENCH_MAX_MS ||
	    max < 8)
		return -EINVAL;
	bfile = fget(fd);
	if (!bfile)
		return -EBADF;
	if (bfile->f_op != &binder_fops) {
		ret = -ENOTTY;
		goto out_put;
	}
	proc = bfile->private_data;
	/* Each thread holds at most one buffer: leave room for all of them. */
	if (max > proc->alloc.buffer_size / (2 * BENCH_MAX_THREADS)) {
		ret = -EINVAL;
		goto out_put;
	}
	ret = mutex_lock_interruptible(&bench_lock);
	if (ret)
		goto out_put;
	bench_result[0] = '\0';
	ret = bench_run(&proc->alloc, nthreads, ms, max, shrink, fifo, cold);
	mutex_unlock(&bench_lock);
out_put:
	fput(bfile);
	return ret ? ret : count;
}

static ssize_t bench_read(struct file *file, char __user *ubuf, size_t count,
			  loff_t *ppos)
{
	ssize_t ret;

	mutex_lock(&bench_lock);
	ret = simple_read_from_buffer(ubuf, count, ppos, bench_result,
				      strlen(bench_result));
	mutex_unlock(&bench_lock);
	return ret;
}

static const struct file_operations bench_fops = {
	.owner = THIS_MODULE,
	.write = bench_write,
	.read = bench_read,
	.llseek = default_llseek,
};

/* alloc_bench_samples: one record per kthread of the last run, under bench_lock */
static void *bench_samples_start(struct seq_file *m, loff_t *pos)
{
	mutex_lock(&bench_lock);
	return *pos < bench_nthreads ? &bench_threads[*pos] : NULL;
}

static void *bench_samples_next(struct seq_file *m, void *v, loff_t *pos)
{
	++*pos;
	return *pos < bench_nthreads ? &bench_threads[*pos] : NULL;
}

static void bench_samples_stop(struct seq_file *m, void *v)
{
	mutex_unlock(&bench_lock);
}

static int bench_samples_show(struct seq_file *m, void *v)
{
	const struct bench_thread *t = v;
	unsigned int i;

	seq_printf(m, "thread=%td fifo=%d ops=%llu max_ns=%u n=%u\n", t - bench_threads,
		   t->fifo, t->ops, t->max_ns, t->nsamples);
	for (i = 0; i < t->nsamples; i++)
		seq_printf(m, i ? " %u" : "%u", t->samples[i]);
	seq_putc(m, '\n');
	return 0;
}

static const struct seq_operations bench_samples_sops = {
	.start = bench_samples_start,
	.next = bench_samples_next,
	.stop = bench_samples_stop,
	.show = bench_samples_show,
};
DEFINE_SEQ_ATTRIBUTE(bench_samples);

/*
 * alloc_bench_counts: the skips and the rollbacks since the module was loaded
 * or the last alloc_bench run started, whoever caused them (binder's shrinker,
 * a walker): make bench reads it after each binder_throughput run. Only here
 * skip_retry (the gate variant's skips while an allocation's retry is
 * pending): the alloc_bench result line keeps the fields that the
 * selftest's parser knows.
 */
static int bench_counts_show(struct seq_file *m, void *unused)
{
	seq_printf(m, "retries=%ld skip_mmget=%ld skip_mmap=%ld skip_mutex=%ld skip_vma=%ld skip_lock=%ld skip_retry=%ld\n",
		   atomic_long_read(&bench_retries),
		   atomic_long_read(&bench_skips[BINDER_BENCH_SKIP_MMGET]),
		   atomic_long_read(&bench_skips[BINDER_BENCH_SKIP_MMAP]),
		   atomic_long_read(&bench_skips[BINDER_BENCH_SKIP_MUTEX]),
		   atomic_long_read(&bench_skips[BINDER_BENCH_SKIP_VMA]),
		   atomic_long_read(&bench_skips[BINDER_BENCH_SKIP_LOCK]),
		   atomic_long_read(&bench_skips[BINDER_BENCH_SKIP_RETRY]));
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(bench_counts);

void binder_alloc_bench_init(struct dentry *root)
{
	debugfs_create_file("alloc_bench", 0600, root, NULL, &bench_fops);
	debugfs_create_file("alloc_bench_samples", 0400, root, NULL, &bench_samples_fops);
	debugfs_create_file("alloc_bench_counts", 0400, root, NULL, &bench_counts_fops);
}
