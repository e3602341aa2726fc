import Foundation

extension StringProtocol where UTF8View: BidirectionalCollection {
    /// The text without leading and trailing Unicode whitespace (and line breaks, when
    /// `newlines`), exactly as Foundation's `trimmingCharacters(in: .whitespacesAndNewlines)` or
    /// `.whitespaces`; but when both ends are printable ASCII (the usual request value) it
    /// returns at once instead of going through `NSString`, which costs microseconds per call.
    func trimmingWhitespace(newlines: Bool = true) -> String {
        if let first = utf8.first, let last = utf8.last, first > 0x20 && first < 0x7F && last > 0x20 && last < 0x7F {
            return String(self)
        }
        return trimmingCharacters(in: newlines ? .whitespacesAndNewlines : .whitespaces)
    }
}
