// How cake-lsp's heap is kept: the allocator's settings at start, and free
// pages handed back to the system once the server is idle. jemalloc when the
// binary links it (cake-lsp does, tuned by its `malloc_conf`), glibc's malloc
// otherwise (the tests and sanitizer builds).
#pragma once

namespace cake::lsp {

/// Whether jemalloc serves malloc in this process.
bool jemalloc_in_use();

/// Before the server starts: glibc's malloc gets few heaps (jemalloc needs
/// nothing here).
void tune_allocator();

/// Free pages go back to the system (milliseconds on a large heap: only
/// after a quiet spell).
void release_free_memory();

}  // namespace cake::lsp
