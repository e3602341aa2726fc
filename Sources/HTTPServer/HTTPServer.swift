import CMicroHTTPD
import CMicroHTTPDShim
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
public final class HTTPServer: Sendable {
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

    public init(configuration: ServerConfiguration, handler: @escaping HTTPHandler) {
        self.configuration = configuration
        self.context = ServerContext(
            handler: handler,
            maxBodyBytes: max(0, configuration.maxBodyBytes),
            maxBodyBytesByPath: configuration.maxBodyBytesByPath.mapValues { max(0, $0) }
        )
    }

    deinit {
        stop()
    }

    /// The port the server is bound to (the real one after binding port 0); 0 before start.
    public var port: Int {
        boundPort.load(ordering: .acquiring)
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
            let daemon = try startDaemon()
            boundPort.store(Int(cmhd_daemon_bound_port(daemon.pointer)), ordering: .releasing)
            state = .running(daemon)
        }
    }

    /// Stops gracefully: stops accepting connections (`MHD_quiesce_daemon`), answers requests
    /// still arriving on open connections with `Connection: close`, waits up to
    /// `shutdownGracePeriodSeconds` for requests in progress to finish, then stops the
    /// daemon and closes the listening socket. Idempotent; blocks concurrent callers until done.
    /// Call it from outside the handlers: a handler calling it would wait for itself.
    public func stop() {
        lifecycle.withLock { state in
            guard case .running(let daemon) = state else {
                if case .idle = state { state = .stopped }
                return
            }
            context.draining.store(true, ordering: .releasing)
            let listenSocket = MHD_quiesce_daemon(daemon.pointer)
            let deadline = Self.monotonicSeconds() + max(0, configuration.shutdownGracePeriodSeconds)
            while context.inFlight.load(ordering: .acquiring) > 0 && Self.monotonicSeconds() < deadline {
                usleep(2_000)
            }
            MHD_stop_daemon(daemon.pointer)
            if listenSocket >= 0 {
                close(listenSocket)
            }
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
        if family == AF_INET6 {
            flags |= cmhd_sockaddr_is_ipv6_any(&address) != 0 ? MHD_USE_DUAL_STACK.rawValue : MHD_USE_IPv6.rawValue
        }

        var options: [MHD_OptionItem] = [
            MHD_OptionItem(option: .CONNECTION_LIMIT, value: config.connectionLimit, ptr_value: nil),
            MHD_OptionItem(option: .CONNECTION_TIMEOUT, value: config.connectionTimeoutSeconds, ptr_value: nil),
            MHD_OptionItem(option: .CONNECTION_MEMORY_LIMIT, value: config.connectionMemoryLimitBytes, ptr_value: nil),
        ]
        if config.threads > 1 {
            options.append(MHD_OptionItem(option: .THREAD_POOL_SIZE, value: config.threads, ptr_value: nil))
        }
        if config.perIPConnectionLimit > 0 {
            options.append(MHD_OptionItem(option: .PER_IP_CONNECTION_LIMIT, value: config.perIPConnectionLimit, ptr_value: nil))
        }
        options.append(MHD_OptionItem(option: .END, value: 0, ptr_value: nil))

        var errorBuffer = [CChar](repeating: 0, count: 512)
        let contextPointer = Unmanaged.passUnretained(context).toOpaque()
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
                    errorBuffer.count
                )
            }
        }
        guard let daemon else {
            let reason = String(decoding: errorBuffer.prefix(while: { $0 != 0 }).map { UInt8(bitPattern: $0) }, as: UTF8.self)
            let target = family == AF_INET6 ? "[\(host)]:\(config.port)" : "\(host):\(config.port)"
            throw .startFailed("cannot listen on \(target): \(reason.isEmpty ? "libmicrohttpd refused to start" : reason)")
        }
        return DaemonHandle(pointer: daemon)
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
}
