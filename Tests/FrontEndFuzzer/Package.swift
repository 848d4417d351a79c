// swift-tools-version: 6.0
// The front end under libFuzzer (issue 11): swift-syntax parsing, SnippetCompiler's lowering and a
// small exploration, fed mutated snippets. Built only by `make fuzz`, never by the main package's
// `swift build` or `swift test`: it needs `-sanitize=fuzzer` on every module.
import Foundation
import PackageDescription

// A path dependency's identity is its folder's name, which differs between checkouts.
let mainPackage = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

let package = Package(
    name: "FrontEndFuzzer",
    dependencies: [
        .package(path: mainPackage.path),
    ],
    targets: [
        .executableTarget(
            name: "FrontEndFuzzer",
            dependencies: ["CFuzzerDriver", .product(name: "ConcurrencyModel", package: mainPackage.lastPathComponent)]
        ),
        .target(name: "CFuzzerDriver"),
    ]
)
