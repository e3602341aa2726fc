// CZipShim: build a zip archive in memory and read one back, with libzip (prefix `czip_`).
//
// libzip's in-memory archives take a dozen calls with their own error objects and ownership
// rules (zip_source_keep, zip_source_buffer's freep flag, reopening the source after
// zip_close); these two functions hide them behind plain buffers. libzip types stay opaque.
//
// Conventions: functions return 0 on success and -1 on failure, with a message (NUL-terminated,
// truncated to `error_size`) in `error`. Buffers returned through `unsigned char **` are
// malloc'ed and released with `czip_free`.
#ifndef CZIP_SHIM_INTERFACE_H
#define CZIP_SHIM_INTERFACE_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/// Builds a zip archive of `count` entries into a new buffer.
///
/// Entry `i` is `names[i]` (UTF-8, `/`-separated, no leading `/`). A name ending in `/` is a
/// directory entry (its data is ignored); any other is a file with `sizes[i]` bytes at `data[i]`,
/// stored deflated (level 9) unless `store` is non-zero. Every entry gets the modification time
/// `mtime` (seconds since 1970; zip keeps 2-second local-time resolution), so equal inputs give
/// equal archives on one machine. Entries keep the given order.
/// On success `*out` holds the archive (`*out_size` bytes), to be freed with `czip_free`.
int czip_build(const char *const *names, const unsigned char *const *data, const size_t *sizes, size_t count,
               int64_t mtime, int store, unsigned char **out, size_t *out_size, char *error, size_t error_size);

/// Reads a zip archive from memory: calls `visit(context, name, data, size)` for each entry in
/// archive order (directories with `size` 0 and their name ending in `/`). The archive is
/// checked for consistency first (ZIP_CHECKCONS). `visit` returns 0 to continue, non-zero to stop.
int czip_read(const unsigned char *archive, size_t size, void *context,
              int (*visit)(void *context, const char *name, const unsigned char *data, size_t size),
              char *error, size_t error_size);

/// Frees a buffer returned by `czip_build`.
void czip_free(void *buffer);

#ifdef __cplusplus
}
#endif

#endif
