import CMicroHTTPD
import CMicroHTTPDShim
import Dispatch
import Synchronization

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// An HTTP/1.1 server on libmicrohttpd: epoll worker threads (`threads` of them), each request
/// read completely and passed to one synchronous ``HTTPHandler``.
///
/// ```swift
/// var router = Router()
/// router.add("GET", "/health") { _ in .text("ok") }
/// var configuration = ServerConfiguration()
/// configuration.port = 0
/// let server = HTTPServer(configuration: configuration, handler: router.handler)
/// try server.start()
/// print(server.port)   // e.g. 40123
/// server.stop()
/// ```
///
/// Lifecycle: idle → running (``start()``) → stopped (``stop()``); a stopped server cannot be
/// restarted (make a new one). ``stop()`` is also called on deinit.
///
/// Limits (see ``ServerConfiguration``): body size (413), connections in all and per client IP
/// (503 and 429, answered; past a further headroom libmicrohttpd stops accepting, or resets
/// that IP's new connections), header
/// size (431, answered by libmicrohttpd as a small HTML page), query arguments (414, more than
/// ``maxQueryArguments``, or more than ``maxQueryParts`` parts), idle connections and slow requests (closed without an answer). HTTPS
/// when a certificate and key are configured.
public final class HTTPServer: Sendable {
    /// Most query arguments a request may have (non-empty `&`-separated parts); more get a 414
    /// problem before libmicrohttpd reads them into its per-connection pool, which about 460 filled.
    public static let maxQueryArguments = 100
    /// Most `&`-separated parts a query may have, empty ones included: each costs libmicrohttpd a
    /// pool record too, and `?` followed by 504 `&` filled the pool so that the request hung
    /// (500 got libmicrohttpd's own HTML 431). Half of that; more get a 414 problem.
    public static let maxQueryParts = 256
    /// Most bytes of a request target (path and query): more get a 414 problem written on the
    /// socket as soon as the request line is read (plain HTTP; see
    /// `httpServerRequestLineArrived`). libmicrohttpd 0.9.75's 32 KiB pool answers a line over
    /// about 24,550 bytes with its own 414, and one of about 24,100 to 24,550 not at all; 16 KiB
    /// leaves room for the header fields beside it.
    public static let maxRequestTargetBytes = 16 * 1024

    /// Sees each answer the server makes without calling the handler — 413 (body over the
    /// limit), 400 (bad `Content-Length`), 414 (too many query arguments), 429 and 503 (over
    /// connection limits) — and returns
    /// the answer to send, e.g. with more header fields. The request has headers, no body.
    public typealias RejectionHandler = @Sendable (HTTPRequest, HTTPResponse) -> HTTPResponse

    /// Sees a request whose declared body is large (over 16 KiB, or chunked) as soon as its
    /// headers have arrived (method, path, header fields; no query, no body) and returns the
    /// answer to send without reading the body — a 401 without a token, a 404 or 405 — or nil to
    /// read the body and call the handler. The answer is sent as it is, with `Connection: close`.
    public typealias EarlyHandler = @Sendable (HTTPRequest) -> HTTPResponse?

    /// An answer of 16 KiB or more whose connection closed before all of it was sent, after its
    /// handler and access log had seen it whole.
    public struct AnswerCut: Sendable, Equatable {
        /// Why the connection closed.
        public enum Reason: String, Sendable {
            /// The client closed it, or a write to it failed.
            case clientGone = "client_gone"
            /// It stayed idle past `requestTimeoutSeconds` (a reader too slow).
            case timeout
            /// The server stopped (its shutdown grace ran out) with the answer unsent.
            case serverStopping = "server_stopping"
        }
        /// The answer's `X-Request-ID`, when it has one.
        public var requestID: String?
        /// The client's address, when known.
        public var client: String?
        /// The answer body's length in bytes (what was sent of it is not known).
        public var bytes: Int
        public var reason: Reason
    }

    /// Hears of each ``AnswerCut``, on a server thread (keep it short).
    public typealias AnswerCutHandler = @Sendable (AnswerCut) -> Void

    // All mutable state is behind `lifecycle` (a Mutex) or atomics.

    public let configuration: ServerConfiguration
    private let context: ServerContext
    private let lifecycle = Mutex<Lifecycle>(.idle)
    private let boundPort = Atomic<Int>(0)

    private enum Lifecycle {
        case idle
        case running(DaemonHandle)
        case stopped
    }

    /// - Parameters:
    ///   - handler: answers every request that passes the limits.
    ///   - problems: renders the problems the server answers itself (413, 414, 429, 503, framing
    ///     400s): the application's one problem shape; ``ProblemRenderer/standard`` by default.
    ///   - rejectionHandler: sees the answers the server makes itself (see ``RejectionHandler``).
    ///   - earlyHandler: answers large requests from their headers alone (see ``EarlyHandler``).
    ///   - answerCutHandler: hears of answers cut short (see ``AnswerCut``).
    public init(configuration: ServerConfiguration, problems: ProblemRenderer = .standard, handler: @escaping HTTPHandler,
                rejectionHandler: RejectionHandler? = nil, earlyHandler: EarlyHandler? = nil,
                answerCutHandler: AnswerCutHandler? = nil) {
        self.configuration = configuration
        self.context = ServerContext(
            handler: handler,
            maxBodyBytes: max(0, configuration.maxBodyBytes),
            maxBodyBytesByPath: configuration.maxBodyBytesByPath.mapValues { max(0, $0) },
            tracker: ConnectionTracker(
                connectionLimit: max(1, configuration.connectionLimit),
                perIPConnectionLimit: max(0, configuration.perIPConnectionLimit),
                requestTimeoutSeconds: max(0, configuration.requestTimeoutSeconds)
            ),
            rejectionHandler: rejectionHandler,
            maxHeaderBytes: configuration.maxHeaderBytes > 0 ? configuration.maxHeaderBytes : .max,
            problems: problems,
            heavyPaths: configuration.heavyPaths,
            probePaths: configuration.probePaths,
            heavyWorkers: configuration.heavyWorkers,
            heavyQueueLimit: configuration.heavyQueueLimit,
            heavyDeadlineSeconds: configuration.heavyDeadlineSeconds,
            heavyPerClientLimit: configuration.heavyPerClientLimit,
            memoryBudget: configuration.memoryBudgetBytes,
            earlyHandler: earlyHandler,
            answerCutHandler: answerCutHandler,
            isTLS: configuration.isTLS
        )
    }

    deinit {
        stop()
    }

    /// The port the server is bound to (the real one after binding port 0); 0 before start.
    public var port: Int {
        boundPort.load(ordering: .acquiring)
    }

    /// Counters since start; cheap (a few atomic loads).
    public var statistics: HTTPServerStatistics {
        var statistics = HTTPServerStatistics()
        statistics.openConnections = context.tracker.open.load(ordering: .relaxed)
        statistics.requestsInProgress = context.inFlight.load(ordering: .relaxed)
        statistics.requestsTimedOut = context.tracker.timedOut.load(ordering: .relaxed)
        statistics.requestsAbandoned = context.tracker.abandoned.load(ordering: .relaxed)
        statistics.connectionsRefused = context.tracker.refused.load(ordering: .relaxed)
        statistics.answersCut = context.answersCut.load(ordering: .relaxed)
        statistics.bufferedBytes = context.bufferedBytes.load(ordering: .relaxed)
        return statistics
    }

    /// Whether the server is accepting requests.
    public var isRunning: Bool {
        lifecycle.withLock { state in
            if case .running = state { return true }
            return false
        }
    }

    /// Binds and starts the worker threads; returns once the server is accepting connections.
    /// Throws ``HTTPServerError/invalidHost(_:)`` for a host that is not an IP literal and
    /// ``HTTPServerError/startFailed(_:)`` (with libmicrohttpd's reason, such as
    /// "Address already in use") when binding fails or a setting is out of range.
    public func start() throws(HTTPServerError) {
        try lifecycle.withLock { (state: inout Lifecycle) throws(HTTPServerError) in
            switch state {
            case .running:
                throw .startFailed("the server is already running on port \(port)")
            case .stopped:
                throw .startFailed("the server was stopped; create a new HTTPServer")
            case .idle:
                break
            }
            var daemon = try startDaemon()
            boundPort.store(Int(cmhd_daemon_bound_port(daemon.pointer)), ordering: .releasing)
            if context.tracker.requestTimeoutMilliseconds > 0 {
                let tracker = context.tracker
                let timer = DispatchSource.makeTimerSource(queue: DispatchQueue(label: "HTTPServer.request-deadlines"))
                timer.schedule(deadline: .now() + tracker.reapInterval, repeating: tracker.reapInterval, leeway: .milliseconds(50))
                timer.setEventHandler { tracker.reap() }
                timer.resume()
                daemon.reaper = timer
            }
            if let pool = context.heavy {
                let context = self.context
                let timer = DispatchSource.makeTimerSource(queue: DispatchQueue(label: "HTTPServer.heavy-deadlines"))
                timer.schedule(deadline: .now() + .milliseconds(250), repeating: .milliseconds(250), leeway: .milliseconds(50))
                timer.setEventHandler {
                    let now = MonotonicClock.nanoseconds()
                    if pool.deadlineNanoseconds != .max, now > pool.deadlineNanoseconds {
                        for job in pool.overdue(admittedBefore: now - pool.deadlineNanoseconds) {
                            answerInstead(.deadlineExceeded(seconds: context.heavyDeadlineSeconds), job: job, context: context,
                                          pool: pool)
                        }
                    }
                    // A client that closed its connection no longer waits for its answer: its
                    // work is abandoned (not run when still queued; stopped at the handler's next
                    // check), so that hanging up and sending again cannot fill the pool.
                    for job in pool.overdue(admittedBefore: .max) where job.clientHasClosed {
                        answerInstead(.clientClosedRequest(), job: job, context: context, pool: pool, beforeQueueing: { job.shutDownSocket() })
                    }
                }
                timer.resume()
                daemon.deadlines = timer
            }
            state = .running(daemon)
        }
    }

    /// Stops gracefully: closes new connections as they are accepted (the accept policy,
    /// `httpServerAcceptPolicy`, once `draining` is set), answers requests still arriving on
    /// open connections with `Connection: close`, waits up to `shutdownGracePeriodSeconds` for
    /// requests in progress to finish, then stops the daemon and closes the listening socket.
    /// Idempotent; blocks concurrent callers until done. Call it from outside the handlers: a
    /// handler calling it would wait for itself.
    ///
    /// Not `MHD_quiesce_daemon`: in libmicrohttpd 0.9.75 with a pool of epoll threads it removes
    /// the listening socket from each thread's epoll set while the thread itself may be removing
    /// it too, and whichever comes second aborts the process ("Failed to remove listen FD from
    /// epoll set", daemon.c:5531 and :4940; it aborted a CI run, 2026-12-06).
    public func stop() {
        lifecycle.withLock { state in
            guard case .running(let daemon) = state else {
                if case .idle = state { state = .stopped }
                return
            }
            // From here a new connection is closed as soon as it is accepted, instead of waiting
            // in the kernel's backlog to be reset at exit (hostile test).
            context.draining.store(true, ordering: .releasing)
            let deadline = Self.monotonicSeconds() + max(0, configuration.shutdownGracePeriodSeconds)
            while context.inFlight.load(ordering: .acquiring) > 0 && Self.monotonicSeconds() < deadline {
                usleep(2_000)
            }
            if let pool = context.heavy {
                // The grace period is a hard deadline: heavy requests still unanswered get a 503
                // (recorded as such), never a closed connection; then a moment to send them.
                daemon.deadlines?.cancel()
                for job in pool.overdue(admittedBefore: .max) {
                    answerInstead(.shuttingDown(), job: job, context: context, pool: pool)
                }
                let flush = Self.monotonicSeconds() + 2
                while context.inFlight.load(ordering: .acquiring) > 0 && Self.monotonicSeconds() < flush {
                    usleep(2_000)
                }
            }
            MHD_stop_daemon(daemon.pointer)
            daemon.release()
            state = .stopped
        }
    }

    // MARK: - Start-up

    private func startDaemon() throws(HTTPServerError) -> DaemonHandle {
        let config = configuration
        guard (0...65_535).contains(config.port) else {
            throw .startFailed("port \(config.port) is out of range 0...65535")
        }
        guard config.threads >= 1 else {
            throw .startFailed("threads must be at least 1 (got \(config.threads))")
        }
        guard config.connectionLimit >= 1 else {
            throw .startFailed("connectionLimit must be at least 1 (got \(config.connectionLimit))")
        }
        guard config.perIPConnectionLimit >= 0, config.connectionTimeoutSeconds >= 0 else {
            throw .startFailed("perIPConnectionLimit and connectionTimeoutSeconds must not be negative")
        }
        guard config.connectionMemoryLimitBytes >= 4096 else {
            throw .startFailed("connectionMemoryLimitBytes must be at least 4096 (got \(config.connectionMemoryLimitBytes))")
        }
        guard config.requestTimeoutSeconds >= 0 else {
            throw .startFailed("requestTimeoutSeconds must not be negative (got \(config.requestTimeoutSeconds))")
        }
        guard (config.tlsCertificatePEM == nil) == (config.tlsPrivateKeyPEM == nil) else {
            throw .startFailed("HTTPS needs both a certificate and a private key")
        }
        if config.isTLS && cmhd_tls_supported() == 0 {
            throw .startFailed("this libmicrohttpd was built without TLS support")
        }

        var host = config.host
        if host == "localhost" {
            host = "127.0.0.1"
        } else if host.hasPrefix("["), host.hasSuffix("]") {
            host = String(host.dropFirst().dropLast())
        }
        var address = sockaddr_storage()
        var addressLength = socklen_t(0)
        let family = cmhd_make_sockaddr(host, UInt16(config.port), &address, &addressLength)
        guard family != 0 else {
            throw .invalidHost(config.host)
        }

        var flags = MHD_USE_EPOLL_INTERNAL_THREAD.rawValue | MHD_USE_ITC.rawValue | MHD_USE_ERROR_LOG.rawValue
        if context.heavy != nil {
            flags |= MHD_ALLOW_SUSPEND_RESUME.rawValue  // heavy requests wait suspended for their worker
        }
        if config.isTLS {
            flags |= MHD_USE_TLS.rawValue
        }
        if family == AF_INET6 {
            flags |= cmhd_sockaddr_is_ipv6_any(&address) != 0 ? MHD_USE_DUAL_STACK.rawValue : MHD_USE_IPv6.rawValue
        }

        // The limits past which libmicrohttpd itself closes new connections: the configured
        // ones plus a headroom in which they are accepted and answered 503/429 (see tracker).
        let hardConnectionLimit = config.connectionLimit + ServerConfiguration.limitHeadroom(config.connectionLimit)
        var options: [MHD_OptionItem] = [
            MHD_OptionItem(option: .CONNECTION_LIMIT, value: hardConnectionLimit, ptr_value: nil),
            MHD_OptionItem(option: .CONNECTION_TIMEOUT, value: config.connectionTimeoutSeconds, ptr_value: nil),
            MHD_OptionItem(option: .CONNECTION_MEMORY_LIMIT, value: config.connectionMemoryLimitBytes, ptr_value: nil),
        ]
        if config.threads > 1 {
            options.append(MHD_OptionItem(option: .THREAD_POOL_SIZE, value: config.threads, ptr_value: nil))
        }
        if config.perIPConnectionLimit > 0 {
            let hardPerIPLimit = config.perIPConnectionLimit + ServerConfiguration.limitHeadroom(config.perIPConnectionLimit)
            options.append(MHD_OptionItem(option: .PER_IP_CONNECTION_LIMIT, value: hardPerIPLimit, ptr_value: nil))
        }
        options.append(MHD_OptionItem(option: .END, value: 0, ptr_value: nil))

        var errorBuffer = [CChar](repeating: 0, count: 512)
        let contextPointer = Unmanaged.passUnretained(context).toOpaque()
        // C copies of the TLS strings, kept until the daemon is stopped.
        let strings = DaemonStrings(
            certificate: config.isTLS ? config.tlsCertificatePEM : nil,
            key: config.isTLS ? config.tlsPrivateKeyPEM : nil,
            priorities: config.isTLS ? config.tlsPriorities : nil
        )
        var extras = cmhd_daemon_extras(
            notify_connection: httpServerConnectionNotify,
            notify_connection_cls: contextPointer,
            uri_log: httpServerRequestLineArrived,
            uri_log_cls: contextPointer,
            tls_certificate_pem: strings.certificate.map { UnsafePointer($0) },
            tls_key_pem: strings.key.map { UnsafePointer($0) },
            tls_priorities: strings.priorities.map { UnsafePointer($0) },
            accept_policy: httpServerAcceptPolicy,
            accept_policy_cls: contextPointer
        )
        let daemon = withUnsafePointer(to: &address) { storage in
            storage.withMemoryRebound(to: sockaddr.self, capacity: 1) { socketAddress in
                cmhd_start_daemon(
                    flags,
                    UInt16(config.port),
                    socketAddress,
                    httpServerAccessHandler,
                    contextPointer,
                    httpServerRequestCompleted,
                    contextPointer,
                    options,
                    1,
                    config.logErrors ? 1 : 0,
                    &errorBuffer,
                    errorBuffer.count,
                    &extras
                )
            }
        }
        guard let daemon else {
            strings.free()
            let reason = String(decoding: errorBuffer.prefix(while: { $0 != 0 }).map { UInt8(bitPattern: $0) }, as: UTF8.self)
            let target = family == AF_INET6 ? "[\(host)]:\(config.port)" : "\(host):\(config.port)"
            let message = "cannot \(config.isTLS ? "serve HTTPS" : "listen") on \(target): \(reason.isEmpty ? "libmicrohttpd refused to start" : reason)"
            // libmicrohttpd names its TLS layer when that is what failed ("GnuTLS failed to setup
            // x509 certificate/key: …; Failed to initialize TLS support."); a port in use does not.
            if config.isTLS && reason.contains("TLS") { throw .tlsSetupFailed(message) }
            throw .startFailed(message)
        }
        return DaemonHandle(pointer: daemon, strings: strings)
    }

    private static func monotonicSeconds() -> Double {
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        return Double(now.tv_sec) + Double(now.tv_nsec) / 1e9
    }
}

/// The running daemon. Only touched under `HTTPServer.lifecycle`.
private struct DaemonHandle: @unchecked Sendable {
    let pointer: OpaquePointer
    let strings: DaemonStrings
    /// The request-deadline timer, when `requestTimeoutSeconds` > 0.
    var reaper: DispatchSourceTimer?
    /// The heavy-work deadline timer, when heavy paths and a deadline are configured.
    var deadlines: DispatchSourceTimer?

    /// After `MHD_stop_daemon`: stops the timer and frees the C strings.
    func release() {
        reaper?.cancel()
        deadlines?.cancel()
        strings.free()
    }
}

/// NUL-terminated copies of the strings handed to libmicrohttpd at start (`strdup`).
private struct DaemonStrings {
    let certificate: UnsafeMutablePointer<CChar>?
    let key: UnsafeMutablePointer<CChar>?
    let priorities: UnsafeMutablePointer<CChar>?

    init(certificate: String?, key: String?, priorities: String?) {
        self.certificate = certificate.flatMap { strdup($0) }
        self.key = key.flatMap { strdup($0) }
        self.priorities = priorities.flatMap { strdup($0) }
    }

    func free() {
        for pointer in [certificate, key, priorities] {
            if let pointer {
                // Wipe the key material before giving the memory back.
                memset(pointer, 0, strlen(pointer))
                Glibc.free(pointer)
            }
        }
    }
}
