/*
 * test_explain_sample: explain's sample over a fixture pair (tests/fixtures/explain/floor):
 * md's model from discover, the replay's second sample over the first, and a capture that
 * holds what was read and, of /proc's processes, only md's threads.
 */
#include <errno.h>
#include <limits.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "explain_sample.h"
#include "support.h"
#include "explain_int.h"

struct pair {
	char dir[64], root_dir[128];
	struct mdp_root root, second;
};

static void pair_init(struct pair *p)
{
	const char *src = getenv("MDP_SRCDIR");

	snprintf(p->dir, sizeof(p->dir), "/tmp/mdp-xsample-XXXXXX");
	assert_non_null(mkdtemp(p->dir));
	snprintf(p->root_dir, sizeof(p->root_dir), "%s/root", p->dir);
	test_sh("cp -a '%s/tests/fixtures/explain/floor' %s", src ? src : ".", p->root_dir);
	/* a user's process beside md's thread: never in a capture */
	test_sh("mkdir -p %s/proc/4242 && echo secret-editor >%s/proc/4242/comm && "
		"echo '4242 (secret-editor) S 1 1 1 0 -1 0 0 0 0 0 7 8 0 0' >%s/proc/4242/stat",
		p->root_dir, p->root_dir, p->root_dir);
	assert_int_equal(mdp_root_init(&p->root, p->root_dir), 0);
}

static void pair_fini(struct pair *p)
{
	mdp_root_fini(&p->root);
	test_sh("rm -rf %s", p->dir);
}

static const struct mdp_xcap_file *captured(const struct mdp_xcap *c, int sample, const char *path)
{
	for (size_t i = 0; i < c->n; i++)
		if (c->v[i].sample == sample && !strcmp(c->v[i].path, path))
			return &c->v[i];
	return NULL;
}

static void test_model_and_capture(void **state)
{
	struct pair p;
	struct mdp_xcap cap = {0};
	struct mdp_diags unread;
	struct mdp_xsrc src;
	struct mdp_xsample s[2];
	const struct mdp_xarray *a;
	const struct mdp_xcap_file *f;
	uint64_t ms;

	(void)state;
	pair_init(&p);
	mdp_diags_init(&unread);
	src = (struct mdp_xsrc){.root = &p.root, .cap = &cap, .unreadable = &unread};
	assert_int_equal(mdp_explain_sample(&src, &s[0]), 0);
	assert_int_equal(mdp_explain_replay_open(&p.root, &p.second, &ms), 0);
	src.sample = 1;
	src.overlay = &p.second;
	assert_int_equal(mdp_explain_sample(&src, &s[1]), 0);
	assert_int_equal(unread.n, 0);

	/* md's model: discover's reading of md2 (mdstat's md0/md1 have no sysfs here) */
	assert_int_equal(s[0].n_arrays, 3);
	a = &s[0].arrays[0];
	assert_string_equal(a->name, "md2");
	assert_string_equal(a->level, "raid5");
	assert_string_equal(a->action, "recover");
	assert_true(a->min.read);
	assert_false(a->min.local);
	assert_int_equal(a->min.kib, 10000);
	assert_int_equal(a->sync_speed, 10100);
	assert_int_equal(a->stripe_size, 1024);
	assert_int_equal(a->stripe_active, 500);
	assert_int_equal(a->chunk_kib, 64);
	assert_string_equal(a->bitmap, "none");
	assert_string_equal(a->sync_max, "max");
	assert_int_equal(a->n_members, 4);
	assert_string_equal(a->members[0].state, "in_sync");
	assert_int_equal(a->n_threads, 1);
	assert_true(s[0].sys_min.read);
	/* the second sample: /.explain/1's files over the first's */
	assert_int_equal(s[1].arrays[0].stripe_active, 600);
	assert_int_equal(s[1].arrays[0].min.kib, 10000);

	/* the capture: what was read in each sample, the md thread, not the user's process */
	assert_non_null(f = captured(&cap, 0, "/sys/block/md2/md/sync_speed_min"));
	assert_string_equal(f->data, "10000 (system)\n");
	assert_non_null(f = captured(&cap, 1, "/sys/block/md2/md/stripe_cache_active"));
	assert_string_equal(f->data, "600\n");
	assert_non_null(captured(&cap, 0, "/proc/2345/comm"));
	assert_non_null(captured(&cap, 1, "/proc/2345/stat"));
	assert_null(captured(&cap, 0, "/proc/4242/comm"));
	assert_null(captured(&cap, 0, "/proc/4242/stat"));
	assert_null(captured(&cap, 1, "/proc/4242/comm"));
	for (size_t i = 0; i < cap.n; i++)
		assert_null(strstr(cap.v[i].path, "4242"));

	mdp_explain_sample_free(&s[0]);
	mdp_explain_sample_free(&s[1]);
	mdp_root_fini(&p.second);
	mdp_xcap_free(&cap);
	mdp_diags_free(&unread);
	pair_fini(&p);
}

/* A file discover cannot read is named, once, and the sample goes on. */
static void test_unreadable(void **state)
{
	struct pair p;
	struct mdp_diags unread;
	struct mdp_xsrc src;
	struct mdp_xsample s;

	(void)state;
	pair_init(&p);
	test_sh("cd %s/sys/block/md2/md && rm sync_speed_min && mkdir sync_speed_min", p.root_dir);
	mdp_diags_init(&unread);
	src = (struct mdp_xsrc){.root = &p.root, .unreadable = &unread};
	assert_int_equal(mdp_explain_sample(&src, &s), 0);
	assert_false(s.arrays[0].min.read);
	assert_true(s.arrays[0].max.read);
	assert_int_equal(unread.n, 1);
	assert_string_equal(unread.v[0].file, "/sys/block/md2/md/sync_speed_min");
	mdp_explain_sample_free(&s);
	assert_int_equal(mdp_explain_sample(&src, &s), 0);
	assert_int_equal(unread.n, 1);
	mdp_explain_sample_free(&s);
	mdp_diags_free(&unread);
	pair_fini(&p);
}

static const struct mdp_xmember *member_named(const struct mdp_xarray *a, const char *name)
{
	for (size_t i = 0; i < a->n_members; i++)
		if (!strcmp(a->members[i].name, name))
			return &a->members[i];
	return NULL;
}

/*
 * What issue 51's rules read beyond md's model: a disk's SATA port behind a port multiplier
 * (two disks under one ataN) with the port's sata_spd, a USB disk's bus as the device nearest
 * the host (behind hub 2-1) with that device's speed, md/degraded, and when md's thread
 * started (/proc/PID/stat field 22).
 */
static void test_links_and_starts(void **state)
{
	static const char pmp[] = "../../devices/pci0000:00/0000:00:1f.2/ata5/host4/target4:%d:0/"
				  "4:%d:0:0/block/%s";
	struct pair p;
	struct mdp_xsrc src;
	struct mdp_xsample s;
	const struct mdp_xmember *m;
	const struct mdp_xarray *a;
	char link[160];

	(void)state;
	pair_init(&p);
	test_sh("cd %s/sys && mkdir -p class/block class/ata_link/link5 bus/usb/devices/2-1 && "
		"echo '3.0 Gbps' >class/ata_link/link5/sata_spd && echo 5000 "
		">bus/usb/devices/2-1/speed && echo 1 >block/md2/md/degraded",
		p.root_dir);
	for (int i = 1; i <= 2; i++) {
		snprintf(link, sizeof(link), pmp, i, i, i == 1 ? "sdb" : "sdc");
		test_sh("ln -s '%s' %s/sys/class/block/%s", link, p.root_dir,
			i == 1 ? "sdb" : "sdc");
	}
	test_sh("ln -s ../../devices/pci0000:00/0000:00:14.0/usb2/2-1/2-1.4/2-1.4:1.0/host6/"
		"target6:0:0/6:0:0:0/block/sdd %s/sys/class/block/sdd",
		p.root_dir);
	src = (struct mdp_xsrc){.root = &p.root};
	assert_int_equal(mdp_explain_sample(&src, &s), 0);
	a = &s.arrays[0];
	assert_int_equal(a->degraded, 1);
	assert_int_equal(a->threads[0].start, 1500);
	assert_non_null(m = member_named(a, "sdb5"));
	assert_string_equal(m->bus, "0000:00:1f.2");
	assert_string_equal(m->port, "ata5");
	assert_int_equal(m->port_kib, 292968);
	assert_string_equal(m->port_link, "SATA 3.0 Gb/s");
	assert_non_null(m = member_named(a, "sdd5"));
	assert_string_equal(m->bus, "2-1");
	assert_string_equal(m->port, "");
	assert_int_equal(m->bus_kib, 488281);
	assert_non_null(m = member_named(a, "sda5"));
	assert_string_equal(m->bus, "");
	mdp_explain_sample_free(&s);
	pair_fini(&p);
}

/*
 * A conventional PCI bus (issue 51): a controller that states no PCIe link behind a legacy
 * bridge (class 0x060401, subtractive decode: sda, sdb on two cards) or behind a bridge that
 * states its own link (a PCIe-to-PCI bridge: sdc); not a PCIe card behind a root port that
 * states a link of its own (sdd), nor one behind a bridge that says nothing either.
 */
static void test_pci_bus(void **state)
{
	static const struct {
		const char *disk, *path, *pci_bus;
	} t[] = {
	    {"sda", "0000:00:1e.0/0000:05:00.0/ata1", "0000:00:1e.0"},
	    {"sdb", "0000:00:1e.0/0000:05:01.0/ata3", "0000:00:1e.0"},
	    {"sdc", "0000:00:1c.0/0000:06:00.0/0000:07:00.0/ata5", "0000:06:00.0"},
	    {"sdd", "0000:00:1c.4/0000:03:00.0/ata7", ""},
	};
	struct pair p;
	struct mdp_xsrc src;
	struct mdp_xsample s;
	const struct mdp_xmember *m;
	char name[8];

	(void)state;
	pair_init(&p);
	test_sh("cd %s/sys && mkdir -p class/block bus/pci/devices/0000:00:1e.0 "
		"bus/pci/devices/0000:06:00.0 bus/pci/devices/0000:03:00.0 "
		"bus/pci/devices/0000:00:1c.4 && echo 0x060401 >bus/pci/devices/0000:00:1e.0/class "
		"&& echo '2.5 GT/s PCIe' >bus/pci/devices/0000:06:00.0/current_link_speed && "
		"echo '5.0 GT/s PCIe' >bus/pci/devices/0000:03:00.0/current_link_speed && "
		"echo 0x060400 >bus/pci/devices/0000:00:1c.4/class",
		p.root_dir);
	for (size_t i = 0; i < sizeof(t) / sizeof(t[0]); i++)
		test_sh("ln -s ../../devices/pci0000:00/%s/host0/target0:0:0/0:0:0:0/block/%s "
			"%s/sys/class/block/%s",
			t[i].path, t[i].disk, p.root_dir, t[i].disk);
	src = (struct mdp_xsrc){.root = &p.root};
	assert_int_equal(mdp_explain_sample(&src, &s), 0);
	for (size_t i = 0; i < sizeof(t) / sizeof(t[0]); i++) {
		snprintf(name, sizeof(name), "%s5", t[i].disk);
		assert_non_null(m = member_named(&s.arrays[0], name));
		assert_string_equal(m->pci_bus, t[i].pci_bus);
	}
	/* the root port states no link either: nothing says sdd's card is not PCIe */
	test_sh("rm %s/sys/bus/pci/devices/0000:03:00.0/current_link_speed", p.root_dir);
	mdp_explain_sample_free(&s);
	assert_int_equal(mdp_explain_sample(&src, &s), 0);
	assert_non_null(m = member_named(&s.arrays[0], "sdd5"));
	assert_string_equal(m->pci_bus, "");
	mdp_explain_sample_free(&s);
	pair_fini(&p);
}

MDP_TEST_MAIN(test_model_and_capture, test_unreadable, test_links_and_starts, test_pci_bus)
