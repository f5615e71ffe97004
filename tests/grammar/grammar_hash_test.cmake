# Fails when grammar/grammar.js no longer matches the grammar that
# grammar/src/parser.c was generated from: the SHA-256 recorded in
# grammar/src/grammar.js.sha256 (by scripts/grammar-hash --update) must equal
# the SHA-256 of grammar.js. Run by CTest as
#   cmake -DGRAMMAR_JS=<grammar.js> -DRECORDED=<grammar.js.sha256> -P grammar_hash_test.cmake
foreach(var GRAMMAR_JS RECORDED)
  if(NOT EXISTS "${${var}}")
    message(FATAL_ERROR "grammar hash test: ${var}=${${var}} does not exist")
  endif()
endforeach()
file(SHA256 "${GRAMMAR_JS}" current)
file(READ "${RECORDED}" recorded)
string(STRIP "${recorded}" recorded)
string(TOLOWER "${recorded}" recorded)
if(NOT recorded STREQUAL current)
  message(FATAL_ERROR
    "grammar.js changed since parser.c was generated: regenerate with "
    "tree-sitter generate --no-bindings, then scripts/grammar-hash --update\n"
    "  recorded: ${recorded}\n  current:  ${current}")
endif()
message(STATUS "grammar.js matches the recorded hash ${current}")
