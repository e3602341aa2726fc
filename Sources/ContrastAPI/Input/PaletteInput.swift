import ColorScience
import JSONValue

/// One named color of a palette.
struct PaletteColor: Sendable {
    /// Unique within the palette: the given `name`, or the color string itself.
    var name: String
    var color: ResolvedColor
}

extension Fields {
    /// A palette member: an array of color strings or `{"name", "color"}` objects, 1 to `limit`
    /// long, with unique names (a color without a name is named by its string).
    /// - Throws: 400 for an empty palette, wrong types, bad colors or duplicate names; 413 over
    ///   `limit` (naming the limit).
    func palette(_ key: String, limit: Int, hexOrder: HexOrder = .rgba) throws(Problem) -> [PaletteColor] {
        let items = try array(key, required: true, maxCount: limit)!
        if items.isEmpty {
            throw Problem.invalidField(field(key), "\(field(key).display) must hold at least one color")
        }
        var colors: [PaletteColor] = []
        colors.reserveCapacity(items.count)
        var names = UniqueNames(of: field(key))
        for (i, item) in items.enumerated() {
            let path = field(key).appending(index: i)
            let entry: PaletteColor
            switch item {
            case .string(let s):
                entry = PaletteColor(name: s, color: try resolveColor(s, at: path, hexOrder: hexOrder))
            case .object(let o):
                let f = Fields(object: o, path: path, fromQuery: fromQuery)
                try f.rejectUnknown(["name", "color"])
                let color = try f.color("color", required: true, hexOrder: hexOrder)!
                let name = try f.name("name", maxLength: 128) ?? color.input
                entry = PaletteColor(name: name, color: color)
            default:
                throw Problem.invalidField(path, "\(path.display) must be a color string or {\"name\", \"color\"}, not \(item.typeName)")
            }
            try names.add(entry.name, at: i)
            colors.append(entry)
        }
        return colors
    }
}
