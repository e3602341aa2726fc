@testable import ContrastAPI
import Foundation
@testable import HTTPServer
import JSONValue
import TestSupport
import Testing

/// Heavy routes stop once the server has answered their request itself (a hostile pass, stop
/// 43: nine 24 MB SVG matrices whose clients had hung up were all built, and another client's
/// 2 KB palette waited 1.9 s behind them). The same request with a live ticket is answered 200.
@Suite struct AbandonedWorkTests {
    let service = ContrastService(configuration: testConfiguration())

    func answer(_ path: String, _ body: String, abandoned: Bool) -> HTTPResponse {
        var request = HTTPRequest(method: "POST", path: path, headers: ["Content-Type": "application/json"], body: Array(body.utf8))
        let ticket = WorkTicket()
        if abandoned { #expect(ticket.abandon()) }
        request.workTicket = ticket
        return service.handle(request)
    }

    @Test(arguments: [
        ("/v1/contrast/matrix", ##"{"colors": ["#000", "#fff", "#777"], "format": "svg"}"##),
        ("/v1/audit", ##"{"colors": [{"name": "accent", "color": "#007aff"}, {"name": "ink", "color": "#333", "role": "text"}]}"##),
        ("/v1/palette/dark", ##"{"colors": [{"name": "page", "color": "#ffffff", "role": "background"}, {"name": "ink", "color": "#333333", "role": "text"}]}"##),
    ])
    func anAbandonedRequestStops(_ path: String, _ body: String) {
        let live = answer(path, body, abandoned: false)
        #expect(live.status == 200, "\(path): \(String(decoding: live.body, as: UTF8.self).prefix(300))")
        let dropped = answer(path, body, abandoned: true)
        #expect(dropped.status == 503 && dropped.body.count < 1_000, "\(path): \(String(decoding: dropped.body, as: UTF8.self).prefix(300))")
    }
}
