#ifndef CALBRIDGE_CSQLITE_H
#define CALBRIDGE_CSQLITE_H

// SQLite's types and constants from its header; its functions from libsqlite3.so.0, opened by
// `cb_sqlite_open` when a command first needs the sync state. Linked at start-up, the library and
// its 1,596 symbol bindings cost every command about 3.7% of a no-change copy's CPU
// (`calbridge-bench copy --client-process --compare-with`, 2 × 80 pairs, 2026-12-03), though only
// `sync` uses it.
#include <sqlite3.h>
#include <stddef.h>

/// The SQLite functions calbridge calls, each typed as `sqlite3.h` declares it.
struct cb_sqlite_functions {
    __typeof__(sqlite3_open_v2) *_Nonnull open_v2;
    __typeof__(sqlite3_close_v2) *_Nonnull close_v2;
    __typeof__(sqlite3_errmsg) *_Nonnull errmsg;
    __typeof__(sqlite3_extended_result_codes) *_Nonnull extended_result_codes;
    __typeof__(sqlite3_busy_timeout) *_Nonnull busy_timeout;
    __typeof__(sqlite3_exec) *_Nonnull exec;
    __typeof__(sqlite3_free) *_Nonnull free;
    __typeof__(sqlite3_prepare_v2) *_Nonnull prepare_v2;
    __typeof__(sqlite3_changes) *_Nonnull changes;
    __typeof__(sqlite3_last_insert_rowid) *_Nonnull last_insert_rowid;
    __typeof__(sqlite3_finalize) *_Nonnull finalize;
    __typeof__(sqlite3_bind_parameter_count) *_Nonnull bind_parameter_count;
    __typeof__(sqlite3_bind_null) *_Nonnull bind_null;
    __typeof__(sqlite3_bind_int64) *_Nonnull bind_int64;
    __typeof__(sqlite3_bind_double) *_Nonnull bind_double;
    __typeof__(sqlite3_bind_text) *_Nonnull bind_text;
    __typeof__(sqlite3_step) *_Nonnull step;
    __typeof__(sqlite3_column_count) *_Nonnull column_count;
    __typeof__(sqlite3_column_type) *_Nonnull column_type;
    __typeof__(sqlite3_column_int64) *_Nonnull column_int64;
    __typeof__(sqlite3_column_double) *_Nonnull column_double;
    __typeof__(sqlite3_column_text) *_Nonnull column_text;
};

/// Opens the shared library `soname` and resolves the functions from it: the library and the table
/// stay for the process's life. NULL, with a one-line reason in `error` (at most `size` bytes,
/// NUL-terminated), when the library cannot be opened or lacks one of the functions.
const struct cb_sqlite_functions *_Nullable cb_sqlite_open(const char *_Nonnull soname, char *_Nullable error,
                                                            size_t size);

#endif
