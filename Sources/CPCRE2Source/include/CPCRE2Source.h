#ifndef DCE_CPCRE2SOURCE_H
#define DCE_CPCRE2SOURCE_H
// PCRE2 built from its release source, which scripts/fetch-pcre2 unpacks into Vendor/pcre2 (ignored by git).
// pcre2.h refuses to compile without a code unit width; the engine only matches UTF-8.
#define PCRE2_CODE_UNIT_WIDTH 8
#if __has_include("../../../Vendor/pcre2/src/pcre2.h")
#include "../../../Vendor/pcre2/src/pcre2.h"
#else
#error "PCRE2's source is not there: run scripts/fetch-pcre2 in the dce-validate checkout, then build again"
#endif
#endif
