// A small stylesheet scanner for theme files (CSS Syntax 3 §5, simplified to what a token reader
// needs): comments, strings, `url()` tokens, blocks, at-rules (statements and blocks), style rules
// (with CSS Nesting: rules and at-rules inside rules) and declarations, each with the line and
// column it starts at. Selectors and at-rule preludes are kept as text (comments removed,
// whitespace collapsed); declaration values as text with `!important` taken off.
//
// Unlike a browser, which drops what it cannot read, it throws a `TokenError` naming the file and
// line for what would lose tokens in silence: a block, comment, string or bracket that is not
// closed, a stray `}`, a custom property without `:`, nesting deeper than the limit, more
// declarations than the limit.

import ColorScience

/// A stylesheet as a tree of rules, at-rules and declarations.
struct CSSStylesheet {
    /// Line and column (1-based, column in Unicode scalars) of where something starts.
    struct Position: Equatable {
        var line: Int
        var column: Int
    }

    /// `name: value` (a custom property's name keeps its `--`; other names are lowercased).
    struct Declaration {
        var name: String
        /// The value with comments removed, whitespace collapsed and `!important` taken off.
        var value: String
        var important: Bool
        /// Where the name starts.
        var position: Position
        /// A custom property's value longer than `maximumValueLength` characters: its length
        /// (leading whitespace left out, each run of whitespace or comments counted as one
        /// space), the value then holding only its first `maximumValueLength` (never a color).
        var fullLength: Int? = nil
        var isCustomProperty: Bool { name.hasPrefix("--") }
    }

    /// The most characters of a custom property's value kept and read. No color is longer than
    /// 1,024 characters (`CSSColorParser`); a longer value is scanned past, not held (a hostile
    /// pass: one 8 MB value cost 9.5 s of the heavy worker, read as not a color).
    static let maximumValueLength = 65_536

    /// `selector { … }`.
    /// Most selectors in one style rule's list (a long reset such as Eric Meyer's has about 90).
    static let maximumSelectorsInList = 1_024
    /// Most compound selectors in one complex selector (`.a .b > .c` has 3; real ones have a
    /// handful).
    static let maximumCompoundsInSelector = 32
    /// Deepest nesting of `()` in a selector (`:is(:not(.a))` is 2). Mode mapping reads at most
    /// 8 levels of `:is()`, `:where()` and `:not()`; 1.6 million of them (8 MB) had cost 1.3 GB
    /// and 74 s of a heavy worker before (a hostile pass, stop 38).
    static let maximumSelectorNesting = 32
    /// Longest selector list of one style rule, in bytes (as `CSSThemeReader`'s nested selectors).
    static let maximumSelectorLength = 65_536

    struct Rule {
        /// The selector list as written (comments removed, whitespace collapsed).
        var selector: String
        var position: Position
        var children: [Node]
    }

    /// `@name prelude;` or `@name prelude { … }`.
    struct AtRule {
        /// Lowercased, without `@`.
        var name: String
        /// The prelude (comments removed, whitespace collapsed).
        var prelude: String
        var position: Position
        /// The block's contents; nil for a statement (`@import …;`).
        var children: [Node]?
        /// `@name prelude` as one line of text.
        var text: String { prelude.isEmpty ? "@\(name)" : "@\(name) \(prelude)" }
    }

    indirect enum Node {
        case declaration(Declaration)
        case rule(Rule)
        case atRule(AtRule)
    }

    var nodes: [Node]
    /// Declarations read (custom properties and others).
    var declarationCount: Int

    /// Reads `text`.
    /// - Parameters:
    ///   - file: the file's name, for errors.
    ///   - maximumDeclarations: more declarations than this is an error.
    ///   - maximumDepth: blocks nested deeper than this are an error.
    ///   - alreadyCounted: declarations read before (in other files), counted against the limit.
    /// - Throws: `TokenError` with the file and the line and column of the problem.
    static func parse(_ text: String, file: String, maximumDeclarations: Int, maximumDepth: Int,
                      alreadyCounted: Int = 0) throws(TokenError) -> CSSStylesheet {
        var scanner = Scanner(text: text, file: file, maximumDeclarations: maximumDeclarations, maximumDepth: maximumDepth)
        scanner.declarationCount = alreadyCounted
        let nodes = try scanner.contents(depth: 0, opened: nil)
        return CSSStylesheet(nodes: nodes, declarationCount: scanner.declarationCount - alreadyCounted)
    }
}

// MARK: - Scanner

extension CSSStylesheet {
    /// Reads a stylesheet one Unicode scalar at a time, tracking line and column.
    struct Scanner {
        let s: [Unicode.Scalar]
        let file: String
        let maximumDeclarations: Int
        let maximumDepth: Int
        var i = 0
        var line = 1
        var column = 1
        var declarationCount = 0

        init(text: String, file: String, maximumDeclarations: Int, maximumDepth: Int) {
            var scalars = Array(text.unicodeScalars)
            if scalars.first == "\u{FEFF}" { scalars.removeFirst() }
            self.s = scalars
            self.file = file
            self.maximumDeclarations = maximumDeclarations
            self.maximumDepth = maximumDepth
        }

        /// A saved place to come back to after looking ahead.
        struct Mark { var i: Int; var line: Int; var column: Int }
        var mark: Mark { Mark(i: i, line: line, column: column) }
        mutating func reset(to m: Mark) { i = m.i; line = m.line; column = m.column }
        var position: Position { Position(line: line, column: column) }

        var atEnd: Bool { i >= s.count }
        func peek(_ k: Int = 0) -> Unicode.Scalar? { i + k < s.count ? s[i + k] : nil }

        mutating func advance() {
            let c = s[i]
            i += 1
            if c == "\n" || c == "\u{0C}" || (c == "\r" && peek() != "\n") {
                line += 1
                column = 1
            } else {
                column += 1
            }
        }

        func error(_ reason: String, at p: Position, path: String? = nil) -> TokenError {
            TokenError(file: file, path: path, location: TokenLocation(file: file, line: p.line, column: p.column), reason: reason)
        }

        static func isWhitespace(_ c: Unicode.Scalar) -> Bool {
            c == " " || c == "\t" || c == "\n" || c == "\r" || c == "\u{0C}"
        }
        static func isNameChar(_ c: Unicode.Scalar) -> Bool {
            (c >= "a" && c <= "z") || (c >= "A" && c <= "Z") || (c >= "0" && c <= "9") || c == "-" || c == "_" || c.value >= 0x80
        }

        var atCommentStart: Bool { peek() == "/" && peek(1) == "*" }

        /// Skips a comment that starts here.
        mutating func skipComment() throws(TokenError) {
            let start = position
            advance(); advance()
            while !atEnd {
                if peek() == "*" && peek(1) == "/" { advance(); advance(); return }
                advance()
            }
            throw error("the comment opened here ('/*') is not closed: the file ends first", at: start)
        }

        mutating func skipWhitespaceAndComments() throws(TokenError) {
            while let c = peek() {
                if Self.isWhitespace(c) { advance() }
                else if atCommentStart { try skipComment() }
                else { return }
            }
        }

        /// Copies an escape that starts here (`\` and the character after it, unless that is a
        /// line break, which no escape holds) into `out`.
        mutating func copyEscape(into out: inout String) {
            out.unicodeScalars.append("\\")
            advance()
            if let next = peek(), next != "\n", next != "\r", next != "\u{0C}" { out.unicodeScalars.append(next); advance() }
        }

        /// Copies a string token that starts here (quote included) into `out`.
        mutating func copyString(into out: inout String) throws(TokenError) {
            let start = position
            let quote = s[i]
            out.unicodeScalars.append(quote)
            advance()
            while let c = peek() {
                if c == quote { out.unicodeScalars.append(c); advance(); return }
                if c == "\n" || c == "\r" || c == "\u{0C}" {
                    throw error("the string opened here (\(quote)) is not closed on its line", at: start)
                }
                if c == "\\" {
                    out.unicodeScalars.append(c); advance()
                    if let next = peek() { out.unicodeScalars.append(next); advance() }
                    continue
                }
                out.unicodeScalars.append(c)
                advance()
            }
            throw error("the string opened here (\(quote)) is not closed: the file ends first", at: start)
        }

        /// Whether an unquoted `url(` token starts here (CSS Syntax 3 §4.3.6: `url(` followed by
        /// anything but a quote is one token up to `)`, so `;` and `/*` inside it are text).
        func atUnquotedURL() -> Bool {
            guard i + 3 < s.count, s[i] == "u" || s[i] == "U", s[i + 1] == "r" || s[i + 1] == "R",
                  s[i + 2] == "l" || s[i + 2] == "L", s[i + 3] == "(" else { return false }
            if i > 0 && Self.isNameChar(s[i - 1]) { return false }
            var k = i + 4
            while k < s.count && Self.isWhitespace(s[k]) { k += 1 }
            return k < s.count && s[k] != "\"" && s[k] != "'"
        }

        /// Copies an unquoted `url(…)` token into `out`.
        mutating func copyURL(into out: inout String) throws(TokenError) {
            let start = position
            while let c = peek() {
                out.unicodeScalars.append(c)
                advance()
                if c == ")" { return }
                if c == "\\", let next = peek() { out.unicodeScalars.append(next); advance() }
            }
            throw error("the url( opened here is not closed: the file ends first", at: start)
        }

        // MARK: Block contents

        /// The items of a block (or of the stylesheet when `opened` is nil) up to its `}`.
        mutating func contents(depth: Int, opened: (Position, String)?) throws(TokenError) -> [Node] {
            var nodes: [Node] = []
            while true {
                try skipWhitespaceAndComments()
                guard let c = peek() else {
                    if let (p, what) = opened {
                        throw error("the block of '\(what)' opened here is not closed: the file ends first", at: p)
                    }
                    return nodes
                }
                switch c {
                case "}":
                    if opened == nil { throw error("'}' closes no block", at: position) }
                    advance()
                    return nodes
                case ";":
                    advance()
                case "@":
                    nodes.append(.atRule(try atRule(depth: depth)))
                default:
                    if let node = try declarationOrRule(depth: depth, topLevel: opened == nil) { nodes.append(node) }
                }
            }
        }

        /// Whether the scanner is inside a style rule's block (at any depth of at-rules in it).
        var inStyleRule = false

        mutating func countDeclaration(at p: Position, name: String) throws(TokenError) {
            declarationCount += 1
            if declarationCount > maximumDeclarations {
                throw error("more than \(maximumDeclarations) declarations in the files read together; submit fewer", at: p, path: name.hasPrefix("--") ? name : nil)
            }
        }

        mutating func block(depth: Int, opened p: Position, what: String) throws(TokenError) -> [Node] {
            if depth + 1 > maximumDepth {
                throw error("blocks are nested more than \(maximumDepth) deep", at: p)
            }
            advance() // {
            return try contents(depth: depth + 1, opened: (p, what))
        }

        /// `@name prelude;` or `@name prelude { … }`.
        mutating func atRule(depth: Int) throws(TokenError) -> AtRule {
            let start = position
            advance() // @
            var name = ""
            while let c = peek(), Self.isNameChar(c) { name.unicodeScalars.append(c); advance() }
            name = name.lowercased()
            let prelude = try preludeText()
            let text = prelude.isEmpty ? "@\(name)" : "@\(name) \(prelude)"
            if peek() == "{" {
                let children = try block(depth: depth, opened: position, what: text)
                return AtRule(name: name, prelude: prelude, position: start, children: children)
            }
            if peek() == ";" { advance() }
            return AtRule(name: name, prelude: prelude, position: start, children: nil)
        }

        /// Text up to a `{`, `;` or `}` outside parentheses and brackets (not consumed), with
        /// comments removed and whitespace collapsed.
        mutating func preludeText() throws(TokenError) -> String {
            var long = false
            return try preludeText(declarationMayBeLong: false, long: &long)
        }

        /// `preludeText`; with `declarationMayBeLong` (in a style rule, where a property's value
        /// is text up to `;` too), text past `maximumSelectorLength` is read to its end but not
        /// kept, `long` is set, and only a `{` after it (a selector so long) is refused: a
        /// generated `box-shadow` or `font-family` over 64 KiB is a declaration the reader skips
        /// (a hostile pass: such valid CSS was refused as a selector).
        mutating func preludeText(declarationMayBeLong: Bool, long: inout Bool) throws(TokenError) -> String {
            var out = ""
            let start = position
            var length = 0
            var brackets: [(Unicode.Scalar, Position)] = []
            while let c = peek() {
                if atCommentStart { try skipComment(); out += " "; continue }
                // An escape (CSS Syntax §4.3.7) is the character after it, never a string or a
                // block: `.dark\"` is a class named `dark"` (a hostile pass: refused as an open string).
                if c == "\\" { copyEscape(into: &out); continue }
                if c == "\"" || c == "'" { try copyString(into: &out); continue }
                if atUnquotedURL() { try copyURL(into: &out); continue }
                if brackets.isEmpty && (c == "{" || c == ";" || c == "}") { break }
                if c == "{" || c == "}" {
                    let (open, p) = brackets.last!
                    throw error("the '\(open)' opened here is not closed before '\(c)'", at: p)
                }
                if c == "(" || c == "[" {
                    brackets.append((c, position))
                    guard brackets.count <= CSSStylesheet.maximumSelectorNesting else {
                        throw error("brackets nest deeper than \(CSSStylesheet.maximumSelectorNesting) levels in a selector or at-rule condition (:is(:is(…))): not a theme selector", at: position)
                    }
                }
                if c == ")" || c == "]" {
                    if let (open, _) = brackets.last, (open == "(" && c == ")") || (open == "[" && c == "]") {
                        brackets.removeLast()
                    } else {
                        throw error("'\(c)' closes nothing", at: position)
                    }
                }
                if !long { out.unicodeScalars.append(c) }
                advance()
                // Bounded while read, not after: an 8 MB selector had been held and collapsed first.
                length += 1
                if length > CSSStylesheet.maximumSelectorLength {
                    guard declarationMayBeLong else {
                        throw error("the selector or at-rule condition is longer than \(CSSStylesheet.maximumSelectorLength) characters: not a theme selector", at: start)
                    }
                    long = true
                }
            }
            if atEnd, let (open, p) = brackets.last {
                throw error("the '\(open)' opened here is not closed: the file ends first", at: p)
            }
            if long && peek() == "{" {
                throw error("the selector is longer than \(CSSStylesheet.maximumSelectorLength) characters: not a theme selector", at: start)
            }
            return Self.collapse(out)
        }

        /// A declaration, or a style rule, starting here. Nil for text that is neither (a stray
        /// word before `;` in a block), which CSS ignores and holds no custom property.
        mutating func declarationOrRule(depth: Int, topLevel: Bool) throws(TokenError) -> Node? {
            let start = position
            let startMark = mark
            // A custom property: `--name` then `:`; its value may hold `{}` blocks.
            if peek() == "-" && peek(1) == "-" {
                var name = ""
                while let c = peek(), Self.isNameChar(c) || c == "\\" {
                    // An escape (CSS Syntax 3 §4.3.7): up to six hex digits and one whitespace
                    // after them, or any one character; decoded below (`--prim\61 ry` had
                    // ended at the space and the declaration was lost in silence).
                    if c == "\\" {
                        name.unicodeScalars.append(c); advance()
                        var digits = 0
                        while digits < 6, let d = peek(), d.properties.isASCIIHexDigit { name.unicodeScalars.append(d); advance(); digits += 1 }
                        if digits > 0 {
                            if peek() == "\r" && peek(1) == "\n" { name.unicodeScalars.append("\r"); advance(); name.unicodeScalars.append("\n"); advance() }
                            else if let w = peek(), w == " " || w == "\t" || w == "\n" || w == "\r" || w == "\u{0C}" { name.unicodeScalars.append(w); advance() }
                        } else if let n = peek(), n != "\n", n != "\r", n != "\u{0C}" { name.unicodeScalars.append(n); advance() }
                        continue
                    }
                    name.unicodeScalars.append(c); advance()
                }
                name = CSSVariables.unescapedName(name)
                try skipWhitespaceAndComments()
                if peek() == ":" {
                    advance()
                    try countDeclaration(at: start, name: name)
                    let (value, important, fullLength) = try declarationValue(name: name)
                    return .declaration(Declaration(name: name, value: value, important: important, position: start, fullLength: fullLength))
                }
                reset(to: startMark)
            }
            // Otherwise: a rule if a `{` comes before any `;` or `}`.
            var long = false
            let text = try preludeText(declarationMayBeLong: inStyleRule, long: &long)
            if peek() == "{" {
                try checkSelector(text, at: start)
                let outer = inStyleRule
                inStyleRule = true
                let children = try block(depth: depth, opened: position, what: text)
                inStyleRule = outer
                return .rule(Rule(selector: text, position: start, children: children))
            }
            if peek() == ";" { advance() }
            guard let colon = text.firstIndex(of: ":") else {
                if text.hasPrefix("--") {
                    let name = String(text.prefix { $0 != " " })
                    throw error("custom property '\(name)' has no ':' before its value", at: start, path: name)
                }
                if topLevel { throw error("'\(text.count > 60 ? String(text.prefix(57)) + "..." : text)' is neither a rule nor an at-rule (no '{' follows)", at: start) }
                return nil
            }
            let name = String(text[..<colon]).trimmedOfSpaces().lowercased()
            // In a style rule only `color-scheme` is read: other properties (`color: red`) are
            // neither kept nor counted (a hostile pass: five Bootstrap stylesheets together,
            // 1.2 MB, were refused as more than 20,000 declarations).
            if inStyleRule && name != "color-scheme" { return nil }
            if long {
                throw error("the value of '\(name.prefix(40))' is longer than \(CSSStylesheet.maximumSelectorLength) characters: no color-scheme is so long", at: start)
            }
            try countDeclaration(at: start, name: name)
            var value = String(text[text.index(after: colon)...])
            let important = Self.takeImportant(&value)
            return .declaration(Declaration(name: name, value: Self.collapse(value), important: important, position: start))
        }

        /// Refuses a style rule's selector list (already bounded in length and bracket depth by
        /// `preludeText`, which read it) of more than `maximumSelectorsInList` selectors,
        /// or with a selector of more than `maximumCompoundsInSelector` compound selectors (parts
        /// joined by a combinator: space, `>`, `+`, `~`), before any of it is read as modes (a
        /// hostile pass: `.m0 .m1 … .m16000` took 13 s, quadratic in its parts, and went on past
        /// the deadline; a list of 900,000 selectors held 1.1 GB before the modes' limit said no).
        /// One pass over the text, outside `()`, `[]` and strings.
        func checkSelector(_ text: String, at start: Position) throws(TokenError) {
            var list = 1, commas = 0, compounds = 1, parens = 0, brackets = 0
            var quote: Unicode.Scalar? = nil, escaped = false
            var pendingCombinator = false, sawPart = false
            for c in text.unicodeScalars {
                if escaped { escaped = false; continue }
                if let q = quote { if c == q { quote = nil }; continue }
                if brackets > 0 {
                    // An attribute selector's inside (`[data-theme = "a b"]`) has no combinators.
                    if c == "[" { brackets += 1 } else if c == "]" { brackets -= 1 } else if c == "\"" || c == "'" { quote = c }
                    continue
                }
                switch c {
                case "\\":
                    escaped = true
                case "\"", "'":
                    quote = c
                case ",":
                    // Every comma, in `:is()` too, starts another complex selector.
                    commas += 1
                    if parens == 0 { list += 1 }
                    guard list <= CSSStylesheet.maximumSelectorsInList, commas <= 4 * CSSStylesheet.maximumSelectorsInList else {
                        throw error("the selector list has more than \(CSSStylesheet.maximumSelectorsInList) selectors: no theme needs so many (each selector of a list is a mode)", at: start)
                    }
                    (compounds, pendingCombinator, sawPart) = (1, false, false)
                    continue
                case " ", ">", "+", "~", "\t", "\n":
                    if sawPart { pendingCombinator = true }
                    continue
                case "(":
                    parens += 1
                case ")":
                    parens = Swift.max(0, parens - 1)
                    pendingCombinator = false
                case "[":
                    brackets = 1
                default:
                    break
                }
                if pendingCombinator {
                    compounds += 1
                    guard compounds <= CSSStylesheet.maximumCompoundsInSelector else {
                        throw error("a selector has more than \(CSSStylesheet.maximumCompoundsInSelector) parts joined by combinators (space, >, +, ~): not a theme selector", at: start)
                    }
                    pendingCombinator = false
                }
                // After `(` the next part begins a selector of its own (`:is( .a`).
                sawPart = c != "("
            }
        }

        /// A custom property's value: up to `;` or the enclosing block's `}`, with `()`, `[]` and
        /// `{}` balanced; comments removed, whitespace collapsed, `!important` taken off.
        mutating func declarationValue(name: String) throws(TokenError) -> (String, Bool, Int?) {
            var out = ""
            // Past `maximumValueLength` the value is scanned (its brackets and strings still
            // matched) but no longer kept.
            var length = 0, kept = ""
            // The end of the text spilled last, where a trailing `!important` may start.
            var lastTail = ""
            // Runs of whitespace (and comments) count as one space, as `collapse` leaves them: a
            // hostile pass's `#777777 <70,000 spaces> !important` was cut and lost its flag.
            var lastWasSpace = true
            var brackets: [(Unicode.Scalar, Position)] = []
            while let c = peek() {
                if atCommentStart {
                    try skipComment()
                    if !lastWasSpace { out += " "; lastWasSpace = true }
                    continue
                }
                if c == "\\" { copyEscape(into: &out); lastWasSpace = false; continue }
                if c == "\"" || c == "'" { try copyString(into: &out); lastWasSpace = false; continue }
                if atUnquotedURL() { try copyURL(into: &out); lastWasSpace = false; continue }
                if Self.isWhitespace(c) {
                    if !lastWasSpace { out.unicodeScalars.append(" ") }
                    lastWasSpace = true
                    advance()
                    continue
                }
                lastWasSpace = false
                if brackets.isEmpty && (c == ";" || c == "}") { break }
                switch c {
                case "(", "[", "{":
                    brackets.append((c, position))
                case ")", "]", "}":
                    let want: Unicode.Scalar = c == ")" ? "(" : c == "]" ? "[" : "{"
                    guard let (open, p) = brackets.last else {
                        throw error("'\(c)' in the value of '\(name)' closes nothing", at: position, path: name)
                    }
                    guard open == want else {
                        throw error("the '\(open)' opened here in the value of '\(name)' is not closed before '\(c)'", at: p, path: name)
                    }
                    brackets.removeLast()
                case ";":
                    // Inside ( or [: valid CSS would read on, but in a token file it is a missing ')'.
                    let (open, p) = brackets.last!
                    if open != "{" {
                        throw error("the '\(open)' opened here in the value of '\(name)' is not closed before ';'", at: p, path: name)
                    }
                default:
                    break
                }
                out.unicodeScalars.append(c)
                advance()
                if out.utf8.count >= 4096 {
                    lastTail = String(out.unicodeScalars.suffix(64))
                    spill(&out, into: &kept, length: &length)
                }
            }
            if let (open, p) = brackets.last {
                throw error("the '\(open)' opened here in the value of '\(name)' is not closed: the file ends first", at: p, path: name)
            }
            if peek() == ";" { advance() }
            if length > 0 {
                var tail = lastTail + out
                spill(&out, into: &kept, length: &length)
                if length > CSSStylesheet.maximumValueLength {
                    // Its `!important` still counts in the cascade.
                    return (String(kept.unicodeScalars.prefix(CSSStylesheet.maximumValueLength)), Self.takeImportant(&tail), length)
                }
                out = kept
            }
            let important = Self.takeImportant(&out)
            return (Self.collapse(out), important, nil)
        }

        /// Moves `out` to `kept` while `kept` holds at most `maximumValueLength` characters,
        /// counting every character in `length`.
        private func spill(_ out: inout String, into kept: inout String, length: inout Int) {
            let n = out.unicodeScalars.count
            if length < CSSStylesheet.maximumValueLength { kept += out }
            length += n
            out = ""
        }

        /// Removes a trailing `!important` (any case, spaces allowed after `!`); whether there was one.
        static func takeImportant(_ value: inout String) -> Bool {
            var scalars = Array(value.unicodeScalars)
            while let last = scalars.last, isWhitespace(last) { scalars.removeLast() }
            let word = "important".unicodeScalars
            guard scalars.count >= word.count + 1 else { return false }
            let tail = String(String.UnicodeScalarView(scalars.suffix(word.count))).lowercased()
            guard tail == "important" else { return false }
            var k = scalars.count - word.count - 1
            while k >= 0 && isWhitespace(scalars[k]) { k -= 1 }
            guard k >= 0, scalars[k] == "!" else { return false }
            value = String(String.UnicodeScalarView(scalars[..<k]))
            return true
        }

        /// Whitespace runs outside strings become one space; none just inside `(` and `)` or at
        /// either end.
        static func collapse(_ text: String) -> String {
            // On UTF-8 bytes: CSS whitespace, quotes, `\\` and the parentheses are ASCII, and a
            // byte of a multi-byte scalar is never ASCII (it was a quarter of reading a compiled
            // 1 MB stylesheet as scalars, stop 38).
            var text = text
            return text.withUTF8 { bytes in
                var out: [UInt8] = []
                out.reserveCapacity(bytes.count)
                var pendingSpace = false
                var quote: UInt8 = 0
                var escaped = false
                for c in bytes {
                    if quote != 0 {
                        out.append(c)
                        if escaped { escaped = false } else if c == 0x5C { escaped = true } else if c == quote { quote = 0 }
                        continue
                    }
                    // space, \t, \n, \r, \f (`isWhitespace`)
                    if c == 0x20 || c == 0x09 || c == 0x0A || c == 0x0D || c == 0x0C { pendingSpace = true; continue }
                    if pendingSpace {
                        if let last = out.last, last != 0x28, c != 0x29 { out.append(0x20) }
                        pendingSpace = false
                    }
                    if c == 0x22 || c == 0x27 { quote = c }
                    out.append(c)
                }
                return String(decoding: out, as: UTF8.self)
            }
        }
    }
}

extension String {
    /// Trimmed of spaces at both ends.
    fileprivate func trimmedOfSpaces() -> String {
        var sub = Substring(self)
        while sub.first == " " { sub.removeFirst() }
        while sub.last == " " { sub.removeLast() }
        return String(sub)
    }
}
