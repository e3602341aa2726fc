import ContrastAPI
import Foundation
import HTTPServer
import Synchronization

#if canImport(Glibc)
import Glibc
#endif

// The three ways the tests start a real server on a free port (port 0): the bare HTTP layer
// (`withServer`), the service in this process (`LiveServer`), and the built `contrast-server`
// executable in a child process (`ServerProcess`).

/// A bare `HTTPServer` on a free port with a small configuration; stopped at the end of `body`.
public func withServer<T>(
    _ configure: (inout ServerConfiguration) -> Void = { _ in },
    handler: @escaping HTTPHandler,
    _ body: (HTTPServer) throws -> T
) throws -> T {
    var configuration = ServerConfiguration()
    configuration.port = 0
    configuration.threads = 2
    configuration.connectionTimeoutSeconds = 10
    configuration.shutdownGracePeriodSeconds = 5
    configure(&configuration)
    let server = HTTPServer(configuration: configuration, handler: handler)
    try server.start()
    defer { server.stop() }
    return try body(server)
}

/// Configuration for tests: the repository's Public/ folder, port 0, defaults otherwise.
public func testConfiguration() -> ServiceConfiguration {
    var c = ServiceConfiguration()
    c.publicDirectory = repositoryRoot.appendingPathComponent("Public").path
    c.port = 0
    return c
}

/// The service on a real `HTTPServer` on a free loopback port, stopped when released.
public final class LiveServer: @unchecked Sendable {
    public let server: HTTPServer
    public var port: Int { server.port }

    public init(configuration: ServiceConfiguration = testConfiguration()) throws {
        let service = ContrastService(configuration: configuration)
        server = HTTPServer(configuration: configuration.server, handler: { service.handle($0) })
        try server.start()
    }

    deinit { server.stop() }

    /// Sends raw bytes and reads the whole response (the request should say `Connection: close`).
    public func raw(_ request: [UInt8], timeoutSeconds: Int = 10) throws -> Reply {
        try RawHTTP.exchange(port: port, request, timeoutSeconds: timeoutSeconds).reply
    }

    /// Sends one request with `Connection: close`.
    /// `timeoutSeconds`: how long to wait for the answer (raise it for requests that are heavy in
    /// a debug build on a loaded machine, such as whole real token files).
    public func request(_ method: String, _ target: String, body: String? = nil,
                        headers: [String: String] = ["Content-Type": "application/json"],
                        timeoutSeconds: Int = 10) throws -> Reply {
        var text = "\(method) \(target) HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n"
        for (k, v) in headers where body != nil || k.lowercased() != "content-type" { text += "\(k): \(v)\r\n" }
        if let body { text += "Content-Length: \(body.utf8.count)\r\n" }
        text += "\r\n" + (body ?? "")
        return try raw(Array(text.utf8), timeoutSeconds: timeoutSeconds)
    }
}

public enum ServerProcessError: Error, CustomStringConvertible {
    case notBuilt
    case noPort(String)
    public var description: String {
        switch self {
        case .notBuilt: return "contrast-server is not built next to the tests (swift build)"
        case .noPort(let log): return "contrast-server did not say where it listens: \(log)"
        }
    }
}

/// The built `contrast-server` executable, started on port 0 in a child process; its standard
/// error is collected, and it is killed when released if still running.
public final class ServerProcess: @unchecked Sendable {
    /// The executable beside the test bundle (or in `.build/debug`).
    public static var binary: URL? {
        let dir = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        for candidate in [dir, dir.deletingLastPathComponent(), repositoryRoot.appendingPathComponent(".build/debug")] {
            let url = candidate.appendingPathComponent("contrast-server")
            if FileManager.default.isExecutableFile(atPath: url.path) { return url }
        }
        return nil
    }

    public let process = Process()
    /// The bytes read from standard error so far (decoded when read: a chunk may end inside a
    /// UTF-8 sequence), and whether end of file was reached.
    /// What the reader thread has read (`bytes`), whether it met end of file, and whether it is
    /// blocked in `read` with everything before appended (`inRead`).
    private final class Sink: Sendable { let state = Mutex((bytes: [UInt8](), closed: false, inRead: false)) }
    private let collected = Sink()
    /// The port it listens on (0 until `waitForPort`).
    public private(set) var port = 0
    /// The read end of the standard-error pipe (for `finalLog`'s drained check).
    private let errorFD: Int32

    /// Starts `executable` (default: the built one) with `arguments` (default `--port 0`);
    /// `CONTRAST_*` variables of the test's environment are dropped, `environment` is added.
    public init(executable: URL? = nil, arguments: [String] = ["--port", "0"], environment: [String: String] = [:],
                directory: URL = repositoryRoot) throws {
        guard let binary = executable ?? Self.binary else { throw ServerProcessError.notBuilt }
        process.executableURL = binary
        process.arguments = arguments
        process.currentDirectoryURL = directory
        var env = ProcessInfo.processInfo.environment.filter { !$0.key.hasPrefix("CONTRAST_") }
        env.merge(environment) { $1 }
        process.environment = env
        let err = Pipe()
        errorFD = err.fileHandleForReading.fileDescriptor
        process.standardError = err
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        // Standard error is read by blocking reads on a thread of its own, not by a
        // `readabilityHandler`: that installs a libdispatch read source on the pipe, and tearing
        // it down races the descriptor's close; on Linux the race crashes the whole test process
        // in `_dispatch_event_loop_drain` (SIGSEGV, a CI run of stop 46;
        // swiftlang/swift-corelibs-foundation#3276 and #5507). The thread holds the read end until
        // end of file, so the descriptor is never closed under a reader.
        Self.drain(err.fileHandleForReading, into: collected)
    }

    /// Appends everything `handle` yields to `sink` until end of file (or a read error), then
    /// marks it closed; on a thread of its own.
    private static func drain(_ handle: FileHandle, into sink: Sink) {
        let thread = Thread {
            let fd = handle.fileDescriptor
            var buffer = [UInt8](repeating: 0, count: 16_384)
            while true {
                sink.state.withLock { $0.inRead = true }
                let count = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
                // Appended in the same lock that clears `inRead`: a reader starved between its
                // read and its append is never taken for one that has nothing left.
                sink.state.withLock { state in
                    state.inRead = false
                    if count > 0 { state.bytes += buffer[..<count] }
                }
                if count < 0 && errno == EINTR { continue }
                if count <= 0 { break }
            }
            sink.state.withLock { $0.closed = true }
            withExtendedLifetime(handle) {}
        }
        thread.name = "ServerProcess.stderr"
        thread.start()
    }

    deinit {
        if exit == nil { kill(process.processIdentifier, SIGKILL); _ = waitUntil(limit: 10) { exit != nil } }
    }

    /// How the process ended, or nil while it runs.
    ///
    /// Read with `waitid(WNOWAIT)`, which sees the exit without reaping, rather than from
    /// `Process`: Foundation on Linux learns of the exit only when every copy of its
    /// notification socket is closed, so a descendant or a concurrently spawned child that
    /// inherited one (as `sh -c '… &'` does) makes `isRunning` true and `waitUntilExit` block
    /// long after the process exited (CI flake, stop 38). If Foundation has already reaped it,
    /// its own record is used.
    public var exit: (reason: Process.TerminationReason, status: Int32)? {
        var info = siginfo_t()
        let pid = process.processIdentifier
        if waitid(P_PID, id_t(pid), &info, WEXITED | WNOWAIT | WNOHANG) == 0 {
            guard info._sifields._sigchld.si_pid == pid else { return nil }
            let status = info._sifields._sigchld.si_status
            return (info.si_code == CLD_EXITED ? .exit : .uncaughtSignal, status)
        }
        if errno == ECHILD, !process.isRunning { return (process.terminationReason, process.terminationStatus) }
        return nil
    }

    /// Whether the process is still running (see `exit`).
    public var isRunning: Bool { exit == nil }

    /// Blocks until the process has exited (at most `limit` s) and returns how it ended.
    @discardableResult
    public func waitForExit(limit: TimeInterval = 60) -> (reason: Process.TerminationReason, status: Int32)? {
        var result: (reason: Process.TerminationReason, status: Int32)?
        waitUntil(limit: limit) { result = exit; return result != nil }
        return result
    }

    /// The exit status (or the signal's number), -1 while it runs.
    public var terminationStatus: Int32 { exit?.status ?? -1 }

    /// What the process wrote to standard error so far.
    public var log: String { String(decoding: collected.state.withLock { $0.bytes }, as: UTF8.self) }

    /// Waits (polling, at most `limit` s) until the log contains `marker` or the process exits.
    @discardableResult
    public func waitForLog(_ marker: String, limit: TimeInterval = 30) -> Bool {
        waitUntil(limit: limit) { log.contains(marker) || !isRunning }
        return log.contains(marker)
    }

    /// Waits for the "listening on 127.0.0.1:PORT" line and returns the port.
    @discardableResult
    public func waitForPort(limit: TimeInterval = 30) throws -> Int {
        waitForLog("listening on", limit: limit)
        let text = log
        guard let range = text.range(of: #"127\.0\.0\.1:(\d+)"#, options: .regularExpression),
            let port = Int(text[range].split(separator: ":")[1])
        else { throw ServerProcessError.noPort(text) }
        self.port = port
        return port
    }

    /// Sends SIGTERM and waits for the exit (the caller checks the status).
    public func terminate() {
        if isRunning { kill(process.processIdentifier, SIGTERM) }
        waitForExit()
    }

    /// Waits until the process has exited and its standard error is read to the end of file.
    ///
    /// End of file can come late: a child that another test spawned at the same moment may
    /// inherit the pipe's write end and hold it open. Once the process has exited, everything it
    /// wrote is already in the pipe, so the log is also complete when the pipe holds no unread
    /// bytes (FIONREAD 0) and the collected text has not changed for three polls in a row.
    public func finalLog(limit: TimeInterval = 30) -> String {
        waitForExit()
        var last = -1
        var stablePolls = 0
        waitUntil(limit: limit, interval: 0.05) {
            let (length, closed, inRead) = collected.state.withLock { ($0.bytes.count, $0.closed, $0.inRead) }
            if closed { return true }
            var unread: Int32 = 0
            // Drained: nothing left in the pipe, and the reader back in `read` with all it read
            // appended (a CI flake: a reader starved under load between its read and its append
            // for the 0.15 s of stable polls lost a child process's last message).
            let drained = inRead && ioctl(errorFD, UInt(FIONREAD), &unread) == 0 && unread == 0
            stablePolls = drained && length == last ? stablePolls + 1 : 0
            last = length
            return stablePolls >= 3
        }
        return log
    }
}
