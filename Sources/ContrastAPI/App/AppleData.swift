import AppleDesign
import ColorScience
import Foundation
import JSONValue

/// The Apple reference data bundled with the API, decoded once from two resources:
/// - `apple_system_colors.json`: the system color catalog, the Large-size typography and the
///   platform default/minimum text sizes (sources in `docs/apple-system-colors-sources.md`);
/// - `apple_hig_supplement.json`: provenance and disagreements of catalog values, approximate
///   materials, and the full Dynamic Type table.
struct AppleData: Sendable {
    let catalog: AppleSystemColorCatalog
    let materials: [AppleMaterial]
    /// The materials section's explanatory texts (model, vibrancy, Reduce Transparency, …).
    let materialNotes: JSONObject
    let dynamicType: AppleDynamicTypeTable
    let dynamicTypeSource: String
    /// HIG "Ensuring legibility": default and minimum text size per platform, points.
    let platformTextSizes: [(platform: String, defaultPoints: Double, minimumPoints: Double)]
    /// The Large-size tracking (points) per style from the catalog file (HIG tracking table).
    let largeTracking: [String: Double]

    /// Where the sources are documented, relative to the repository.
    static let sourcesDocument = "docs/apple-system-colors-sources.md"

    /// The data, loaded and decoded on first use (thread-safe lazy global constant).
    static let shared: Result<AppleData, AppleDataError> = Result { () throws(AppleDataError) in try load() }

    /// The data, or a 500 problem if the bundled resources are unreadable (a packaging defect,
    /// never caused by a request).
    static func get() throws(Problem) -> AppleData {
        switch shared {
        case .success(let d): return d
        case .failure(let e):
            throw Problem(status: 500, kind: "reference-data-unavailable", title: "Reference data unavailable",
                          detail: "the bundled Apple reference data could not be loaded: \(e.reason)")
        }
    }

    struct AppleDataError: Error, Sendable {
        var reason: String
    }

    /// The SwiftPM resource bundle's directory name, installed beside the executable.
    static let bundleName = "ContrastService_ContrastAPI.resources"

    /// Why the resource bundle cannot be used, or nil when it is installed: SwiftPM's
    /// `Bundle.module` stops the process when the bundle is neither beside the executable nor in
    /// the build directory (e.g. a container that copied only the binary), so this is checked
    /// first and a packaging mistake is a clear error instead of a crash. The executable's
    /// directory comes from /proc/self/exe (where Foundation's `Bundle.main` finds it on Linux)
    /// and the bundle's from `access(2)`, without building a `Bundle`: the server checks at
    /// start, and a `Bundle.main` built then cost every plain `POST /v1/contrast` 20–80
    /// instructions more, by the heap it left.
    static func bundleProblem() -> String? { checkedBundle?.reason }

    /// Whether `bundleProblem()` is that the bundle's folder is not beside the executable at all
    /// (every resource fails), rather than one file of it missing or damaged.
    static var bundleIsAbsent: Bool { checkedBundle?.absent == true }

    /// Why the bundle cannot be used.
    private struct BundleProblem: Sendable { var reason: String; var absent: Bool }

    /// `bundleProblem()`'s answer, found once (each resource's loader asks, and the check reads
    /// every file of the bundle).
    private static let checkedBundle: BundleProblem? = findBundleProblem()

    private static func findBundleProblem() -> BundleProblem? {
        #if os(Linux)
        guard let exe = ServerRunner.executablePath() else { return nil }
        let beside = String(exe[..<(exe.lastIndex(of: "/") ?? exe.endIndex)]) + "/" + bundleName
        guard access(beside, F_OK) == 0 else {
            return BundleProblem(reason: "resource bundle \(bundleName) not found beside the executable (\(beside)); install it next to contrast-server", absent: true)
        }
        // Each file present and not empty (a hostile pass: an empty bundle folder started and
        // answered 500); their contents are read on first use, as before.
        for file in bundleFiles {
            var info = stat()
            guard stat(beside + "/" + file, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG, info.st_size > 0 else {
                return BundleProblem(reason: "resource bundle \(bundleName) beside the executable lacks \(file) or it is empty (\(beside)); install the whole bundle of this build next to contrast-server", absent: false)
            }
            // A cut file (a copy that stopped short) is no JSON document: its structure must be
            // one whole document (an operator's pass: a problem_types.json holding `{` started,
            // and /problems/ answered 404). Not a parse: loading the data at start cost every
            // plain POST (above); what it holds is decoded in a child (`--check-resources`).
            guard isWholeJSONDocument(beside + "/" + file, size: Int(info.st_size)) else {
                return BundleProblem(reason: "resource bundle \(bundleName) beside the executable holds a damaged \(file): it does not open and close as one JSON document within 64 levels of nesting and 64 MiB (\(beside)); install the whole bundle of this build next to contrast-server", absent: false)
            }
        }
        #endif
        return nil
    }

    #if os(Linux)
    /// Whether the file at `path` (`size` bytes) holds one whole JSON document as far as its
    /// structure goes: strings closed (escapes followed), brackets and braces balanced and
    /// matched, the root an object or array with only whitespace after it. A file cut anywhere
    /// fails; values are not parsed, and nothing is kept: the bytes are read into one buffer
    /// (mapped, past malloc's threshold) and let go. Over 64 MiB is not a resource of this build.
    static func isWholeJSONDocument(_ path: String, size: Int) -> Bool {
        guard size > 0, size <= 64 << 20 else { return false }
        let fd = open(path, O_RDONLY)
        guard fd >= 0 else { return false }
        defer { close(fd) }
        var bytes = [UInt8](repeating: 0, count: size)
        var read = 0
        while read < size {
            let n = bytes.withUnsafeMutableBytes { pread(fd, $0.baseAddress! + read, size - read, off_t(read)) }
            guard n > 0 else { return false }
            read += n
        }
        return isWholeJSONStructure(bytes)
    }
    #endif

    /// `isWholeJSONDocument`'s check on bytes in memory (at most 64 levels of nesting).
    static func isWholeJSONStructure(_ bytes: [UInt8]) -> Bool {
        var closers = [UInt8](repeating: 0, count: 64)
        var depth = 0, inString = false, escaped = false, rootDone = false, started = false
        for b in bytes {
            if inString {
                if escaped { escaped = false } else if b == 0x5C { escaped = true } else if b == 0x22 { inString = false }
                continue
            }
            switch b {
            case 0x20, 0x0A, 0x0D, 0x09: continue
            case _ where rootDone: return false
            case 0x22: inString = true
            case 0x7B, 0x5B:
                guard depth < closers.count else { return false }
                closers[depth] = b == 0x7B ? 0x7D : 0x5D
                depth += 1
                started = true
            case 0x7D, 0x5D:
                guard depth > 0, closers[depth - 1] == b else { return false }
                depth -= 1
                if depth == 0 { rootDone = true }
            default:
                guard started else { return false }  // the root is an object or an array
            }
        }
        return rootDone && !inString
    }

    /// The files of the resource bundle (Package.swift's `resources`).
    static let bundleFiles = ["apple_system_colors.json", "apple_hig_supplement.json", "openapi.json", "problem_types.json"]

    static func resource(_ name: String) throws(AppleDataError) -> JSONObject {
        if let reason = bundleProblem() { throw AppleDataError(reason: reason) }
        let url = Bundle.module.url(forResource: name, withExtension: "json")
            ?? Bundle.module.url(forResource: name, withExtension: "json", subdirectory: "Resources")
        guard let url, let data = try? Data(contentsOf: url) else {
            throw AppleDataError(reason: "resource \(name).json not found in the bundle")
        }
        do {
            guard case .object(let o) = try JSONParser.parse(Array(data), maxDepth: 16) else {
                throw AppleDataError(reason: "\(name).json is not a JSON object")
            }
            return o
        } catch let e as JSONParseError {
            throw AppleDataError(reason: "\(name).json: \(e.description)")
        } catch {
            throw AppleDataError(reason: "\(name).json: \(error)")
        }
    }

    static func load() throws(AppleDataError) -> AppleData {
        let colors = try resource("apple_system_colors")
        let supplement = try resource("apple_hig_supplement")
        let catalog = try decodeCatalog(colors, supplement)
        let (materials, notes) = try decodeMaterials(supplement)
        let (table, source) = try decodeDynamicType(supplement)
        var platforms: [(String, Double, Double)] = []
        if case .object(let sizes)? = colors["text_size_default_min_pt"] {
            for (platform, value) in sizes.members {
                if case .array(let pair) = value, pair.count == 2, case .number(let d) = pair[0], case .number(let m) = pair[1] {
                    platforms.append((platform, d, m))
                }
            }
        }
        var tracking: [String: Double] = [:]
        if case .object(let styles)? = colors["typography_iOS_Large"] {
            for (style, value) in styles.members {
                if case .number(let t)? = value["tracking_pt"] { tracking[style] = t }
            }
        }
        return AppleData(catalog: catalog, materials: materials, materialNotes: notes, dynamicType: table,
                         dynamicTypeSource: source, platformTextSizes: platforms, largeTracking: tracking)
    }

    // MARK: Catalog

    /// `{"r", "g", "b", "a"}` → AppleRGBA (alpha as the 8-bit value it stands for, see
    /// `AppleRGBA.eightBitAlpha`); nil for JSON null; error for anything malformed.
    static func rgba(_ value: JSON, at path: String) throws(AppleDataError) -> AppleRGBA? {
        if case .null = value { return nil }
        guard case .object(let o) = value, case .number(let r)? = o["r"], case .number(let g)? = o["g"],
            case .number(let b)? = o["b"]
        else { throw AppleDataError(reason: "\(path) is not an {r, g, b, a} color") }
        var a = 1.0
        if case .number(let alpha)? = o["a"] { a = alpha }
        let c = AppleRGBA(red: r, green: g, blue: b, alpha: AppleRGBA.eightBitAlpha(a))
        guard c.isValid else { throw AppleDataError(reason: "\(path) is out of range") }
        return c
    }

    /// Data-file variant keys → variants (backgrounds carry base/elevated for dark).
    static let variantKeys: [String: AppleColorVariant] = [
        "light": AppleColorVariant(appearance: .light, contrast: .standard),
        "light_IC": AppleColorVariant(appearance: .light, contrast: .increased),
        "dark": AppleColorVariant(appearance: .dark, contrast: .standard),
        "dark_IC": AppleColorVariant(appearance: .dark, contrast: .increased),
        "dark_base": AppleColorVariant(appearance: .dark, contrast: .standard, level: .base),
        "dark_elevated": AppleColorVariant(appearance: .dark, contrast: .standard, level: .elevated),
        "dark_IC_base": AppleColorVariant(appearance: .dark, contrast: .increased, level: .base),
        "dark_IC_elevated": AppleColorVariant(appearance: .dark, contrast: .increased, level: .elevated),
    ]

    /// Data-file generation keys → generations.
    static let generationKeys: [String: AppleCatalogGeneration] = [
        "iOS15_18": .ios15to18, "iOS13_18": .ios15to18, "pre_iOS26": .ios15to18, "iOS26": .ios26,
    ]

    /// One token's variants (`{"light": {...}, "dark": {...}, ...}`); unknown keys are ignored.
    static func variants(_ value: JSON, at path: String) throws(AppleDataError) -> [AppleColorVariant: AppleRGBA] {
        guard case .object(let o) = value else { throw AppleDataError(reason: "\(path) is not an object") }
        var table: [AppleColorVariant: AppleRGBA] = [:]
        for (key, v) in o.members {
            guard let variant = variantKeys[key] else { continue }
            if let c = try rgba(v, at: "\(path).\(key)") { table[variant] = c }
        }
        return table
    }

    static func decodeCatalog(_ colors: JSONObject, _ supplement: JSONObject) throws(AppleDataError) -> AppleSystemColorCatalog {
        var list: [AppleSystemColor] = []
        func addSame(_ section: String, _ category: (String) -> AppleColorCategory) throws(AppleDataError) {
            guard case .object(let tokens)? = colors[section] else { throw AppleDataError(reason: "section \(section) missing") }
            for (name, value) in tokens.members where !name.hasPrefix("_") {
                let path = "\(section).\(name)"
                let table = try variants(value, at: path)
                var values: [AppleCatalogGeneration: [AppleColorVariant: AppleRGBA]] = [:]
                var entries: [AppleCatalogGeneration: String] = [:]
                for g in AppleCatalogGeneration.allCases { values[g] = table; entries[g] = path }
                list.append(AppleSystemColor(name: name, category: category(name), values: values, entries: entries))
            }
        }
        /// A token whose values are split by generation (`{"iOS13_18": {...}, "iOS26": {...}}`).
        func addByGeneration(_ name: String, _ value: JSON, _ path: String, _ category: AppleColorCategory) throws(AppleDataError) {
            guard case .object(let gens) = value else { throw AppleDataError(reason: "\(path) is not an object") }
            var values: [AppleCatalogGeneration: [AppleColorVariant: AppleRGBA]] = [:]
            var entries: [AppleCatalogGeneration: String] = [:]
            for (key, v) in gens.members {
                guard let g = generationKeys[key] else { continue }
                entries[g] = "\(path).\(key)"
                if case .null = v { values[g] = [:]; continue }
                values[g] = try variants(v, at: "\(path).\(key)")
            }
            list.append(AppleSystemColor(name: name, category: category, values: values, entries: entries))
        }

        try addSame("backgrounds") { $0.contains("Grouped") ? .groupedBackground : .background }
        try addSame("labels") { _ in .label }
        try addSame("fills") { _ in .fill }
        guard let separator = colors["separator"], let link = colors["link"] else {
            throw AppleDataError(reason: "separator or link missing")
        }
        try addByGeneration("separator", separator, "separator", .separator)
        if let opaque = colors["opaqueSeparator"] {
            let table = try variants(opaque, at: "opaqueSeparator")
            list.append(AppleSystemColor(name: "opaqueSeparator", category: .separator,
                                         values: [.ios15to18: table, .ios26: table],
                                         entries: [.ios15to18: "opaqueSeparator", .ios26: "opaqueSeparator"]))
        }
        try addByGeneration("link", link, "link", .link)
        try addSame("grays") { _ in .gray }

        // Tints: one object per generation; a name may be missing from a generation.
        guard case .object(let tints)? = colors["tints"] else { throw AppleDataError(reason: "section tints missing") }
        var tintOrder: [String] = []
        var tintValues: [String: [AppleCatalogGeneration: [AppleColorVariant: AppleRGBA]]] = [:]
        var tintEntries: [String: [AppleCatalogGeneration: String]] = [:]
        for (genKey, genValue) in tints.members {
            guard let g = generationKeys[genKey], case .object(let names) = genValue else { continue }
            for (name, value) in names.members where !name.hasPrefix("_") {
                let path = "tints.\(genKey).\(name)"
                if tintValues[name] == nil { tintOrder.append(name); tintValues[name] = [:]; tintEntries[name] = [:] }
                tintValues[name]![g] = try variants(value, at: path)
                tintEntries[name]![g] = path
            }
        }
        for name in tintOrder {
            list.append(AppleSystemColor(name: name, category: .tint, values: tintValues[name]!, entries: tintEntries[name]!))
        }

        // Provenance and disagreements.
        var rules: [AppleColorProvenance] = []
        if case .array(let items)? = supplement["catalogProvenance"] {
            for (i, item) in items.enumerated() {
                let path = "catalogProvenance[\(i)]"
                guard case .string(let source)? = item["source"], case .string(let conf)? = item["confidence"],
                    let confidence = AppleConfidence(rawValue: conf)
                else { throw AppleDataError(reason: "\(path) lacks source or confidence") }
                rules.append(AppleColorProvenance(
                    name: item["name"].flatMap(stringValue),
                    category: try enumValue(item["category"], AppleColorCategory.self, path),
                    generation: try enumValue(item["generation"], AppleCatalogGeneration.self, path),
                    appearance: try enumValue(item["appearance"], AppleAppearance.self, path),
                    contrast: try enumValue(item["contrast"], AppleContrastSetting.self, path),
                    confidence: confidence, source: source))
            }
        }
        var notes: [AppleSourceNote] = []
        if case .array(let items)? = supplement["disagreements"] {
            for (i, item) in items.enumerated() {
                let path = "disagreements[\(i)]"
                guard case .string(let name)? = item["name"], case .string(let text)? = item["text"] else {
                    throw AppleDataError(reason: "\(path) lacks name or text")
                }
                var alternative: AppleRGBA?
                if let v = item["alternative"] { alternative = try rgba(v, at: "\(path).alternative") }
                notes.append(AppleSourceNote(
                    name: name,
                    generation: try enumValue(item["generation"], AppleCatalogGeneration.self, path),
                    appearance: try enumValue(item["appearance"], AppleAppearance.self, path),
                    level: try enumValue(item["level"], AppleInterfaceLevel.self, path),
                    contrast: try enumValue(item["contrast"], AppleContrastSetting.self, path),
                    text: text,
                    alternative: alternative,
                    alternativeSource: item["alternativeSource"].flatMap(stringValue)))
            }
        }
        return AppleSystemColorCatalog(colors: list, provenance: rules, notes: notes)
    }

    static func stringValue(_ j: JSON) -> String? {
        if case .string(let s) = j { return s }
        return nil
    }

    static func enumValue<E: RawRepresentable>(_ j: JSON?, _ type: E.Type, _ path: String) throws(AppleDataError) -> E? where E.RawValue == String {
        guard let j else { return nil }
        if case .null = j { return nil }
        guard case .string(let s) = j, let e = E(rawValue: s) else {
            throw AppleDataError(reason: "\(path): unknown \(E.self) \(j.serializedString)")
        }
        return e
    }

    // MARK: Materials

    static func decodeMaterials(_ supplement: JSONObject) throws(AppleDataError) -> ([AppleMaterial], JSONObject) {
        guard case .object(let section)? = supplement["materials"], case .array(let items)? = section["items"] else {
            throw AppleDataError(reason: "materials.items missing")
        }
        var materials: [AppleMaterial] = []
        for (i, item) in items.enumerated() {
            let path = "materials.items[\(i)]"
            guard case .string(let name)? = item["name"], let kind = AppleMaterialKind(rawValue: name),
                case .string(let uikit)? = item["uikit"], case .string(let swiftUI)? = item["swiftUI"]
            else { throw AppleDataError(reason: "\(path) lacks name, uikit or swiftUI") }
            var tint: [AppleAppearance: AppleRGBA] = [:]
            var source: [AppleAppearance: String] = [:]
            for appearance in AppleAppearance.allCases {
                guard let v = item[appearance.rawValue], let c = try rgba(v, at: "\(path).\(appearance.rawValue)"),
                    case .string(let s)? = v["source"]
                else { throw AppleDataError(reason: "\(path).\(appearance.rawValue) missing or without source") }
                tint[appearance] = c
                source[appearance] = s
            }
            materials.append(AppleMaterial(kind: kind, uikitName: uikit, swiftUIName: swiftUI, tint: tint, source: source))
        }
        var notes = JSONObject()
        for (k, v) in section.members where k != "items" { notes.append(k, v) }
        return (materials, notes)
    }

    // MARK: Dynamic Type

    static func decodeDynamicType(_ supplement: JSONObject) throws(AppleDataError) -> (AppleDynamicTypeTable, String) {
        guard case .object(let section)? = supplement["dynamicType"], case .array(let cats)? = section["categories"],
            case .array(let styleItems)? = section["styles"], case .string(let def)? = section["defaultCategory"],
            case .string(let source)? = section["source"]
        else { throw AppleDataError(reason: "dynamicType section incomplete") }
        var categories: [AppleContentSizeCategory] = []
        for (i, c) in cats.enumerated() {
            guard case .string(let name)? = c["name"], case .string(let uikit)? = c["uikit"],
                case .string(let swiftUI)? = c["swiftUI"], case .bool(let ax)? = c["accessibility"]
            else { throw AppleDataError(reason: "dynamicType.categories[\(i)] incomplete") }
            categories.append(AppleContentSizeCategory(name: name, uikitName: uikit, swiftUIName: swiftUI, isAccessibility: ax))
        }
        func numbers(_ j: JSON?) -> [Double]? {
            guard case .array(let a)? = j else { return nil }
            var out: [Double] = []
            for v in a { guard case .number(let d) = v else { return nil }; out.append(d) }
            return out
        }
        var styles: [AppleTextStyle] = []
        for (i, s) in styleItems.enumerated() {
            guard case .string(let name)? = s["name"], case .string(let title)? = s["title"],
                case .string(let w)? = s["weight"], let weight = AppleFontWeight(name: w),
                case .string(let ew)? = s["emphasizedWeight"], let emphasized = AppleFontWeight(name: ew),
                let sizes = numbers(s["sizes"]), let leading = numbers(s["leading"])
            else { throw AppleDataError(reason: "dynamicType.styles[\(i)] incomplete") }
            styles.append(AppleTextStyle(name: name, title: title, weight: weight, emphasizedWeight: emphasized,
                                         sizes: sizes, leading: leading))
        }
        var aliases: [String: String] = [:]
        if case .object(let a)? = section["aliases"] {
            for (k, v) in a.members { if case .string(let s) = v { aliases[k] = s } }
        }
        guard let table = AppleDynamicTypeTable(categories: categories, styles: styles, defaultCategory: def, aliases: aliases) else {
            throw AppleDataError(reason: "dynamicType table is inconsistent (sizes per category, default category)")
        }
        return (table, source)
    }
}
