#ifndef GCDQUIZ_HEAP_H
#define GCDQUIZ_HEAP_H

#include <stddef.h>

/// Bytes the C heap has handed out and not taken back (glibc's mallinfo2: in-use chunks plus
/// mmapped ones); 0 where the C library cannot tell. The explorer's memory budget reads it.
size_t gcdquiz_heap_allocated_bytes(void);

#endif
