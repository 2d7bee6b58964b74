// SPDX-License-Identifier: GPL-2.0-only
/*
 * aspmsim: simulated PCIe hierarchies for the aspmctl cross-check (test
 * only, never for a production kernel).
 *
 * Each scenario written to debugfs becomes a PCI domain of its own
 * (0x10000 and up, like drivers/pci/controller/vmd.c) whose config space
 * lives in memory with the semantics of aspmctl's host simulator
 * (tests/sim): per byte a read-write mask and a write-1-to-clear mask,
 * everything else read-only; absent functions read all-ones; Retrain
 * Link reads as 0.  The domain is scanned by the PCI core, so the
 * kernel's own drivers/pci/pcie/aspm.c configures it; every config write
 * is logged in order with the value written and the register before and
 * after.
 *
 * debugfs (aspmsim/):
 *   scenario  write the scenario text ("aspmsim 1" format); opening it
 *             for writing starts a new one
 *   scan      write anything: create the domain from the scenario, scan
 *             it, add its devices, then pci_enable_device() every function
 *             in bus order (as drivers binding to them would; enable=0
 *             module parameter: do not); the disable parameter's
 *             pci_disable_link_state() calls come between scan and add
 *   mark      write a label: a "mark" line among the writes
 *   log       every config write so far: "w SSSSS:BB:DD.F off= width= val=
 *             before= after=", and the marks
 *   regs      the config space of every simulated function now
 *             ("cfg SSSSS:BB:DD.F OFF 32 hex digits", non-zero rows)
 *
 * The module cannot be unloaded: its domains stay until poweroff.
 */
#include <linux/debugfs.h>
#include <linux/kernel.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/pci.h>
#include <linux/platform_device.h>
#include <linux/seq_file.h>
#include <linux/slab.h>
#include <linux/spinlock.h>
#include <linux/string.h>
#include <linux/uaccess.h>
#include <linux/vmalloc.h>

#define SIM_CFG_SIZE		4096
#define SIM_MAX_FN		64
#define SIM_MAX_HOSTS		256	/* make difffuzz packs many per boot */
#define SIM_FIRST_DOMAIN	0x10000
#define SIM_LOG_MAX		(1 << 18)
#define SIM_TEXT_MAX		(1 << 20)
#define SIM_NAME_LEN		48

static bool enable = true;
module_param(enable, bool, 0444);
MODULE_PARM_DESC(enable, "pci_enable_device() every simulated function after the scan (default: yes)");

/* NAME/BB:DD.F/MASK,...: pci_disable_link_state(BB:DD.F of scenario NAME,
 * MASK of PCIE_LINK_STATE_* in hex) after the scan, before the devices
 * are added, as a driver's probe would */
static char disable[1024];
module_param_string(disable, disable, sizeof(disable), 0444);
MODULE_PARM_DESC(disable, "NAME/BB:DD.F/MASK,...: pci_disable_link_state() calls, per scenario");

struct sim_fn {
	u8 bus, devfn;
	u8 pcie;		/* offset of the PCI Express capability, 0 if none */
	u8 cfg[SIM_CFG_SIZE];
	u8 rw[SIM_CFG_SIZE];
	u8 w1c[SIM_CFG_SIZE];
};

struct sim_host {
	struct pci_sysdata sd;	/* bus->sysdata: the domain number */
	struct platform_device *pdev;
	struct resource busn;
	struct pci_bus *bus;
	char name[SIM_NAME_LEN];
	int nfn, cap;		/* functions, room for them ("fn" lines) */
	struct sim_fn *fn;
};

struct sim_log {
	int domain;		/* -1: a mark */
	u8 bus, devfn, width;
	u16 off;
	u32 val, before, after;
	char label[SIM_NAME_LEN];
};

static DEFINE_MUTEX(sim_mutex);	/* scenario text, hosts */
static DEFINE_RAW_SPINLOCK(sim_lock);	/* config space and log */
static struct sim_host *hosts[SIM_MAX_HOSTS];
static int nhosts;
static char *text;
static size_t text_len;
static struct sim_log *log_buf;
static unsigned int log_len, log_lost;
static struct dentry *dir;

static struct sim_host *bus_host(struct pci_bus *bus)
{
	return container_of(to_pci_sysdata(bus), struct sim_host, sd);
}

static struct sim_fn *find_fn(struct sim_host *h, u8 bus, u8 devfn)
{
	int i;

	for (i = 0; i < h->nfn; i++)
		if (h->fn[i].bus == bus && h->fn[i].devfn == devfn)
			return &h->fn[i];
	return NULL;
}

static u32 peek(const struct sim_fn *f, int off, int size)
{
	u32 v = 0;
	int i;

	for (i = 0; i < size; i++)
		v |= (u32)f->cfg[off + i] << (8 * i);
	return v;
}

static int sim_read(struct pci_bus *bus, unsigned int devfn, int where,
		    int size, u32 *val)
{
	struct sim_host *h = bus_host(bus);
	struct sim_fn *f;
	unsigned long flags;

	if (where < 0 || where + size > SIM_CFG_SIZE) {
		*val = ~0U;
		return PCIBIOS_BAD_REGISTER_NUMBER;
	}
	raw_spin_lock_irqsave(&sim_lock, flags);
	f = find_fn(h, bus->number, devfn);
	*val = f ? peek(f, where, size) :
		   (size == 4 ? ~0U : (1U << (8 * size)) - 1);
	raw_spin_unlock_irqrestore(&sim_lock, flags);
	return PCIBIOS_SUCCESSFUL;
}

/* The next write log entry, or NULL (counted as lost) when the log is full. */
static struct sim_log *log_next(void)
{
	if (log_len < SIM_LOG_MAX)
		return &log_buf[log_len++];
	log_lost++;
	return NULL;
}

static int sim_write(struct pci_bus *bus, unsigned int devfn, int where,
		     int size, u32 val)
{
	struct sim_host *h = bus_host(bus);
	struct sim_log *l = NULL;
	struct sim_fn *f;
	unsigned long flags;
	int i, lc;

	if (where < 0 || where + size > SIM_CFG_SIZE)
		return PCIBIOS_BAD_REGISTER_NUMBER;
	raw_spin_lock_irqsave(&sim_lock, flags);
	f = find_fn(h, bus->number, devfn);
	/*
	 * Writes to the standard header (BAR sizing, Command, bridge
	 * windows) are made but not logged: no compared register lives
	 * there, and they were nine in ten of the log a boot prints.
	 */
	if (where >= PCI_STD_HEADER_SIZEOF)
		l = log_next();
	if (l) {
		l->domain = h->sd.domain;
		l->bus = bus->number;
		l->devfn = devfn;
		l->off = where;
		l->width = size;
		l->val = val;
		l->before = f ? peek(f, where, size) : ~0U;
		l->after = l->before;
	}
	if (f) {
		for (i = 0; i < size; i++) {
			u8 b = val >> (8 * i);
			u8 *c = &f->cfg[where + i];

			*c = (*c & ~f->rw[where + i]) | (b & f->rw[where + i]);
			*c &= ~(b & f->w1c[where + i]);
		}
		/* Retrain Link reads as 0 (PCIe r6.0 sec 7.5.3.7) */
		lc = f->pcie + PCI_EXP_LNKCTL;
		if (f->pcie && where <= lc && where + size > lc)
			f->cfg[lc] &= ~PCI_EXP_LNKCTL_RL;
		if (l)
			l->after = peek(f, where, size);
	}
	raw_spin_unlock_irqrestore(&sim_lock, flags);
	return PCIBIOS_SUCCESSFUL;
}

static struct pci_ops sim_ops = {
	.read = sim_read,
	.write = sim_write,
};

/* The PCI Express capability in the function's own bytes (bounded). */
static u8 find_pcie(const struct sim_fn *f)
{
	u8 pos = f->cfg[PCI_CAPABILITY_LIST];
	int n = 48;

	if (!(f->cfg[PCI_STATUS] & PCI_STATUS_CAP_LIST))
		return 0;
	while (pos >= 0x40 && n--) {
		pos &= ~3;
		if (f->cfg[pos + PCI_CAP_LIST_ID] == PCI_CAP_ID_EXP)
			return pos;
		pos = f->cfg[pos + PCI_CAP_LIST_NEXT];
	}
	return 0;
}

/* Parse the scenario text into h (see linux/simmod/README.md). */
static int parse(struct sim_host *h, char *s)
{
	struct sim_fn *f = NULL;
	bool version = false, end = false;
	char *line;
	int lineno = 0;

	while (!end && (line = strsep(&s, "\n")) != NULL) {
		unsigned int off, bus, dev, fn;
		char c[33], rw[33], w1c[33];

		lineno++;
		line = strim(line);
		if (!*line || *line == '#')
			continue;
		if (!version) {
			if (strcmp(line, "aspmsim 1")) {
				pr_err("aspmsim: line %d: expected \"aspmsim 1\"\n", lineno);
				return -EINVAL;
			}
			version = true;
		} else if (!strncmp(line, "name ", 5)) {
			strscpy(h->name, line + 5, sizeof(h->name));
		} else if (sscanf(line, "fn %x:%x.%x", &bus, &dev, &fn) == 3) {
			if (h->nfn >= h->cap || bus > 0xff || dev > 0x1f || fn > 7) {
				pr_err("aspmsim: line %d: bad or too many functions\n", lineno);
				return -EINVAL;
			}
			f = &h->fn[h->nfn++];
			f->bus = bus;
			f->devfn = PCI_DEVFN(dev, fn);
		} else if (sscanf(line, "r %x %32s %32s %32s", &off, c, rw, w1c) == 4) {
			if (!f || off > SIM_CFG_SIZE - 16 || (off & 15) ||
			    strlen(c) != 32 || strlen(rw) != 32 || strlen(w1c) != 32 ||
			    hex2bin(f->cfg + off, c, 16) ||
			    hex2bin(f->rw + off, rw, 16) ||
			    hex2bin(f->w1c + off, w1c, 16)) {
				pr_err("aspmsim: line %d: bad row\n", lineno);
				return -EINVAL;
			}
		} else if (!strncmp(line, "remove ", 7)) {
			/* for the guest's /init, not for the module */
		} else if (!strcmp(line, "end")) {
			end = true;
		} else {
			pr_err("aspmsim: line %d: unknown line \"%.40s\"\n", lineno, line);
			return -EINVAL;
		}
	}
	if (!end || !h->nfn) {
		pr_err("aspmsim: scenario without functions or without \"end\"\n");
		return -EINVAL;
	}
	for (f = h->fn; f < h->fn + h->nfn; f++)
		f->pcie = find_pcie(f);
	return 0;
}

static void free_host(struct sim_host *h)
{
	if (!h)
		return;
	vfree(h->fn);
	kfree(h);
}

struct enable_list {
	struct pci_dev **dev;
	int n;
};

static int collect(struct pci_dev *pdev, void *data)
{
	struct enable_list *e = data;

	if (e->n < SIM_MAX_FN)
		e->dev[e->n++] = pci_dev_get(pdev);
	return 0;
}

/* The pci_disable_link_state() calls the disable parameter lists for h. */
static void apply_disables(struct sim_host *h)
{
	char list[sizeof(disable)], *s = list, *item;

	strscpy(list, disable, sizeof(list));
	while ((item = strsep(&s, ",")) != NULL) {
		char name[SIM_NAME_LEN];
		unsigned int bus, dev, fn, mask;
		struct pci_dev *pdev;
		char *slash = strchr(item, '/');

		if (!slash || slash - item >= SIM_NAME_LEN)
			continue;
		strscpy(name, item, slash - item + 1);
		if (strcmp(name, h->name) ||
		    sscanf(slash + 1, "%x:%x.%x/%x", &bus, &dev, &fn, &mask) != 4)
			continue;
		pdev = pci_get_domain_bus_and_slot(h->sd.domain, bus,
						   PCI_DEVFN(dev, fn));
		if (!pdev) {
			pr_err("aspmsim: %s: no %02x:%02x.%x to disable\n",
			       h->name, bus, dev, fn);
			continue;
		}
		pr_info("aspmsim: %s: pci_disable_link_state(%s, 0x%x) = %d\n",
			h->name, pci_name(pdev), mask,
			pci_disable_link_state(pdev, mask));
		pci_dev_put(pdev);
	}
}

/*
 * Room for the functions the scenario text has ("fn" lines, at least one,
 * at most SIM_MAX_FN), not SIM_MAX_FN for each of up to SIM_MAX_HOSTS
 * scenarios.
 */
static int count_fns(void)
{
	size_t k;
	int n = text_len >= 3 && !strncmp(text, "fn ", 3);

	for (k = 1; k + 3 < text_len; k++)
		if (text[k - 1] == '\n' && !strncmp(text + k, "fn ", 3))
			n++;
	return clamp(n, 1, SIM_MAX_FN);
}

static int scan_scenario(void)
{
	struct pci_dev *devs[SIM_MAX_FN];
	struct enable_list e = { .dev = devs };
	struct sim_host *h;
	LIST_HEAD(resources);
	char *copy;
	int i, rc;

	if (nhosts >= SIM_MAX_HOSTS)
		return -ENOSPC;
	h = kzalloc(sizeof(*h), GFP_KERNEL);
	if (!h)
		return -ENOMEM;
	h->cap = count_fns();
	h->fn = vzalloc(array_size(h->cap, sizeof(*h->fn)));
	copy = kvmalloc(text_len + 1, GFP_KERNEL);
	if (!h->fn || !copy) {
		kvfree(copy);
		free_host(h);
		return -ENOMEM;
	}
	memcpy(copy, text, text_len);
	copy[text_len] = '\0';
	rc = parse(h, copy);
	kvfree(copy);
	if (rc) {
		free_host(h);
		return rc;
	}

	h->sd.domain = SIM_FIRST_DOMAIN + nhosts;
	h->sd.node = NUMA_NO_NODE;
	h->pdev = platform_device_register_simple("aspmsim", nhosts, NULL, 0);
	if (IS_ERR(h->pdev)) {
		rc = PTR_ERR(h->pdev);
		free_host(h);
		return rc;
	}
	h->busn.name = "aspmsim bus";
	h->busn.start = 0;
	h->busn.end = 0xff;
	h->busn.flags = IORESOURCE_BUS | IORESOURCE_PCI_FIXED;
	pci_add_resource(&resources, &h->busn);

	pr_info("aspmsim: domain %04x: scenario %s, %d functions\n",
		h->sd.domain, h->name, h->nfn);
	pci_lock_rescan_remove();
	h->bus = pci_create_root_bus(&h->pdev->dev, 0, &sim_ops, &h->sd,
				     &resources);
	if (!h->bus) {
		pci_unlock_rescan_remove();
		pci_free_resource_list(&resources);
		platform_device_unregister(h->pdev);
		free_host(h);
		return -ENODEV;
	}
	hosts[nhosts++] = h;
	pci_scan_child_bus(h->bus);
	apply_disables(h);
	pci_bus_add_devices(h->bus);
	pci_unlock_rescan_remove();

	if (!enable)
		return 0;
	/* in bus order, depth first, as drivers would bind to them */
	pci_walk_bus(h->bus, collect, &e);
	for (i = 0; i < e.n; i++) {
		if (pci_enable_device(devs[i]))
			pci_warn(devs[i], "aspmsim: pci_enable_device failed\n");
		pci_dev_put(devs[i]);
	}
	return 0;
}

static int scenario_open(struct inode *inode, struct file *file)
{
	if (file->f_mode & FMODE_WRITE) {
		mutex_lock(&sim_mutex);
		text_len = 0;
		mutex_unlock(&sim_mutex);
	}
	return 0;
}

static ssize_t scenario_write(struct file *file, const char __user *buf,
			      size_t count, loff_t *ppos)
{
	ssize_t rc = count;

	mutex_lock(&sim_mutex);
	if (count > SIM_TEXT_MAX - text_len)
		rc = -EFBIG;
	else if (copy_from_user(text + text_len, buf, count))
		rc = -EFAULT;
	else
		text_len += count;
	mutex_unlock(&sim_mutex);
	return rc;
}

static const struct file_operations scenario_fops = {
	.owner = THIS_MODULE,
	.open = scenario_open,
	.write = scenario_write,
	.llseek = noop_llseek,
};

static ssize_t scan_write(struct file *file, const char __user *buf,
			  size_t count, loff_t *ppos)
{
	int rc;

	mutex_lock(&sim_mutex);
	rc = scan_scenario();
	mutex_unlock(&sim_mutex);
	return rc ? rc : count;
}

static const struct file_operations scan_fops = {
	.owner = THIS_MODULE,
	.write = scan_write,
	.llseek = noop_llseek,
};

static ssize_t mark_write(struct file *file, const char __user *buf,
			  size_t count, loff_t *ppos)
{
	char label[SIM_NAME_LEN];
	size_t n = min(count, sizeof(label) - 1);
	unsigned long flags;

	if (copy_from_user(label, buf, n))
		return -EFAULT;
	label[n] = '\0';
	strim(label);
	raw_spin_lock_irqsave(&sim_lock, flags);
	if (log_len < SIM_LOG_MAX) {
		log_buf[log_len].domain = -1;
		strscpy(log_buf[log_len].label, label, SIM_NAME_LEN);
		log_len++;
	} else {
		log_lost++;
	}
	raw_spin_unlock_irqrestore(&sim_lock, flags);
	return count;
}

static const struct file_operations mark_fops = {
	.owner = THIS_MODULE,
	.write = mark_write,
	.llseek = noop_llseek,
};

static int log_show(struct seq_file *m, void *v)
{
	unsigned int i, n;
	unsigned long flags;

	raw_spin_lock_irqsave(&sim_lock, flags);
	n = log_len;
	raw_spin_unlock_irqrestore(&sim_lock, flags);
	/* entries below n never change */
	for (i = 0; i < n; i++) {
		const struct sim_log *l = &log_buf[i];

		if (l->domain < 0) {
			seq_printf(m, "mark %s\n", l->label);
			continue;
		}
		seq_printf(m, "w %04x:%02x:%02x.%d off=0x%03x width=%u val=0x%08x before=0x%08x after=0x%08x\n",
			   l->domain, l->bus, PCI_SLOT(l->devfn), PCI_FUNC(l->devfn),
			   l->off, l->width, l->val, l->before, l->after);
	}
	if (log_lost)
		seq_printf(m, "lost %u\n", log_lost);
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(log);

static int regs_show(struct seq_file *m, void *v)
{
	static u8 row[16];
	int i, j, off;
	unsigned long flags;

	mutex_lock(&sim_mutex);
	for (i = 0; i < nhosts; i++) {
		struct sim_host *h = hosts[i];

		seq_printf(m, "domain %04x %s\n", h->sd.domain, h->name);
		for (j = 0; j < h->nfn; j++) {
			struct sim_fn *f = &h->fn[j];

			for (off = 0; off < SIM_CFG_SIZE; off += 16) {
				raw_spin_lock_irqsave(&sim_lock, flags);
				memcpy(row, f->cfg + off, sizeof(row));
				raw_spin_unlock_irqrestore(&sim_lock, flags);
				if (!memchr_inv(row, 0, sizeof(row)))
					continue;
				seq_printf(m, "cfg %04x:%02x:%02x.%d %03x %16phN\n",
					   h->sd.domain, f->bus, PCI_SLOT(f->devfn),
					   PCI_FUNC(f->devfn), off, row);
			}
		}
	}
	mutex_unlock(&sim_mutex);
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(regs);

static int __init aspmsim_init(void)
{
	text = vmalloc(SIM_TEXT_MAX);
	log_buf = vzalloc(array_size(SIM_LOG_MAX, sizeof(*log_buf)));
	if (!text || !log_buf) {
		vfree(text);
		vfree(log_buf);
		return -ENOMEM;
	}
	dir = debugfs_create_dir("aspmsim", NULL);
	debugfs_create_file("scenario", 0200, dir, NULL, &scenario_fops);
	debugfs_create_file("scan", 0200, dir, NULL, &scan_fops);
	debugfs_create_file("mark", 0200, dir, NULL, &mark_fops);
	debugfs_create_file("log", 0400, dir, NULL, &log_fops);
	debugfs_create_file("regs", 0400, dir, NULL, &regs_fops);
	return 0;
}
module_init(aspmsim_init);

MODULE_DESCRIPTION("Simulated PCIe hierarchies for the aspmctl ASPM cross-check (test only)");
MODULE_LICENSE("GPL");
