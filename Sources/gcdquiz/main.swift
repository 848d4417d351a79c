import ArgumentParser
import ConcurrencyModel
import Foundation

/// Parses, runs, and turns every failure into DESIGN.md's exit codes: 0 done, 1 bad input (with a
/// diagnostic on standard error), 2 an unexpected outcome or an internal failure.
Output.protectStandardDescriptors()
CharacterLocale.adoptUTF8()
do {
    var command = try GCDQuiz.parseCommandLine()
    try command.run()
} catch let problems as ProblemList {
    Output.write(ProblemRenderer.render(problems.problems, style: .current(for: .standardError)), to: .standardError)
    exit(1)
} catch let failure as CommandFailure {
    Output.write("gcdquiz: " + failure.message + "\n", to: .standardError)
    exit(failure.exitCode)
} catch {
    let code = GCDQuiz.exitCode(for: error)
    if code == .success {
        print(GCDQuiz.fullMessage(for: error))
        exit(0)
    }
    Output.write(GCDQuiz.fullMessage(for: error) + "\n", to: .standardError)
    exit(1)
}
