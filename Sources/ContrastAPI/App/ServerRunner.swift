import Dispatch
import Foundation
import HTTPServer

/// Runs the service until SIGTERM or SIGINT, then stops gracefully (in-flight requests finish).
/// Lives outside `main.swift` so no callback is main-actor isolated.
public final class ServerRunner: Sendable {
    let configuration: ServiceConfiguration

    public init(configuration: ServiceConfiguration) {
        self.configuration = configuration
    }

    /// This executable's path, from `/proc/self/exe` (where Foundation's `Bundle.main` finds it
    /// on Linux), or nil when it cannot be read (no `/proc`; elsewhere than Linux). The resource
    /// bundle is looked for beside it, and the start's resource check runs it again.
    public static func executablePath() -> String? {
        #if os(Linux)
        var buffer = [CChar](repeating: 0, count: 4097)
        let n = readlink("/proc/self/exe", &buffer, 4096)
        guard n > 0 else { return nil }
        return String(decoding: buffer[0..<n].map { UInt8(bitPattern: $0) }, as: UTF8.self)
        #else
        return nil
        #endif
    }

    /// Runs this executable again as `--check-resources` (its standard error shared, so its
    /// reasons are printed) and returns its exit status, or nil when it could not be run (the
    /// server then starts, as before the check existed).
    static func childResourceCheck() -> Int32? {
        #if os(Linux)
        guard let path = executablePath() else { return nil }
        var pid: pid_t = 0
        let arguments = [path, "--check-resources"]
        var argv: [UnsafeMutablePointer<CChar>?] = arguments.map { strdup($0) } + [nil]
        defer { for p in argv { free(p) } }
        guard posix_spawn(&pid, path, nil, nil, &argv, environ) == 0 else { return nil }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 {
            guard errno == EINTR else { return nil }
        }
        // WIFEXITED / WEXITSTATUS, spelled out (the C macros are not imported).
        return (status & 0x7F) == 0 ? (status >> 8) & 0xFF : nil
        #else
        return nil
        #endif
    }

    /// Starts the server, blocks until a stop signal, and returns the process exit code
    /// (0 after a clean stop, 2 when the TLS certificate and key cannot be paired or the
    /// resource bundle is missing, 1 when the server cannot start otherwise).
    public func run() -> Int32 {
        if configuration.healthcheckOnly {
            // With HTTPS the plain-HTTP probe cannot speak to the port: it checks that the
            // server accepts connections instead.
            let tls = !configuration.tlsCertificateFile.isEmpty
            return HealthProbe.check(port: configuration.port, ipv6: configuration.host.contains(":"),
                                     connectOnly: tls) ? 0 : 1
        }
        // Catch the stop signals before anything can announce the server: a signal that comes
        // right after the "listening" line must not be lost (a DispatchSource registers
        // asynchronously, so one arriving before its registration was ignored).
        StopSignal.install()
        // A binary copied without its resource bundle would serve /healthz 200 and answer 500 on
        // every Apple route and /openapi.json: an image built so must not roll out as ready (an
        // ops pass). It stops here, as a configuration error does.
        let missing = ContrastService.missingResources()
        if !missing.isEmpty {
            for problem in missing { FileHandle.standardError.write(Data("contrast-server: \(problem)\n".utf8)) }
            return 2
        }
        // The resources' contents, decoded in a child process (`--check-resources`): a file that
        // is whole JSON but not what it should be stops the server here too.
        if let status = Self.childResourceCheck(), status != 0 {
            return 2
        }
        let service = ContrastService(configuration: configuration)
        let server = service.makeServer()
        do {
            try server.start()
        } catch HTTPServerError.tlsSetupFailed(let reason) {
            // A certificate and key that GnuTLS cannot pair (an encrypted key, or one of another
            // certificate) are found only when the daemon starts: said as the configuration
            // error they are, naming the keys, with its exit code (an ops pass got exit 1 and a
            // runtime log line).
            let problem = ConfigurationError(key: "tlsKeyFile",
                problem: "the key \(configuration.tlsKeyFile) cannot be used with the certificate \(configuration.tlsCertificateFile) (an unencrypted PEM private key of that certificate is needed): HTTP server failed to start: \(reason)")
            FileHandle.standardError.write(Data("contrast-server: \(problem)\n".utf8))
            return 2
        } catch {
            log("error", "cannot start: \(error)")
            return 1
        }
        log("info", "listening on \(configuration.server.isTLS ? "https" : "http")://\(configuration.host.contains(":") && !configuration.host.hasPrefix("[") ? "[\(configuration.host)]" : configuration.host):\(server.port) (threads \(configuration.threads), public \(configuration.publicDirectory), auth \(!service.configuration.authTokens.isEmpty ? "on" : "off"))")

        let unknown = ServiceConfiguration.unknownEnvironmentVariables(ProcessInfo.processInfo.environment)
        if !unknown.isEmpty {
            log("warn", "environment variables that name no setting, ignored: \(unknown.prefix(8).joined(separator: ", "))\(unknown.count > 8 ? ", …" : "") (docs/operations.md lists the CONTRAST_* settings)")
        }
        if !configuration.hasPublicDirectory {
            log("warn", "no folder \(configuration.publicDirectory) here: the API runs, the web page is not served (set publicDirectory)")
        } else if access(configuration.publicDirectory, R_OK | X_OK) != 0 {
            // An ops pass: a Public/ the server's user cannot read answered 404 without a word.
            log("warn", "the folder \(configuration.publicDirectory) cannot be read by this user (uid \(getuid())): the API runs, the web page answers 404")
        }

        let signalNumber = StopSignal.wait()
        log("info", "stopping on signal \(signalNumber): no new connections; finishing in-flight requests (up to \(configuration.shutdownGracePeriodSeconds) s)")
        server.stop()
        log("info", "stopped")
        return 0
    }

    func log(_ level: String, _ message: String) {
        let levels = ["debug": 0, "info": 1, "warn": 2, "error": 3]
        guard levels[level, default: 1] >= levels[configuration.logLevel, default: 1] else { return }
        // The access log's shape: time, level, msg (they had "message" and no time).
        var line: [UInt8] = Array(#"{"time":""#.utf8)
        AccessLog.appendTimestamp(to: &line)
        line.append(contentsOf: #"","level":"#.utf8)
        JSON.writeString(level, into: &line)
        line.append(contentsOf: #","msg":"#.utf8)
        JSON.writeString(message, into: &line)
        line.append(contentsOf: "}\n".utf8)
        FileHandle.standardError.write(Data(line))
    }
}

import JSONValue
func JSONString(_ s: String) -> String {
    var out: [UInt8] = []
    JSON.writeString(s, into: &out)
    return String(decoding: out, as: UTF8.self)
}

/// SIGTERM and SIGINT through a self-pipe: the handler (async-signal-safe: one `write`) is
/// installed synchronously, and a signal that arrives before anyone waits stays in the pipe.
enum StopSignal {
    /// The pipe (read end, write end); created on first use, before the handler is installed.
    static let pipeEnds: (read: Int32, write: Int32) = {
        var fds: [Int32] = [-1, -1]
        _ = pipe(&fds)
        return (fds[0], fds[1])
    }()

    /// Installs the handler for SIGTERM and SIGINT, and unblocks them: a parent may start us
    /// with them blocked (Foundation's `Process` does), and threads created later inherit the
    /// calling thread's mask, so call this before starting any. SIGHUP is ignored: settings
    /// and tokens are read at start only, and its default action ended the process at once,
    /// dropping requests in flight (an ops pass: exit 129, no log line).
    static func install() {
        signal(SIGHUP, SIG_IGN)
        _ = pipeEnds
        var set = sigset_t()
        sigemptyset(&set)
        sigaddset(&set, SIGTERM)
        sigaddset(&set, SIGINT)
        pthread_sigmask(SIG_UNBLOCK, &set, nil)
        for sig in [SIGTERM, SIGINT] {
            signal(sig) { number in
                var byte = UInt8(truncatingIfNeeded: number)
                _ = write(StopSignal.pipeEnds.write, &byte, 1)
            }
        }
    }

    /// Blocks until a stop signal has arrived; returns its number.
    static func wait() -> Int32 {
        var byte: UInt8 = 0
        while true {
            let n = read(pipeEnds.read, &byte, 1)
            if n == 1 { return Int32(byte) }
            if n < 0 && errno == EINTR { continue }
            return SIGTERM
        }
    }
}
