import CProcessSupport
import ConcurrencyModel

extension Machine {
    /// The machine live runs happen on: the CPUs this process may use (libdispatch sizes its
    /// worker pools by them, so `taskset -c 0` is a one-core machine) and this platform's
    /// Foundation. Live runs are compared with the model's answer for it.
    public static var live: Machine {
        Machine(cores: Int(gcdquiz_affinity_cpu_count()), platform: .current)
    }
}
