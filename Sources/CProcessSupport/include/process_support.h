#ifndef GCDQUIZ_PROCESS_SUPPORT_H
#define GCDQUIZ_PROCESS_SUPPORT_H

#include <spawn.h>

/// Linux process controls that Swift cannot call directly (prctl is variadic).

/// Asks the kernel to send `signal` to this process when its parent dies. Returns 0 on success.
int gcdquiz_set_parent_death_signal(int signal);

/// Sets this thread's timer slack in nanoseconds, so that short sleeps are precise.
int gcdquiz_set_timer_slack(unsigned long nanoseconds);

/// pipe2(O_CLOEXEC): a pipe whose ends no spawned process inherits unless they are dup2'ed.
int gcdquiz_pipe_cloexec(int fds[2]);

/// fork(2), which Swift marks unavailable. Only the live runner's single-threaded fork server
/// calls it, so the child may use any function afterwards.
int gcdquiz_fork(void);

/// Opens a pseudo-terminal's master side (ready to use) and writes its slave's path into
/// `name`. Returns the master's descriptor, or -1. Used by tests that drive the drill.
int gcdquiz_open_pseudo_terminal(char *name, unsigned long size);

/// POSIX_SPAWN_SETSID, which Swift does not see without _GNU_SOURCE.
short gcdquiz_spawn_setsid_flag(void);

/// Makes a spawned process start with no signal blocked and every signal at its default
/// action, whatever the spawning thread had (test runners block SIGINT in their threads, and
/// gcdquiz ignores SIGPIPE). Returns the flags to add to the attributes.
short gcdquiz_spawn_reset_signals(posix_spawnattr_t *attributes);

/// How many CPUs this process may run on (sched_getaffinity): what libdispatch sizes its worker
/// pools by, so `taskset -c 0` gives one. Falls back to the CPUs online.
int gcdquiz_affinity_cpu_count(void);

/// A lock whose waiters yield the CPU but never sleep in the kernel: libdispatch's pool monitor
/// counts a thread asleep in a futex as blocked and adds a worker for it, which the snippet's own
/// code would never cause. `flag` starts at 0.
void gcdquiz_spin_lock(int *flag);
void gcdquiz_spin_unlock(int *flag);

/// This thread's kernel id (gettid), as /proc/self/task names it.
int gcdquiz_thread_id(void);

/// Makes the live runner's child say which thread dies: on SIGILL, SIGTRAP, SIGABRT, SIGSEGV,
/// SIGBUS or SIGFPE, the dying thread writes "T <thread id> <signal>\n" to `descriptor` with one
/// write(2), then the signal kills the process as it would have. A trap is then pinned on the
/// call that thread had announced. Returns 0 on success.
int gcdquiz_report_dying_thread(int descriptor);

#endif
