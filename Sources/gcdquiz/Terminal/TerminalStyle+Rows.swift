extension TerminalStyle {
    /// A table row whose last cell is prose (why a run deadlocks, what the model says): wrapped
    /// at the terminal's width, its continuation lines starting under that cell, at
    /// `proseColumn`, or 6 columns in when the cell starts so far right that less than a third
    /// of the line would be left for it. Unchanged when the output is not a terminal.
    func wrappedRow(_ row: String, proseColumn: Int) -> String {
        guard let width else { return row }
        let indent = width - proseColumn >= width / 3 ? proseColumn : 6
        return wrapped(row, firstLineWidth: 0, indent: indent)
    }

    /// How many columns a bar may take at the end of a row whose other cells take `used`
    /// columns: `preferred` when they fit, less on a narrow terminal, and never under 4 (a bar
    /// too short to compare is left out by its caller when this is 0).
    func barWidth(preferred: Int, used: Int) -> Int {
        guard let width else { return preferred }
        let room = width - used - 1
        return room >= 4 ? min(preferred, room) : 0
    }
}
