// libzip 1.7 from Debian (libzip-dev; runtime package libzip4), BSD-3-Clause. Swift code does not
// call libzip directly: it goes through the prefixed wrappers of CZipShim.
#ifndef CZIP_SHIM_H
#define CZIP_SHIM_H
#include <zip.h>
#endif
