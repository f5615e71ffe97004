// jemalloc's settings, read when it starts, in every program linked with it
// (cake_link_jemalloc, CMakeLists.txt): its memory in transparent huge pages
// (the kernel's THP mode is usually `madvise`; jemalloc advises), and its own
// metadata too once there is much of it. On a virtual machine where a page
// fault costs about 10 us, a 100,000-line file touches 100 MB: in 4 KB pages
// that is seconds of faults (docs/benchmarks.md). cake-lsp purges free pages
// once it is idle (lsp/memory.cpp).
extern "C" {
extern const char* malloc_conf;
const char* malloc_conf = "thp:always,metadata_thp:auto";
}
