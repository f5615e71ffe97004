// Content-Length framing; see transport.h.
#include "transport.h"

#include <cctype>
#include <charconv>
#include <optional>

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
  Result r{Status::Message, std::string(pending().substr(0, *length)), {}};
  pos_ += *length;
  return r;
}

ParsedMessage parse_message(std::string_view body, int max_depth) {
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
