import Testing
@testable import DesignTokens

@Suite struct TokenModelTests {
    @Test("a mode's value overrides the base; other modes take the base")
    func modeOverride() {
        let at = TokenLocation(file: "t.css", line: 1, column: 1)
        let t = DesignToken(path: "--bg", base: .css("#fff"), modes: ["dark": .css("#000")], location: at)
        #expect(t.value(in: "dark") == .css("#000"))
        #expect(t.value(in: "light") == .css("#fff"))
        #expect(t.value(in: nil) == .css("#fff"))
    }
}
