import Foundation
import HTTPServer
import Synchronization

/// Request metrics in the Prometheus text exposition format (version 0.0.4), served at
/// `GET /metrics`:
///
/// ```text
/// contrast_http_requests_total{route="/v1/contrast",method="GET",status="200"} 42
/// contrast_http_request_duration_seconds_bucket{route="/v1/contrast",le="0.001"} 40
/// contrast_http_requests_in_flight 1
/// contrast_http_rejected_total{reason="unauthorized"} 3
/// contrast_build_info{version="0.1.0",swift="6.3",tls="false"} 1
/// ```
///
/// `route` is the routed path, `static` for files from the public folder, or `unmatched`
/// (404s and other answers for unrouted paths), so the label set stays small whatever clients send; `method` is one of the
/// standard methods or `other`. Durations run from the arrival of the headers to the answer
/// being handed to the server. Recording costs one uncontended lock and a few array writes
/// (about 50 ns; a pthread mutex, see `Locked`); rendering happens only on scrape.
public final class Metrics: Sendable {
    /// Upper bounds of the latency histogram, seconds.
    static let buckets: [Double] = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10]
    static let methods = ["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS", "other"]
    /// Rejection reasons: a refusal by authentication, or by a limit (``HTTPResponse/rejection``,
    /// named by the problem that refused; several share status 503), in ``HTTPRejection``'s order.
    /// `request_timeout` and `incomplete` come from the server's own counters.
    static let rejectionReasons = HTTPRejection.allCases

    private struct RouteStats {
        /// Packed key (method << 12 | status) → count.
        var requests: [Int: Int] = [:]
        /// Per-bucket counts (made cumulative when rendered), +Inf last.
        var histogram = [Int](repeating: 0, count: Metrics.buckets.count + 1)
        var sum: Double = 0
        var count = 0

        mutating func record(key: Int, bucket: Int, seconds: Double) {
            requests[key, default: 0] += 1
            histogram[bucket] += 1
            sum += seconds
            count += 1
        }
    }

    private struct Storage {
        /// Route label → its numbers. Labels are routed paths, `static` or `unmatched`.
        var routes: [String: RouteStats] = [:]
        var rejected = [Int](repeating: 0, count: Metrics.rejectionReasons.count)
    }

    private let storage = Locked(Storage())
    /// Requests inside the handler right now.
    let inFlight = Atomic<Int>(0)
    private let server = Locked<(@Sendable () -> HTTPServerStatistics)?>(nil)
    private let buildInfo: String
    private let startTime = Date().timeIntervalSince1970

    /// Empty metrics; `tls` goes into `contrast_build_info`.
    init(tls: Bool) {
        #if compiler(>=6.3)
        let swift = "6.3"
        #elseif compiler(>=6.2)
        let swift = "6.2"
        #else
        let swift = "6"
        #endif
        buildInfo = "contrast_build_info{version=\"\(ContrastService.version)\",swift=\"\(swift)\",tls=\"\(tls)\"} 1\n"
    }

    /// Lets `/metrics` report the server's connection counters (open connections, timeouts).
    public func attach(_ statistics: @escaping @Sendable () -> HTTPServerStatistics) {
        server.withLock { $0 = statistics }
    }

    /// The route label for `path`: itself when `router` routes it, else `static` for a
    /// successful answer (the public folder), else `unmatched`.
    static func routeLabel(for path: String, status: Int, router: Router) -> String {
        if router.allowedMethods(for: path) != nil { return path }
        return status < 400 ? "static" : "unmatched"
    }

    /// Counts one answered request.
    /// `rejection` is the limit that refused the request, if one did (``HTTPResponse/rejection``);
    /// a 401, and a 413 an endpoint gives itself, count as `unauthorized` and `content_too_large`.
    func record(route: String, method: String, status: Int, rejection: HTTPRejection? = nil, seconds: Double) {
        let methodIndex = Metrics.methods.firstIndex(of: method) ?? Metrics.methods.count - 1
        let statusCode = (100...999).contains(status) ? status : 999
        let key = methodIndex << 12 | statusCode
        var bucket = Metrics.buckets.count
        for (i, bound) in Metrics.buckets.enumerated() where seconds <= bound {
            bucket = i
            break
        }
        var rejected: Int?
        if status >= 400 {
            let reason = rejection ?? (status == 401 ? .unauthorized : status == 413 ? .contentTooLarge : nil)
            if let reason { rejected = Metrics.rejectionReasons.firstIndex(of: reason) }
        }
        storage.withLock { s in
            s.routes[route, default: RouteStats()].record(key: key, bucket: bucket, seconds: seconds)
            if let rejected { s.rejected[rejected] += 1 }
        }
    }

    /// The exposition text.
    func render() -> String {
        let s = storage.withLock { $0 }
        let statistics = server.withLock { $0 }?()
        var out = ""
        out.reserveCapacity(4096)
        let routes = s.routes.keys.sorted()
        out += "# HELP contrast_http_requests_total HTTP requests answered, by route, method and status.\n"
        out += "# TYPE contrast_http_requests_total counter\n"
        for route in routes {
            let stats = s.routes[route]!
            for key in stats.requests.keys.sorted() {
                let method = Metrics.methods[key >> 12], status = key & 0xFFF
                out += "contrast_http_requests_total{route=\"\(Metrics.escape(route))\",method=\"\(method)\",status=\"\(status)\"} \(stats.requests[key]!)\n"
            }
        }
        out += "# HELP contrast_http_request_duration_seconds Time from the request's headers to its answer.\n"
        out += "# TYPE contrast_http_request_duration_seconds histogram\n"
        for route in routes {
            let stats = s.routes[route]!
            let label = Metrics.escape(route)
            var cumulative = 0
            for (i, bound) in Metrics.buckets.enumerated() {
                cumulative += stats.histogram[i]
                out += "contrast_http_request_duration_seconds_bucket{route=\"\(label)\",le=\"\(bound)\"} \(cumulative)\n"
            }
            out += "contrast_http_request_duration_seconds_bucket{route=\"\(label)\",le=\"+Inf\"} \(stats.count)\n"
            out += "contrast_http_request_duration_seconds_sum{route=\"\(label)\"} \(stats.sum)\n"
            out += "contrast_http_request_duration_seconds_count{route=\"\(label)\"} \(stats.count)\n"
        }
        out += "# HELP contrast_http_requests_in_flight Requests being handled now.\n"
        out += "# TYPE contrast_http_requests_in_flight gauge\n"
        out += "contrast_http_requests_in_flight \(inFlight.load(ordering: .relaxed))\n"
        out += "# HELP contrast_http_rejected_total Requests refused by a limit or by authentication, by reason. "
        out += "request_timeout: closed for arriving too slowly; incomplete: closed before the request was complete "
        out += "(client gone, or libmicrohttpd refused it itself, e.g. 431 for oversized headers, which it answers without us).\n"
        out += "# TYPE contrast_http_rejected_total counter\n"
        for (i, reason) in Metrics.rejectionReasons.enumerated() {
            out += "contrast_http_rejected_total{reason=\"\(reason.rawValue)\"} \(s.rejected[i])\n"
        }
        if let statistics {
            out += "contrast_http_rejected_total{reason=\"request_timeout\"} \(statistics.requestsTimedOut)\n"
            out += "contrast_http_rejected_total{reason=\"incomplete\"} \(statistics.requestsAbandoned)\n"
            out += "# HELP contrast_http_open_connections TCP connections open now.\n"
            out += "# TYPE contrast_http_open_connections gauge\n"
            out += "contrast_http_open_connections \(statistics.openConnections)\n"
            out += "# HELP contrast_http_requests_in_progress Requests whose headers have arrived and whose answer is not sent yet (body still arriving included).\n"
            out += "# TYPE contrast_http_requests_in_progress gauge\n"
            out += "contrast_http_requests_in_progress \(statistics.requestsInProgress)\n"
            out += "# HELP contrast_http_answers_cut_total Answers of 16 KiB or more whose connection closed before all of it was sent (client gone, timeout, or the server stopping); the access log has an \"answer cut\" line for each.\n"
            out += "# TYPE contrast_http_answers_cut_total counter\n"
            out += "contrast_http_answers_cut_total \(statistics.answersCut)\n"
        }
        out += "# HELP contrast_build_info Version of the running service.\n"
        out += "# TYPE contrast_build_info gauge\n"
        out += buildInfo
        out += "# HELP process_resident_memory_bytes Resident memory size in bytes.\n"
        out += "# TYPE process_resident_memory_bytes gauge\n"
        out += "process_resident_memory_bytes \(Metrics.residentMemoryBytes())\n"
        out += "# HELP process_start_time_seconds Start time of the process since the Unix epoch.\n"
        out += "# TYPE process_start_time_seconds gauge\n"
        out += "process_start_time_seconds \(Int(startTime))\n"
        // The Prometheus client libraries' process metrics an SRE looks for first (an ops pass:
        // an idle-connection flood would have shown in open file descriptors).
        let usage = Metrics.cpuSeconds()
        out += "# HELP process_cpu_seconds_total Total user and system CPU time spent in seconds.\n"
        out += "# TYPE process_cpu_seconds_total counter\n"
        out += "process_cpu_seconds_total \(usage)\n"
        let (open, max) = Metrics.fileDescriptors()
        out += "# HELP process_open_fds Number of open file descriptors.\n"
        out += "# TYPE process_open_fds gauge\n"
        out += "process_open_fds \(open)\n"
        out += "# HELP process_max_fds Maximum number of open file descriptors.\n"
        out += "# TYPE process_max_fds gauge\n"
        out += "process_max_fds \(max)\n"
        return out
    }

    /// User and system CPU time of the process in seconds (`getrusage(RUSAGE_SELF)`).
    static func cpuSeconds() -> Double {
        var usage = rusage()
        guard getrusage(RUSAGE_SELF.rawValue, &usage) == 0 else { return 0 }
        func seconds(_ t: timeval) -> Double { Double(t.tv_sec) + Double(t.tv_usec) / 1_000_000 }
        return seconds(usage.ru_utime) + seconds(usage.ru_stime)
    }

    /// Open file descriptors (the entries of `/proc/self/fd`, 0 where it does not exist) and
    /// the soft limit (`RLIMIT_NOFILE`).
    static func fileDescriptors() -> (open: Int, max: Int) {
        let open = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd").count) ?? 0
        var limit = rlimit()
        let max = getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit) == 0 ? Int(clamping: limit.rlim_cur) : 0
        return (open, max)
    }

    /// The `/metrics` answer (`text/plain; version=0.0.4`, never cached).
    func response() -> HTTPResponse {
        HTTPResponse(status: 200, headers: [("Content-Type", "text/plain; version=0.0.4; charset=utf-8"),
                                            ("Cache-Control", "no-store")],
                     body: Array(render().utf8))
    }

    /// A label value with `\\`, `"` and newlines escaped (exposition format rules).
    static func escape(_ value: String) -> String {
        guard value.contains(where: { $0 == "\\" || $0 == "\"" || $0 == "\n" }) else { return value }
        return value.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"")
            .replacingOccurrences(of: "\n", with: "\\n")
    }

    /// Resident set size from `/proc/self/statm` (0 where that does not exist).
    static func residentMemoryBytes() -> Int {
        guard let text = try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8) else { return 0 }
        let fields = text.split(separator: " ")
        guard fields.count > 1, let pages = Int(fields[1]) else { return 0 }
        return pages * Int(sysconf(Int32(_SC_PAGESIZE)))
    }
}

/// Middleware: counts every answer, rejections included, in ``Metrics`` (route, method, status,
/// duration from the arrival of the headers), and keeps `contrast_http_requests_in_flight`.
struct MetricsRecording: HTTPMiddleware {
    let metrics: Metrics
    let router: Router

    func respond(to request: HTTPRequest, next: (HTTPRequest) -> HTTPResponse) -> HTTPResponse {
        let started = MonotonicClock.nanoseconds()
        metrics.inFlight.wrappingAdd(1, ordering: .relaxed)
        let response = next(request)
        metrics.inFlight.wrappingSubtract(1, ordering: .relaxed)
        record(request, response, started: started)
        return response
    }

    func decorate(rejectionOf request: HTTPRequest, next: (HTTPRequest) -> HTTPResponse) -> HTTPResponse {
        let started = MonotonicClock.nanoseconds()
        let response = next(request)
        record(request, response, started: started)
        return response
    }

    private func record(_ request: HTTPRequest, _ response: HTTPResponse, started: UInt64) {
        // Moved to the heavy-work pool: counted when answered there.
        if response.movesToHeavyPool { return }
        // Not sent: the server answered this heavy request 503 instead (and counted that).
        if let ticket = request.workTicket, !ticket.claim() { return }
        let seconds = MonotonicClock.seconds(since: request, started: started)
        let route = Metrics.routeLabel(for: request.path, status: response.status, router: router)
        metrics.record(route: route, method: request.method, status: response.status,
                       rejection: response.rejection, seconds: seconds)
    }
}

extension MonotonicClock {
    /// Seconds from the arrival of `request`'s headers (or from `started`, when the request did
    /// not come through the server, or came earlier) to now.
    static func seconds(since request: HTTPRequest, started: UInt64) -> Double {
        let now = MonotonicClock.nanoseconds()
        let from = request.receivedAtNanoseconds > 0 ? min(request.receivedAtNanoseconds, started) : started
        return Double(now &- from) / 1e9
    }
}
