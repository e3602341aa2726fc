// See include/CMicroHTTPDShim.h.
#ifndef _GNU_SOURCE
#define _GNU_SOURCE  // POLLRDHUP
#endif
#include "CMicroHTTPDShim.h"

#include <poll.h>
#include <sys/socket.h>

#include <arpa/inet.h>
#include <netinet/in.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

// Start-up error capture. MHD logs start-up failures (bind errors and the like) synchronously on
// the thread calling MHD_start_daemon, so a thread-local destination captures exactly that call's
// messages; the daemon's own threads see NULL here.
static _Thread_local char *cmhd_capture_buf = NULL;
static _Thread_local size_t cmhd_capture_size = 0;

static void cmhd_logger(void *cls, const char *fmt, va_list ap) {
    if (cmhd_capture_buf != NULL && cmhd_capture_size > 0) {
        size_t used = strlen(cmhd_capture_buf);
        if (used + 1 >= cmhd_capture_size) {
            return;
        }
        if (used > 0 && used + 3 < cmhd_capture_size) {
            memcpy(cmhd_capture_buf + used, "; ", 3);
            used += 2;
        }
        vsnprintf(cmhd_capture_buf + used, cmhd_capture_size - used, fmt, ap);
        // MHD messages end in '\n': drop it so the text composes into one line.
        size_t end = strlen(cmhd_capture_buf);
        while (end > 0 && (cmhd_capture_buf[end - 1] == '\n' || cmhd_capture_buf[end - 1] == '\r')) {
            cmhd_capture_buf[--end] = '\0';
        }
        return;
    }
    if (cls != NULL) {
        vfprintf(stderr, fmt, ap);
    }
}

struct MHD_Daemon *cmhd_start_daemon(unsigned int flags,
                                     uint16_t port,
                                     const struct sockaddr *bind_addr,
                                     MHD_AccessHandlerCallback handler,
                                     void *handler_cls,
                                     MHD_RequestCompletedCallback completed,
                                     void *completed_cls,
                                     const struct MHD_OptionItem *options,
                                     int mark_malformed_escapes,
                                     int log_runtime_errors,
                                     char *error_buf,
                                     size_t error_buf_size,
                                     const struct cmhd_daemon_extras *extras) {
    static const struct MHD_OptionItem no_options[] = { { MHD_OPTION_END, 0, NULL } };
    const struct MHD_OptionItem *opts = options != NULL ? options : no_options;

    if (error_buf != NULL && error_buf_size > 0) {
        error_buf[0] = '\0';
    }
    cmhd_capture_buf = error_buf;
    cmhd_capture_size = error_buf != NULL ? error_buf_size : 0;

    void *logger_cls = log_runtime_errors ? (void *)1 : NULL;
    // Optional options go into one array, and only when set: MHD treats a NULL pointer as a
    // value for some options, so a NULL never reaches it. Pointer-valued items carry the
    // pointer in `ptr_value`; callback items carry the function in `value` and its closure
    // in `ptr_value` (MHD's MHD_OPTION_ARRAY convention).
    struct MHD_OptionItem extra[12];
    size_t count = 0;
    if (bind_addr != NULL) {
        extra[count++] = (struct MHD_OptionItem){ MHD_OPTION_SOCK_ADDR, 0, (void *)bind_addr };
    }
    if (completed != NULL) {
        extra[count++] = (struct MHD_OptionItem){ MHD_OPTION_NOTIFY_COMPLETED, (intptr_t)completed, completed_cls };
    }
    if (mark_malformed_escapes) {
        extra[count++] = (struct MHD_OptionItem){ MHD_OPTION_UNESCAPE_CALLBACK, (intptr_t)cmhd_unescape_marking_malformed, NULL };
    }
    if (extras != NULL) {
        if (extras->notify_connection != NULL) {
            extra[count++] = (struct MHD_OptionItem){ MHD_OPTION_NOTIFY_CONNECTION,
                                                      (intptr_t)extras->notify_connection,
                                                      extras->notify_connection_cls };
        }
        if (extras->uri_log != NULL) {
            extra[count++] = (struct MHD_OptionItem){ MHD_OPTION_URI_LOG_CALLBACK,
                                                      (intptr_t)extras->uri_log, extras->uri_log_cls };
        }
        if (extras->tls_certificate_pem != NULL) {
            extra[count++] = (struct MHD_OptionItem){ MHD_OPTION_HTTPS_MEM_CERT, 0, (void *)extras->tls_certificate_pem };
        }
        if (extras->tls_key_pem != NULL) {
            extra[count++] = (struct MHD_OptionItem){ MHD_OPTION_HTTPS_MEM_KEY, 0, (void *)extras->tls_key_pem };
        }
        if (extras->tls_priorities != NULL) {
            extra[count++] = (struct MHD_OptionItem){ MHD_OPTION_HTTPS_PRIORITIES, 0, (void *)extras->tls_priorities };
        }
    }
    extra[count] = (struct MHD_OptionItem){ MHD_OPTION_END, 0, NULL };

    MHD_AcceptPolicyCallback apc = extras != NULL ? extras->accept_policy : NULL;
    void *apc_cls = extras != NULL ? extras->accept_policy_cls : NULL;
    struct MHD_Daemon *daemon = MHD_start_daemon(flags, port, apc, apc_cls, handler, handler_cls,
                                                 MHD_OPTION_EXTERNAL_LOGGER, cmhd_logger, logger_cls,
                                                 MHD_OPTION_ARRAY, extra,
                                                 MHD_OPTION_ARRAY, opts,
                                                 MHD_OPTION_END);

    cmhd_capture_buf = NULL;
    cmhd_capture_size = 0;
    return daemon;
}

static int cmhd_hex_value(char c) {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
}

unsigned long cmhd_cap_query_arguments(const char *uri, unsigned long max_arguments, unsigned long max_parts,
                                       size_t max_length, int *by_parts) {
    *by_parts = 0;
    if (uri == NULL) {
        return 0;
    }
    // The uri is libmicrohttpd's own read buffer (a `char *` passed as const): the same
    // memchr(uri, '?') it uses to find the arguments finds this `?`. One scan gives the length
    // too (no strlen beside it: every request pays this).
    char *query = strchrnul(uri, '?');
    if (*query == '\0') {
        return (size_t)(query - uri) > max_length ? CMHD_TARGET_TOO_LONG : 0;
    }
    // Arguments are the non-empty `&`-separated parts (`a=1&&b=2&` has two; the server skips
    // empty ones). Every part, empty or not, costs libmicrohttpd a record in the connection's
    // memory pool: `?` and 504 `&` filled the pool and the request hung (hostile test), so the
    // parts are capped too.
    unsigned long arguments = 0, parts = 1;
    int in_part = 0;
    const char *p = query + 1;
    for (; *p != '\0'; p++) {
        if (*p == '&') {
            in_part = 0;
            parts++;
        } else if (!in_part) {
            in_part = 1;
            arguments++;
        }
    }
    if ((size_t)(p - uri) > max_length) {
        return CMHD_TARGET_TOO_LONG;
    }
    if (arguments > max_arguments) {
        query[1] = '\0';
        return arguments;
    }
    if (parts > max_parts) {
        query[1] = '\0';
        *by_parts = 1;
        return parts;
    }
    return 0;
}

size_t cmhd_unescape_marking_malformed(void *cls, struct MHD_Connection *connection, char *s) {
    (void)cls;
    (void)connection;
    char *read = s;
    char *write = s;
    while (*read != '\0') {
        if (read[0] == '%') {
            int high = cmhd_hex_value(read[1]);
            int low = high >= 0 ? cmhd_hex_value(read[2]) : -1;
            if (high >= 0 && low >= 0 && (high | low) != 0) {
                *write++ = (char)((high << 4) | low);
                read += 3;
                continue;
            }
            // Not '%' and two hex digits, or %00: the '%' becomes 0xFF, a byte UTF-8 never
            // holds, so the text is invalid UTF-8 and the caller can tell.
            *write++ = (char)0xFF;
            read += 1;
            continue;
        }
        *write++ = *read++;
    }
    *write = '\0';
    return (size_t)(write - s);
}

uint16_t cmhd_daemon_bound_port(struct MHD_Daemon *daemon) {
    if (daemon == NULL) {
        return 0;
    }
    const union MHD_DaemonInfo *info = MHD_get_daemon_info(daemon, MHD_DAEMON_INFO_BIND_PORT);
    return info != NULL ? info->port : 0;
}

int cmhd_connection_client_address(struct MHD_Connection *connection, char *buf, size_t buf_size) {
    if (connection == NULL || buf == NULL || buf_size == 0) {
        return -1;
    }
    const union MHD_ConnectionInfo *info =
        MHD_get_connection_info(connection, MHD_CONNECTION_INFO_CLIENT_ADDRESS);
    if (info == NULL || info->client_addr == NULL) {
        return -1;
    }
    const struct sockaddr *sa = info->client_addr;
    const char *written = NULL;
    if (sa->sa_family == AF_INET) {
        const struct sockaddr_in *in4 = (const struct sockaddr_in *)sa;
        written = inet_ntop(AF_INET, &in4->sin_addr, buf, (socklen_t)buf_size);
    } else if (sa->sa_family == AF_INET6) {
        const struct sockaddr_in6 *in6 = (const struct sockaddr_in6 *)sa;
        if (IN6_IS_ADDR_V4MAPPED(&in6->sin6_addr)) {
            written = inet_ntop(AF_INET, &in6->sin6_addr.s6_addr[12], buf, (socklen_t)buf_size);
        } else {
            written = inet_ntop(AF_INET6, &in6->sin6_addr, buf, (socklen_t)buf_size);
        }
    }
    return written != NULL ? (int)strlen(buf) : -1;
}

int cmhd_make_sockaddr(const char *host, uint16_t port, struct sockaddr_storage *out, socklen_t *out_len) {
    if (host == NULL || out == NULL) {
        return 0;
    }
    memset(out, 0, sizeof(*out));
    struct sockaddr_in *in4 = (struct sockaddr_in *)out;
    if (inet_pton(AF_INET, host, &in4->sin_addr) == 1) {
        in4->sin_family = AF_INET;
        in4->sin_port = htons(port);
        if (out_len != NULL) {
            *out_len = (socklen_t)sizeof(struct sockaddr_in);
        }
        return AF_INET;
    }
    memset(out, 0, sizeof(*out));
    struct sockaddr_in6 *in6 = (struct sockaddr_in6 *)out;
    if (inet_pton(AF_INET6, host, &in6->sin6_addr) == 1) {
        in6->sin6_family = AF_INET6;
        in6->sin6_port = htons(port);
        if (out_len != NULL) {
            *out_len = (socklen_t)sizeof(struct sockaddr_in6);
        }
        return AF_INET6;
    }
    memset(out, 0, sizeof(*out));
    return 0;
}

int cmhd_sockaddr_is_ipv6_any(const struct sockaddr_storage *addr) {
    if (addr == NULL || addr->ss_family != AF_INET6) {
        return 0;
    }
    const struct sockaddr_in6 *in6 = (const struct sockaddr_in6 *)addr;
    return IN6_IS_ADDR_UNSPECIFIED(&in6->sin6_addr) ? 1 : 0;
}

void *cmhd_connection_socket_context(struct MHD_Connection *connection) {
    if (connection == NULL) {
        return NULL;
    }
    const union MHD_ConnectionInfo *info =
        MHD_get_connection_info(connection, MHD_CONNECTION_INFO_SOCKET_CONTEXT);
    return info != NULL ? info->socket_context : NULL;
}

int cmhd_connection_fd(struct MHD_Connection *connection) {
    if (connection == NULL) {
        return -1;
    }
    const union MHD_ConnectionInfo *info =
        MHD_get_connection_info(connection, MHD_CONNECTION_INFO_CONNECTION_FD);
    return info != NULL ? (int)info->connect_fd : -1;
}

int cmhd_answer_and_end(struct MHD_Connection *connection, const char *answer, size_t length, size_t date_offset) {
    int fd = cmhd_connection_fd(connection);
    if (fd < 0) {
        return 0;
    }
    char dated[4096];
    if (date_offset + 29 <= length && length <= sizeof dated) {
        memcpy(dated, answer, length);
        time_t now = time(NULL);
        struct tm utc;
        char stamp[32];
        // The C locale's day and month names, which IMF-fixdate uses.
        if (gmtime_r(&now, &utc) != NULL && strftime(stamp, sizeof stamp, "%a, %d %b %Y %H:%M:%S GMT", &utc) == 29) {
            memcpy(dated + date_offset, stamp, 29);
            answer = dated;
        }
    }
    size_t sent = 0;
    while (sent < length) {
        ssize_t n = send(fd, answer + sent, length - sent, MSG_NOSIGNAL | MSG_DONTWAIT);
        if (n <= 0) {
            break;
        }
        sent += (size_t)n;
    }
    shutdown(fd, SHUT_WR);
    return 1;
}

int cmhd_tls_supported(void) {
    return MHD_is_feature_supported(MHD_FEATURE_TLS) == MHD_YES ? 1 : 0;
}

#if defined(__GLIBC__)
#include <malloc.h>
#endif

int cmhd_release_free_memory(void) {
#if defined(__GLIBC__)
    return malloc_trim(0);
#else
    return 0;
#endif
}

int cmhd_socket_peer_closed(int fd) {
    if (fd < 0) {
        return 0;
    }
    struct pollfd p = { .fd = fd, .events = POLLIN | POLLRDHUP, .revents = 0 };
    if (poll(&p, 1, 0) != 1) {
        return 0;
    }
    return (p.revents & (POLLRDHUP | POLLHUP | POLLERR)) != 0 ? 1 : 0;
}
