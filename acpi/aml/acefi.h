/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * ACPICA's platform header for aspmctl (firmware and host builds alike).
 *
 * ACPICA's include/acpi/platform/acenv.h picks its environment header by
 * predefined macros; acpi/aml/acpica.mk compiles ACPICA and the OS services
 * layer with -U__linux__ -D_GNU_EFI, so that it includes "acefi.h", found
 * here first, on the firmware build and on the host build: one
 * configuration, the one the app runs. It follows aclinux.h's choices where
 * they matter to how AML runs (Linux's package-resolution leniency) and
 * otherwise keeps ACPICA single-threaded and free of any C library but the
 * few string functions it calls (acpi/aml/clib.c on the firmware build,
 * the C library's on the host).
 */
#ifndef ASPMCTL_ACEFI_H
#define ASPMCTL_ACEFI_H

#include <stdarg.h>
#include <stddef.h>

#define ACPI_USE_SYSTEM_CLIBRARY
#define ACPI_USE_DO_WHILE_0
#define ACPI_IGNORE_PACKAGE_RESOLUTION_ERRORS	/* as aclinux.h */
/* ACPICA's object caches are osl.c's: each object its own allocation
 * (ASan sees a use after free) and one unit of an evaluation's work */
struct aml_cache;
#define acpi_cache_t				struct aml_cache
#define ACPI_SINGLE_THREADED
#define ACPI_PCI_CONFIGURED			/* PCI_Config regions: hwpci.c */
#define ACPI_NO_ERROR_MESSAGES_UNUSED

#define ACPI_MACHINE_WIDTH		64
#define COMPILER_DEPENDENT_INT64	long
#define COMPILER_DEPENDENT_UINT64	unsigned long

#define ACPI_FLUSH_CPU_CACHE()
#define ACPI_INIT_FUNCTION
#ifndef __init
#define __init
#endif
#ifndef __iomem
#define __iomem
#endif

/* The few C library functions ACPICA calls (ACPI_USE_SYSTEM_CLIBRARY
 * without ACPI_USE_STANDARD_HEADERS: declared here). */
void *memcpy(void *dst, const void *src, size_t n);
void *memmove(void *dst, const void *src, size_t n);
void *memset(void *dst, int c, size_t n);
int memcmp(const void *a, const void *b, size_t n);
size_t strlen(const char *s);
char *strcpy(char *dst, const char *src);
char *strncpy(char *dst, const char *src, size_t n);
char *strcat(char *dst, const char *src);
char *strncat(char *dst, const char *src, size_t n);
int strcmp(const char *a, const char *b);
int strncmp(const char *a, const char *b, size_t n);
char *strchr(const char *s, int c);
char *strstr(const char *hay, const char *needle);
unsigned long strtoul(const char *s, char **end, int base);
int toupper(int c);
int tolower(int c);
int isdigit(int c);
int isxdigit(int c);
int isspace(int c);
int isprint(int c);
int isalpha(int c);
int isupper(int c);
int islower(int c);
int vsnprintf(char *buf, size_t size, const char *fmt, va_list ap);
int snprintf(char *buf, size_t size, const char *fmt, ...);

#endif /* ASPMCTL_ACEFI_H */
