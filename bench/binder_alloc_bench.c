// SPDX-License-Identifier: GPL-2.0-only
/*
 * binder_alloc_bench.c - make bench's allocator microbenchmark (item 0).
 *
 * Bench only, not part of the series: scripts/build-module.sh compiles it
 * into a binder module when BAS_BENCH=1, and bench/alloc-bench-hook.patch
 * calls binder_alloc_bench_init() from binder_init().
 *
 * Writing "fd=F threads=N ms=T max=S shrink=0|1" to
 * <debugfs>/binder/alloc_bench runs N kthreads for T ms on the binder_alloc
 * behind the caller's (mapped) binder file descriptor F. Each loops:
 * binder_alloc_new_buf() of a random size in [8, S], one write of the whole
 * buffer with binder_alloc_copy_to_buffer(), binder_alloc_free_buf(). Freed
 * pages go to the freelist and are mostly taken back from it. With shrink=1
 * one more kthread walks alloc->freelist with binder_alloc_free_page() every
 * millisecond, so pages are also zapped and reinstalled. The write returns
 * when the run is over; a read then gives its result on one line:
 *   ops=.. ns=.. errors=.. walks=.. freed=.. p50_ns=.. p90_ns=.. p99_ns=.. max_ns=..
 * ns is the run's wall time; the percentiles are of one new_buf + write +
 * free, from a reservoir sample of BENCH_SAMPLES per thread.
 */

#include <linux/debugfs.h>
#include <linux/delay.h>
#include <linux/file.h>
#include <linux/kthread.h>
#include <linux/list_lru.h>
#include <linux/random.h>
#include <linux/sort.h>
#include <linux/uaccess.h>
#include <linux/vmalloc.h>

#include "binder_alloc.h"
#include "binder_internal.h"

#define BENCH_MAX_THREADS 8
#define BENCH_SAMPLES 8192
#define BENCH_MAX_MS 60000

struct bench_worker {
	struct binder_alloc *alloc;
	struct task_struct *task;
	size_t max;
	u64 ops;
	u64 errors;
	unsigned int nsamples;
	u32 *samples;
	u8 *src;
};

struct bench_shrinker {
	struct binder_alloc *alloc;
	struct task_struct *task;
	u64 walks;
	u64 freed;
};

static DEFINE_MUTEX(bench_lock);	/* one run at a time; guards bench_result */
static char bench_result[256];

static int bench_worker_fn(void *data)
{
	struct bench_worker *w = data;
	struct binder_buffer *buf;
	size_t size;
	u64 t0, dt;
	u32 slot;

	while (!kthread_should_stop()) {
		size = 8 + get_random_u32_below(w->max - 7);
		t0 = ktime_get_ns();
		buf = binder_alloc_new_buf(w->alloc, size, 0, 0, 0);
		if (IS_ERR(buf)) {
			w->errors++;
			cond_resched();
			continue;
		}
		if (binder_alloc_copy_to_buffer(w->alloc, buf, 0, w->src, size))
			w->errors++;
		binder_alloc_free_buf(w->alloc, buf);
		dt = ktime_get_ns() - t0;
		w->ops++;
		/* Reservoir sampling: every op has the same chance to be kept. */
		if (w->nsamples < BENCH_SAMPLES) {
			w->samples[w->nsamples++] = min_t(u64, dt, U32_MAX);
		} else {
			slot = w->ops <= U32_MAX ? get_random_u32_below(w->ops) : U32_MAX;
			if (slot < BENCH_SAMPLES)
				w->samples[slot] = min_t(u64, dt, U32_MAX);
		}
		cond_resched();
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

static int bench_cmp_u32(const void *a, const void *b)
{
	u32 x = *(const u32 *)a, y = *(const u32 *)b;

	return x < y ? -1 : x > y;
}

static int bench_run(struct binder_alloc *alloc, unsigned int nthreads,
		     unsigned int ms, size_t max, bool shrink)
{
	struct bench_worker *w;
	struct bench_shrinker s = { .alloc = alloc };
	u64 ops = 0, errors = 0, start, ns;
	unsigned int i, n = 0, started = 0;
	u32 *all;
	int ret = 0;

	w = kcalloc(nthreads, sizeof(*w), GFP_KERNEL);
	all = vmalloc_array(nthreads * BENCH_SAMPLES, sizeof(u32));
	if (!w || !all) {
		ret = -ENOMEM;
		goto out;
	}
	for (i = 0; i < nthreads; i++) {
		w[i].alloc = alloc;
		w[i].max = max;
		w[i].samples = all + i * BENCH_SAMPLES;
		w[i].src = kvmalloc(max, GFP_KERNEL);
		if (!w[i].src) {
			ret = -ENOMEM;
			goto out;
		}
		memset(w[i].src, 0x5a, max);
	}
	if (shrink) {
		s.task = kthread_run(bench_shrinker_fn, &s, "binder_bench_shrink");
		if (IS_ERR(s.task)) {
			ret = PTR_ERR(s.task);
			s.task = NULL;
			goto out;
		}
	}
	start = ktime_get_ns();
	for (i = 0; i < nthreads; i++) {
		w[i].task = kthread_run(bench_worker_fn, &w[i], "binder_bench/%u", i);
		if (IS_ERR(w[i].task)) {
			ret = PTR_ERR(w[i].task);
			w[i].task = NULL;
			break;
		}
		started++;
	}
	if (!ret)
		msleep(ms);
	for (i = 0; i < started; i++)
		kthread_stop(w[i].task);
	ns = ktime_get_ns() - start;
	if (s.task)
		kthread_stop(s.task);
	if (ret)
		goto out;

	for (i = 0; i < nthreads; i++) {
		ops += w[i].ops;
		errors += w[i].errors;
		/* Pack the samples: a thread may have fewer than BENCH_SAMPLES. */
		memmove(all + n, w[i].samples, w[i].nsamples * sizeof(u32));
		n += w[i].nsamples;
	}
	if (!n) {
		snprintf(bench_result, sizeof(bench_result), "ops=0 ns=%llu errors=%llu\n",
			 ns, errors);
		ret = -EIO;
		goto out;
	}
	sort(all, n, sizeof(u32), bench_cmp_u32, NULL);
	snprintf(bench_result, sizeof(bench_result),
		 "ops=%llu ns=%llu errors=%llu walks=%llu freed=%llu p50_ns=%u p90_ns=%u p99_ns=%u max_ns=%u\n",
		 ops, ns, errors, s.walks, s.freed, all[n * 50 / 100], all[n * 90 / 100],
		 all[n * 99 / 100], all[n - 1]);
out:
	if (w)
		for (i = 0; i < nthreads; i++)
			kvfree(w[i].src);
	kfree(w);
	vfree(all);
	return ret;
}

static ssize_t bench_write(struct file *file, const char __user *ubuf,
			   size_t count, loff_t *ppos)
{
	unsigned int nthreads, ms, shrink;
	struct binder_proc *proc;
	struct file *bfile;
	char buf[96];
	size_t max;
	int fd, ret;

	if (count >= sizeof(buf))
		return -EINVAL;
	if (copy_from_user(buf, ubuf, count))
		return -EFAULT;
	buf[count] = '\0';
	if (sscanf(buf, "fd=%d threads=%u ms=%u max=%zu shrink=%u", &fd, &nthreads, &ms,
		   &max, &shrink) != 5)
		return -EINVAL;
	if (!nthreads || nthreads > BENCH_MAX_THREADS || !ms || ms > BENCH_MAX_MS ||
	    max < 8 || shrink > 1)
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
	mutex_lock(&bench_lock);
	bench_result[0] = '\0';
	ret = bench_run(&proc->alloc, nthreads, ms, max, shrink);
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

void binder_alloc_bench_init(struct dentry *root)
{
	debugfs_create_file("alloc_bench", 0600, root, NULL, &bench_fops);
}
