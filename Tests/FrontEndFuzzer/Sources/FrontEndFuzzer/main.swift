import CFuzzerDriver
import Foundation

// SwiftPM gives an executable its own entry point, which shadows libFuzzer's main: hand the
// command line to libFuzzer's driver here.
var argc = CommandLine.argc
var argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? = CommandLine.unsafeArgv
exit(LLVMFuzzerRunDriver(&argc, &argv) { data, size in fuzzOneInput(data, size) })
