import LiveRun

extension LiveRunner {
    /// A runner whose workers are this very executable, started with the hidden `live-worker`.
    static var selfHosted: LiveRunner {
        LiveRunner(workerExecutable: "/proc/self/exe", workerArguments: ["live-worker"])
    }
}
