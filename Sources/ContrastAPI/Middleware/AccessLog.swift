#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import HTTPServer
import JSONValue

/// One JSON line per answered request, written to standard error with a single `write(2)`:
///
/// ```json
/// {"time":"2026-12-01T10:00:00.123Z","level":"info","msg":"request","requestId":"5f1c…-1a",
///  "method":"GET","path":"/v1/contrast","status":200,"durationMs":0.412,"bytes":812,"remote":"127.0.0.1"}
/// ```
///
/// The path never includes the query (which could carry secrets), and bodies, tokens and the
/// `Authorization` field are never written. Answers below 500 are logged at `info`, 501 at `warn`
/// (the client's unsupported transfer coding), other 5xx at `error`; `logLevel` `warn` thus keeps
/// the 5xx lines and `error` those the server caused.
public struct AccessLog: Sendable {
    /// Where finished lines go (each ends with a newline).
    public typealias Sink = @Sendable ([UInt8]) -> Void

    let minimumLevel: Int
    let sink: Sink

    static let levels = ["debug": 0, "info": 1, "warn": 2, "error": 3]

    /// A log at `level` (`debug`, `info`, `warn`, `error`) writing to `sink` (standard error
    /// when nil).
    public init(level: String, sink: Sink? = nil) {
        minimumLevel = AccessLog.levels[level] ?? 1
        self.sink = sink ?? { line in
            line.withUnsafeBytes { bytes in
                var offset = 0
                while offset < bytes.count {
                    let n = write(2, bytes.baseAddress! + offset, bytes.count - offset)
                    if n <= 0 { break }
                    offset += n
                }
            }
        }
    }

    /// The level of a request's line: `error` (3) for a 5xx the server caused, `warn` (2) for 501
    /// (a transfer coding the client asked for and the server does not implement: no server
    /// fault, but worth a look), `info` (1) for everything else.
    static func level(status: Int) -> Int {
        status == 501 ? 2 : status >= 500 ? 3 : 1
    }

    /// Whether a line for `status` would be written.
    func logs(status: Int) -> Bool {
        AccessLog.level(status: status) >= minimumLevel
    }

    /// Writes the line for one request.
    func record(requestID: String, method: String, path: String, status: Int, durationMilliseconds: Double,
                bytes: Int, remote: String?) {
        guard logs(status: status) else { return }
        var line: [UInt8] = []
        line.reserveCapacity(256 + path.utf8.count)
        line.append(contentsOf: #"{"time":""#.utf8)
        AccessLog.appendTimestamp(to: &line)
        switch AccessLog.level(status: status) {
        case 3: line.append(contentsOf: #"","level":"error","msg":"request","requestId":"#.utf8)
        case 2: line.append(contentsOf: #"","level":"warn","msg":"request","requestId":"#.utf8)
        default: line.append(contentsOf: #"","level":"info","msg":"request","requestId":"#.utf8)
        }
        JSON.writeString(requestID, into: &line)
        line.append(contentsOf: #","method":"#.utf8)
        JSON.writeString(method.utf8.count <= 16 ? method : String(method.prefix(16)), into: &line)
        line.append(contentsOf: #","path":"#.utf8)
        JSON.writeString(path.utf8.count <= 512 ? path : String(path.prefix(512)), into: &line)
        line.append(contentsOf: #","status":"#.utf8)
        line.append(contentsOf: String(status).utf8)
        line.append(contentsOf: #","durationMs":"#.utf8)
        let micros = max(0, Int((durationMilliseconds * 1000).rounded()))
        line.append(contentsOf: String(micros / 1000).utf8)
        line.append(UInt8(ascii: "."))
        let fraction = micros % 1000
        if fraction < 100 { line.append(UInt8(ascii: "0")) }
        if fraction < 10 { line.append(UInt8(ascii: "0")) }
        line.append(contentsOf: String(fraction).utf8)
        line.append(contentsOf: #","bytes":"#.utf8)
        line.append(contentsOf: String(bytes).utf8)
        if let remote {
            line.append(contentsOf: #","remote":"#.utf8)
            JSON.writeString(remote, into: &line)
        }
        line.append(contentsOf: "}\n".utf8)
        sink(line)
    }

    /// Writes a `warn` line for an answer whose connection closed before all of it was sent,
    /// after its `request` line said it whole: `{"time", "level": "warn", "msg": "answer cut",
    /// "requestId", "bytes" (the answer's length), "reason" (client_gone, timeout,
    /// server_stopping), "remote"}`.
    func recordCut(_ cut: HTTPServer.AnswerCut) {
        guard minimumLevel <= 2 else { return }
        var line: [UInt8] = []
        line.append(contentsOf: #"{"time":""#.utf8)
        AccessLog.appendTimestamp(to: &line)
        line.append(contentsOf: #"","level":"warn","msg":"answer cut","requestId":"#.utf8)
        JSON.writeString(cut.requestID.map { String($0.prefix(128)) } ?? "", into: &line)
        line.append(contentsOf: #","bytes":"#.utf8)
        line.append(contentsOf: String(cut.bytes).utf8)
        line.append(contentsOf: #","reason":"#.utf8)
        JSON.writeString(cut.reason.rawValue, into: &line)
        if let remote = cut.client {
            line.append(contentsOf: #","remote":"#.utf8)
            JSON.writeString(remote, into: &line)
        }
        line.append(contentsOf: "}\n".utf8)
        sink(line)
    }

    /// RFC 3339 UTC time with milliseconds, e.g. `2026-12-01T10:00:00.123Z`.
    static func appendTimestamp(to line: inout [UInt8]) {
        var now = timespec()
        clock_gettime(CLOCK_REALTIME, &now)
        var seconds = now.tv_sec
        var parts = tm()
        gmtime_r(&seconds, &parts)
        func two(_ value: Int32) {
            line.append(UInt8(48 + value / 10))
            line.append(UInt8(48 + value % 10))
        }
        let year = Int32(parts.tm_year) + 1900
        two(year / 100); two(year % 100)
        line.append(UInt8(ascii: "-")); two(parts.tm_mon + 1)
        line.append(UInt8(ascii: "-")); two(parts.tm_mday)
        line.append(UInt8(ascii: "T")); two(parts.tm_hour)
        line.append(UInt8(ascii: ":")); two(parts.tm_min)
        line.append(UInt8(ascii: ":")); two(parts.tm_sec)
        let millis = Int32(now.tv_nsec / 1_000_000)
        line.append(UInt8(ascii: "."))
        line.append(UInt8(48 + millis / 100)); two(millis % 100)
        line.append(UInt8(ascii: "Z"))
    }
}

/// Middleware: one ``AccessLog`` line per answer, rejections included, after every other step
/// (so the line has the answer's request id and final size).
struct AccessLogging: HTTPMiddleware {
    let log: AccessLog

    func respond(to request: HTTPRequest, next: (HTTPRequest) -> HTTPResponse) -> HTTPResponse {
        // The headers' arrival is the start (the server sets it); a clock read only without it.
        let started = request.receivedAtNanoseconds > 0 ? request.receivedAtNanoseconds : MonotonicClock.nanoseconds()
        let response = next(request)
        // A heavy request the server already answered 503 (deadline, shutdown): that 503 was
        // logged; this answer is never sent, so it is never logged.
        if let ticket = request.workTicket, !ticket.claim() { return response }
        // Moved to the heavy-work pool: logged when answered there.
        if response.movesToHeavyPool { return response }
        if log.logs(status: response.status) {
            log.record(requestID: response.header("X-Request-ID") ?? "-", method: request.method, path: request.path,
                       status: response.status,
                       durationMilliseconds: MonotonicClock.seconds(since: request, started: started) * 1000,
                       // 499: the client had closed; nothing is sent (a hostile pass read 195 bytes logged).
                       bytes: response.rejection == .clientClosedRequest ? 0 : response.body.count, remote: request.remoteAddress)
        }
        return response
    }

    func decorate(rejectionOf request: HTTPRequest, next: (HTTPRequest) -> HTTPResponse) -> HTTPResponse {
        respond(to: request, next: next)
    }
}
