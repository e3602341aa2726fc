/// Settings for ``HTTPServer``. Defaults suit a 2-core machine behind a proxy.
public struct ServerConfiguration: Sendable {
    /// Address to bind: an IPv4 or IPv6 literal (`"127.0.0.1"`, `"::1"`, `"[::1]"`), `"0.0.0.0"`
    /// (all IPv4), `"::"` (all IPv6 and IPv4, dual stack) or `"localhost"` (127.0.0.1).
    public var host: String = "127.0.0.1"
    /// TCP port; 0 binds any free port (read it back from ``HTTPServer/port``).
    public var port: Int = 8080
    /// Worker threads, each with its own epoll loop (`MHD_OPTION_THREAD_POOL_SIZE`).
    public var threads: Int = 2
    /// Largest request body accepted; larger ones get 413 problem details. A declared
    /// `Content-Length` over the limit is refused before any body is read; a chunked body is
    /// read and dropped past the limit, then refused (the connection is cut instead once
    /// more than max(8 × limit, 8 MiB) has been dropped).
    public var maxBodyBytes: Int = 1_048_576
    /// Body caps for particular paths (exact, as routed) that replace `maxBodyBytes` there, e.g.
    /// a larger one for image uploads. Applied the same way: from `Content-Length`, then while reading.
    public var maxBodyBytesByPath: [String: Int] = [:]
    /// Most simultaneous connections (`MHD_OPTION_CONNECTION_LIMIT`).
    public var connectionLimit: Int = 1024
    /// Most simultaneous connections from one IP address; 0 = unlimited.
    public var perIPConnectionLimit: Int = 0
    /// Idle seconds before a connection is closed (guards against slowloris); 0 = never.
    public var connectionTimeoutSeconds: Int = 30
    /// Memory per connection for the request line, headers and read buffer
    /// (`MHD_OPTION_CONNECTION_MEMORY_LIMIT`). Requests whose headers do not fit get 431.
    /// MHD zeroes this pool between requests, so a larger value costs time on every request
    /// (64 KiB spent ~10% of CPU in memset in a keep-alive benchmark); 32 KiB is MHD's default.
    public var connectionMemoryLimitBytes: Int = 32 * 1024
    /// How long ``HTTPServer/stop()`` waits for requests in progress before closing connections.
    public var shutdownGracePeriodSeconds: Double = 10
    /// Print libmicrohttpd's runtime error messages (client errors, resets) to stderr.
    /// Start-up errors are always reported through ``HTTPServerError``.
    public var logErrors: Bool = false

    public init() {}
}

/// Why ``HTTPServer/start()`` failed.
public enum HTTPServerError: Error, CustomStringConvertible {
    /// The daemon did not start; the message says why (port in use, bad setting, …).
    case startFailed(String)
    /// `host` is not an IP literal this server can bind.
    case invalidHost(String)

    public var description: String {
        switch self {
        case .startFailed(let message):
            "HTTP server failed to start: \(message)"
        case .invalidHost(let host):
            "invalid host \"\(host)\": expected an IPv4 or IPv6 literal such as 127.0.0.1, 0.0.0.0, ::1 or ::"
        }
    }
}
