@testable import ContrastAPI
import Foundation
import HTTPServer
import JSONValue
import Synchronization
import TestSupport
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// The Prometheus /metrics scrape. Over the real server on port 0
/// (`ProductionServer`) unless it is a pure function.
@Suite(.serialized) struct MetricsTests {
    @Test func prometheusMetricsCountRoutesStatusesLatencyAndRejections() throws {
        let live = try ProductionServer { $0.maxBodyBytes = 200 }
        for _ in 0..<3 { _ = try live.request("GET", "/v1/contrast?foreground=%23000&background=%23fff") }
        _ = try live.request("GET", "/v1/contrast?foreground=nope&background=%23fff")
        _ = try live.request("GET", "/no/such/page")
        _ = try live.request("GET", "/")
        _ = try live.request("POST", "/v1/contrast", body: String(repeating: "x", count: 300))
        _ = try live.request("BREW", "/v1/contrast")
        // The earlier connections are closed by the server after their answers; under a loaded
        // test run its close notice can trail the next request, so scrape until only this
        // scrape's connection is open (polled, at most 30 s), then check everything on that scrape.
        var metrics = try live.request("GET", "/metrics")
        waitUntil {
            if metrics.text.contains("contrast_http_open_connections 1\n") { return true }
            metrics = (try? live.request("GET", "/metrics")) ?? metrics
            return false
        }
        #expect(metrics.status == 200)
        #expect(metrics.header("Content-Type") == "text/plain; version=0.0.4; charset=utf-8")
        let text = metrics.text
        for line in [
            #"contrast_http_requests_total{route="/v1/contrast",method="GET",status="200"} 3"#,
            #"contrast_http_requests_total{route="/v1/contrast",method="GET",status="400"} 1"#,
            #"contrast_http_requests_total{route="/v1/contrast",method="POST",status="413"} 1"#,
            #"contrast_http_requests_total{route="/v1/contrast",method="other",status="501"} 1"#,
            #"contrast_http_requests_total{route="unmatched",method="GET",status="404"} 1"#,
            #"contrast_http_requests_total{route="static",method="GET",status="200"} 1"#,
            #"contrast_http_request_duration_seconds_bucket{route="/v1/contrast",le="+Inf"} 6"#,
            #"contrast_http_request_duration_seconds_count{route="/v1/contrast"} 6"#,
            #"contrast_http_requests_in_flight 1"#,   // this scrape
            #"contrast_http_rejected_total{reason="content_too_large"} 1"#,
            #"contrast_http_rejected_total{reason="unauthorized"} 0"#,
            #"contrast_http_rejected_total{reason="request_timeout"} 0"#,
            #"contrast_build_info{version="\#(ContrastService.version)""#,
            "# TYPE contrast_http_request_duration_seconds histogram",
            "process_resident_memory_bytes ",
            "contrast_http_open_connections 1",
        ] {
            #expect(text.contains(line), "missing: \(line)")
        }
        // The process metrics of the Prometheus client libraries (an ops pass found CPU and file
        // descriptors missing): the scrape's own connection is open, and some CPU was spent.
        func sample(_ name: String) -> Double? {
            text.split(separator: "\n").first { $0.hasPrefix(name + " ") }.flatMap { Double($0.split(separator: " ").last!) }
        }
        #expect((sample("process_open_fds") ?? 0) >= 4 && (sample("process_max_fds") ?? 0) >= (sample("process_open_fds") ?? 1), "\(text.suffix(400))")
        #expect((sample("process_cpu_seconds_total") ?? 0) > 0 && text.contains("# TYPE process_cpu_seconds_total counter"))
        // Every sample line is `name{labels} value` or `name value`.
        for line in text.split(separator: "\n") where !line.hasPrefix("#") {
            #expect(line.range(of: #"^[a-z_]+(\{[^}]*\})? [0-9.e+-]+$"#, options: .regularExpression) != nil, "\(line)")
        }
        // Cumulative buckets never decrease.
        var last = -1.0
        for line in text.split(separator: "\n") where line.hasPrefix(#"contrast_http_request_duration_seconds_bucket{route="/v1/contrast""#) {
            let value = Double(line.split(separator: " ").last!)!
            #expect(value >= last)
            last = value
        }
    }

    /// Five different limits answer 503 (and a sixth reason, 499, is never sent): each is counted under its own reason, not all as the
    /// connection limit (outside tester, issue #17: heavy-work 503s were `too_many_connections`).
    @Test func eachLimitsRefusalIsCountedUnderItsOwnReason() {
        let metrics = Metrics(tls: false)
        let problems: [HTTPProblem] = [
            .heavyWorkQueueFull(limit: 4), .memoryBudgetExceeded(limit: 10), .deadlineExceeded(seconds: 1),
            .shuttingDown(), .clientClosedRequest(), .serverBusy(limit: 2), .tooManyQueryParts(300, limit: 256), .contentTooLarge(limit: 5),
        ]
        for problem in problems {
            let response = ProblemRenderer.standard.response(problem)
            metrics.record(route: "/v1/palette", method: "POST", status: response.status,
                           rejection: response.rejection, seconds: 0.001)
        }
        metrics.record(route: "/v1/contrast", method: "GET", status: 401, seconds: 0.001)
        metrics.record(route: "/v1/contrast", method: "GET", status: 400, seconds: 0.001)
        let text = metrics.render()
        for (reason, count) in [("heavy_work_queue_full", 1), ("memory_budget_exceeded", 1), ("deadline_exceeded", 1),
                                ("shutting_down", 1), ("client_closed_request", 1), ("too_many_connections", 1), ("too_many_query_arguments", 1),
                                ("content_too_large", 1), ("unauthorized", 1), ("too_many_connections_from_client", 0)] {
            #expect(text.contains("contrast_http_rejected_total{reason=\"\(reason)\"} \(count)\n"), "\(reason)")
        }
    }
}
