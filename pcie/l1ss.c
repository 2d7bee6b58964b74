// SPDX-License-Identifier: GPL-2.0-only
/*
 * L1 PM Substates timing, mirroring Linux 6.1 drivers/pci/pcie/aspm.c:
 * calc_l1ss_pwron(), encode_l12_threshold(), aspm_calc_l1ss_info().
 */
#include "l1ss.h"
#include "pci_regs.h"

uint32_t l1ss_pwron_us(uint32_t scale, uint32_t val)
{
	switch (scale) {
	case 0:
		return val * 2;
	case 1:
		return val * 10;
	case 2:
		return val * 100;
	}
	return 0;	/* reserved scale: Linux logs it and uses 0 */
}

/*
 * Ports enter L1.2 when the latest LTR value is at least the threshold,
 * so it is rounded up (PCIe r6.0 sec 5.5.1, 6.18, 7.8.3.3). The value is
 * a 10-bit field; scale n means 32^n ns.
 */
void l1ss_encode_threshold(uint32_t threshold_us, uint32_t *scale,
			   uint32_t *value)
{
	uint64_t ns = (uint64_t)threshold_us * 1000;
	uint64_t unit = 1;

	for (uint32_t s = 0; s <= 5; s++, unit *= 32) {
		if (ns <= 0x3ff * unit) {
			*scale = s;
			*value = (uint32_t)((ns + unit - 1) / unit);
			return;
		}
	}
	*scale = 5;
	*value = 0x3ff;		/* the largest value that can be written */
}

void l1ss_calc_timing(uint32_t up_cap, uint32_t dn_cap, struct l1ss_timing *tm)
{
	uint32_t val1, val2, scale1, scale2, p1, p2, scale, value;

	/* the greater of the two Common_Mode_Restore_Times */
	val1 = (up_cap & PCI_L1SS_CAP_CM_RESTORE_TIME) >> 8;
	val2 = (dn_cap & PCI_L1SS_CAP_CM_RESTORE_TIME) >> 8;
	tm->t_common_mode_us = val1 > val2 ? val1 : val2;

	/* the greater of the two T_POWER_ONs (the downstream one on a tie) */
	val1 = (up_cap & PCI_L1SS_CAP_P_PWR_ON_VALUE) >> 19;
	scale1 = (up_cap & PCI_L1SS_CAP_P_PWR_ON_SCALE) >> 16;
	val2 = (dn_cap & PCI_L1SS_CAP_P_PWR_ON_VALUE) >> 19;
	scale2 = (dn_cap & PCI_L1SS_CAP_P_PWR_ON_SCALE) >> 16;
	p1 = l1ss_pwron_us(scale1, val1);
	p2 = l1ss_pwron_us(scale2, val2);
	if (p1 > p2) {
		tm->ctl2 = scale1 | val1 << 3;
		tm->t_power_on_us = p1;
	} else {
		tm->ctl2 = scale2 | val2 << 3;
		tm->t_power_on_us = p2;
	}

	/* L0 -> L1.2 -> L0: T(POWER_OFF) at most 2 us, T(L1.2) at least
	 * 4 us (PCIe r3.1 sec 5.5.3.3.1, Table 5-11) */
	tm->threshold_us = 2 + 4 + tm->t_common_mode_us + tm->t_power_on_us;
	l1ss_encode_threshold(tm->threshold_us, &scale, &value);
	tm->ctl1 = tm->t_common_mode_us << 8 | scale << 29 | value << 16;
}
