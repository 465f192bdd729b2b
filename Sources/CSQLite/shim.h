#ifndef CALBRIDGE_CSQLITE_SHIM_H
#define CALBRIDGE_CSQLITE_SHIM_H
// The system's SQLite 3 (libsqlite3-dev): sync's state.
#include <sqlite3.h>
#endif
