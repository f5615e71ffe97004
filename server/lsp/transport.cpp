// Content-Length framing; see transport.h.
#include "transport.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <memory>
#include <charconv>
#include <optional>

#include <simdjson.h>

namespace cake::lsp {
namespace {

constexpr size_t kMaxHeaderBytes = 8192;
constexpr std::string_view kHeaderEnd = "\r\n\r\n";

bool iequals(std::string_view a, std::string_view b) {
  if (a.size() != b.size()) return false;
  for (size_t i = 0; i < a.size(); ++i)
    if (std::tolower(static_cast<unsigned char>(a[i])) != std::tolower(static_cast<unsigned char>(b[i]))) return false;
  return true;
}

std::string_view trim(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t')) s.remove_suffix(1);
  return s;
}

}  // namespace

bool MessageReader::fill() {
  compact();
  char chunk[65536];
  size_t n = read_(chunk, sizeof chunk);
  if (n == 0) return false;
  buffer_.append(chunk, n);
  return true;
}

void MessageReader::compact() {
  if (pos_ > 0 && pos_ >= buffer_.size() / 2) {
    buffer_.erase(0, pos_);
    pos_ = 0;
  }
}

MessageReader::Result MessageReader::next() {
  // The header block.
  size_t end;
  while ((end = pending().find(kHeaderEnd)) == std::string_view::npos) {
    if (pending().size() > kMaxHeaderBytes) {
      // Not a header: drop all but a tail that may start the next one.
      pos_ = buffer_.size() - kHeaderEnd.size();
      return {Status::BadHeader, {}, "no end of header within 8 KiB"};
    }
    if (!fill()) return {Status::End, {}, {}};
  }
  std::string_view header = pending().substr(0, end);
  pos_ += end + kHeaderEnd.size();

  std::optional<size_t> length;
  std::string problem;
  while (!header.empty()) {
    size_t eol = header.find("\r\n");
    std::string_view line = header.substr(0, eol);
    header = eol == std::string_view::npos ? std::string_view{} : header.substr(eol + 2);
    size_t colon = line.find(':');
    if (colon == std::string_view::npos) {
      problem = "header line without `:`: `" + std::string(line.substr(0, 80)) + "`";
      continue;
    }
    std::string_view name = trim(line.substr(0, colon)), value = trim(line.substr(colon + 1));
    if (iequals(name, "Content-Length")) {
      size_t n = 0;
      auto [ptr, ec] = std::from_chars(value.data(), value.data() + value.size(), n);
      if (ec != std::errc() || ptr != value.data() + value.size()) problem = "invalid Content-Length `" + std::string(value.substr(0, 40)) + "`";
      else length = n;
    }
    // Content-Type and unknown headers are ignored, as the protocol allows.
  }
  if (!length) {
    return {Status::BadHeader, {}, problem.empty() ? std::string("missing Content-Length header") : problem};
  }
  if (*length > max_body_) {
    // Drain the body without keeping it.
    size_t left = *length;
    for (;;) {
      size_t take = std::min(left, pending().size());
      pos_ += take;
      left -= take;
      if (left == 0 || !fill()) break;
    }
    return {Status::TooLarge, {},
            "message of " + std::to_string(*length) + " bytes exceeds the limit of " + std::to_string(max_body_) + " bytes"};
  }
  while (pending().size() < *length)
    if (!fill()) return {Status::End, {}, {}};
  Result r{Status::Message, {}, {}};
  r.body.reserve(*length + kBodyPadding);
  r.body.assign(pending().substr(0, *length));
  pos_ += *length;
  return r;
}

ParsedMessage parse_message_reference(std::string_view body, int max_depth) {
  ParsedMessage m;
  m.value = nlohmann::json::parse(
      body,
      [&](int depth, nlohmann::json::parse_event_t, nlohmann::json&) {
        if (depth <= max_depth) return true;
        m.too_deep = true;
        return false;  // dropped, and nothing below it is built
      },
      /*allow_exceptions=*/false);
  m.invalid = m.value.is_discarded();
  return m;
}

namespace {

// A body above this size leaves the parser's buffers (about twice its size)
// to be freed rather than kept for the next message.
constexpr size_t kKeptParserBytes = size_t{1} << 20;

/// simdjson's value as nlohmann's parser would have made it; false where
/// the two could differ (a -0.0: nlohmann keeps it, and it prints apart
/// from 0). Recursion is bounded by the parser's max_depth.
bool convert(simdjson::dom::element e, nlohmann::json& out) {
  using simdjson::dom::element_type;
  switch (e.type()) {
    case element_type::ARRAY: {
      out = nlohmann::json::array();
      simdjson::dom::array items = e.get_array().value_unsafe();
      out.get_ref<nlohmann::json::array_t&>().reserve(items.size());
      for (simdjson::dom::element item : items) {
        nlohmann::json& slot = out.emplace_back();
        if (!convert(item, slot)) return false;
      }
      return true;
    }
    case element_type::OBJECT: {
      out = nlohmann::json::object();
      simdjson::dom::object fields = e.get_object().value_unsafe();
      for (simdjson::dom::key_value_pair field : fields) {
        nlohmann::json value;
        if (!convert(field.value, value)) return false;
        out[std::string(field.key)] = std::move(value);  // a repeated key: the last wins, as in nlohmann
      }
      return true;
    }
    case element_type::STRING:
      out = std::string(e.get_string().value_unsafe());
      return true;
    case element_type::INT64: {
      // nlohmann reads a number without a sign as unsigned.
      int64_t v = e.get_int64().value_unsafe();
      if (v >= 0) out = static_cast<uint64_t>(v);
      else out = v;
      return true;
    }
    case element_type::UINT64:
      out = e.get_uint64().value_unsafe();
      return true;
    case element_type::DOUBLE: {
      double v = e.get_double().value_unsafe();
      if (v == 0 && std::signbit(v)) return false;
      out = v;
      return true;
    }
    case element_type::BOOL:
      out = e.get_bool().value_unsafe();
      return true;
    case element_type::NULL_VALUE:
      out = nullptr;
      return true;
  }
  return false;
}

}  // namespace

std::optional<nlohmann::json> parse_message_fast(const std::string& body, int max_depth) {
  // One parser per reading thread: it keeps its buffers between messages.
  thread_local std::unique_ptr<simdjson::dom::parser> parser;
  if (!parser) parser = std::make_unique<simdjson::dom::parser>();
  // simdjson refuses a nesting of max_depth or more; nlohmann's callback
  // counts one further, so such a body is left to it.
  if (parser->max_depth() != static_cast<size_t>(max_depth) &&
      parser->allocate(std::max<size_t>(body.size(), 4096), static_cast<size_t>(max_depth)))
    return std::nullopt;
  std::optional<nlohmann::json> out;
  simdjson::dom::element root;
  if (!parser->parse(body).get(root)) {
    out.emplace();
    if (!convert(root, *out)) out.reset();
  }
  if (body.size() > kKeptParserBytes) parser.reset();
  return out;
}

ParsedMessage parse_message(const std::string& body, int max_depth) {
  if (std::optional<nlohmann::json> fast = parse_message_fast(body, max_depth)) {
    ParsedMessage m;
    m.value = std::move(*fast);
    return m;
  }
  return parse_message_reference(body, max_depth);
}

bool MessageWriter::send(const nlohmann::json& message) {
  // Invalid UTF-8 copied from a document becomes U+FFFD, never an exception.
  std::string body = message.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
  std::string frame = "Content-Length: " + std::to_string(body.size()) + "\r\n\r\n";
  std::lock_guard lock(mutex_);
  if (failed_) return false;
  try {
    write_(frame + body);
  } catch (...) {
    failed_ = true;
  }
  return !failed_;
}

}  // namespace cake::lsp
