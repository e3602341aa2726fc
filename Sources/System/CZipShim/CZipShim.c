// CZipShim: in-memory zip archives with libzip (see include/CZipShim.h).
#include "CZipShim.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zip.h>

static void czip_set_error(char *error, size_t error_size, const char *what, const char *detail) {
    if (error == NULL || error_size == 0) return;
    snprintf(error, error_size, "%s%s%s", what, detail ? ": " : "", detail ? detail : "");
}

int czip_build(const char *const *names, const unsigned char *const *data, const size_t *sizes, size_t count,
               int64_t mtime, int store, unsigned char **out, size_t *out_size, char *error, size_t error_size) {
    *out = NULL;
    *out_size = 0;
    zip_error_t zerr;
    zip_error_init(&zerr);
    zip_source_t *archive_source = zip_source_buffer_create(NULL, 0, 0, &zerr);
    if (archive_source == NULL) {
        czip_set_error(error, error_size, "cannot create the archive buffer", zip_error_strerror(&zerr));
        zip_error_fini(&zerr);
        return -1;
    }
    zip_t *za = zip_open_from_source(archive_source, ZIP_TRUNCATE, &zerr);
    if (za == NULL) {
        czip_set_error(error, error_size, "cannot open the archive buffer", zip_error_strerror(&zerr));
        zip_source_free(archive_source);
        zip_error_fini(&zerr);
        return -1;
    }
    zip_error_fini(&zerr);
    // Keep the buffer source alive after zip_close, which writes the archive into it.
    zip_source_keep(archive_source);

    for (size_t i = 0; i < count; i++) {
        const char *name = names[i];
        size_t length = strlen(name);
        zip_int64_t index;
        if (length > 0 && name[length - 1] == '/') {
            index = zip_dir_add(za, name, ZIP_FL_ENC_UTF_8);
        } else {
            // freep = 0: the caller's bytes stay valid until zip_close below.
            zip_source_t *file_source = zip_source_buffer(za, data[i], sizes[i], 0);
            if (file_source == NULL) {
                czip_set_error(error, error_size, "cannot add an entry", zip_strerror(za));
                zip_discard(za);
                zip_source_free(archive_source);
                return -1;
            }
            index = zip_file_add(za, name, file_source, ZIP_FL_ENC_UTF_8);
            if (index < 0) zip_source_free(file_source);
            else if (zip_set_file_compression(za, (zip_uint64_t)index, store ? ZIP_CM_STORE : ZIP_CM_DEFLATE, store ? 0 : 9) < 0)
                index = -1;
        }
        // Unix modes 0644 and 0755 (libzip's default left entries 0666 and 0777, writable by
        // everyone once unpacked: a new user's pass).
        zip_uint32_t mode = (length > 0 && name[length - 1] == '/') ? (0040000u | 0755u) : (0100000u | 0644u);
        if (index >= 0 && zip_file_set_external_attributes(za, (zip_uint64_t)index, 0, ZIP_OPSYS_UNIX, mode << 16) < 0)
            index = -1;
        if (index < 0 || zip_file_set_mtime(za, (zip_uint64_t)index, (time_t)mtime, 0) < 0) {
            czip_set_error(error, error_size, name, zip_strerror(za));
            zip_discard(za);
            zip_source_free(archive_source);
            return -1;
        }
    }
    if (zip_close(za) < 0) {
        czip_set_error(error, error_size, "cannot write the archive", zip_strerror(za));
        zip_discard(za);
        zip_source_free(archive_source);
        return -1;
    }

    // Read the finished archive back out of the buffer source.
    int status = -1;
    if (zip_source_open(archive_source) < 0) {
        czip_set_error(error, error_size, "cannot reopen the archive buffer", zip_error_strerror(zip_source_error(archive_source)));
        zip_source_free(archive_source);
        return -1;
    }
    if (zip_source_seek(archive_source, 0, SEEK_END) == 0) {
        zip_int64_t size = zip_source_tell(archive_source);
        if (size >= 0 && zip_source_seek(archive_source, 0, SEEK_SET) == 0) {
            unsigned char *buffer = malloc(size > 0 ? (size_t)size : 1);
            if (buffer != NULL) {
                zip_int64_t got = size > 0 ? zip_source_read(archive_source, buffer, (zip_uint64_t)size) : 0;
                if (got == size) {
                    *out = buffer;
                    *out_size = (size_t)size;
                    status = 0;
                } else {
                    free(buffer);
                }
            }
        }
    }
    if (status != 0) czip_set_error(error, error_size, "cannot read the archive buffer", zip_error_strerror(zip_source_error(archive_source)));
    zip_source_close(archive_source);
    zip_source_free(archive_source);
    return status;
}

int czip_read(const unsigned char *archive, size_t size, void *context,
              int (*visit)(void *context, const char *name, const unsigned char *data, size_t size),
              char *error, size_t error_size) {
    zip_error_t zerr;
    zip_error_init(&zerr);
    zip_source_t *source = zip_source_buffer_create(archive, size, 0, &zerr);
    if (source == NULL) {
        czip_set_error(error, error_size, "cannot read the archive", zip_error_strerror(&zerr));
        zip_error_fini(&zerr);
        return -1;
    }
    zip_t *za = zip_open_from_source(source, ZIP_RDONLY | ZIP_CHECKCONS, &zerr);
    if (za == NULL) {
        czip_set_error(error, error_size, "not a valid zip archive", zip_error_strerror(&zerr));
        zip_source_free(source);
        zip_error_fini(&zerr);
        return -1;
    }
    zip_error_fini(&zerr);
    int status = 0;
    zip_int64_t count = zip_get_num_entries(za, 0);
    for (zip_int64_t i = 0; i < count && status == 0; i++) {
        zip_stat_t st;
        zip_stat_init(&st);
        if (zip_stat_index(za, (zip_uint64_t)i, 0, &st) < 0 || !(st.valid & ZIP_STAT_NAME) || !(st.valid & ZIP_STAT_SIZE)) {
            czip_set_error(error, error_size, "cannot read an entry", zip_strerror(za));
            status = -1;
            break;
        }
        unsigned char *buffer = malloc(st.size > 0 ? (size_t)st.size : 1);
        if (buffer == NULL) {
            czip_set_error(error, error_size, "out of memory", NULL);
            status = -1;
            break;
        }
        if (st.size > 0) {
            zip_file_t *f = zip_fopen_index(za, (zip_uint64_t)i, 0);
            zip_int64_t got = f ? zip_fread(f, buffer, st.size) : -1;
            if (f) zip_fclose(f);
            if (got < 0 || (zip_uint64_t)got != st.size) {
                czip_set_error(error, error_size, st.name, zip_strerror(za));
                free(buffer);
                status = -1;
                break;
            }
        }
        if (visit(context, st.name, buffer, (size_t)st.size) != 0) status = 1;
        free(buffer);
    }
    zip_discard(za);  // read-only: nothing to write; also frees the source
    return status < 0 ? -1 : 0;
}

void czip_free(void *buffer) { free(buffer); }
