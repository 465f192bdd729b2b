#ifndef CALBRIDGE_CLIBICAL_SHIM_H
#define CALBRIDGE_CLIBICAL_SHIM_H
#include <libical/ical.h>

// libical's error state is a macro over a per-thread variable; Swift reads and clears it through these.
static inline int calbridge_ical_errno(void) { return (int)icalerrno; }
static inline void calbridge_ical_clear_errno(void) { icalerror_clear_errno(); }

#endif
