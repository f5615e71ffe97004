// libFuzzer target over the language server's framing and dispatch: the
// input is the byte stream a client writes (Content-Length headers and
// JSON-RPC bodies), fed through cake::lsp::MessageReader from memory into
// cake::lsp::serve, whose output is thrown away. It finds crashes, sanitizer
// reports and hangs in the transport, the lifecycle, document sync and every
// registered feature; the seeds in tests/fuzz/lsp_corpus/ are whole sessions
// (initialize, didOpen, didChange, hover, shutdown, exit) and broken ones.
// The reader is handed the input in small, input-dependent chunks so that
// messages split across reads are covered too. The whole input is also one
// body for the two message parsers: where simdjson answers, nlohmann must
// answer the same (transport.h).
//
// Normal builds link replay_main.cpp instead of libFuzzer (cake-lsp-fuzz-replay,
// CTest `fuzz.lsp.replay`); scripts/fuzz.sh runs cake-fuzz-lsp.

#include "server.h"
#include "transport.h"

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <optional>
#include <string>
#include <string_view>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string_view input(reinterpret_cast<const char*>(data), size);
  {
    std::string body(input);
    if (std::optional<nlohmann::json> fast = cake::lsp::parse_message_fast(body, 128)) {
      cake::lsp::ParsedMessage reference = cake::lsp::parse_message_reference(body, 128);
      if (reference.invalid || reference.too_deep || *fast != reference.value) __builtin_trap();
    }
  }
  // The first byte picks the chunk size (1..256 bytes per read).
  size_t chunk = input.empty() ? 1 : 1 + static_cast<unsigned char>(input[0]);
  size_t pos = 0;
  cake::lsp::ServerOptions options;
  options.max_message_bytes = 1u << 20;  // small, so the too-large path is reachable
  cake::lsp::MessageReader reader(
      [&](char* buffer, size_t capacity) -> size_t {
        size_t n = std::min({capacity, chunk, input.size() - pos});
        std::memcpy(buffer, input.data() + pos, n);
        pos += n;
        return n;
      },
      options.max_message_bytes);
  cake::lsp::MessageWriter writer([](std::string_view) {});
  int code = cake::lsp::serve(reader, writer, options);
  if (code != 0 && code != 1) __builtin_trap();
  return 0;
}
