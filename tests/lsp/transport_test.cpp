// The JSON-RPC transport (server/lsp/transport.h): framing, and message
// parsing, whose fast path (simdjson) must give what nlohmann's parser
// gives wherever it answers, and leave the rest to it.
#include <catch2/catch.hpp>

#include "transport.h"

#include <cstring>
#include <string>
#include <vector>

namespace {

using cake::lsp::MessageReader;
using cake::lsp::parse_message;
using cake::lsp::parse_message_fast;
using cake::lsp::parse_message_reference;
using nlohmann::json;

constexpr int kDepth = 128;

/// Both parsers on one body: the fast one answers the same or not at all.
/// Returns whether the fast one answered.
bool agree(const std::string& body) {
  std::optional<json> fast = parse_message_fast(body, kDepth);
  cake::lsp::ParsedMessage reference = parse_message_reference(body, kDepth);
  cake::lsp::ParsedMessage chosen = parse_message(body, kDepth);
  INFO(body.substr(0, 200));
  CHECK(chosen.invalid == reference.invalid);
  CHECK(chosen.too_deep == reference.too_deep);
  if (!reference.invalid) CHECK(chosen.value.dump() == reference.value.dump());
  if (!fast) return false;
  CHECK_FALSE(reference.invalid);
  CHECK_FALSE(reference.too_deep);
  CHECK(*fast == reference.value);
  // The same types too (nlohmann reads 5 as unsigned, -5 as signed).
  CHECK(fast->dump() == reference.value.dump());
  return true;
}

std::string nested(int depth) {
  std::string s;
  for (int i = 0; i < depth; ++i) s += i % 2 ? "{\"a\":" : "[";
  s += "1";
  for (int i = depth - 1; i >= 0; --i) s += i % 2 ? "}" : "]";
  return s;
}

}  // namespace

TEST_CASE("messages an editor sends take the fast path and parse as nlohmann parses them") {
  std::string text;
  for (int i = 0; i < 20000; ++i) text += "kernel k" + std::to_string(i) + "() {}  // \"quoted\" \\ \t é ✓ 𝄞\n";
  json open = {{"jsonrpc", "2.0"},
               {"method", "textDocument/didOpen"},
               {"params", {{"textDocument", {{"uri", "file:///a.cake"}, {"languageId", "cake"}, {"version", 1}, {"text", text}}}}}};
  CHECK(agree(open.dump()));
  CHECK(parse_message(open.dump(), kDepth).value["params"]["textDocument"]["text"] == text);
  for (const char* body : {
           R"({"jsonrpc":"2.0","id":1,"method":"textDocument/hover","params":{"textDocument":{"uri":"file:///a"},"position":{"line":3,"character":7}}})",
           R"({"jsonrpc":"2.0","id":"abc","method":"initialize","params":{"capabilities":{"general":{"positionEncodings":["utf-8","utf-16"]}},"trace":"off","rootUri":null}})",
           R"({"jsonrpc":"2.0","method":"$/cancelRequest","params":{"id":-12}})",
           R"({"a":[1,-1,0,-0,1.5,-2.25e-3,1E10,18446744073709551615,-9223372036854775808,true,false,null,"\u00e9\ud834\udd1e\n"]})",
           R"({"k":1,"k":2,"k":{"deeper":[]}})",
           R"(  [ ]  )", R"("just a string")", R"(42)"}) {
    INFO(body);
    CHECK(agree(body));
  }
}

TEST_CASE("bodies the fast path refuses are decided by nlohmann's parser") {
  for (const char* body : {
           "", "{", "[1,]", "{\"a\":1,}", "01", "1.", "tru", "\"\\ud800\"", "\"a\x01z\"", "\"a\nb\"", "\xff",
           "18446744073709551616", "-9223372036854775809", "1E400", "-0.0", "[1] [2]", "{\"a\" 1}"}) {
    agree(body);
  }
  // Invalid either way.
  CHECK(parse_message("[1,]", kDepth).invalid);
  CHECK(parse_message("\"\xff\"", kDepth).invalid);
  // Numbers nlohmann reads and simdjson does not: the same values as before.
  CHECK(parse_message("18446744073709551616", kDepth).value.is_number_float());
  CHECK(parse_message("-0.0", kDepth).value.dump() == "-0.0");
}

TEST_CASE("nesting around the limit: the same answer from either path, too_deep beyond it") {
  int fast_answers = 0;
  for (int depth = kDepth - 4; depth <= kDepth + 4; ++depth) {
    INFO("depth " << depth);
    fast_answers += agree(nested(depth));
  }
  CHECK(fast_answers > 0);
  CHECK(parse_message(nested(100000), kDepth).too_deep);
  CHECK_FALSE(parse_message(nested(kDepth - 4), kDepth).too_deep);
}

TEST_CASE("the reader leaves room after a body for the parser, and splits messages read in pieces") {
  std::string stream;
  std::vector<std::string> bodies = {R"({"jsonrpc":"2.0","method":"initialized","params":{}})", std::string(300000, ' ') + "[]"};
  for (const std::string& b : bodies) stream += "Content-Length: " + std::to_string(b.size()) + "\r\n\r\n" + b;
  size_t pos = 0;
  MessageReader reader(
      [&](char* buffer, size_t size) {
        size_t n = std::min<size_t>({size, 1000, stream.size() - pos});
        std::memcpy(buffer, stream.data() + pos, n);
        pos += n;
        return n;
      },
      1u << 20);
  for (const std::string& b : bodies) {
    MessageReader::Result r = reader.next();
    REQUIRE(r.status == MessageReader::Status::Message);
    CHECK(r.body == b);
    CHECK(r.body.capacity() >= r.body.size() + cake::lsp::kBodyPadding);
    CHECK(agree(r.body));
  }
  CHECK(reader.next().status == MessageReader::Status::End);
}
