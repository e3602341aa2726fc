// libvips 8.14 from Debian (libvips-dev; runtime package libvips42). Swift code does not call
// libvips directly: it goes through the prefixed, non-variadic wrappers of CVipsShim.
#ifndef CVIPS_SHIM_H
#define CVIPS_SHIM_H
#include <vips/vips.h>
#endif
