#ifndef CALBRIDGE_CLIBXML2_SHIM_H
#define CALBRIDGE_CLIBXML2_SHIM_H
// Debian's libxml2 is built with ICU; its ICU types clash with Foundation's.
#include <libxml/xmlversion.h>
#undef LIBXML_ICU_ENABLED
#include <libxml/parser.h>
#include <libxml/parserInternals.h>
#include <libxml/tree.h>
#include <libxml/xmlerror.h>

// xmlFree is a C global (a function pointer); Swift 6 rejects touching it from nonisolated code.
static inline void cb_xml_free(void *p) { xmlFree(p); }
#endif
