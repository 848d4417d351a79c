#ifndef GCDQUIZ_CEDITLINE_SHIM_H
#define GCDQUIZ_CEDITLINE_SHIM_H

// libedit (Debian's libedit-dev) for the drill's line editing, history and completion.
// el_set, el_get and history are variadic, which Swift cannot call: these inline wrappers
// give each use a fixed signature.

#include <stdio.h>
#include <wchar.h>
#include <histedit.h>

typedef char *(*gcdquiz_prompt_function)(EditLine *);

/// An editor on the standard streams (Swift 6 cannot name C's stdin/stdout globals safely).
static inline EditLine *gcdquiz_el_open(const char *program) {
    return el_init(program, stdin, stdout, stderr);
}
typedef unsigned char (*gcdquiz_editor_function)(EditLine *, int);

static inline int gcdquiz_el_set_prompt(EditLine *el, gcdquiz_prompt_function prompt) {
    return el_set(el, EL_PROMPT, prompt);
}

/// Like the prompt above; characters between two `ignore` characters (colour escapes) take no
/// room on the line.
static inline int gcdquiz_el_set_prompt_esc(EditLine *el, gcdquiz_prompt_function prompt, char ignore) {
    return el_set(el, EL_PROMPT_ESC, prompt, ignore);
}

typedef int (*gcdquiz_getc_function)(EditLine *, wchar_t *);

/// Replaces libedit's character reader, so that a Ctrl-C can end the read however the signal
/// was delivered.
static inline int gcdquiz_el_set_getc(EditLine *el, gcdquiz_getc_function getc) {
    return el_wset(el, EL_GETCFN, getc);
}

static inline int gcdquiz_el_set_editor(EditLine *el, const char *mode) {
    return el_set(el, EL_EDITOR, mode);
}

static inline int gcdquiz_el_set_history(EditLine *el, History *h) {
    return el_set(el, EL_HIST, history, h);
}

static inline int gcdquiz_el_set_client_data(EditLine *el, void *data) {
    return el_set(el, EL_CLIENTDATA, data);
}

static inline void *gcdquiz_el_get_client_data(EditLine *el) {
    void *data = NULL;
    el_get(el, EL_CLIENTDATA, &data);
    return data;
}

static inline int gcdquiz_el_add_function(EditLine *el, const char *name, const char *help, gcdquiz_editor_function function) {
    return el_set(el, EL_ADDFN, name, help, function);
}

static inline int gcdquiz_el_bind(EditLine *el, const char *key, const char *function) {
    return el_set(el, EL_BIND, key, function, NULL);
}

static inline int gcdquiz_el_set_signal(EditLine *el, int handle) {
    return el_set(el, EL_SIGNAL, handle);
}

static inline History *gcdquiz_history_open(int size) {
    History *h = history_init();
    if (h != NULL) {
        HistEvent event;
        history(h, &event, H_SETSIZE, size);
        history(h, &event, H_SETUNIQUE, 1);
    }
    return h;
}

static inline int gcdquiz_history_enter(History *h, const char *line) {
    HistEvent event;
    return history(h, &event, H_ENTER, line);
}

#endif
