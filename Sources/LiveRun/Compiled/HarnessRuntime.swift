/// The code compiled into every harness besides the snippet: a fork server written in C that
/// starts before Swift's `main` (so that each child is forked before any thread or task exists),
/// the child's quiescence monitor, counters of the snippet's unstructured tasks and of dispatch
/// timers; and a small Swift file the rewritten snippet calls into (`HarnessProgram`).
/// Bump `version` whenever either changes: it is part of the cache key.
enum HarnessRuntime {
    static let version = 16

    /// Compiled with clang and linked into the harness. The server speaks the live workers'
    /// line protocol (`WorkerMessage`, `BatchCommand`) on its standard streams, so the parent
    /// drives it as it drives an interpreter worker.
    static let cSource = #"""
        // gcdquiz live harness (C part): a fork server that runs before Swift's main, the quiescence
        // monitor of each child, and counters of pending dispatch timers.
        #define _GNU_SOURCE
        #include <dlfcn.h>
        #include <link.h>
        #include <elf.h>
        #include <sys/mman.h>
        #include <sys/stat.h>
        #include <errno.h>
        #include <fcntl.h>
        #include <poll.h>
        #include <pthread.h>
        #include <sched.h>
        #include <signal.h>
        #include <stdatomic.h>
        #include <stdint.h>
        #include <stdio.h>
        #include <stdlib.h>
        #include <string.h>
        #include <sys/prctl.h>
        #include <sys/wait.h>
        #include <sys/syscall.h>
        #include <linux/futex.h>
        #include <time.h>
        #include <unistd.h>
        #include <dirent.h>

        typedef uint64_t gq_time_t;
        typedef void (*gq_function_t)(void *);

        static _Atomic long gq_tasks;        // unstructured tasks made and not yet ended
        static _Atomic long gq_timers;       // dispatch_after timers set and not yet run to their end
        static _Atomic long gq_progress;     // bumps at every print, task start/end, timer fired
        static _Atomic int gq_top_ended;     // the top-level code reached its end
        static _Atomic int gq_wake;          // bumped when the run may just have ended: the monitor looks at once
        static int gq_control = -1;          // the child's control pipe to the server
        static uint64_t gq_run_seed;
        static unsigned gq_chance, gq_longest; // jitter: chance of 1024, longest pause in us
        static long gq_keeps_time;           // the snippet sleeps or sets timers: a run held this many us is late (0: never)
        static int gq_tasks_alone;           // only tasks run the snippet's code: the run ends with the last (`endsWithLastTask`)
        static uintptr_t gq_dispatch_lo, gq_dispatch_hi; // libdispatch's writable data

        int gq_task_created(void);
        void gq_task_started(int token);
        void gq_task_ended(void);
        void gq_top_level_ended(void);
        void gq_jitter(void);
        void gq_ready_print(void);

        static uint64_t gq_mix(uint64_t v) {
            uint64_t z = v + 0x9E3779B97F4A7C15ULL;
            z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
            z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
            return z ^ (z >> 31);
        }

        static uint64_t gq_now(void) {
            struct timespec t;
            clock_gettime(CLOCK_MONOTONIC, &t);
            return (uint64_t)t.tv_sec * 1000000000ULL + (uint64_t)t.tv_nsec;
        }

        static void gq_nudge(void) {
            atomic_fetch_add(&gq_wake, 1);
            syscall(SYS_futex, &gq_wake, FUTEX_WAKE_PRIVATE, 1, NULL, NULL, 0);
        }

        static _Atomic uint64_t gq_point;
        void gq_jitter(void) {
            atomic_fetch_add(&gq_progress, 1);
            if (gq_chance == 0) return;
            uint64_t roll = gq_mix(gq_run_seed ^ (atomic_fetch_add(&gq_point, 1) * 0xD6E8FEB86659FD93ULL));
            if (roll % 1024 >= gq_chance) return;
            uint64_t micros = (roll >> 20) % (gq_longest + 1);
            if (micros < 5) { sched_yield(); return; }
            // Off the core meanwhile (timer slack cut to 1 ns in the child): a spin here would take
            // a core from the snippet's other threads and from the run beside it, which the
            // model's machine never does.
            struct timespec pause = {0, (long)micros * 1000};
            while (nanosleep(&pause, &pause) != 0 && errno == EINTR) {}
        }

        // Counted where the task's closure is made (before the task can run or end), its start
        // only a point for jitter.
        int gq_task_created(void) { atomic_fetch_add(&gq_progress, 1); atomic_fetch_add(&gq_tasks, 1); return 1; }
        void gq_task_started(int token) { (void)token; gq_jitter(); }
        void gq_task_ended(void) {
            atomic_fetch_add(&gq_progress, 1);
            if (atomic_fetch_sub(&gq_tasks, 1) == 1 && atomic_load(&gq_top_ended)) gq_nudge();
        }
        void gq_top_level_ended(void) { atomic_fetch_add(&gq_progress, 1); atomic_store(&gq_top_ended, 1); gq_nudge(); }

        // ---- dispatch_after / dispatch_after_f: counted, then passed on unchanged ----
        struct gq_after { gq_function_t function; void *context; void *block; };
        static void (*real_after_f)(gq_time_t, void *, void *, gq_function_t);
        static void *(*block_copy)(const void *);
        static void (*block_release)(const void *);

        static void gq_after_fired(void *box) {
            struct gq_after *after = box;
            if (after->block) {
                void (*invoke)(void *) = *(void (**)(void *))((char *)after->block + 16);
                invoke(after->block);
                block_release(after->block);
            } else {
                after->function(after->context);
            }
            free(after);
            atomic_fetch_add(&gq_progress, 1);
            if (atomic_fetch_sub(&gq_timers, 1) == 1) gq_nudge();
        }

        static void gq_resolve(void) {
            if (!real_after_f) real_after_f = dlsym(RTLD_NEXT, "dispatch_after_f");
            if (!block_copy) block_copy = dlsym(RTLD_DEFAULT, "_Block_copy");
            if (!block_release) block_release = dlsym(RTLD_DEFAULT, "_Block_release");
        }

        void dispatch_after_f(gq_time_t when, void *queue, void *context, gq_function_t function) {
            gq_resolve();
            struct gq_after *after = malloc(sizeof *after);
            after->function = function; after->context = context; after->block = NULL;
            atomic_fetch_add(&gq_timers, 1);
            real_after_f(when, queue, after, gq_after_fired);
        }

        void dispatch_after(gq_time_t when, void *queue, void *block) {
            gq_resolve();
            struct gq_after *after = malloc(sizeof *after);
            after->function = NULL; after->context = NULL; after->block = block_copy(block);
            atomic_fetch_add(&gq_timers, 1);
            real_after_f(when, queue, after, gq_after_fired);
        }

        // ---- the monitor ----
        enum gq_thread_state { GQ_IDLE, GQ_BUSY, GQ_BLOCKED };

        static int gq_read(const char *path, char *buffer, size_t size) {
            int fd = open(path, O_RDONLY | O_CLOEXEC);
            if (fd < 0) return -1;
            ssize_t n = read(fd, buffer, size - 1);
            close(fd);
            if (n < 0) return -1;
            buffer[n] = 0;
            return (int)n;
        }

        // One of the snippet's threads as the monitor knows it: its /proc files stay open from look
        // to look (opening them again each time was a fifth of a short run's time), and its
        // run-queue delay at the last look. Read as /proc/TID/…, not /proc/self/task/TID/…: the
        // kernel takes the latter's dentries apart when the child is reaped at a cost that was most
        // of a run's time (0.7 s of system time in 100 runs of the issue's program, against 0.09 s).
        struct gq_known { pid_t tid; int files[2]; unsigned long long delay; long streak; };
        enum { GQ_SYSCALL, GQ_SCHEDSTAT };
        static const char *const gq_file_names[2] = {"syscall", "schedstat"};
        static struct gq_known gq_known[64];
        static int gq_known_count;
        // The list of the child's threads, read with getdents64 into a buffer of its own: opendir's
        // buffer came from malloc, and the monitor thread's first malloc had glibc make it an arena of
        // its own (four system calls and fresh pages in every child).
        static int gq_task_list = -1;
        static char gq_task_entries[4096] __attribute__((aligned(16)));
        // The thread the last look found busy, if any.
        static pid_t gq_last_busy;

        static struct gq_known *gq_know(pid_t tid) {
            for (int k = 0; k < gq_known_count; k++) if (gq_known[k].tid == tid) return &gq_known[k];
            if (gq_known_count == 64) return NULL; // past 64 threads, read by path each time
            struct gq_known *thread = &gq_known[gq_known_count++];
            thread->tid = tid; thread->delay = 0; thread->streak = 0;
            for (int f = 0; f < 2; f++) thread->files[f] = -1;
            return thread;
        }

        // One of a thread's /proc files, read whole from its start.
        static int gq_read_thread(pid_t tid, struct gq_known *thread, int file, char *buffer, size_t size) {
            char path[64];
            snprintf(path, sizeof path, "/proc/%d/%s", tid, gq_file_names[file]);
            if (!thread) return gq_read(path, buffer, size);
            for (int attempt = 0; attempt < 2; attempt++) {
                if (thread->files[file] < 0) thread->files[file] = open(path, O_RDONLY | O_CLOEXEC);
                if (thread->files[file] < 0) return -1;
                ssize_t n = pread(thread->files[file], buffer, size - 1, 0);
                if (n >= 0) { buffer[n] = 0; return (int)n; }
                // The thread ended (its id may be a new thread's now): open again once.
                close(thread->files[file]); thread->files[file] = -1;
            }
            return -1;
        }

        // How one thread stands: running or waiting for a time (busy), idle in the runtime, or
        // blocked for good unless another thread acts (a semaphore, a lock, a join). One read of
        // /proc/TID/syscall says it all (it was read after /proc/TID/stat, whose state it repeats,
        // a third of the monitor's reads): "running" for a thread on a core or waiting for one,
        // else the system call it sleeps in with its arguments, or -1 with its stack pointer when
        // it waits outside one (a page fault: on its way), and a stack pointer of 0 when it has no
        // stack any more (it has exited: a main thread that left, kept as a zombie).
        static enum gq_thread_state gq_thread(pid_t tid, struct gq_known *thread) {
            char text[512];
            if (gq_read_thread(tid, thread, GQ_SYSCALL, text, sizeof text) < 0) return GQ_IDLE;
            if (strncmp(text, "running", 7) == 0) return GQ_BUSY;
            long number = strtol(text, NULL, 10);
            unsigned long args[6] = {0};
            char *cursor = strchr(text, ' ');
            for (int i = 0; i < 6 && cursor; i++) { args[i] = strtoul(cursor + 1, &cursor, 16); }
            switch (number) {
            case -1:
                return args[0] == 0 ? GQ_IDLE : GQ_BUSY;
            case 232: case 281: case 7: case 271: case 23: case 270: case 130: // epoll, poll, select, sigsuspend
                return GQ_IDLE;
            case 202: // futex
                if (args[0] >= gq_dispatch_lo && args[0] < gq_dispatch_hi) return GQ_IDLE;
                return args[3] ? GQ_BUSY : GQ_BLOCKED;
            default: // nanosleep, clock_nanosleep and anything else: on its way
                return GQ_BUSY;
            }
        }

        // How long one thread has been waiting for a core while it could run (the kernel's
        // run-queue delay, /proc/TID/schedstat), in microseconds: what it waited since the last
        // look, `window` us ago, added to what it had waited before when it waited through most
        // of the window (a hold longer than the monitor's nap shows across several looks).
        static long gq_hold(pid_t tid, struct gq_known *thread, long window) {
            char text[128];
            unsigned long long ran = 0, delay = 0;
            if (!thread || gq_read_thread(tid, thread, GQ_SCHEDSTAT, text, sizeof text) < 0) return 0;
            if (sscanf(text, "%llu %llu", &ran, &delay) != 2 || delay < thread->delay) return 0;
            long held = (long)((delay - thread->delay) / 1000);
            thread->delay = delay;
            thread->streak = held * 2 >= window ? thread->streak + held : held;
            return thread->streak;
        }

        // One look at the threads other than this one: how many are busy and blocked (when
        // `states`), and the longest any of them was held from a core since the last look (when
        // `holds`: the model's clock lets no runnable work wait while a sleep or a timer runs
        // out, so a run in which the machine held a thread about as long as the snippet's
        // shortest delay is late, and what only late runs show is no bug of the model).
        static void gq_look(pid_t self, int states, int holds, long window, int *busy, int *blocked, long *held) {
            *busy = 0; *blocked = 0; *held = 0;
            // When only the states count, one busy thread decides the look (the run goes on, whatever
            // the others do): the thread busy at the last look is read first, and the list no further
            // than the first busy one (reading every thread at every look was most of the monitor's
            // reads in a snippet on the thread pool).
            int first_busy_decides = states && !holds;
            if (first_busy_decides && gq_last_busy) {
                struct gq_known *thread = gq_know(gq_last_busy);
                if (thread && gq_thread(gq_last_busy, thread) == GQ_BUSY) { *busy = 1; return; }
                gq_last_busy = 0;
            }
            if (gq_task_list >= 0) lseek(gq_task_list, 0, SEEK_SET);
            else gq_task_list = open("/proc/self/task", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
            if (gq_task_list < 0) { *busy = 1; return; }
            ssize_t got;
            while ((got = getdents64(gq_task_list, gq_task_entries, sizeof gq_task_entries)) > 0) {
                for (ssize_t at = 0; at < got;) {
                    const struct dirent64 *entry = (const struct dirent64 *)(gq_task_entries + at);
                    at += entry->d_reclen;
                    pid_t tid = (pid_t)atoi(entry->d_name);
                    if (tid <= 0 || tid == self) continue;
                    struct gq_known *thread = gq_know(tid);
                    if (holds) { long hold = gq_hold(tid, thread, window); if (hold > *held) *held = hold; }
                    if (!states) continue;
                    switch (gq_thread(tid, thread)) {
                    case GQ_IDLE: break;
                    case GQ_BUSY:
                        (*busy)++;
                        if (first_busy_decides) { gq_last_busy = tid; return; }
                        break;
                    case GQ_BLOCKED: (*blocked)++; break;
                    }
                }
            }
        }

        static void gq_send(const char *text) {
            size_t length = strlen(text);
            while (length > 0) {
                ssize_t n = write(gq_control, text, length);
                if (n < 0 && errno == EINTR) continue;
                if (n <= 0) return;
                text += n; length -= (size_t)n;
            }
        }

        static void gq_end(const char *message) {
            fflush(stdout);
            gq_send(message);
            _exit(0);
        }

        static void gq_say_late(long micros) {
            char late[48];
            snprintf(late, sizeof late, "L %ld\n", micros);
            gq_send(late);
        }

        static void *gq_monitor(void *unused) {
            (void)unused;
            pid_t self = gettid();
            uint64_t heartbeat = gq_now();
            long seen = -1; int calm = 0, said_late = 0; uint64_t stuck_since = 0, looked = gq_now();
            useconds_t nap = 50;
            for (;;) {
                // A nap, cut short when the last task or the top-level code ends.
                int before = atomic_load(&gq_wake);
                struct timespec pause = {0, (long)nap * 1000};
                uint64_t asleep = gq_now();
                syscall(SYS_futex, &gq_wake, FUTEX_WAIT_PRIVATE, before, &pause, NULL, 0);
                // A machine that kept this thread from running past its nap as long as the snippet's
                // threads may be held (`gq_keeps_time`) may have held them as long: for a snippet
                // that keeps time, the run is late (as the interpreter's `Punctuality` says it), and
                // what only late runs show is no bug of the model.
                uint64_t overslept = gq_now() - asleep;
                if (gq_keeps_time && !said_late && overslept > (uint64_t)nap * 1000 + (uint64_t)gq_keeps_time * 1000) {
                    said_late = 1;
                    gq_say_late((long)(overslept / 1000 - nap));
                }
                if (nap < 1000) nap += nap / 2;
                // Where only tasks run the snippet's code, nothing can print once the top-level code
                // has ended and the last task with it: no thread need be read (the two calm looks
                // below were a seventh of such a run's time). Loaded in this order, so that tasks
                // made by the top-level code are counted before its end is seen.
                if (gq_tasks_alone && !gq_keeps_time && atomic_load(&gq_top_ended) && atomic_load(&gq_tasks) == 0
                    && atomic_load(&gq_timers) == 0) gq_end("F\n");
                if (atomic_load(&gq_top_ended) && atomic_load(&gq_tasks) == 0 && atomic_load(&gq_timers) == 0 && nap > 100) nap = 100;
                uint64_t now = gq_now();
                long timers = atomic_load(&gq_timers);
                long tasks = atomic_load(&gq_tasks);
                int ended = atomic_load(&gq_top_ended);
                long progress = atomic_load(&gq_progress);
                // Something happened since the last look (a print, a task begun or ended): the run is
                // neither over nor stuck, so the threads' states are not read (reading them at every
                // look was a sixth of a short run's time); their holds are, for a snippet that keeps
                // time.
                int moved = progress != seen;
                int states = timers == 0 && !moved, holds = gq_keeps_time && !said_late;
                int busy = 0, blocked = 0; long held = 0;
                if (states || holds) { gq_look(self, states, holds, (long)((now - looked) / 1000), &busy, &blocked, &held); looked = now; }
                if (holds && held > gq_keeps_time) { said_late = 1; gq_say_late(held); }
                if (timers > 0) {
                    calm = 0; stuck_since = 0;
                    if (now - heartbeat > 200000000ULL) { gq_send("E 0\n"); heartbeat = now; }
                    continue;
                }
                if (moved) {
                    if (now - heartbeat > 200000000ULL) { gq_send("E 0\n"); heartbeat = now; }
                    seen = progress; calm = 0; stuck_since = 0; nap = 50;
                    continue;
                }
                if (busy > 0) {
                    if (now - heartbeat > 200000000ULL) { gq_send("E 0\n"); heartbeat = now; }
                    seen = progress; calm = 0; stuck_since = 0;
                    continue;
                }
                // Idle now, and nothing printed and no task begun or ended since the last look: the run
                // is over once a second such look finds every thread idle still.
                calm++;
                if (ended && tasks == 0 && blocked == 0) {
                    if (calm >= 2) gq_end("F\n");
                    continue;
                }
                // Nothing can move, and work is left: stuck, once it has stayed so a while.
                if (!stuck_since) stuck_since = now;
                if (now - stuck_since < 30000000ULL) continue;
                char message[256];
                if (blocked > 0)
                    snprintf(message, sizeof message, "H %d thread%s blocked for good (a semaphore, a lock) and nothing left to wake %s\n",
                             blocked, blocked == 1 ? "" : "s", blocked == 1 ? "it" : "them");
                else if (!ended)
                    snprintf(message, sizeof message, "H the top-level code waits at an await that nothing is left to resume\n");
                else
                    snprintf(message, sizeof message, "H %ld task%s suspended for good: nothing is left to resume %s\n",
                             tasks, tasks == 1 ? "" : "s", tasks == 1 ? "it" : "them");
                gq_end(message);
            }
            return NULL;
        }

        // libdispatch's writable segments (.data and .bss): an idle worker of its pools waits on a
        // futex there; a thread waiting anywhere else waits for the snippet's doing.
        static int gq_dispatch_segment(struct dl_phdr_info *info, size_t size, void *unused) {
            (void)size; (void)unused;
            if (!info->dlpi_name || !strstr(info->dlpi_name, "/libdispatch.so")) return 0;
            for (int i = 0; i < info->dlpi_phnum; i++) {
                const ElfW(Phdr) *segment = &info->dlpi_phdr[i];
                if (segment->p_type != PT_LOAD || !(segment->p_flags & PF_W)) continue;
                uintptr_t lo = info->dlpi_addr + segment->p_vaddr, hi = lo + segment->p_memsz;
                if (!gq_dispatch_lo || lo < gq_dispatch_lo) gq_dispatch_lo = lo;
                if (hi > gq_dispatch_hi) gq_dispatch_hi = hi;
            }
            return 1;
        }

        static void gq_find_dispatch(void) { dl_iterate_phdr(gq_dispatch_segment, NULL); }

        // ---- a library's symbol table ----
        // Calls `visit` for each symbol of the ELF file at `path` (read from disk: the loaded image
        // keeps no section headers), with the symbol's name; nothing when the file cannot be read.
        typedef void (*gq_symbol_visitor)(const ElfW(Sym) *symbol, const char *name, void *context);
        static void gq_each_symbol(const char *path, gq_symbol_visitor visit, void *context) {
            int fd = open(path, O_RDONLY | O_CLOEXEC);
            if (fd < 0) return;
            struct stat status;
            if (fstat(fd, &status) != 0 || (size_t)status.st_size < sizeof(ElfW(Ehdr))) { close(fd); return; }
            char *file = mmap(NULL, (size_t)status.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
            close(fd);
            if (file == MAP_FAILED) return;
            const ElfW(Ehdr) *header = (const ElfW(Ehdr) *)file;
            if (header->e_shoff && header->e_shoff + (size_t)header->e_shnum * sizeof(ElfW(Shdr)) <= (size_t)status.st_size) {
                const ElfW(Shdr) *sections = (const ElfW(Shdr) *)(file + header->e_shoff);
                for (int i = 0; i < header->e_shnum; i++) {
                    if (sections[i].sh_type != SHT_SYMTAB || sections[i].sh_link >= header->e_shnum) continue;
                    const ElfW(Sym) *symbols = (const ElfW(Sym) *)(file + sections[i].sh_offset);
                    const char *names = file + sections[sections[i].sh_link].sh_offset;
                    size_t count = sections[i].sh_size / sizeof(ElfW(Sym));
                    for (size_t k = 0; k < count; k++) visit(&symbols[k], names + symbols[k].st_name, context);
                }
            }
            munmap(file, (size_t)status.st_size);
        }

        // ---- the Swift runtime's cached thread ids ----
        // Swift's locks and once-tokens own themselves by a thread id each thread caches in a
        // thread-local on first use (`ulock_get_tid`); a library constructor has cached the
        // server's main thread's id before any fork, so a child's main thread would take locks
        // under an id not its own, and two threads contending for one (metadata built on first
        // use) spin for ever. Seen here: the child's main thread and a pool thread both in
        // `once_slow`, 70 % of a core each. The server finds those thread-locals in each library's
        // symbol table; each child clears them on its main thread, which then caches its own id.
        typedef struct { unsigned long module; unsigned long offset; } gq_tls_index;
        extern void *__tls_get_addr(gq_tls_index *index);
        static gq_tls_index gq_tid_caches[8];
        static int gq_tid_cache_count;

        static void gq_note_tid_cache(const ElfW(Sym) *symbol, const char *name, void *module) {
            if (ELF64_ST_TYPE(symbol->st_info) != STT_TLS) return;
            if (strcmp(name, "_ZZN5swift14threading_impl5linux13ulock_get_tidEvE3tid") != 0) return;
            if (gq_tid_cache_count < 8) {
                gq_tid_caches[gq_tid_cache_count].module = *(unsigned long *)module;
                gq_tid_caches[gq_tid_cache_count].offset = symbol->st_value;
                gq_tid_cache_count++;
            }
        }

        static int gq_find_tid_caches(struct dl_phdr_info *info, size_t size, void *unused) {
            (void)size; (void)unused;
            if (!info->dlpi_name || !info->dlpi_name[0] || info->dlpi_tls_modid == 0) return 0;
            unsigned long module = info->dlpi_tls_modid;
            gq_each_symbol(info->dlpi_name, gq_note_tid_cache, &module);
            return 0;
        }

        static void gq_forget_thread_ids(void) {
            for (int i = 0; i < gq_tid_cache_count; i++) {
                int *cached = __tls_get_addr(&gq_tid_caches[i]);
                *cached = 0;
            }
        }

        // ---- the server's memory as each child finds it ----
        // A forked child shares the server's pages, but the kernel copies into its page tables only
        // the entries of anonymous memory: each page of a library's code the child runs it faults
        // in anew, from the file (a fifth of a short run's time went to page faults). So the server
        // moves the code and read-only data of each library, in whole aligned 2 MB pieces, into
        // anonymous transparent huge pages at the same address (the same bytes, the same
        // protection): fork then hands each child one entry per 2 MB, and it faults none of them.
        // A mapping over 16 MB (ICU's tables, which a snippet hardly reads) is left as it is: every
        // huge page costs each fork a little. Without transparent huge pages nothing moves (small
        // anonymous pages cost each fork more than the faults they save).
        static int gq_huge_pages_on(void) {
            char text[128];
            if (gq_read("/sys/kernel/mm/transparent_hugepage/enabled", text, sizeof text) < 0) return 0;
            return strstr(text, "[always]") || strstr(text, "[madvise]");
        }

        static void gq_move_to_huge_pages(uintptr_t lo, size_t length, int prot) {
            const size_t huge = 2UL << 20;
            char *area = mmap(NULL, length + huge, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
            if (area == MAP_FAILED) return;
            char *start = (char *)(((uintptr_t)area + huge - 1) & ~(uintptr_t)(huge - 1));
            if (start > area) munmap(area, (size_t)(start - area));
            if (area + length + huge > start + length) munmap(start + length, (size_t)(area + length + huge - (start + length)));
            if (madvise(start, length, MADV_HUGEPAGE) != 0) { munmap(start, length); return; }
            memcpy(start, (const void *)lo, length);
            // mremap puts the copy in the original's place at once: the code that runs meanwhile
            // (this function, libc's) finds the same bytes either way.
            if (mprotect(start, length, prot) != 0 || mremap(start, length, length, MREMAP_MAYMOVE | MREMAP_FIXED, (void *)lo) == MAP_FAILED)
                munmap(start, length);
        }

        static void gq_code_to_huge_pages(void) {
            if (!gq_huge_pages_on()) return;
            const uintptr_t huge = 2UL << 20;
            struct { uintptr_t lo, hi; int prot; } pieces[128];
            int count = 0;
            FILE *maps = fopen("/proc/self/maps", "re");
            if (!maps) return;
            char line[640];
            while (fgets(line, sizeof line, maps) && count < 128) {
                unsigned long lo = 0, hi = 0; char perms[8] = "", path[512] = "";
                if (sscanf(line, "%lx-%lx %7s %*s %*s %*s %511s", &lo, &hi, perms, path) < 4) continue;
                if (path[0] != '/' || perms[0] != 'r' || perms[1] != '-' || hi - lo > (16UL << 20)) continue;
                uintptr_t first = (lo + huge - 1) & ~(huge - 1), last = hi & ~(huge - 1);
                if (first >= last) continue;
                pieces[count].lo = first; pieces[count].hi = last;
                pieces[count].prot = PROT_READ | (perms[2] == 'x' ? PROT_EXEC : 0);
                count++;
            }
            fclose(maps);
            for (int i = 0; i < count; i++) gq_move_to_huge_pages(pieces[i].lo, pieces[i].hi - pieces[i].lo, pieces[i].prot);
        }

        // ---- the snippet's concrete types, made once in the server ----
        // The first use of a type the snippet names (`[Any]` for `print`'s items, `TaskPriority?`,
        // `CheckedContinuation<Int, Never>`) makes the runtime find it by its mangled name, which
        // searched every library's type records in each child: a tenth of a short run's time. The
        // server makes them before forking, through the very cache variables (`…MD`, found in the
        // harness's symbol table) that the snippet's code reads, as that code would: each child
        // then finds them made. Making a type's metadata runs none of the snippet's code.
        static int gq_find_program(struct dl_phdr_info *info, size_t size, void *base) {
            (void)size;
            if (info->dlpi_name && info->dlpi_name[0]) return 0;
            *(uintptr_t *)base = info->dlpi_addr;
            return 1;
        }

        typedef const void *(*gq_lookup_t)(const char *, size_t, const void *, const void *const *);
        typedef struct { gq_lookup_t lookup; uintptr_t base; } gq_type_maker;

        static void gq_make_named_type(const ElfW(Sym) *symbol, const char *name, void *context) {
            const gq_type_maker *maker = context;
            if (ELF64_ST_TYPE(symbol->st_info) != STT_OBJECT || symbol->st_size != 8 || symbol->st_shndx == SHN_UNDEF) return;
            size_t length = strlen(name);
            if (length < 5 || strncmp(name, "$s", 2) != 0 || strcmp(name + length - 2, "MD") != 0) return;
            // Until it is filled, the cache holds the mangled name's offset from it (low half) and
            // its length negated (high half): what __swift_instantiateConcreteTypeFromMangledName reads.
            _Atomic int64_t *cache = (_Atomic int64_t *)(maker->base + symbol->st_value);
            int64_t value = atomic_load(cache);
            if (value >= 0) return;
            const void *type = maker->lookup((const char *)cache + (int32_t)value, (size_t)(-(value >> 32)), NULL, NULL);
            if (type) atomic_store(cache, (int64_t)(uintptr_t)type);
        }

        static void gq_make_named_types(void) {
            gq_type_maker maker = { (gq_lookup_t)dlsym(RTLD_DEFAULT, "swift_getTypeByMangledNameInContext2"), 0 };
            if (!maker.lookup) maker.lookup = (gq_lookup_t)dlsym(RTLD_DEFAULT, "swift_getTypeByMangledNameInContext");
            if (!maker.lookup) return;
            dl_iterate_phdr(gq_find_program, &maker.base);
            gq_each_symbol("/proc/self/exe", gq_make_named_type, &maker);
        }

        // ---- the fork server ----
        static void gq_out(const char *text, size_t length) {
            while (length > 0) {
                ssize_t n = write(STDOUT_FILENO, text, length);
                if (n < 0 && errno == EINTR) continue;
                if (n <= 0) _exit(3);
                text += n; length -= (size_t)n;
            }
        }

        static void gq_printed(const char *line, size_t length) {
            char *escaped = malloc(2 * length + 4);
            size_t k = 0;
            escaped[k++] = 'P'; escaped[k++] = ' ';
            for (size_t i = 0; i < length; i++) {
                char c = line[i];
                if (c == '\\') { escaped[k++] = '\\'; escaped[k++] = '\\'; }
                else if (c == '\r') { escaped[k++] = '\\'; escaped[k++] = 'r'; }
                else if (c == '\t') { escaped[k++] = '\\'; escaped[k++] = 't'; }
                else escaped[k++] = c;
            }
            escaped[k++] = '\n';
            gq_out(escaped, k);
            free(escaped);
        }

        // Reads what the child printed and passes on each whole line: 0 at the end of its output,
        // -1 when nothing is there now (a non-blocking pipe) or on an interruption, else 1.
        static int gq_take_output(int fd, char *pending, size_t *kept) {
            ssize_t got = read(fd, pending + *kept, 65536 - *kept);
            if (got == 0) return 0;
            if (got < 0) return errno == EINTR || errno == EAGAIN ? -1 : 0;
            *kept += (size_t)got;
            size_t start = 0;
            for (size_t i = 0; i < *kept; i++) {
                if (pending[i] == '\n') { gq_printed(pending + start, i - start); start = i + 1; }
            }
            if (start == 0 && *kept == 65536) { gq_printed(pending, *kept); start = *kept; }
            memmove(pending, pending + start, *kept - start);
            *kept -= start;
            return 1;
        }

        static int gq_read_line(char *buffer, size_t size) {
            size_t k = 0;
            while (k + 1 < size) {
                char c; ssize_t n = read(STDIN_FILENO, &c, 1);
                if (n < 0 && errno == EINTR) continue;
                if (n <= 0) return k > 0 ? 1 : 0;
                if (c == '\n') break;
                buffer[k++] = c;
            }
            buffer[k] = 0;
            return 1;
        }

        static void gq_child(int output, int control, uint64_t seed, int jitter, long run) {
            prctl(PR_SET_PDEATHSIG, SIGKILL);
            prctl(PR_SET_TIMERSLACK, 1UL);
            gq_forget_thread_ids();
            // The server's standard input carries the parent's commands: not for the snippet.
            int nothing = open("/dev/null", O_RDONLY | O_CLOEXEC);
            if (nothing >= 0) { dup2(nothing, STDIN_FILENO); close(nothing); }
            dup2(output, STDOUT_FILENO);
            setvbuf(stdout, NULL, _IOLBF, 0);
            close(output);
            gq_control = control;
            gq_run_seed = gq_mix(seed ^ ((uint64_t)run * 0x9E3779B97F4A7C15ULL));
            static const unsigned styles[5][2] = {{0, 0}, {128, 20}, {256, 60}, {512, 150}, {768, 400}};
            const char *longest = getenv("GCDQUIZ_HARNESS_LONGEST_PAUSE");
            if (jitter) {
                gq_chance = styles[gq_run_seed % 5][0];
                gq_longest = styles[gq_run_seed % 5][1];
                if (longest && (unsigned)atoi(longest) < gq_longest) gq_longest = (unsigned)atoi(longest);
            }
            const char *held = getenv("GCDQUIZ_HARNESS_KEEPS_TIME");
            gq_keeps_time = held ? atol(held) : 0;
            gq_tasks_alone = getenv("GCDQUIZ_HARNESS_TASKS_ALONE") != NULL;
            pthread_t monitor;
            pthread_create(&monitor, NULL, gq_monitor, NULL);
        }

        __attribute__((constructor)) static void gq_serve(void) {
            const char *request = getenv("GCDQUIZ_HARNESS");
            if (!request) return;
            unsigned long long seed = 1; int jitter = 1;
            sscanf(request, "%llu %d", &seed, &jitter);
            unsetenv("GCDQUIZ_HARNESS");
            prctl(PR_SET_PDEATHSIG, SIGKILL);
            signal(SIGPIPE, SIG_IGN);
            dl_iterate_phdr(gq_find_tid_caches, NULL);
            // Where libdispatch's data is: the same in every child.
            gq_find_dispatch();
            gq_make_named_types();
            gq_ready_print();
            gq_code_to_huge_pages();
            char line[128];
            while (gq_read_line(line, sizeof line)) {
                long first = 0, count = 0;
                if (sscanf(line, "R %ld %ld", &first, &count) != 2) { fprintf(stderr, "gcdquiz harness: unreadable command '%s'\n", line); _exit(2); }
                for (long run = first; run < first + count; run++) {
                    // Children of earlier runs that have ended meanwhile (see below).
                    while (waitpid(-1, NULL, WNOHANG) > 0) {}
                    int output[2], control[2];
                    if (pipe2(output, O_CLOEXEC) || pipe2(control, O_CLOEXEC)) { perror("gcdquiz harness: pipe"); _exit(2); }
                    fflush(stdout);
                    pid_t pid = fork();
                    if (pid < 0) { perror("gcdquiz harness: fork"); _exit(2); }
                    if (pid == 0) {
                        close(output[0]); close(control[0]);
                        gq_child(output[1], control[1], seed, jitter, run);
                        return; // on to Swift's main: the snippet
                    }
                    close(output[1]); close(control[1]);
                    char text[64];
                    int n = snprintf(text, sizeof text, "C %d\nS %ld\n", pid, run);
                    gq_out(text, (size_t)n);
                    char pending[65536]; size_t kept = 0;
                    char verdict[512]; size_t said = 0;
                    char heard_line[512]; size_t heard = 0;
                    int open_output = 1, open_control = 1, decided = 0;
                    while ((open_output || open_control) && !decided) {
                        struct pollfd fds[2] = {{open_output ? output[0] : -1, POLLIN, 0}, {open_control ? control[0] : -1, POLLIN, 0}};
                        if (poll(fds, 2, -1) < 0) { if (errno == EINTR) continue; break; }
                        if (fds[0].revents && gq_take_output(output[0], pending, &kept) == 0) open_output = 0;
                        if (fds[1].revents) {
                            char message[512];
                            ssize_t got = read(control[0], message, sizeof message);
                            if (got <= 0) { if (got < 0 && errno == EINTR) continue; open_control = 0; }
                            else {
                                // Line by line: heartbeats and lateness go on at once; the verdict
                                // (F, H) waits for the last printed line.
                                for (ssize_t i = 0; i < got; i++) {
                                    if (heard < sizeof heard_line - 1) heard_line[heard++] = message[i];
                                    if (message[i] != '\n') continue;
                                    if (heard_line[0] == 'E' || heard_line[0] == 'L') gq_out(heard_line, heard);
                                    else {
                                        if (said + heard <= sizeof verdict) { memcpy(verdict + said, heard_line, heard); said += heard; }
                                        decided = 1;
                                    }
                                    heard = 0;
                                }
                            }
                        }
                    }
                    // A verdict (F, H) is the child's last word: it has flushed what it printed into
                    // the pipe before it spoke, and exits with 0 right after. So its output is
                    // taken as far as it goes now, and the run is over without waiting for the
                    // kernel to take the process apart (half a millisecond, a quarter of a short
                    // run); it is reaped before a later run.
                    if (decided && open_output) {
                        fcntl(output[0], F_SETFL, fcntl(output[0], F_GETFL) | O_NONBLOCK);
                        while (gq_take_output(output[0], pending, &kept) > 0) {}
                    }
                    if (kept > 0) gq_printed(pending, kept);
                    if (said > 0) gq_out(verdict, said);
                    close(output[0]); close(control[0]);
                    int status = 0;
                    if (!decided) while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {}
                    int sig = WIFSIGNALED(status) ? WTERMSIG(status) : 0;
                    n = snprintf(text, sizeof text, "X %d %d\n", sig, sig ? 0 : WEXITSTATUS(status));
                    gq_out(text, (size_t)n);
                }
            }
            _exit(0);
        }
        """#

    /// The Swift side: `print` with jitter in front (a pause before a print is a preemption the
    /// real machine may make at that point), the calls the rewritten snippet makes, and the two
    /// ways of serving the main queue once the top-level code has ended.
    static let swiftSource = #"""
        import Foundation
        @_silgen_name("gq_task_created") func _gqTaskCreated() -> Int32
        @_silgen_name("gq_task_started") func _gqTaskStarted(_ token: Int32)
        @_silgen_name("gq_task_ended") func _gqTaskEnded()
        @_silgen_name("gq_top_level_ended") func _gqTopLevelEnded()
        @_silgen_name("gq_jitter") func _gqJitter()
        func print(_ items: Any..., separator: String = " ", terminator: String = "\n") {
            _gqJitter()
            var text = ""
            for (index, item) in items.enumerated() {
                if index > 0 { text += separator }
                Swift.print(item, terminator: "", to: &text)
            }
            Swift.print(text, terminator: terminator)
        }
        /// Called by the fork server before it forks (`gq_ready_print`): the first `print` of a
        /// value of a common type had the runtime search every library's conformance records for
        /// how to print it (TextOutputStreamable, CustomStringConvertible, …) in each child, a
        /// tenth of a continuation puzzle's run. Done once here, each child finds the answers in
        /// the runtime's conformance cache. Prints nothing: the text goes to a string.
        ///
        /// A value no description protocol covers is printed through a `Mirror` (an error enum in
        /// `print("failed: \(error)")`, a struct), whose generic boxes the runtime made in each child
        /// from their mangled names: a seventh of such a run. The samples below make them here,
        /// `CancellationError` among them (the error a cancelled sleep or check throws).
        @_cdecl("gq_ready_print")
        func _gqReadyPrint() {
            var text = ""
            let samples: [Any] = ["", Substring(""), Character("a"), 0, 0 as UInt, 0.0, 0 as Float, true,
                                  Optional<Int>.none as Any, Optional<String>.none as Any, [0], [""],
                                  _GqSampleError.failed as any Error, _GqSamplePoint(), _GqSampleObject(),
                                  CancellationError() as any Error]
            for item in samples {
                Swift.print(item, terminator: "", to: &text)
                debugPrint(item, terminator: "", to: &text)
            }
            // The snippet's own types (`SnippetTypes`): what `print` asks of a value of one. The
            // count is kept where the optimizer cannot see it unused.
            for type in _gqSnippetTypes() {
                let answers = [type is any TextOutputStreamable.Type, type is any CustomStringConvertible.Type,
                               type is any CustomDebugStringConvertible.Type, type is any CustomReflectable.Type]
                _gqSnippetConformances += answers.count { $0 }
            }
        }
        nonisolated(unsafe) var _gqSnippetConformances = 0
        private enum _GqSampleError: Error { case failed }
        private struct _GqSamplePoint { var x = 0 }
        private final class _GqSampleObject {}
        func _gqServeForever() async {
            await withUnsafeContinuation { (_: UnsafeContinuation<Void, Never>) in }
        }
        func _gqServeMainQueue() -> Never {
            RunLoop.main.run()
            exit(0)
        }
        """#
}
