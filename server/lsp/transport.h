// JSON-RPC framing (LSP base protocol): `Content-Length: N\r\n\r\n` + N bytes
// of JSON, over any byte stream. The reader resynchronises after a bad
// header and drains a message that is too large, so one bad message never
// ends a session; the writer frames and serialises whole messages from any
// thread.
#pragma once

#include <nlohmann/json.hpp>

#include <functional>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>

namespace cake::lsp {

class MessageReader {
 public:
  /// Reads up to `size` bytes into `buffer`; returns 0 at the end of the
  /// stream (or on an error).
  using ReadSome = std::function<size_t(char* buffer, size_t size)>;

  MessageReader(ReadSome read, size_t max_body_bytes) : read_(std::move(read)), max_body_(max_body_bytes) {}

  enum class Status { Message, End, BadHeader, TooLarge };
  struct Result {
    Status status = Status::End;
    std::string body;   // Message: the JSON text
    std::string error;  // BadHeader, TooLarge: what was wrong
  };

  /// The next message, or why there is none.
  Result next();

 private:
  bool fill();                      // reads more; false at the end
  std::string_view pending() const { return std::string_view(buffer_).substr(pos_); }
  void compact();

  ReadSome read_;
  size_t max_body_;
  std::string buffer_;
  size_t pos_ = 0;
};

/// One message body parsed with its nesting bounded. nlohmann::json copies,
/// compares, serialises and destroys values recursively, so a value nested
/// 100,000 levels deep overflows the stack wherever it is next touched.
/// Parsing itself is iterative: anything deeper than `max_depth` is dropped
/// while it is read and `too_deep` says so; the rest (the `id` in
/// particular) is kept, so the request can still be answered with an error.
struct ParsedMessage {
  nlohmann::json value;
  bool invalid = false;   // not JSON
  bool too_deep = false;  // nesting beyond max_depth was dropped
};

/// simdjson first: a 3 MB didOpen takes 1 ms there against 25-45 ms in
/// nlohmann's parser, plus a copy into nlohmann::json. What simdjson refuses
/// (invalid JSON, nesting of max_depth or more, integers beyond 64 bits, a
/// `-0.0`) goes to parse_message_reference(), which decides: the two agree
/// wherever the first succeeds (transport_test, the LSP fuzz target).
ParsedMessage parse_message(const std::string& body, int max_depth);
/// The fast path alone: nullopt where it refuses the body.
std::optional<nlohmann::json> parse_message_fast(const std::string& body, int max_depth);
/// nlohmann's parser alone, with its depth callback.
ParsedMessage parse_message_reference(std::string_view body, int max_depth);

/// Room MessageReader leaves after a body (simdjson reads up to 64 bytes
/// past the end; with less, it would copy the body first).
constexpr size_t kBodyPadding = 64;

class MessageWriter {
 public:
  /// Writes all of `bytes` or throws.
  using WriteAll = std::function<void(std::string_view bytes)>;

  explicit MessageWriter(WriteAll write) : write_(std::move(write)) {}

  /// Frames and writes one message; thread-safe. Returns false once the
  /// stream has failed (the peer is gone).
  bool send(const nlohmann::json& message);

 private:
  WriteAll write_;
  std::mutex mutex_;
  bool failed_ = false;
};

}  // namespace cake::lsp
