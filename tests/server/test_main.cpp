// The Catch2 main of the server/ test programs.
#define CATCH_CONFIG_MAIN
#include <catch2/catch.hpp>
