/* SPDX-License-Identifier: GPL-2.0 */
/*
 * binder_fuzz: a seeded, coverage-guided fuzzer of the binder UAPI (see
 * README.md). A program is a short list of calls, each made by one of 2-4
 * processes; a call is one syscall (open, close, mmap, munmap, an ioctl) or
 * one BINDER_WRITE_READ with a few commands. Every argument is an index into
 * a small table of values, some of them bad, so that generating, mutating,
 * printing and parsing a program all walk the same tables (prog.c); the
 * executor (exec.c) turns the indices into syscall arguments.
 */
#ifndef SELFTESTS_BINDER_FUZZ_H
#define SELFTESTS_BINDER_FUZZ_H

#include <linux/android/binder.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/*
 * The freeze notifications (6.12) are enum members in linux/android/binder.h, which #ifndef
 * cannot see: under names of our own here, with the values of the 7.3 header.
 */
struct bf_frozen_state {
	binder_uintptr_t cookie;
	__u32 is_frozen, reserved;
};

#define BF_BC_REQUEST_FREEZE_NOTIFICATION	_IOW('c', 19, struct binder_handle_cookie)
#define BF_BC_CLEAR_FREEZE_NOTIFICATION		_IOW('c', 20, struct binder_handle_cookie)
#define BF_BC_FREEZE_NOTIFICATION_DONE		_IOW('c', 21, binder_uintptr_t)
#define BF_BR_FROZEN_BINDER			_IOR('r', 21, struct bf_frozen_state)

#ifndef __noreturn
#define __noreturn __attribute__((__noreturn__))
#endif
#ifndef __printf
#define __printf(a, b) __attribute__((format(printf, a, b)))
#endif
#ifndef ARRAY_SIZE
#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))
#endif

#define BF_FORMAT	1		/* version of the text form */
#define BF_MAXPROC	4
#define BF_MAXCALL	64		/* calls of a parsed or mutated program */
#define BF_DEFCALLS	24		/* calls of a generated one, by default */
#define BF_MAXCMD	4		/* commands of one BINDER_WRITE_READ */
#define BF_MAXOBJ	4		/* objects of one transaction */
#define BF_MAXP		9		/* arguments of a call or a command */
#define BF_MAXV		3		/* arguments of an object */
#define BF_TEXT		65536		/* a printed program fits */
#define BF_KCOV_WORDS	(1 << 16)	/* kcov area of one process, in PCs */

/* One argument: its values' names and, where they are numbers, the numbers. */
struct bf_param {
	const char *key;		/* NULL: a flag, printed as names[1] when set */
	const char *const *names;	/* NULL-terminated */
	const long long *val;		/* NULL: the value is the index */
};

/*
 * A call kind, a command or an object type: its name, its code (the ioctl, the BC command or
 * the object type), and its arguments.
 */
struct bf_op {
	const char *name;
	unsigned long code;
	const char *ioc;		/* the ioctl's name */
	int weight;			/* how often the generator picks it */
	bool objs;			/* a transaction: carries objects */
	const struct bf_param *p[BF_MAXP + 1];	/* NULL-terminated */
};

enum bf_kind {
	K_OPEN, K_CLOSE, K_MMAP, K_MUNMAP, K_EXIT, K_VERSION, K_MAXTHR, K_CTXMGR,
	K_CTXMGR_EXT, K_THREAD_EXIT, K_NODE_DEBUG, K_NODE_INFO, K_FREEZE, K_FROZEN_INFO,
	K_SPAM, K_EXT_ERROR, K_IDLE_TIMEOUT, K_IDLE_PRIO, K_FLOOD, K_WR, K_NR
};

enum bf_cop {
	C_TXN, C_REPLY, C_TXN_SG, C_REPLY_SG, C_FREE, C_INCREFS, C_ACQUIRE, C_RELEASE,
	C_DECREFS, C_INCREFS_DONE, C_ACQUIRE_DONE, C_REGISTER, C_ENTER, C_EXIT, C_DEATH,
	C_CLEAR_DEATH, C_DEAD_DONE, C_FREEZE_NOTIF, C_CLEAR_FREEZE, C_FREEZE_DONE, C_READ, C_NR
};

enum bf_otype { O_BINDER, O_WBINDER, O_HANDLE, O_WHANDLE, O_FD, O_FDA, O_PTR, O_NR };

/* The arguments of a transaction (txn, reply, txn_sg, reply_sg), in order. */
enum { A_H, A_CODE, A_ONEWAY, A_FDS, A_CLEAR, A_UPDATE, A_DATA, A_OFFS, A_EXTRA };
/* offs=: the offsets array of a transaction. */
enum { OFFS_VALID, OFFS_OOB, OFFS_MIS, OFFS_DUP, OFFS_ODD, OFFS_NONE, OFFS_BADPTR };
/* Numbers that stand for something the executor works out. */
#define BF_LAST		(-1)	/* the last one received; a transaction's own size */
#define BF_FIRST	(-2)	/* the first buffer received */
#define BF_PREV		(-1)	/* parent: the object's nearest preceding ptr object */
#define BF_NOPAR	(-2)	/* no parent */
#define BF_SELF		(-3)	/* parent: the object itself */
#define BF_FD_OK	200	/* an open fd, in every child */
#define BF_FD_CLOSED	201	/* a closed one */

struct bf_obj {
	uint8_t type, v[BF_MAXV];
};

struct bf_cmd {
	uint8_t op, v[BF_MAXP], nobj;
	struct bf_obj obj[BF_MAXOBJ];
};

struct bf_call {
	uint8_t proc, kind, v[BF_MAXP], ncmd;	/* ncmd, cmd: K_WR only */
	struct bf_cmd cmd[BF_MAXCMD];
};

struct bf_prog {
	int nproc, ncall;
	struct bf_call call[BF_MAXCALL];
};

/* How the children run their calls (binder_fuzz.c sets it). */
struct bf_opts {
	const char *dev;	/* the binder device */
	bool dry;		/* issue nothing: only trace */
	bool trace;		/* print each syscall a call makes */
	bool kcov;		/* collect the PCs of each call */
};

/* What a child answers after a call; its PCs are in its slot of the shared area. */
struct bf_ans {
	int32_t call, ret;
	uint32_t npc;
};

extern struct bf_opts bf_opts;
extern const struct bf_op bf_kinds[K_NR], bf_cmds[C_NR], bf_objs[O_NR];

/* prog.c */
uint64_t bf_next(uint64_t *state);
long long bf_num(const struct bf_op *op, const uint8_t *v, int i);
void bf_gen(struct bf_prog *pg, uint64_t seed, int nproc, int maxcalls);
void bf_mutate(struct bf_prog *pg, uint64_t seed, int maxcalls);
size_t bf_print(const struct bf_prog *pg, char *buf, size_t len);
int bf_parse(FILE *f, const char *name, struct bf_prog *pg, char *err, size_t errlen);

/* exec.c: process @p of @pg, told calls on @in, answering on @out. */
void __noreturn bf_child(const struct bf_prog *pg, int p, int in, int out, uint64_t *pcs);

#endif /* SELFTESTS_BINDER_FUZZ_H */
