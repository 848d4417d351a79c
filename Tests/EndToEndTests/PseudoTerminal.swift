import CProcessSupport
import Foundation

/// Runs gcdquiz on a pseudo-terminal, as a person at a terminal would: keys go in, the screen's
/// text comes out. The child is a session leader with the terminal as its controlling terminal,
/// so Ctrl-C really sends SIGINT.
final class PseudoTerminal {
    let pid: pid_t
    private let master: Int32
    private(set) var transcript = ""

    /// - Parameter size: the terminal's columns and rows, as a window would set them (nil: none,
    ///   as a bare pseudo-terminal has).
    private let progress: IsolatedProgress

    init(arguments: [String], environment: [String: String], size: (columns: Int, rows: Int)? = nil) throws {
        var environment = environment
        progress = IsolatedProgress(&environment)
        var name = [CChar](repeating: 0, count: 256)
        master = gcdquiz_open_pseudo_terminal(&name, UInt(name.count))
        guard master >= 0 else { throw PseudoTerminalError("cannot open a pseudo-terminal") }
        if let size {
            var window = winsize(ws_row: UInt16(size.rows), ws_col: UInt16(size.columns), ws_xpixel: 0, ws_ypixel: 0)
            guard ioctl(master, UInt(TIOCSWINSZ), &window) == 0 else { throw PseudoTerminalError("cannot set the terminal's size") }
        }
        let slavePath = String(cString: name)
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        posix_spawnattr_setflags(&attributes, gcdquiz_spawn_setsid_flag() | gcdquiz_spawn_reset_signals(&attributes))
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, slavePath, O_RDWR, 0)
        posix_spawn_file_actions_adddup2(&actions, 0, 1)
        posix_spawn_file_actions_adddup2(&actions, 0, 2)
        posix_spawn_file_actions_addclose(&actions, master)

        pid = try SpawnedProcess.spawn(arguments, environment: environment, actions: &actions, attributes: &attributes)
    }

    /// Types text; control keys as their bytes ("\u{3}" is Ctrl-C, "\u{1B}[A" the up arrow).
    func type(_ keys: String) {
        let bytes = Array(keys.utf8)
        _ = bytes.withUnsafeBytes { write(master, $0.baseAddress, $0.count) }
    }

    /// Reads until the screen's text (escape sequences removed) contains `text` after `after`
    /// characters of the transcript, or the timeout passes. Returns whether it appeared.
    @discardableResult
    func waitFor(_ text: String, after offset: Int = 0, timeout: Double = 20) -> Bool {
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            if Self.plain(transcript).dropFirst(offset).contains(text) { return true }
            readAvailable(waitMilliseconds: 50)
        }
        return Self.plain(transcript).dropFirst(offset).contains(text)
    }

    /// The plain text seen so far.
    var screen: String { Self.plain(transcript) }

    /// Waits for the process to end; returns its exit status, or nil on timeout.
    func waitForExit(timeout: Double = 20) -> Int32? {
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            readAvailable(waitMilliseconds: 20)
            var status: Int32 = 0
            if waitpid(pid, &status, WNOHANG) == pid {
                readAvailable(waitMilliseconds: 0)
                return (status & 0x7F) == 0 ? (status >> 8) & 0xFF : 128 + (status & 0x7F)
            }
        }
        return nil
    }

    private func readAvailable(waitMilliseconds: Int32) {
        var descriptor = pollfd(fd: master, events: Int16(POLLIN), revents: 0)
        guard poll(&descriptor, 1, waitMilliseconds) > 0 else { return }
        var buffer = [UInt8](repeating: 0, count: 65536)
        let count = read(master, &buffer, buffer.count)
        if count > 0 { transcript += String(decoding: buffer[0..<count], as: UTF8.self) }
    }

    /// Removes ANSI escape sequences and carriage returns: `ESC [ … final byte`, and the short ones
    /// libedit sends for the keypad (`ESC =`, `ESC >`) or a character set (`ESC ( B`).
    static func plain(_ text: String) -> String {
        var result = ""
        var inEscape = false
        var sawBracket = false
        for character in text {
            if inEscape {
                if !sawBracket {
                    if character == "[" { sawBracket = true; continue }
                    if character == "(" || character == ")" { continue }
                    // A two-character sequence, or the character after ESC ( .
                    inEscape = false
                    continue
                }
                // A control sequence ends with a byte from @ to ~ (libedit's insert is ESC [ 1 @).
                if let value = character.asciiValue, (0x40...0x7E).contains(value) { inEscape = false }
                continue
            }
            if character == "\u{1B}" { inEscape = true; sawBracket = false; continue }
            if character == "\r" || character == "\u{7}" { continue }
            result.append(character)
        }
        return result
    }

    deinit {
        kill(pid, SIGKILL)
        var status: Int32 = 0
        waitpid(pid, &status, 0)
        close(master)
        progress.remove()
    }
}

struct PseudoTerminalError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}
