#ifndef GCDQUIZ_PROCESS_SUPPORT_H
#define GCDQUIZ_PROCESS_SUPPORT_H

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

#endif
