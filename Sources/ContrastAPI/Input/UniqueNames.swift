/// The names of a request list's items (palette colors, `/v1/audit` colors, matrix gradients),
/// each to be given once: names key the answer's rows and columns and what `on` refers to. A
/// repeated name is a 400 naming the item and the first that had it
/// (`'/colors/1' repeats the name 'card' of '/colors/0'; names must be unique`).
struct UniqueNames {
    /// The list's field (`/colors`); items are named by their index in it.
    let list: FieldPath
    /// Each name's first index.
    private(set) var firstIndex: [String: Int] = [:]

    init(of list: FieldPath) { self.list = list }

    /// Adds the name of item `index`.
    /// - Throws: `Problem.invalidField` naming the item when an earlier one has the name.
    mutating func add(_ name: String, at index: Int) throws(Problem) {
        if let first = firstIndex[name] {
            let path = list.appending(index: index)
            throw Problem.invalidField(path, "\(path.display) repeats the name \(ClientText.quoted(name)) of \(list.appending(index: first).display); names must be unique")
        }
        firstIndex[name] = index
    }
}
