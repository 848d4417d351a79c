// swift-tools-version: 6.0
import PackageDescription

let package = Package(
    name: "gcdquiz",
    platforms: [.macOS(.v13)],
    products: [
        .executable(name: "gcdquiz", targets: ["gcdquiz"]),
        // For the libFuzzer target in Tests/FrontEndFuzzer (make fuzz), a package of its own.
        .library(name: "ConcurrencyModel", targets: ["ConcurrencyModel"]),
    ],
    dependencies: [
        .package(url: "https://github.com/swiftlang/swift-syntax", from: "603.0.1"),
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/jpsim/Yams", from: "6.2.2"),
        .package(url: "https://github.com/groue/GRDB.swift", from: "7.10.0"),
        .package(url: "https://github.com/hummingbird-project/swift-mustache", from: "2.1.1"),
    ],
    targets: [
        // How much heap the process holds: the explorer's memory budget (glibc's mallinfo2).
        .target(name: "CHeap"),
        // Snippet → IR → every outcome. Pure: no I/O, no threads.
        .target(
            name: "ConcurrencyModel",
            dependencies: [
                "CHeap",
                .product(name: "SwiftSyntax", package: "swift-syntax"),
                .product(name: "SwiftParser", package: "swift-syntax"),
                .product(name: "SwiftOperators", package: "swift-syntax"),
                .product(name: "SwiftParserDiagnostics", package: "swift-syntax"),
                .product(name: "SwiftDiagnostics", package: "swift-syntax"),
            ]
        ),
        // libedit for the drill: line editing, history, completion (Debian: libedit-dev).
        .systemLibrary(
            name: "CEditLine",
            pkgConfig: "libedit",
            providers: [.apt(["libedit-dev"])]
        ),
        // prctl for the live runner's child processes: Swift cannot call a variadic C function.
        .target(name: "CProcessSupport"),
        // The IR executed on real libdispatch, many times, in child processes with a watchdog.
        .target(
            name: "LiveRun",
            dependencies: [
                "ConcurrencyModel", "CProcessSupport",
                .product(name: "SwiftSyntax", package: "swift-syntax"),
                .product(name: "SwiftParser", package: "swift-syntax"),
            ]
        ),
        // Questions, the bank, validation, answers and grading.
        .target(
            name: "Quiz",
            dependencies: [
                "ConcurrencyModel",
                "LiveRun",
                .product(name: "Yams", package: "Yams"),
            ]
        ),
        // The learner's memory: the review log in SQLite, FSRS-6 scheduling, the self-assessment report.
        .target(
            name: "Progress",
            dependencies: [
                "Quiz",
                "ConcurrencyModel",
                .product(name: "GRDB", package: "GRDB.swift"),
            ]
        ),
        // Question sheets with answer keys (Markdown, HTML, PDF) and LMS / flashcard exports;
        // the generator gives each variant its own twin of a trace puzzle (`--generated`).
        .target(
            name: "Sheets",
            dependencies: [
                "Quiz",
                "ConcurrencyModel",
                "LiveRun",
                "Generator",
                .product(name: "Mustache", package: "swift-mustache"),
            ]
        ),
        // New trace puzzles: variants of bank puzzles and fresh ones from a grammar, each checked by
        // the model and live. Needs Quiz for `Question` and the bank; swift-syntax to read
        // bank puzzles into the tree it edits; Yams to write question files.
        .target(
            name: "Generator",
            dependencies: [
                "ConcurrencyModel",
                "LiveRun",
                "Quiz",
                .product(name: "SwiftSyntax", package: "swift-syntax"),
                .product(name: "SwiftParser", package: "swift-syntax"),
                .product(name: "Yams", package: "Yams"),
            ]
        ),
        // The command line: argument parsing, rendering, exit codes.
        .executableTarget(
            name: "gcdquiz",
            dependencies: [
                "CEditLine",
                "ConcurrencyModel",
                "Generator",
                "LiveRun",
                "Quiz",
                "Progress",
                "Sheets",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "SwiftIDEUtils", package: "swift-syntax"),
                .product(name: "SwiftParser", package: "swift-syntax"),
            ]
        ),
        // Reference-file checks shared by the test targets that pin output in Tests/Golden.
        .target(name: "GoldenFiles", path: "Tests/GoldenFiles"),
        .testTarget(
            name: "ConcurrencyModelTests",
            dependencies: [
                "ConcurrencyModel", "GoldenFiles",
                .product(name: "SwiftSyntax", package: "swift-syntax"),
                .product(name: "SwiftParser", package: "swift-syntax"),
            ]),
        .testTarget(name: "LiveRunTests", dependencies: ["LiveRun", "ConcurrencyModel"]),
        .testTarget(name: "QuizTests", dependencies: ["Quiz", "ConcurrencyModel", "LiveRun", "GoldenFiles"]),
        .testTarget(name: "ProgressTests", dependencies: ["Progress", "Quiz"]),
        .testTarget(name: "SheetsTests", dependencies: ["Sheets", "Quiz", "ConcurrencyModel", "Generator"]),
        .testTarget(name: "GeneratorTests", dependencies: ["Generator", "Quiz", "ConcurrencyModel", "LiveRun"]),
        .testTarget(name: "EndToEndTests", dependencies: ["Quiz", "LiveRun", "ConcurrencyModel", "CProcessSupport", "Progress", "Generator"]),
    ]
)
