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
    /// Most simultaneous connections served. Up to ``limitHeadroom(_:)`` more are accepted only
    /// to be answered 503 problem details (with `Retry-After` and `Connection: close`); beyond
    /// that libmicrohttpd stops accepting, and new connections wait unanswered in the kernel's
    /// listen queue until one closes (`MHD_OPTION_CONNECTION_LIMIT` = limit + headroom).
    public var connectionLimit: Int = 1024
    /// Most simultaneous connections from one IP address; 0 = unlimited. Connections over it get
    /// 429 problem details on their first request (with `Connection: close`); beyond
    /// ``limitHeadroom(_:)`` more, libmicrohttpd closes them at once
    /// (`MHD_OPTION_PER_IP_CONNECTION_LIMIT`). Behind a proxy every client has the proxy's IP.
    public var perIPConnectionLimit: Int = 0
    /// Seconds without any traffic before a connection is closed; 0 = never. libmicrohttpd
    /// restarts this clock on every byte received, so on its own it does not stop a client
    /// that sends one byte at a time: `requestTimeoutSeconds` does.
    public var connectionTimeoutSeconds: Int = 30
    /// Most seconds a request may take to arrive; 0 = no limit. Measured from the connection's
    /// opening, or the end of its previous answer, to the request line, and again from the
    /// request line to the last byte of the body. A connection over it is closed without an
    /// answer (slowloris and slow-body clients), checked about four times per period by one
    /// timer thread. Time spent in the handler and sending the answer is not counted.
    public var requestTimeoutSeconds: Int = 30
    /// Most bytes of header fields (names, values and their separators) a request may bring;
    /// more gets a 431 problem from this server (RFC 6585 §5) before any body is read. Keep it
    /// well below `connectionMemoryLimitBytes`: a header block that does not fit that pool at all
    /// is refused by libmicrohttpd itself, with its own 431 page.
    public var maxHeaderBytes: Int = 8 * 1024
    /// Memory per connection for the request line, headers and read buffer
    /// (`MHD_OPTION_CONNECTION_MEMORY_LIMIT`). Requests whose headers do not fit get 431.
    /// MHD zeroes this pool between requests, so a larger value costs time on every request
    /// (64 KiB spent ~10% of CPU in memset in a keep-alive benchmark); 32 KiB is MHD's default.
    public var connectionMemoryLimitBytes: Int = 32 * 1024
    /// Paths (exact, as routed) of health probes: a GET or HEAD of one is answered by the handler
    /// even on a connection over `connectionLimit` or `perIPConnectionLimit`, then the
    /// connection is closed. A liveness probe must not fail because the server is busy: a
    /// kubelet restarts a pod whose liveness fails, dropping its work and moving its load onto
    /// the other replicas (an operator's pass: `/healthz` was 503 with the connections full).
    /// The handler's answer for them should be cheap and need no body. Empty: none.
    public var probePaths: Set<String> = []
    /// Paths (exact, as routed) whose requests are heavy: run on a bounded pool off the worker
    /// threads, with a deadline (see ``HTTPServer``'s heavy work). Empty: none.
    public var heavyPaths: Set<String> = []
    /// Threads of the heavy-work pool.
    public var heavyWorkers: Int = 1
    /// Heavy requests that may wait for a worker; more get 503 `server-busy` at once.
    public var heavyQueueLimit: Int = 8
    /// Heavy requests one client address may have admitted (running or waiting) at once; more
    /// get 429 `too-many-heavy-requests` at once, so that one client cannot fill the pool and
    /// its queue for everyone (a hostile pass: nine 38-byte images of 40 megapixels each held
    /// every heavy route for 13.5 s). 0 = no limit: behind a proxy every client shares its address.
    public var heavyPerClientLimit: Int = 0
    /// Seconds a heavy request may take from admission to answer; then it is answered 503
    /// `deadline-exceeded` and its result dropped. 0 = no deadline.
    public var heavyDeadlineSeconds: Double = 30
    /// Bytes that request bodies being received and answers waiting to be sent may hold in all;
    /// past it, new heavy requests get 503 `server-busy`. 0 = no budget.
    public var memoryBudgetBytes: Int = 64 * 1_048_576
    /// How long ``HTTPServer/stop()`` waits for requests in progress before closing connections.
    public var shutdownGracePeriodSeconds: Double = 10
    /// Print libmicrohttpd's runtime error messages (client errors, resets) to stderr.
    /// Start-up errors are always reported through ``HTTPServerError``.
    public var logErrors: Bool = false
    /// PEM text of the server certificate (chain) for HTTPS. Set together with
    /// `tlsPrivateKeyPEM`; both nil (the default) serves plain HTTP. Uses libmicrohttpd's
    /// GnuTLS support (`MHD_USE_TLS`); start fails when the library lacks it or the PEM is bad.
    public var tlsCertificatePEM: String? = nil
    /// PEM text of the certificate's private key (unencrypted).
    public var tlsPrivateKeyPEM: String? = nil
    /// GnuTLS priority string for HTTPS: TLS 1.2 and 1.3 with GnuTLS's default ciphers.
    public var tlsPriorities: String = "NORMAL:-VERS-ALL:+VERS-TLS1.3:+VERS-TLS1.2"

    public init() {}

    /// Whether HTTPS is configured (certificate and key both set).
    public var isTLS: Bool { tlsCertificatePEM != nil && tlsPrivateKeyPEM != nil }

    /// The connections accepted over `limit` only to be refused with an answer (429 or 503):
    /// max(8, limit / 8).
    public static func limitHeadroom(_ limit: Int) -> Int {
        max(8, limit / 8)
    }
}

/// Why ``HTTPServer/start()`` failed.
public enum HTTPServerError: Error, CustomStringConvertible {
    /// The daemon did not start; the message says why (port in use, bad setting, …).
    case startFailed(String)
    /// `host` is not an IP literal this server can bind.
    case invalidHost(String)
    /// The daemon did not start because its TLS layer could not use the certificate and key
    /// (an encrypted key, a key of another certificate); libmicrohttpd's reason. A setting, not a
    /// runtime fault: found only when the daemon starts.
    case tlsSetupFailed(String)

    public var description: String {
        switch self {
        case .startFailed(let message), .tlsSetupFailed(let message):
            "HTTP server failed to start: \(message)"
        case .invalidHost(let host):
            "invalid host \"\(host)\": expected an IPv4 or IPv6 literal such as 127.0.0.1, 0.0.0.0, ::1 or ::"
        }
    }
}
