import Foundation

/// The terminal's mode between two prompts. libedit edits a line in its own mode and puts the
/// terminal back in cooked mode when the line is done; in cooked mode, keys typed while the drill
/// is busy (grading, live runs) are echoed into its output and a Ctrl-D among them is taken by
/// the terminal as an end of file that libedit never sees. Between prompts the terminal is kept
/// without echo and without line editing (signals still on: Ctrl-C still interrupts), so that
/// what is typed ahead waits, byte for byte, for the next prompt. The mode the program found is
/// put back when the drill ends, and at exit whichever way the program exits.
enum TypeAheadMode {
    nonisolated(unsafe) private static var original: termios?

    /// From now on, between prompts: keys wait unechoed. Does nothing when standard input is not
    /// a terminal.
    static func enter() {
        if original == nil {
            var found = termios()
            guard tcgetattr(STDIN_FILENO, &found) == 0 else { return }
            original = found
            atexit { TypeAheadMode.restore() }
        }
        guard var waiting = original else { return }
        waiting.c_lflag &= ~tcflag_t(ICANON | ECHO)
        withUnsafeMutableBytes(of: &waiting.c_cc) { characters in
            characters[Int(VMIN)] = 1
            characters[Int(VTIME)] = 0
        }
        _ = tcsetattr(STDIN_FILENO, TCSANOW, &waiting)
    }

    /// The terminal as the program found it.
    static func restore() {
        guard var found = original else { return }
        _ = tcsetattr(STDIN_FILENO, TCSANOW, &found)
    }
}
