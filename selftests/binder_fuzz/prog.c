// SPDX-License-Identifier: GPL-2.0
/*
 * binder_fuzz programs: the grammar (the tables of calls, commands, objects
 * and their arguments), the generator, the mutator and the text form.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "binder_fuzz.h"

#define NAMES(...) ((const char *const []){ __VA_ARGS__, NULL })
#define VALS(...) ((const long long []){ __VA_ARGS__ })
#define BFPARAM(n, k, names, vals) static const struct bf_param n = { k, names, vals }
#define FLAG(n, name) BFPARAM(n, NULL, NAMES("", name), NULL)
#define OP(n, c, w, ...) { .name = n, .code = c, .weight = w, .p = { __VA_ARGS__ } }
#define OPO(n, c, w, ...) { .name = n, .code = c, .weight = w, .objs = true, .p = { __VA_ARGS__ } }
#define IOC(n, c, w, ...) { .name = n, .code = c, .ioc = #c, .weight = w, .p = { __VA_ARGS__ } }
#define M4 (4LL << 20)

/* The first value of each is the likeliest: the one a correct client would use. */
BFPARAM(P_SIZE, "size", NAMES("4m", "128k", "0", "4k", "8k", "1m", "4m+4k"),
	VALS(M4, 128 << 10, 0, 4096, 8192, 1 << 20, M4 + 4096));
BFPARAM(P_PROT, "prot", NAMES("r", "rw"), VALS(1, 3));	/* PROT_READ, PROT_READ | PROT_WRITE */
BFPARAM(P_PART, "part", NAMES("all", "head", "tail", "mid"), NULL);
BFPARAM(P_NTHR, "n", NAMES("0", "1", "4", "max"), VALS(0, 1, 4, 0xffffffffLL));
BFPARAM(P_NODE, "node", NAMES("a", "b", "c", "0"), VALS(0x1000, 0x2000, 0x3000, 0));
BFPARAM(P_DNODE, "node", NAMES("last", "a", "b", "c", "0"),
	VALS(BF_LAST, 0x1000, 0x2000, 0x3000, 0));
BFPARAM(P_FBFL, "fl", NAMES("fds", "-", "sec", "pri"), VALS(0x100, 0, 0x1000, 0x7f));
BFPARAM(P_H, "h", NAMES("0", "1", "2", "3"), NULL);
FLAG(P_RSV, "rsv");
BFPARAM(P_PID, "pid", NAMES("p1", "p0", "p2", "p3", "bad"), VALS(1, 0, 2, 3, BF_LAST));
BFPARAM(P_ON, "on", NAMES("1", "0"), VALS(1, 0));
BFPARAM(P_TMO, "tmo", NAMES("0", "10"), VALS(0, 10));
BFPARAM(P_ITMO, "v", NAMES("0", "1000", "-1"), VALS(0, 1000, -1));
BFPARAM(P_IPRI, "v", NAMES("0", "-20", "19"), VALS(0, -20, 19));
BFPARAM(P_CODE, "code", NAMES("1", "0", "3", "max"), VALS(1, 0, 3, 0xffffffffLL));
FLAG(P_ONEWAY, "oneway");
FLAG(P_TFFDS, "fds");
FLAG(P_CLEAR, "clear");
FLAG(P_UPDATE, "update");
BFPARAM(P_DATA, "data", NAMES("auto", "0", "8", "4k", "map", "map+8", "2m"),
	VALS(BF_LAST, 0, 8, 4096, M4, M4 + 8, M4 / 2));
BFPARAM(P_OFFS, "offs", NAMES("valid", "oob", "mis", "dup", "odd", "none", "badptr"), NULL);
BFPARAM(P_EXTRA, "extra", NAMES("auto", "0", "8", "12", "64k"), VALS(BF_LAST, 0, 8, 12, 65536));
BFPARAM(P_FREE, "buf", NAMES("last", "first", "bogus", "null"),
	VALS(BF_LAST, BF_FIRST, 0xdeadb000, 0));
BFPARAM(P_CK, "ck", NAMES("a", "b", "c"), VALS(0xd1, 0xd2, 0xd3));
BFPARAM(P_LCK, "ck", NAMES("last", "a", "b"), VALS(BF_LAST, 0xd1, 0xd2));
FLAG(P_ACK, "ack");
BFPARAM(P_FDW, "fd", NAMES("ok", "closed", "-1"), VALS(BF_FD_OK, BF_FD_CLOSED, -1));
BFPARAM(P_NFD, "n", NAMES("1", "2", "0", "3"), VALS(1, 2, 0, 3));
BFPARAM(P_FPAR, "par", NAMES("prev", "self", "bad"), VALS(BF_PREV, BF_SELF, 99));
BFPARAM(P_PAR, "par", NAMES("none", "prev", "self", "bad"), VALS(BF_NOPAR, BF_PREV, BF_SELF, 99));
BFPARAM(P_POFF, "off", NAMES("0", "4", "8", "500"), VALS(0, 4, 8, 500));
BFPARAM(P_NFLOOD, "n", NAMES("64", "8", "200"), VALS(64, 8, 200));
BFPARAM(P_LEN, "len", NAMES("32", "0", "8", "64", "512"), VALS(32, 0, 8, 64, 512));

const struct bf_op bf_kinds[K_NR] = {
	[K_OPEN] = OP("open", 0, 2, NULL),
	[K_CLOSE] = OP("close", 0, 1, NULL),
	[K_MMAP] = OP("mmap", 0, 3, &P_SIZE, &P_PROT),
	[K_MUNMAP] = OP("munmap", 0, 2, &P_PART),
	[K_EXIT] = OP("exit", 0, 1, NULL),
	[K_VERSION] = IOC("version", BINDER_VERSION, 1, NULL),
	[K_MAXTHR] = IOC("max_threads", BINDER_SET_MAX_THREADS, 1, &P_NTHR),
	[K_CTXMGR] = IOC("ctxmgr", BINDER_SET_CONTEXT_MGR, 2, NULL),
	[K_CTXMGR_EXT] = IOC("ctxmgr_ext", BINDER_SET_CONTEXT_MGR_EXT, 2, &P_NODE, &P_FBFL),
	[K_THREAD_EXIT] = IOC("thread_exit", BINDER_THREAD_EXIT, 1, NULL),
	[K_NODE_DEBUG] = IOC("node_debug", BINDER_GET_NODE_DEBUG_INFO, 1, &P_NODE),
	[K_NODE_INFO] = IOC("node_info", BINDER_GET_NODE_INFO_FOR_REF, 1, &P_H, &P_RSV),
	[K_FREEZE] = IOC("freeze", BINDER_FREEZE, 3, &P_PID, &P_ON, &P_TMO),
	[K_FROZEN_INFO] = IOC("frozen_info", BINDER_GET_FROZEN_INFO, 1, &P_PID),
	[K_SPAM] = IOC("spam", BINDER_ENABLE_ONEWAY_SPAM_DETECTION, 1, &P_ON),
	[K_EXT_ERROR] = IOC("ext_error", BINDER_GET_EXTENDED_ERROR, 1, NULL),
	[K_IDLE_TIMEOUT] = IOC("idle_timeout", BINDER_SET_IDLE_TIMEOUT, 1, &P_ITMO),
	[K_IDLE_PRIO] = IOC("idle_priority", BINDER_SET_IDLE_PRIORITY, 1, &P_IPRI),
	[K_FLOOD] = OP("flood", 0, 1, &P_H, &P_NFLOOD),
	[K_WR] = IOC("wr", BINDER_WRITE_READ, 28, NULL),
};

const struct bf_op bf_cmds[C_NR] = {
	[C_TXN] = OPO("txn", BC_TRANSACTION, 10, &P_H, &P_CODE, &P_ONEWAY,
			 &P_TFFDS, &P_CLEAR, &P_UPDATE, &P_DATA, &P_OFFS),
	[C_REPLY] = OPO("reply", BC_REPLY, 6, &P_H, &P_CODE, &P_ONEWAY,
			 &P_TFFDS, &P_CLEAR, &P_UPDATE, &P_DATA, &P_OFFS),
	[C_TXN_SG] = OPO("txn_sg", BC_TRANSACTION_SG, 4, &P_H, &P_CODE, &P_ONEWAY,
			 &P_TFFDS, &P_CLEAR, &P_UPDATE, &P_DATA, &P_OFFS, &P_EXTRA),
	[C_REPLY_SG] = OPO("reply_sg", BC_REPLY_SG, 3, &P_H, &P_CODE, &P_ONEWAY,
			 &P_TFFDS, &P_CLEAR, &P_UPDATE, &P_DATA, &P_OFFS, &P_EXTRA),
	[C_FREE] = OP("free", BC_FREE_BUFFER, 6, &P_FREE),
	[C_INCREFS] = OP("increfs", BC_INCREFS, 2, &P_H),
	[C_ACQUIRE] = OP("acquire", BC_ACQUIRE, 2, &P_H),
	[C_RELEASE] = OP("release", BC_RELEASE, 2, &P_H),
	[C_DECREFS] = OP("decrefs", BC_DECREFS, 2, &P_H),
	[C_INCREFS_DONE] = OP("increfs_done", BC_INCREFS_DONE, 2, &P_DNODE),
	[C_ACQUIRE_DONE] = OP("acquire_done", BC_ACQUIRE_DONE, 2, &P_DNODE),
	[C_REGISTER] = OP("register_looper", BC_REGISTER_LOOPER, 1, NULL),
	[C_ENTER] = OP("enter_looper", BC_ENTER_LOOPER, 2, NULL),
	[C_EXIT] = OP("exit_looper", BC_EXIT_LOOPER, 1, NULL),
	[C_DEATH] = OP("death", BC_REQUEST_DEATH_NOTIFICATION, 3, &P_H, &P_CK),
	[C_CLEAR_DEATH] = OP("clear_death", BC_CLEAR_DEATH_NOTIFICATION, 2, &P_H, &P_CK),
	[C_DEAD_DONE] = OP("dead_done", BC_DEAD_BINDER_DONE, 2, &P_LCK),
	[C_FREEZE_NOTIF] = OP("freeze_notif", BF_BC_REQUEST_FREEZE_NOTIFICATION, 3, &P_H, &P_CK),
	[C_CLEAR_FREEZE] = OP("clear_freeze_notif", BF_BC_CLEAR_FREEZE_NOTIFICATION, 2,
			      &P_H, &P_CK),
	[C_FREEZE_DONE] = OP("freeze_done", BF_BC_FREEZE_NOTIFICATION_DONE, 2, &P_LCK),
	[C_READ] = OP("read", 0, 0, &P_ACK),	/* the generator puts it last */
};

const struct bf_op bf_objs[O_NR] = {
	[O_BINDER] = OP("binder", BINDER_TYPE_BINDER, 2, &P_NODE, &P_FBFL),
	[O_WBINDER] = OP("wbinder", BINDER_TYPE_WEAK_BINDER, 1, &P_NODE, &P_FBFL),
	[O_HANDLE] = OP("handle", BINDER_TYPE_HANDLE, 2, &P_H),
	[O_WHANDLE] = OP("whandle", BINDER_TYPE_WEAK_HANDLE, 1, &P_H),
	[O_FD] = OP("fd", BINDER_TYPE_FD, 2, &P_FDW),
	[O_FDA] = OP("fda", BINDER_TYPE_FDA, 1, &P_NFD, &P_FPAR, &P_POFF),
	[O_PTR] = OP("ptr", BINDER_TYPE_PTR, 2, &P_LEN, &P_PAR, &P_POFF),
};

/* splitmix64: every choice of a program comes from one such stream. */
uint64_t bf_next(uint64_t *state)
{
	uint64_t z = (*state += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

static int rnd(uint64_t *r, int n)
{
	return n > 0 ? (int)(bf_next(r) % n) : 0;
}

static int nvals(const struct bf_param *p)
{
	int n = 0;

	while (p->names[n])
		n++;
	return n;
}

static int nparams(const struct bf_op *op)
{
	int n = 0;

	while (op->p[n])
		n++;
	return n;
}

long long bf_num(const struct bf_op *op, const uint8_t *v, int i)
{
	const struct bf_param *p = op->p[i];

	if (!p)
		return 0;
	return p->val ? p->val[v[i]] : v[i];
}

/* Half the time the first (sane) value, else any. */
static void gen_args(uint64_t *r, const struct bf_op *op, uint8_t *v)
{
	int i;

	for (i = 0; op->p[i]; i++)
		v[i] = rnd(r, 2) ? 0 : rnd(r, nvals(op->p[i]));
}

static int wpick(uint64_t *r, const struct bf_op *ops, int n)
{
	int i, sum = 0, x;

	for (i = 0; i < n; i++)
		sum += ops[i].weight;
	x = rnd(r, sum);
	for (i = 0; x >= ops[i].weight; i++)
		x -= ops[i].weight;
	return i;
}

static void gen_obj(uint64_t *r, struct bf_obj *o)
{
	memset(o, 0, sizeof(*o));
	o->type = wpick(r, bf_objs, O_NR);
	gen_args(r, &bf_objs[o->type], o->v);
}

static void gen_cmd(uint64_t *r, struct bf_cmd *c, int op)
{
	memset(c, 0, sizeof(*c));
	c->op = op;
	gen_args(r, &bf_cmds[op], c->v);
	if (!bf_cmds[op].objs)
		return;
	c->nobj = rnd(r, BF_MAXOBJ + 1);
	for (int i = 0; i < c->nobj; i++)
		gen_obj(r, &c->obj[i]);
}

/* A call of @kind (-1: any) by any of @nproc processes. */
static void gen_call(uint64_t *r, struct bf_call *c, int nproc, int kind)
{
	int n;

	memset(c, 0, sizeof(*c));
	c->proc = rnd(r, nproc);
	c->kind = kind >= 0 ? kind : wpick(r, bf_kinds, K_NR);
	if (c->kind != K_WR) {
		gen_args(r, &bf_kinds[c->kind], c->v);
		return;
	}
	n = 1 + rnd(r, BF_MAXCMD - 1);
	while (c->ncmd < n)
		gen_cmd(r, &c->cmd[c->ncmd++], wpick(r, bf_cmds, C_NR));
	if (rnd(r, 4))
		gen_cmd(r, &c->cmd[c->ncmd++], C_READ);
}

void bf_gen(struct bf_prog *pg, uint64_t seed, int nproc, int maxcalls)
{
	uint64_t r = seed;
	struct bf_call *c;
	int p, n = 2 + rnd(&r, BF_MAXPROC - 1);

	memset(pg, 0, sizeof(*pg));
	pg->nproc = nproc ? nproc : n;
	n = maxcalls / 2 + 1 + rnd(&r, maxcalls - maxcalls / 2);
	/* Most processes map their buffer first; one often becomes the context manager. */
	for (p = 0; p < pg->nproc && pg->ncall < n; p++) {
		if (!rnd(&r, 8))
			continue;
		c = &pg->call[pg->ncall++];
		gen_call(&r, c, 1, K_MMAP);
		c->proc = p;
	}
	if (pg->ncall < n && rnd(&r, 4))
		gen_call(&r, &pg->call[pg->ncall++], 1, rnd(&r, 2) ? K_CTXMGR : K_CTXMGR_EXT);
	while (pg->ncall < n)
		gen_call(&r, &pg->call[pg->ncall++], pg->nproc, -1);
}

/* Change one argument (or the process, or an object, or add a command). */
static void change_arg(uint64_t *r, struct bf_call *c, int nproc)
{
	const struct bf_op *op = &bf_kinds[c->kind];
	struct bf_cmd *cmd;
	struct bf_obj *o;
	uint8_t *v = c->v;
	int n;

	if (c->kind == K_WR) {
		if (c->ncmd < BF_MAXCMD && !rnd(r, 6)) {
			gen_cmd(r, &c->cmd[c->ncmd++], wpick(r, bf_cmds, C_NR));
			return;
		}
		cmd = &c->cmd[rnd(r, c->ncmd)];
		op = &bf_cmds[cmd->op];
		v = cmd->v;
		if (op->objs && (!rnd(r, 2) || !nparams(op))) {
			n = rnd(r, BF_MAXOBJ);
			if (n >= cmd->nobj) {
				if (cmd->nobj < BF_MAXOBJ)
					n = cmd->nobj++;
				gen_obj(r, &cmd->obj[n]);
				return;
			}
			o = &cmd->obj[n];
			op = &bf_objs[o->type];
			v = o->v;
		}
	}
	n = nparams(op);
	if (!n || (c->kind != K_WR && !rnd(r, 4))) {
		c->proc = rnd(r, nproc);
		return;
	}
	n = rnd(r, n);
	v[n] = rnd(r, nvals(op->p[n]));
}

static void mutate_once(struct bf_prog *pg, uint64_t *r, int maxcalls)
{
	int what = pg->ncall ? rnd(r, 4) : 0, i = rnd(r, pg->ncall);

	if (what == 0 && pg->ncall >= maxcalls)
		what = 2;
	if (what == 1 && pg->ncall < 2)
		what = 2;
	switch (what) {
	case 0:		/* insert */
		i = rnd(r, pg->ncall + 1);
		memmove(&pg->call[i + 1], &pg->call[i], (pg->ncall - i) * sizeof(pg->call[0]));
		pg->ncall++;
		gen_call(r, &pg->call[i], pg->nproc, -1);
		break;
	case 1:		/* delete */
		pg->ncall--;
		memmove(&pg->call[i], &pg->call[i + 1], (pg->ncall - i) * sizeof(pg->call[0]));
		break;
	case 2:		/* replace */
		gen_call(r, &pg->call[i], pg->nproc, -1);
		break;
	default:
		change_arg(r, &pg->call[i], pg->nproc);
	}
}

void bf_mutate(struct bf_prog *pg, uint64_t seed, int maxcalls)
{
	static char before[BF_TEXT], after[BF_TEXT];
	uint64_t r = seed;

	if (maxcalls > BF_MAXCALL)
		maxcalls = BF_MAXCALL;
	bf_print(pg, before, sizeof(before));
	/* One to three changes, more while they changed nothing. */
	for (int i = 0, n = 1 + rnd(&r, 3); i < 64; i++) {
		mutate_once(pg, &r, maxcalls);
		if (i + 1 < n)
			continue;
		bf_print(pg, after, sizeof(after));
		if (strcmp(before, after))
			break;
	}
}

struct sbuf {
	char *buf;
	size_t len, pos;
};

static void __printf(2, 3) sb(struct sbuf *s, const char *fmt, ...)
{
	va_list ap;
	int n;

	if (s->pos >= s->len)
		return;
	va_start(ap, fmt);
	n = vsnprintf(s->buf + s->pos, s->len - s->pos, fmt, ap);
	va_end(ap);
	s->pos = n < 0 ? s->len : s->pos + n;
}

static void print_args(struct sbuf *s, const struct bf_op *op, const uint8_t *v)
{
	for (int i = 0; op->p[i]; i++) {
		if (op->p[i]->key)
			sb(s, " %s=%s", op->p[i]->key, op->p[i]->names[v[i]]);
		else if (v[i])
			sb(s, " %s", op->p[i]->names[v[i]]);
	}
}

static void print_cmd(struct sbuf *s, const struct bf_cmd *c)
{
	sb(s, "%s", bf_cmds[c->op].name);
	print_args(s, &bf_cmds[c->op], c->v);
	for (int i = 0; i < c->nobj; i++) {
		const struct bf_op *op = &bf_objs[c->obj[i].type];

		sb(s, "%s%s", i ? "," : " objs=", op->name);
		for (int j = 0; op->p[j]; j++)
			sb(s, ":%s", op->p[j]->names[c->obj[i].v[j]]);
	}
}

size_t bf_print(const struct bf_prog *pg, char *buf, size_t len)
{
	struct sbuf s = { buf, len, 0 };

	buf[0] = '\0';
	sb(&s, "binder_fuzz v%d procs=%d\n", BF_FORMAT, pg->nproc);
	for (int i = 0; i < pg->ncall; i++) {
		const struct bf_call *c = &pg->call[i];

		sb(&s, "p%d %s", c->proc, bf_kinds[c->kind].name);
		print_args(&s, &bf_kinds[c->kind], c->v);
		for (int j = 0; j < c->ncmd; j++) {
			sb(&s, j ? " ; " : " ");
			print_cmd(&s, &c->cmd[j]);
		}
		sb(&s, "\n");
	}
	return s.pos;
}

static int find(const char *const *names, const char *w)
{
	for (int i = 0; names[i]; i++)
		if (!strcmp(names[i], w))
			return i;
	return -1;
}

static int find_op(const struct bf_op *ops, int n, const char *w)
{
	for (int i = 0; i < n; i++)
		if (!strcmp(ops[i].name, w))
			return i;
	return -1;
}

/* "objs=TYPE:V:V,TYPE:V" into @c; NULL or what is wrong. */
static const char *parse_objs(struct bf_cmd *c, char *list)
{
	char *item, *w;
	int t, i, x;

	c->nobj = 0;
	while ((item = strsep(&list, ","))) {
		struct bf_obj *o = &c->obj[c->nobj];

		if (c->nobj == BF_MAXOBJ)
			return "too many objects";
		t = find_op(bf_objs, O_NR, strsep(&item, ":"));
		if (t < 0)
			return "unknown object type";
		memset(o, 0, sizeof(*o));
		o->type = t;
		for (i = 0; (w = strsep(&item, ":")); i++) {
			if (!bf_objs[t].p[i])
				return "too many object arguments";
			x = find(bf_objs[t].p[i]->names, w);
			if (x < 0)
				return "bad object argument";
			o->v[i] = x;
		}
		c->nobj++;
	}
	return NULL;
}

/* One word of a call or command: KEY=VALUE, a flag, or objs=. */
static const char *parse_word(const struct bf_op *op, uint8_t *v, struct bf_cmd *c,
			      const char *word)
{
	char w[1024], *val;
	int i, x;

	snprintf(w, sizeof(w), "%s", word);
	val = strchr(w, '=');
	if (val)
		*val++ = '\0';
	if (val && c && op->objs && !strcmp(w, "objs"))
		return parse_objs(c, val);
	for (i = 0; op->p[i]; i++) {
		const struct bf_param *p = op->p[i];

		if (val && p->key && !strcmp(p->key, w)) {
			x = find(p->names, val);
			if (x < 0)
				return "bad value";
			v[i] = x;
			return NULL;
		}
		if (!val && !p->key && !strcmp(p->names[1], w)) {
			v[i] = 1;
			return NULL;
		}
	}
	return "unknown argument";
}

static char *next_word(char **s)
{
	char *w;

	do
		w = strsep(s, " \t");
	while (w && !*w);
	return w;
}

static const char *parse_call(char *line, struct bf_prog *pg, struct bf_call *c, char **bad)
{
	const char *why = NULL;
	struct bf_cmd *cmd = NULL;
	char *w = next_word(&line), *end;
	long p;
	int k;

	memset(c, 0, sizeof(*c));
	*bad = w;
	p = strtol(w + 1, &end, 10);
	if (w[0] != 'p' || !w[1] || *end || p < 0 || p >= pg->nproc)
		return "expected a process p0..pN-1";
	c->proc = p;
	*bad = w = next_word(&line);
	k = w ? find_op(bf_kinds, K_NR, w) : -1;
	if (k < 0)
		return "unknown call";
	c->kind = k;
	while (!why && (*bad = w = next_word(&line))) {
		if (c->kind != K_WR) {
			why = parse_word(&bf_kinds[k], c->v, NULL, w);
		} else if (!cmd) {
			k = find_op(bf_cmds, C_NR, w);
			if (k < 0)
				return "unknown command";
			if (c->ncmd == BF_MAXCMD)
				return "too many commands";
			cmd = &c->cmd[c->ncmd++];
			cmd->op = k;
		} else if (!strcmp(w, ";")) {
			cmd = NULL;
		} else {
			why = parse_word(&bf_cmds[cmd->op], cmd->v, cmd, w);
		}
	}
	if (!why && c->kind == K_WR && !cmd)
		why = "expected a command";
	return why;
}

int bf_parse(FILE *f, const char *name, struct bf_prog *pg, char *err, size_t errlen)
{
	char line[4096], copy[4096], *s, *bad;
	const char *why;
	int ln = 0, ver, n;
	bool header = false;

	memset(pg, 0, sizeof(*pg));
	while (fgets(line, sizeof(line), f)) {
		ln++;
		line[strcspn(line, "\r\n")] = '\0';
		for (s = line; *s == ' ' || *s == '\t'; s++)
			;
		if (!*s || *s == '#')
			continue;
		if (!header) {
			if (sscanf(s, "binder_fuzz v%d procs=%d%n", &ver, &pg->nproc, &n) != 2 ||
			    s[n] || ver != BF_FORMAT || pg->nproc < 2 || pg->nproc > BF_MAXPROC) {
				snprintf(err, errlen, "%s:%d: expected 'binder_fuzz v%d procs=N'",
					 name, ln, BF_FORMAT);
				return -1;
			}
			header = true;
			continue;
		}
		if (pg->ncall == BF_MAXCALL) {
			snprintf(err, errlen, "%s:%d: more than %d calls", name, ln, BF_MAXCALL);
			return -1;
		}
		snprintf(copy, sizeof(copy), "%s", s);
		why = parse_call(copy, pg, &pg->call[pg->ncall], &bad);
		if (why) {
			snprintf(err, errlen, "%s:%d: %s at '%.40s'", name, ln, why,
				 bad ? bad : "");
			return -1;
		}
		pg->ncall++;
	}
	if (!header) {
		snprintf(err, errlen, "%s: no program in it", name);
		return -1;
	}
	return 0;
}
