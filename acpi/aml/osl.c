// SPDX-License-Identifier: GPL-2.0-only
/*
 * ACPICA's OS services layer (include/acpi/acpiosxf.h) for aspmctl: the
 * only code ACPICA calls out to. Before the OS there is one CPU and no
 * scheduler, so locks, semaphores and mutexes are no-ops; memory comes
 * from the platform's allocator under a budget; "physical" memory is the
 * tables osc_query() handed over (an identity mapping refused for every
 * other address); time is a virtual clock that advances whenever the
 * interpreter looks at it, which bounds every AML While loop (ACPICA's
 * acpi_gbl_max_loop_iterations, dscontrol.c) and each evaluation as a
 * whole without a real timer; ports and memory writes are refused and
 * recorded (acpi/aml/region.c holds the operation-region side).
 */
#include <acpi/acpi.h>

#include "acpi/aml/internal.h"
#include "lib/fmt.h"
#include "lib/util.h"
#include "pcie/cfg.h"

struct aml_session *aml_cur;

/* ------------------------------------------------------------ lifetime */

acpi_status acpi_os_initialize(void)
{
	return AE_OK;
}

acpi_status acpi_os_terminate(void)
{
	return AE_OK;
}

acpi_physical_address acpi_os_get_root_pointer(void)
{
	return aml_cur ? (acpi_physical_address)aml_cur->rsdp : 0;
}

acpi_status acpi_os_predefined_override(const struct acpi_predefined_names *init_val,
					acpi_string *new_val)
{
	(void)init_val;
	*new_val = NULL;
	return AE_OK;
}

acpi_status acpi_os_table_override(struct acpi_table_header *existing_table,
				   struct acpi_table_header **new_table)
{
	(void)existing_table;
	*new_table = NULL;
	return AE_OK;
}

acpi_status acpi_os_physical_table_override(struct acpi_table_header *existing_table,
					    acpi_physical_address *new_address,
					    u32 *new_table_length)
{
	(void)existing_table;
	*new_address = 0;
	*new_table_length = 0;
	return AE_OK;
}

/* ------------------------------------------------------------ memory */

/* Every block carries its size in front, so that free can give back to
 * the budget, and links to the other live blocks, so that osc_query()
 * can give back what ACPICA itself leaks (aml_free_all()); 32 bytes keep
 * the payload aligned for any ACPICA object. */
struct aml_block {
	size_t size;
	struct aml_block *prev, *next;
	size_t pad;
};
#define AML_HDR	sizeof(struct aml_block)

void aml_starve(struct aml_session *s, const char *reason)
{
	if (!s->starved[0])
		str_copy(s->starved, reason, sizeof(s->starved));
	aml_abort(s, reason);
}

void *acpi_os_allocate(acpi_size size)
{
	struct aml_session *s = aml_cur;
	struct aml_block *b;

	if (!s)
		return NULL;
	if (size > s->mem_budget || s->mem_used + size + AML_HDR > s->mem_budget) {
		aml_starve(s, "memory-budget");
		return NULL;
	}
	b = s->plat->alloc(s->plat->ctx, size + AML_HDR);
	if (!b) {
		aml_starve(s, "out-of-memory");
		return NULL;
	}
	b->size = size;
	b->prev = NULL;
	b->next = s->live;
	if (s->live)
		s->live->prev = b;
	s->live = b;
	s->mem_used += size + AML_HDR;
	if (s->mem_used > s->mem_peak)
		s->mem_peak = s->mem_used;
	return (uint8_t *)b + AML_HDR;
}

/* acpi_os_allocate_zeroed(): ACPICA's own, utalloc.c */

static void block_free(struct aml_session *s, struct aml_block *b)
{
	if (b->prev)
		b->prev->next = b->next;
	else
		s->live = b->next;
	if (b->next)
		b->next->prev = b->prev;
	s->mem_used -= b->size + AML_HDR;
	s->plat->free(s->plat->ctx, b);
}

void acpi_os_free(void *memory)
{
	struct aml_session *s = aml_cur;

	if (!memory || !s)
		return;
	block_free(s, (struct aml_block *)((uint8_t *)memory - AML_HDR));
}

/* After acpi_terminate(): what is still held was leaked by ACPICA (its
 * error paths lose objects: a method stopped at its re-entrancy limit
 * leaves one per level, a fuzz finding). Give it back; the count says
 * how many. */
unsigned long aml_free_all(struct aml_session *s)
{
	unsigned long n = 0;

	while (s->live) {
		block_free(s, s->live);
		n++;
	}
	return n;
}

/* The tables are the only memory ACPICA maps: identity, when the whole
 * range lies in one of them. SystemMemory operation regions do not come
 * here (region.c reads them through the platform). */
void *acpi_os_map_memory(acpi_physical_address where, acpi_size length)
{
	struct aml_session *s = aml_cur;
	unsigned i;

	if (!s)
		return NULL;
	for (i = 0; i < s->nblobs; i++) {
		uintptr_t b = (uintptr_t)s->blob[i].p;

		if (where >= b && length <= s->blob[i].len && where - b <= s->blob[i].len - length)
			return (void *)(uintptr_t)where;
	}
	return NULL;
}

void acpi_os_unmap_memory(void *logical_address, acpi_size size)
{
	(void)logical_address;
	(void)size;
}

acpi_status acpi_os_get_physical_address(void *logical_address,
					 acpi_physical_address *physical_address)
{
	*physical_address = (acpi_physical_address)(uintptr_t)logical_address;
	return AE_OK;
}

/* ------------------------------------------------------------ one CPU, no threads */

acpi_status acpi_os_create_lock(acpi_spinlock *out_handle)
{
	*out_handle = (acpi_spinlock)1;
	return AE_OK;
}

void acpi_os_delete_lock(acpi_spinlock handle)
{
	(void)handle;
}

acpi_cpu_flags acpi_os_acquire_lock(acpi_spinlock handle)
{
	(void)handle;
	return 0;
}

void acpi_os_release_lock(acpi_spinlock handle, acpi_cpu_flags flags)
{
	(void)handle;
	(void)flags;
}

acpi_status acpi_os_create_semaphore(u32 max_units, u32 initial_units,
				     acpi_semaphore *out_handle)
{
	(void)max_units;
	(void)initial_units;
	*out_handle = (acpi_semaphore)1;
	return AE_OK;
}

acpi_status acpi_os_delete_semaphore(acpi_semaphore handle)
{
	(void)handle;
	return AE_OK;
}

acpi_status acpi_os_wait_semaphore(acpi_semaphore handle, u32 units, u16 timeout)
{
	(void)handle;
	(void)units;
	(void)timeout;
	return AE_OK;
}

acpi_status acpi_os_signal_semaphore(acpi_semaphore handle, u32 units)
{
	(void)handle;
	(void)units;
	return AE_OK;
}

acpi_thread_id acpi_os_get_thread_id(void)
{
	return 1;
}

/* Notify handlers and the like would run deferred; nothing is installed
 * that needs them, and nothing runs behind the app's back. */
acpi_status acpi_os_execute(acpi_execute_type type,
			    acpi_osd_exec_callback function, void *context)
{
	(void)type;
	(void)function;
	(void)context;
	return AE_OK;
}

void acpi_os_wait_events_complete(void)
{
}

acpi_status acpi_os_install_interrupt_handler(u32 interrupt_number,
					      acpi_osd_handler service_routine,
					      void *context)
{
	(void)interrupt_number;
	(void)service_routine;
	(void)context;
	return AE_NOT_IMPLEMENTED;
}

acpi_status acpi_os_remove_interrupt_handler(u32 interrupt_number,
					     acpi_osd_handler service_routine)
{
	(void)interrupt_number;
	(void)service_routine;
	return AE_OK;	/* none was installed: nothing to remove */
}

/* ------------------------------------------------------------ object caches */

/*
 * ACPICA's caches (parse ops, operand objects, generic states, namespace
 * nodes) without caching: every object is its own acpi_os_allocate(), so
 * the memory budget sees it and ASan sees a use after free that a reused
 * cache slot would hide. Each acquire is also a unit of work: an
 * evaluation (or the table load) that acquires more than work_budget
 * objects is aborted ("work-budget") and the acquire fails, ACPICA
 * unwinding as after AE_NO_MEMORY. That bounds what the loop budget does
 * not: straight-line AML whose cost grows with each While iteration.
 */
struct aml_cache {
	acpi_size object_size;
};

acpi_status acpi_os_create_cache(char *cache_name, u16 object_size, u16 max_depth,
				 struct aml_cache **return_cache)
{
	struct aml_cache *c;

	(void)cache_name;
	(void)max_depth;
	if (!return_cache || object_size < 16)
		return AE_BAD_PARAMETER;
	c = acpi_os_allocate(sizeof(*c));
	if (!c)
		return AE_NO_MEMORY;
	c->object_size = object_size;
	*return_cache = c;
	return AE_OK;
}

acpi_status acpi_os_purge_cache(struct aml_cache *cache)
{
	return cache ? AE_OK : AE_BAD_PARAMETER;	/* nothing is kept */
}

acpi_status acpi_os_delete_cache(struct aml_cache *cache)
{
	if (!cache)
		return AE_BAD_PARAMETER;
	acpi_os_free(cache);
	return AE_OK;
}

void *acpi_os_acquire_object(struct aml_cache *cache)
{
	struct aml_session *s = aml_cur;
	if (!cache)
		return NULL;
	if (s && s->work_budget && ++s->eval_work > s->work_budget) {
		aml_starve(s, "work-budget");
		return NULL;
	}
	return acpi_os_allocate_zeroed(cache->object_size);
}

acpi_status acpi_os_release_object(struct aml_cache *cache, void *object)
{
	if (!cache || !object)
		return AE_BAD_PARAMETER;
	acpi_os_free(object);
	return AE_OK;
}

/* ------------------------------------------------------------ time */

/*
 * The virtual clock: every look moves it by clock_step, so a While loop
 * that never ends reaches ACPICA's loop timeout after loop_budget
 * iterations (acpi_gbl_max_loop_iterations is set to one virtual second);
 * and once an evaluation has looked eval_budget times the clock jumps an
 * hour ahead, so that any loop still running times out at its next test.
 */
u64 acpi_os_get_timer(void)
{
	struct aml_session *s = aml_cur;

	if (!s)
		return 0;
	s->clock += s->clock_step;
	if (++s->eval_ticks > s->eval_budget) {
		s->clock += 36000ull * ACPI_100NSEC_PER_SEC;
		if (!s->aborted)
			aml_abort(s, "evaluation-budget");
	}
	return s->clock;
}

void acpi_os_sleep(u64 milliseconds)
{
	if (aml_cur)
		aml_cur->clock += milliseconds * ACPI_100NSEC_PER_MSEC;
}

void acpi_os_stall(u32 microseconds)
{
	if (aml_cur)
		aml_cur->clock += (u64)microseconds * ACPI_100NSEC_PER_USEC;
}

/* ------------------------------------------------------------ hardware: refused */

acpi_status acpi_os_read_port(acpi_io_address address, u32 *value, u32 width)
{
	if (aml_cur) {
		aml_record(aml_cur, ACPI_ADR_SPACE_SYSTEM_IO, false, true, width, address, 0);
		aml_abort(aml_cur, "SystemIO-read");
	}
	*value = 0;
	return AE_ACCESS;
}

acpi_status acpi_os_write_port(acpi_io_address address, u32 value, u32 width)
{
	if (aml_cur) {
		aml_record(aml_cur, ACPI_ADR_SPACE_SYSTEM_IO, true, true, width, address, value);
		aml_abort(aml_cur, "SystemIO-write");
	}
	return AE_ACCESS;
}

acpi_status acpi_os_read_memory(acpi_physical_address address, u64 *value, u32 width)
{
	if (aml_cur) {
		aml_record(aml_cur, ACPI_ADR_SPACE_SYSTEM_MEMORY, false, true, width, address, 0);
		aml_abort(aml_cur, "register-read");
	}
	*value = 0;
	return AE_ACCESS;
}

acpi_status acpi_os_write_memory(acpi_physical_address address, u64 value, u32 width)
{
	if (aml_cur) {
		aml_record(aml_cur, ACPI_ADR_SPACE_SYSTEM_MEMORY, true, true, width, address, value);
		aml_abort(aml_cur, "register-write");
	}
	return AE_ACCESS;
}

/* A config read the platform could not make: recorded, refused and the
 * evaluation stopped, as a region access would be. The region handler
 * records its own accesses (s->in_region); this names the reads hwpci.c
 * makes by itself when a PCI_Config region is first used. */
static acpi_status pci_read_refused(struct aml_session *s, const struct acpi_pci_id *id,
				    u32 reg, u32 width)
{
	uint64_t addr = aml_pci_record_addr(id->segment, id->bus, id->device,
					    id->function, reg);
	char why[OSC_REASON_MAX];

	if (s && !s->in_region) {
		aml_record(s, ACPI_ADR_SPACE_PCI_CONFIG, false, true, width, addr, 0);
		fmt_snprintf(why, sizeof(why), "read-PCI_Config-0x%llx", (unsigned long long)addr);
		aml_abort(s, why);
	}
	return AE_ACCESS;
}

/* hwpci.c walks bridges from a PCI_Config region up to its root with
 * these (header type, secondary bus), and region.c reads a region's
 * fields: through the app's config access, writes never. */
acpi_status acpi_os_read_pci_configuration(struct acpi_pci_id *pci_id, u32 reg,
					   u64 *value, u32 width)
{
	struct aml_session *s = aml_cur;
	struct pci_addr a;
	uint32_t v = 0;
	int err;

	*value = 0;
	if (!s)
		return AE_ACCESS;
	if (!s->plat->cfg || pci_id->bus > 0xff || pci_id->device > 31 ||
	    pci_id->function > 7 || reg > 4095 || (width != 8 && width != 16 && width != 32))
		return pci_read_refused(s, pci_id, reg, width);
	a.seg = (uint16_t)pci_id->segment;
	a.bus = (uint8_t)pci_id->bus;
	a.devfn = (uint8_t)(pci_id->device << 3 | pci_id->function);
	if (width == 8) {
		uint8_t b;

		err = pci_cfg_read8(s->plat->cfg, a, (uint16_t)reg, &b);
		v = b;
	} else if (width == 16) {
		uint16_t w;

		err = pci_cfg_read16(s->plat->cfg, a, (uint16_t)reg, &w);
		v = w;
	} else {
		err = pci_cfg_read32(s->plat->cfg, a, (uint16_t)reg, &v);
	}
	if (err)
		return pci_read_refused(s, pci_id, reg, width);
	*value = v;
	return AE_OK;
}

acpi_status acpi_os_write_pci_configuration(struct acpi_pci_id *pci_id, u32 reg,
					    u64 value, u32 width)
{
	(void)pci_id;
	if (aml_cur) {
		aml_record(aml_cur, ACPI_ADR_SPACE_PCI_CONFIG, true, true, width, reg, value);
		aml_abort(aml_cur, "PCI_Config-write");
	}
	return AE_ACCESS;
}

acpi_status acpi_os_signal(u32 function, void *info)
{
	(void)info;
	if (aml_cur && function == ACPI_SIGNAL_FATAL)
		aml_abort(aml_cur, "Fatal-opcode");
	return AE_OK;
}

acpi_status acpi_os_enter_sleep(u8 sleep_state, u32 rega_value, u32 regb_value)
{
	(void)sleep_state;
	(void)rega_value;
	(void)regb_value;
	if (aml_cur)
		aml_abort(aml_cur, "sleep");
	return AE_ACCESS;
}

/* ------------------------------------------------------------ messages */

void acpi_os_vprintf(const char *format, va_list args)
{
	static char line[256];
	static size_t used;
	struct aml_session *s = aml_cur;
	char buf[256];
	size_t i, n;
	int len;

	len = vsnprintf(buf, sizeof(buf), format, args);
	if (len < 0)
		return;
	n = (size_t)len < sizeof(buf) ? (size_t)len : sizeof(buf) - 1;
	/* one line per call of the platform's log, whatever the pieces */
	for (i = 0; i < n; i++) {
		if (buf[i] == '\n' || used == sizeof(line) - 1) {
			line[used] = 0;
			if (s && s->plat->log && used)
				s->plat->log(s->plat->ctx, line);
			used = 0;
			if (buf[i] == '\n')
				continue;
		}
		line[used++] = buf[i];
	}
}

void ACPI_INTERNAL_VAR_XFACE acpi_os_printf(const char *format, ...)
{
	va_list ap;

	va_start(ap, format);
	acpi_os_vprintf(format, ap);
	va_end(ap);
}
