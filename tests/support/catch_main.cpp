// The Catch2 main of every Catch2 test program (tests/CMakeLists.txt,
// cake_catch_main). Compiled once: the Catch2 v2 main is the slowest
// translation unit of the tests, so no test file defines CATCH_CONFIG_MAIN.
#define CATCH_CONFIG_MAIN
#include <catch2/catch.hpp>
