#ifndef CALBRIDGE_CLIBPQ_SHIM_H
#define CALBRIDGE_CLIBPQ_SHIM_H
// libpq, PostgreSQL's C client library (Debian's libpq-dev): the organisation's shared database.
#include <libpq-fe.h>
#endif
