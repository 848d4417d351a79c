import ArgumentParser
import DispatchModel
import Foundation

/// Parses, runs, and turns every failure into DESIGN.md's exit codes: 0 done, 1 bad input (with a
/// diagnostic on standard error), 2 an unexpected outcome or an internal failure.
do {
    var command = try GCDQuiz.parseAsRoot()
    try command.run()
} catch let problems as ProblemList {
    FileHandle.standardError.write(ProblemRenderer.render(problems.problems, style: .current(for: .standardError)))
    exit(1)
} catch let failure as CommandFailure {
    FileHandle.standardError.write(Data(("gcdquiz: " + failure.message + "\n").utf8))
    exit(failure.exitCode)
} catch {
    let code = GCDQuiz.exitCode(for: error)
    if code == .success {
        print(GCDQuiz.fullMessage(for: error))
        exit(0)
    }
    FileHandle.standardError.write(Data((GCDQuiz.fullMessage(for: error) + "\n").utf8))
    exit(1)
}
