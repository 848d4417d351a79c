import Foundation

/// The C library's idea of what a character is (LC_CTYPE). A C program starts in the "C" locale,
/// where libedit cannot store a character outside ASCII in the line it returns: a typed `é` was
/// dropped from the answer. gcdquiz reads and writes UTF-8 whatever the environment says.
enum CharacterLocale {
    /// The environment's LC_CTYPE when it is UTF-8; otherwise (unset, C, POSIX, another
    /// encoding) a UTF-8 locale the system has. Only LC_CTYPE: numbers and messages stay "C".
    static func adoptUTF8() {
        if setlocale(LC_CTYPE, "") != nil && isUTF8 { return }
        for name in ["C.UTF-8", "C.utf8", "en_US.UTF-8"] where setlocale(LC_CTYPE, name) != nil && isUTF8 {
            return
        }
    }

    private static var isUTF8: Bool {
        guard let codeset = nl_langinfo(nl_item(CODESET)) else { return false }
        let name = String(cString: codeset).lowercased()
        return name == "utf-8" || name == "utf8"
    }
}
