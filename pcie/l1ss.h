/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * L1 PM Substates timing (PCIe r5.0 sec 5.5.4, 7.8.3): T_POWER_ON,
 * Common_Mode_Restore_Time and LTR_L1.2_THRESHOLD for a link, computed
 * as Linux 6.1's aspm_calc_l1ss_info() does. Pure arithmetic.
 */
#ifndef ASPMCTL_PCIE_L1SS_H
#define ASPMCTL_PCIE_L1SS_H

#include <stdint.h>

struct l1ss_timing {
	uint32_t ctl1;		/* CM_RESTORE_TIME | LTR_L12_TH_VALUE | _SCALE */
	uint32_t ctl2;		/* T_PWR_ON_SCALE | T_PWR_ON_VALUE */
	uint32_t t_common_mode_us, t_power_on_us, threshold_us;
};

/* T_POWER_ON in us from its scale (0: 2 us, 1: 10 us, 2: 100 us; 3 is
 * reserved: 0, as calc_l1ss_pwron()) and value. */
uint32_t l1ss_pwron_us(uint32_t scale, uint32_t val);
/* encode_l12_threshold(): the smallest scale whose 10-bit value holds
 * threshold_us, rounded up; above the largest, scale 5 value 0x3ff. */
void l1ss_encode_threshold(uint32_t threshold_us, uint32_t *scale,
			   uint32_t *value);
/* aspm_calc_l1ss_info() from the two ends' L1SS Capabilities. */
void l1ss_calc_timing(uint32_t up_cap, uint32_t dn_cap, struct l1ss_timing *tm);

#endif
