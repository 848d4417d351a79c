#define _GNU_SOURCE
#include "process_support.h"
#include <fcntl.h>
#include <unistd.h>
#include <stdlib.h>
#include <string.h>
#include <spawn.h>
#include <signal.h>
#include <sys/syscall.h>
#include <sched.h>

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

int gcdquiz_thread_id(void) {
#ifdef __linux__
    return (int)syscall(SYS_gettid);
#else
    return (int)getpid();
#endif
}

static int dying_thread_descriptor = -1;

/// Async-signal-safe: formats by hand, one write(2), then the default action by re-raising
/// (SA_RESETHAND restored it; SA_NODEFER lets the signal through at once).
static void report_dying_thread(int signal) {
    char buffer[48];
    char digits[24];
    int length = 0;
    buffer[length++] = 'T';
    buffer[length++] = ' ';
    long values[2] = { (long)gcdquiz_thread_id(), (long)signal };
    for (int v = 0; v < 2; v++) {
        long value = values[v] < 0 ? 0 : values[v];
        int count = 0;
        do {
            digits[count++] = (char)('0' + value % 10);
            value /= 10;
        } while (value > 0 && count < (int)sizeof(digits));
        while (count > 0) buffer[length++] = digits[--count];
        buffer[length++] = v == 0 ? ' ' : '\n';
    }
    if (dying_thread_descriptor >= 0) {
        ssize_t ignored = write(dying_thread_descriptor, buffer, (size_t)length);
        (void)ignored;
    }
    raise(signal);
}

int gcdquiz_report_dying_thread(int descriptor) {
    dying_thread_descriptor = descriptor;
    struct sigaction action;
    memset(&action, 0, sizeof action);
    action.sa_handler = report_dying_thread;
    sigemptyset(&action.sa_mask);
    action.sa_flags = SA_RESETHAND | SA_NODEFER;
    int signals[] = { SIGILL, SIGTRAP, SIGABRT, SIGSEGV, SIGBUS, SIGFPE };
    for (unsigned i = 0; i < sizeof signals / sizeof signals[0]; i++) {
        if (sigaction(signals[i], &action, NULL) != 0) return -1;
    }
    return 0;
}

int gcdquiz_affinity_cpu_count(void) {
    cpu_set_t set;
    CPU_ZERO(&set);
    if (sched_getaffinity(0, sizeof(set), &set) == 0) {
        int count = CPU_COUNT(&set);
        if (count > 0) return count;
    }
    long online = sysconf(_SC_NPROCESSORS_ONLN);
    return online > 0 ? (int)online : 1;
}

void gcdquiz_spin_lock(int *flag) {
    while (__atomic_exchange_n(flag, 1, __ATOMIC_ACQUIRE)) {
        while (__atomic_load_n(flag, __ATOMIC_RELAXED)) sched_yield();
    }
}

void gcdquiz_spin_unlock(int *flag) {
    __atomic_store_n(flag, 0, __ATOMIC_RELEASE);
}
