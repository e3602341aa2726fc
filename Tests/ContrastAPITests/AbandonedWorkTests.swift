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

    /// An image's preview or heat map (the PNG is the costliest part) is not made for a request
    /// already answered (a second hostile pass: an abandoned preview held the worker as long as
    /// one that was read).
    @Test(arguments: ["preview=true", "heatmap=true"])
    func anAbandonedImageAnswerIsNotDrawn(_ option: String) throws {
        let jpeg = Array(try Data(contentsOf: FixtureLoader.url("images/coffee-600x400.jpg")))
        func answer(abandoned: Bool) -> HTTPResponse {
            var request = HTTPRequest(method: "POST", path: "/v1/image/text-contrast",
                                      query: [("textColor", "white"), ("region", "0,0,600,100"), (String(option.split(separator: "=")[0]), "true")],
                                      headers: ["Content-Type": "image/jpeg"], body: jpeg)
            let ticket = WorkTicket()
            if abandoned { #expect(ticket.abandon()) }
            request.workTicket = ticket
            return service.handle(request)
        }
        let live = answer(abandoned: false)
        #expect(live.status == 200 && live.header("Content-Type") == "image/png", "\(live.status)")
        let dropped = answer(abandoned: true)
        #expect(dropped.status == 503 && dropped.body.count < 1_000, "\(dropped.status)")
    }

    /// Writing a matrix's answer stops at the next row once the request is abandoned (a second
    /// hostile pass: a 24 MB SVG went on being written for 0.45 s after its client had gone).
    @Test func aMatrixAnswerStopsAtTheNextRow() throws {
        let colors = ["#000", "#fff", "#777", "#c00"]
        let palette = try colors.map { PaletteColor(name: $0, color: try resolveColor($0, at: .body("c"))) }
        let cells = MatrixEndpoint.measure(palette, algorithm: .wcag2, backdrop: nil)
        var rows = 0
        func stopAfterTwo() -> Bool { rows += 1; return rows > 2 }
        let whole = MatrixEndpoint.svg(palette, cells), cut = MatrixEndpoint.svg(palette, cells, stop: stopAfterTwo)
        func count(_ s: String) -> Int { s.components(separatedBy: "<g><title>").count - 1 }
        #expect(count(whole) == 16 && count(cut) == 8, "\(count(whole)) \(count(cut))")
        rows = 0
        let csv = MatrixEndpoint.csv(palette, cells, algorithm: .wcag2, stop: stopAfterTwo)
        #expect(csv.split(separator: "\r\n").count == 1 + 8)
        rows = 0
        let cutJSON = MatrixEndpoint.json(palette, cells, algorithm: .wcag2, stop: stopAfterTwo)
        #expect(cutJSON.count < MatrixEndpoint.json(palette, cells, algorithm: .wcag2).count)
    }
}
