#include "CSQLite.h"

#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>

/// Writes `what` and `detail` into `error` (when there is room for it) and returns NULL.
static const struct cb_sqlite_functions *cb_sqlite_failed(char *error, size_t size, const char *what, const char *detail) {
    if (error != NULL && size > 0) snprintf(error, size, "%s%s", what, detail);
    return NULL;
}

const struct cb_sqlite_functions *cb_sqlite_open(const char *soname, char *error, size_t size) {
    // RTLD_LOCAL: SQLite's symbols stay out of the global scope other libraries bind against.
    void *library = dlopen(soname, RTLD_NOW | RTLD_LOCAL);
    if (library == NULL) {
        const char *reason = dlerror();
        return cb_sqlite_failed(error, size, reason != NULL ? reason : soname, "");
    }
    struct cb_sqlite_functions *functions = malloc(sizeof *functions);
    if (functions == NULL) {
        dlclose(library);
        return cb_sqlite_failed(error, size, "out of memory", "");
    }
#define CB_RESOLVE(name)                                                                  \
    do {                                                                                  \
        void *address = dlsym(library, "sqlite3_" #name);                                 \
        if (address == NULL) {                                                            \
            free(functions);                                                              \
            dlclose(library);                                                             \
            return cb_sqlite_failed(error, size, soname, " has no function sqlite3_" #name); \
        }                                                                                 \
        functions->name = (__typeof__(functions->name))address;                           \
    } while (0)
    CB_RESOLVE(open_v2);
    CB_RESOLVE(close_v2);
    CB_RESOLVE(errmsg);
    CB_RESOLVE(extended_result_codes);
    CB_RESOLVE(busy_timeout);
    CB_RESOLVE(exec);
    CB_RESOLVE(free);
    CB_RESOLVE(prepare_v2);
    CB_RESOLVE(changes);
    CB_RESOLVE(last_insert_rowid);
    CB_RESOLVE(finalize);
    CB_RESOLVE(bind_parameter_count);
    CB_RESOLVE(bind_null);
    CB_RESOLVE(bind_int64);
    CB_RESOLVE(bind_double);
    CB_RESOLVE(bind_text);
    CB_RESOLVE(step);
    CB_RESOLVE(column_count);
    CB_RESOLVE(column_type);
    CB_RESOLVE(column_int64);
    CB_RESOLVE(column_double);
    CB_RESOLVE(column_text);
#undef CB_RESOLVE
    return functions;
}
