#define _GNU_SOURCE
#include "process_support.h"
#include <fcntl.h>
#include <unistd.h>

int gcdquiz_pipe_cloexec(int fds[2]) {
#ifdef __linux__
    return pipe2(fds, O_CLOEXEC);
#else
    if (pipe(fds) != 0) return -1;
    fcntl(fds[0], F_SETFD, FD_CLOEXEC);
    fcntl(fds[1], F_SETFD, FD_CLOEXEC);
    return 0;
#endif
}

#ifdef __linux__
#include <sys/prctl.h>

int gcdquiz_set_parent_death_signal(int signal) {
    return prctl(PR_SET_PDEATHSIG, signal, 0, 0, 0);
}

int gcdquiz_set_timer_slack(unsigned long nanoseconds) {
    return prctl(PR_SET_TIMERSLACK, nanoseconds, 0, 0, 0);
}
#else
int gcdquiz_set_parent_death_signal(int signal) { (void)signal; return -1; }
int gcdquiz_set_timer_slack(unsigned long nanoseconds) { (void)nanoseconds; return -1; }
#endif

int gcdquiz_fork(void) {
    return fork();
}
