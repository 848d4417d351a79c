#define _GNU_SOURCE
#include "process_support.h"
#include <fcntl.h>
#include <unistd.h>
#include <stdlib.h>
#include <string.h>
#include <spawn.h>
#include <signal.h>

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

int gcdquiz_open_pseudo_terminal(char *name, unsigned long size) {
    int master = posix_openpt(O_RDWR | O_NOCTTY);
    if (master < 0) return -1;
    if (grantpt(master) != 0 || unlockpt(master) != 0) {
        close(master);
        return -1;
    }
    const char *slave = ptsname(master);
    if (slave == NULL || strlen(slave) + 1 > size) {
        close(master);
        return -1;
    }
    strcpy(name, slave);
    return master;
}

short gcdquiz_spawn_setsid_flag(void) {
#ifdef POSIX_SPAWN_SETSID
    return POSIX_SPAWN_SETSID;
#else
    return 0;
#endif
}

short gcdquiz_spawn_reset_signals(posix_spawnattr_t *attributes) {
    sigset_t none, all;
    sigemptyset(&none);
    sigfillset(&all);
    posix_spawnattr_setsigmask(attributes, &none);
    posix_spawnattr_setsigdefault(attributes, &all);
    return POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF;
}
