/*
 * reports.h: the paid report resources (docs/PROTOCOL.md, Reports): compare,
 * changes
 * and export, in handlers/reports.c. This header holds what the dispatch
 * table needs: the report names and the body limit of the rows whose
 * request carries a saved baseline (its bounds are in baseline.h).
 */
#ifndef WAYMARK_REPORTS_H
#define WAYMARK_REPORTS_H

#include "baseline.h"

/* body_max of the rows whose request carries a baseline: the largest
 * baseline, q, and the other members (5692435 bytes, about 5.4 MiB). */
#define REPORTS_BODY_MAX (BASELINE_BYTES + BASELINE_STR(400) + 1024)

/* The report kinds of the export request, NULL-terminated. */
extern const char *const report_names[];

#endif
