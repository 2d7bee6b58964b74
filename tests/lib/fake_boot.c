// SPDX-License-Identifier: GPL-2.0-only
/* Fake firmware services behind struct boot_ops (fake_boot.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "fake_boot.h"
#include "../../lib/err.h"
#include "../../lib/log.h"

static int fake_write_file(void *ctx, const char *path, const void *data,
			   size_t len)
{
	struct fake_fw *f = ctx;
	struct fake_file *k;
	unsigned i;

	f->nwrite++;
	if (f->write_rc)
		return log_error(f->write_rc, "%s: cannot create", path);
	for (i = 0; i < f->nfile; i++)
		if (!strcmp(f->file[i].path, path))
			break;
	if (i == FAKE_MAX_FILES) {
		f->files_lost++;
		return 0;
	}
	if (i == f->nfile)
		f->nfile++;
	k = &f->file[i];
	snprintf(k->path, sizeof(k->path), "%s", path);
	free(k->data);
	k->data = malloc(len + 1);
	if (!k->data)
		abort();
	memcpy(k->data, data, len);
	k->data[len] = '\0';
	k->len = len;
	return 0;
}

static int fake_publish(void *ctx, const char *s)
{
	struct fake_fw *f = ctx;

	f->published_len = strlen(s);
	snprintf(f->published, sizeof(f->published), "%s", s);
	f->npublish++;
	return 0;
}

static int fake_chainload(void *ctx, const char *path, const char *opts,
			  const struct out *o)
{
	struct fake_fw *f = ctx;

	snprintf(f->next, sizeof(f->next), "%s", path);
	snprintf(f->next_opts, sizeof(f->next_opts), "%s", opts ? opts : "");
	f->nchain++;
	out_printf(o, "fake: started %s\n", path);
	return f->chain_rc;
}

static void fake_secure_boot(void *ctx, struct sb_state *s)
{
	struct fake_fw *f = ctx;

	*s = f->sb;
}

static int fake_counter_get(void *ctx, uint32_t *count)
{
	struct fake_fw *f = ctx;

	if (f->counter_get_rc)
		return f->counter_get_rc;
	if (!f->counter_exists)
		return -AE_NOENT;
	*count = f->counter;
	return 0;
}

static int fake_counter_set(void *ctx, uint32_t count)
{
	struct fake_fw *f = ctx;

	f->ncounter_set++;
	if (f->counter_set_rc)
		return f->counter_set_rc;
	f->counter_exists = true;
	f->counter = count;
	return 0;
}

static uint64_t fake_time_ns(void *ctx)
{
	struct fake_fw *f = ctx;

	return f->t += 1000;	/* 1 us per look at the clock */
}

static void fake_delay_us(void *ctx, unsigned us)
{
	struct fake_fw *f = ctx;

	(void)us;
	if (++f->delays > f->delay_bound && f->delay_bound)
		abort();	/* a wait that does not end */
}

void fake_fw_free(struct fake_fw *f)
{
	for (unsigned i = 0; i < f->nfile; i++)
		free(f->file[i].data);
	f->nfile = 0;
}

void fake_fw_init(struct fake_fw *f, const struct mmio_ops *mmio,
		  void *mmio_ctx)
{
	fake_fw_free(f);
	memset(f, 0, sizeof(*f));
	f->ops = (struct boot_ops){
		.ctx = f, .mmio = mmio, .mmio_ctx = mmio_ctx,
		.write_file = fake_write_file,
		.publish = fake_publish, .chainload = fake_chainload,
		.time_ns = fake_time_ns, .delay_us = fake_delay_us,
		.secure_boot = fake_secure_boot,
		.counter_get = fake_counter_get, .counter_set = fake_counter_set,
	};
	fixed_platform_ops(&f->ops);
}

const struct fake_file *fake_fw_file(const struct fake_fw *f, const char *path)
{
	for (unsigned i = 0; i < f->nfile; i++)
		if (!strcmp(f->file[i].path, path))
			return &f->file[i];
	return NULL;
}
