// CMicroHTTPDShim: prefixed, non-variadic wrappers around libmicrohttpd for Swift.
//
// Swift cannot call C variadic functions (MHD_start_daemon, MHD_get_daemon_info,
// MHD_get_connection_info), so each gets a fixed-signature wrapper
// here. Every symbol carries the `cmhd_` prefix. Nothing here allocates on the heap.
#ifndef CMICROHTTPD_SHIM_INTERFACE_H
#define CMICROHTTPD_SHIM_INTERFACE_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>
#include <sys/socket.h>
#include <microhttpd.h>

#ifdef __cplusplus
extern "C" {
#endif

/// Optional daemon settings that are pointers or callbacks (all may be NULL).
/// The strings must stay valid until the daemon is stopped.
struct cmhd_daemon_extras {
    /// `MHD_OPTION_NOTIFY_CONNECTION`: called when a connection opens and when it closes
    /// (always before its socket is closed).
    MHD_NotifyConnectionCallback notify_connection;
    void *notify_connection_cls;
    /// `MHD_OPTION_URI_LOG_CALLBACK`: called once per request when its request line has
    /// arrived, before the headers. Its return value becomes the request's `*req_cls`.
    void *(*uri_log)(void *cls, const char *uri, struct MHD_Connection *connection);
    void *uri_log_cls;
    /// PEM text of the certificate chain and private key (`MHD_OPTION_HTTPS_MEM_CERT`/`_KEY`);
    /// add `MHD_USE_TLS` to the flags when set.
    const char *tls_certificate_pem;
    const char *tls_key_pem;
    /// GnuTLS priority string (`MHD_OPTION_HTTPS_PRIORITIES`), e.g. "NORMAL:-VERS-ALL:+VERS-TLS1.3:+VERS-TLS1.2".
    const char *tls_priorities;
    /// `MHD_start_daemon`'s accept policy (`apc`, `apc_cls`): called for each new connection
    /// before anything is read from it; `MHD_NO` closes it at once.
    MHD_AcceptPolicyCallback accept_policy;
    void *accept_policy_cls;
};

/// Starts a daemon: `MHD_start_daemon(flags, port, <extras' accept policy or NULL, NULL>, handler, handler_cls,
/// MHD_OPTION_EXTERNAL_LOGGER, <shim logger>, MHD_OPTION_ARRAY, <the optional settings that
/// are set: bind_addr, completed, the unescape callback, extras>, MHD_OPTION_ARRAY, options,
/// MHD_OPTION_END)`.
///
/// - `bind_addr`: may be NULL (then MHD binds all interfaces on `port`).
/// - `options`: array of integer options terminated by an item with `MHD_OPTION_END`; may be NULL.
/// - `mark_malformed_escapes`: non-zero installs ``cmhd_unescape_marking_malformed`` as the
///   unescape callback, so a malformed escape or `%00` shows in the decoded text as invalid UTF-8
///   instead of passing as a literal `%` (or, for `%00`, silently cutting the text short).
/// - `error_buf`: if non-NULL, receives the messages MHD logs while starting (for example
///   "Failed to bind to port 8080: Address already in use"), NUL-terminated and truncated to
///   `error_buf_size`. Messages logged later, from the daemon's own threads, are dropped unless
///   `log_runtime_errors` is non-zero, in which case they go to stderr.
///   Add `MHD_USE_ERROR_LOG` to `flags` for MHD to log at all.
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
                                     const struct cmhd_daemon_extras *extras);

/// An `MHD_UnescapeCallback` (used for the path and the query): decodes `%XX` in place like MHD's
/// default, except that a `%` not followed by two hex digits, and `%00` (a decoded NUL would end
/// the C string early, so `/a%00/../b` would reach the handler as `/a`), becomes the byte 0xFF,
/// which valid UTF-8 never holds: `%ZZ` gives `\xFFZZ`. Returns the new length.
size_t cmhd_unescape_marking_malformed(void *cls, struct MHD_Connection *connection, char *s);

/// Writes `answer` (a whole HTTP/1.1 response, a few hundred bytes) straight to the
/// connection's socket and ends its sending side (`shutdown(SHUT_WR)`), for a request
/// libmicrohttpd 0.9.75 could not answer itself: a request line so long that its pool has no
/// room left for the header fields or an answer (it closed such connections unanswered, or
/// held them until the connection timeout). Plain HTTP only. Returns 1 when written.
/// When `date_offset` is below `length`, the 29 bytes there are replaced by the current time as
/// an IMF-fixdate (`Sun, 06 Nov 1994 08:49:37 GMT`): an origin server with a clock sends `Date`
/// in every 4xx answer (RFC 9110 §6.6.1). Answers longer than 4096 bytes are sent as they are.
int cmhd_answer_and_end(struct MHD_Connection *connection, const char *answer, size_t length, size_t date_offset);

/// For the `MHD_OPTION_URI_LOG_CALLBACK`, which sees the request target before libmicrohttpd
/// splits its query: when the query has more than `max_arguments` non-empty `&`-separated parts, cuts it
/// off in place (a NUL right after the `?`, where libmicrohttpd starts reading arguments) and
/// returns the number of parts; otherwise returns 0 and changes nothing. libmicrohttpd 0.9.75
/// keeps one 56-byte record per argument in the connection's pool, and a query of about 460
/// arguments filled the 32 KiB pool so that its own 431 could not be sent: the request then hung
/// until the request timeout.
/// Also refuses more than `max_parts` `&`-separated parts counting empty ones (each costs a pool
/// record too: `?` followed by 504 `&` filled the pool and hung); then `*by_parts` is set to 1 and
/// the number of parts is returned. A `uri` longer than `max_length` bytes (found in the same
/// scan) returns `CMHD_TARGET_TOO_LONG` and changes nothing.
#define CMHD_TARGET_TOO_LONG ((unsigned long)-1)
unsigned long cmhd_cap_query_arguments(const char *uri, unsigned long max_arguments, unsigned long max_parts,
                                       size_t max_length, int *by_parts);

/// The port the daemon's listen socket is bound to (useful after binding port 0);
/// 0 when unknown (for example after `MHD_quiesce_daemon`).
uint16_t cmhd_daemon_bound_port(struct MHD_Daemon *daemon);

/// Writes the client's numeric address ("203.0.113.7", "2001:db8::1") into `buf`.
/// IPv4-mapped IPv6 addresses (dual-stack sockets) are written in IPv4 form.
/// Returns the length written (without the NUL), or -1 when unavailable.
int cmhd_connection_client_address(struct MHD_Connection *connection, char *buf, size_t buf_size);

/// Parses a numeric IPv4 or IPv6 literal (no brackets, no scope) into `out` with `port`.
/// Returns AF_INET or AF_INET6, or 0 when `host` is not a valid literal.
/// `*out_len` receives the length of the filled sockaddr.
int cmhd_make_sockaddr(const char *host, uint16_t port, struct sockaddr_storage *out, socklen_t *out_len);

/// The connection's socket context (set in the `MHD_OPTION_NOTIFY_CONNECTION` callback), or NULL.
void *cmhd_connection_socket_context(struct MHD_Connection *connection);

/// The connection's socket descriptor, or -1.
int cmhd_connection_fd(struct MHD_Connection *connection);

/// 1 when this libmicrohttpd was built with TLS (GnuTLS) support, else 0.
int cmhd_tls_supported(void);

/// 1 when `addr` is the IPv6 unspecified address `::` (bind with MHD_USE_DUAL_STACK), else 0.
int cmhd_sockaddr_is_ipv6_any(const struct sockaddr_storage *addr);


/// Gives the memory glibc's allocator holds free back to the system (`malloc_trim(0)`), after a
/// heavy request: a no-op elsewhere. Returns 1 when memory was released.
int cmhd_release_free_memory(void);

/// Whether the peer of the socket `fd` has shut down its sending side, reset the connection, or
/// it failed (`poll` with `POLLRDHUP`, which sees a FIN even behind unread bytes, unlike a peek;
/// Linux ≥ 2.6.17). Does not block or read. Returns 1 when so, 0 otherwise.
int cmhd_socket_peer_closed(int fd);

#ifdef __cplusplus
}
#endif

#endif
