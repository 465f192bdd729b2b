// CJSONScan is its header's inline functions (include/CJSONScan.h); SwiftPM builds a C target
// from at least one source file, and this is it.
#include "CJSONScan.h"
