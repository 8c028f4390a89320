#ifndef DCE_CPCRE2_SHIM_H
#define DCE_CPCRE2_SHIM_H
// pcre2.h refuses to compile without a code unit width; the engine only matches UTF-8.
#define PCRE2_CODE_UNIT_WIDTH 8
#include <pcre2.h>
#endif
