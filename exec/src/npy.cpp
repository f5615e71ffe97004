// NumPy .npy files (npy.h). Reads format versions 1.0 to 3.0 and writes 1.0,
// the version NumPy itself writes for small headers. Elements are decoded
// byte by byte as little-endian, so the files and values are the same on
// every host. Any input, however malformed, gives an error, never a crash.
#include "cake/exec/npy.h"

#include "cake/exec/numeric.h"

#include <algorithm>
#include <array>
#include <bit>
#include <cmath>
#include <fstream>
#include <iterator>
#include <limits>
#include <optional>
#include <string_view>

namespace cake::exec {

namespace {

constexpr std::string_view kMagic = "\x93NUMPY";
/// Data starts at a multiple of this, as NumPy aligns it.
constexpr size_t kAlign = 64;

enum class Kind : uint8_t { Float, Signed, Unsigned, Bool };

struct Element {
  std::string_view descr;  // without its byte-order character
  Kind kind;
  size_t bytes;
};

constexpr std::array<Element, 12> kElements = {{
    {"f8", Kind::Float, 8},    {"f4", Kind::Float, 4},    {"f2", Kind::Float, 2},
    {"i8", Kind::Signed, 8},   {"i4", Kind::Signed, 4},   {"i2", Kind::Signed, 2},
    {"i1", Kind::Signed, 1},   {"u8", Kind::Unsigned, 8}, {"u4", Kind::Unsigned, 4},
    {"u2", Kind::Unsigned, 2}, {"u1", Kind::Unsigned, 1}, {"b1", Kind::Bool, 1},
}};

// Section - Half precision, which the host has no type for

double half_to_double(uint16_t h) {
  int exp = (h >> 10) & 0x1f, man = h & 0x3ff;
  double magnitude = exp == 0    ? std::ldexp(man, -24)
                     : exp == 31 ? (man == 0 ? std::numeric_limits<double>::infinity()
                                             : std::numeric_limits<double>::quiet_NaN())
                                 : std::ldexp(man + 1024, exp - 25);
  return (h & 0x8000) ? -magnitude : magnitude;
}

/// The bits of `v` rounded to f16 (round_to does the rounding).
uint16_t double_to_half(double v) {
  v = round_to(DType::F16, v);
  uint16_t sign = std::signbit(v) ? 0x8000 : 0;
  double a = std::fabs(v);
  if (std::isnan(v)) return 0x7e00;
  if (std::isinf(v)) return sign | 0x7c00;
  if (a < std::ldexp(1.0, -14)) return sign | static_cast<uint16_t>(std::ldexp(a, 24));
  int e;
  std::frexp(a, &e);  // a = m * 2^e, m in [0.5, 1)
  auto man = static_cast<uint16_t>(std::ldexp(a, 11 - e) - 1024);
  return sign | static_cast<uint16_t>((e + 14) << 10) | man;
}

// Section - Elements

uint64_t load_le(const char* p, size_t bytes) {
  uint64_t x = 0;
  for (size_t i = 0; i < bytes; ++i) x |= static_cast<uint64_t>(static_cast<unsigned char>(p[i])) << (8 * i);
  return x;
}

void store_le(std::string& out, uint64_t x, size_t bytes) {
  for (size_t i = 0; i < bytes; ++i) out.push_back(static_cast<char>((x >> (8 * i)) & 0xff));
}

double decode(const Element& el, const char* p) {
  uint64_t x = load_le(p, el.bytes);
  unsigned shift = 64 - 8 * static_cast<unsigned>(el.bytes);
  switch (el.kind) {
    case Kind::Float:
      if (el.bytes == 8) return std::bit_cast<double>(x);
      if (el.bytes == 4) return std::bit_cast<float>(static_cast<uint32_t>(x));
      return half_to_double(static_cast<uint16_t>(x));
    case Kind::Signed: return static_cast<double>(static_cast<int64_t>(x << shift) >> shift);
    case Kind::Unsigned: return static_cast<double>(x);
    case Kind::Bool: return x != 0 ? 1 : 0;
  }
  return 0;
}

/// `v` as an integer of the element's kind, clamped so that the edges that a
/// double rounds to (2^63, 2^64) do not overflow the conversion.
uint64_t integer_bits(const Element& el, double v) {
  if (std::isnan(v)) return 0;
  if (el.kind == Kind::Signed) {
    if (v >= 9223372036854775808.0) return static_cast<uint64_t>(std::numeric_limits<int64_t>::max());
    if (v < -9223372036854775808.0) return static_cast<uint64_t>(std::numeric_limits<int64_t>::min());
    return static_cast<uint64_t>(static_cast<int64_t>(v));
  }
  if (v >= 18446744073709551616.0) return std::numeric_limits<uint64_t>::max();
  return v <= 0 ? 0 : static_cast<uint64_t>(v);
}

void encode(const Element& el, double v, std::string& out) {
  switch (el.kind) {
    case Kind::Float:
      if (el.bytes == 8) return store_le(out, std::bit_cast<uint64_t>(v), 8);
      if (el.bytes == 4) return store_le(out, std::bit_cast<uint32_t>(static_cast<float>(v)), 4);
      return store_le(out, double_to_half(v), 2);
    case Kind::Signed: case Kind::Unsigned: return store_le(out, integer_bits(el, v), el.bytes);
    case Kind::Bool: return store_le(out, v != 0 ? 1 : 0, 1);
  }
}

/// The element of a descr such as "<f4" or "|u1"; nullopt with `error` set.
std::optional<Element> element_of(std::string_view descr, std::string& error) {
  if (descr.size() == 3) {
    for (const Element& el : kElements) {
      if (descr.substr(1) != el.descr) continue;
      if (descr[0] == '<' || (el.bytes == 1 && descr[0] == '|')) return el;
      if (descr[0] == '>') {
        error = "big-endian data is not supported";
        return std::nullopt;
      }
    }
  }
  error = "unsupported dtype `" + std::string(descr) + "`";
  return std::nullopt;
}

std::string_view descr_of(DType dtype) {
  switch (dtype) {
    case DType::F64: case DType::Unknown: return "<f8";
    // NumPy lacks these; float32 holds each of their values exactly.
    case DType::F32: case DType::TF32: case DType::BF16: case DType::F8E4M3: case DType::F8E5M2:
    case DType::F6E3M2: case DType::F6E2M3: case DType::F4E2M1:
      return "<f4";
    case DType::F16: return "<f2";
    case DType::I64: return "<i8";
    case DType::I32: return "<i4";
    case DType::I16: return "<i2";
    case DType::I8: return "|i1";
    case DType::U64: return "<u8";
    case DType::U32: case DType::B32: return "<u4";
    case DType::U16: return "<u2";
    case DType::U8: return "|u1";
    case DType::Pred: return "|b1";
  }
  return "<f8";
}

// Section - The header, a Python dict literal

struct Header {
  std::string descr;
  bool fortran_order = false;
  std::vector<int64_t> shape;
};

/// The header dict as NumPy writes it: {'descr': '<f4', 'fortran_order':
/// False, 'shape': (2, 3), } in any key order, with optional spaces and
/// trailing commas. Nothing else of Python is accepted.
class HeaderParser {
 public:
  explicit HeaderParser(std::string_view text) : text_(text) {}

  bool parse(Header& out, std::string& error) {
    bool seen_descr = false, seen_order = false, seen_shape = false;
    if (!eat('{')) return fail("the header is not a dict", error);
    while (!eat('}')) {
      std::string key;
      if (!string(key) || !eat(':')) return fail("malformed header dict", error);
      bool ok;
      if (key == "descr") ok = seen_descr = string(out.descr);
      else if (key == "fortran_order") ok = seen_order = boolean(out.fortran_order);
      else if (key == "shape") ok = seen_shape = tuple(out.shape);
      else return fail("unexpected header key `" + key + "`", error);
      if (!ok) return fail("malformed value of `" + key + "`", error);
      if (!eat(',') && !peek('}')) return fail("malformed header dict", error);
    }
    if (!seen_descr || !seen_order || !seen_shape) return fail("the header lacks descr, fortran_order or shape", error);
    return true;
  }

 private:
  static bool fail(std::string message, std::string& error) {
    error = std::move(message);
    return false;
  }
  void skip_spaces() {
    while (pos_ < text_.size() && (text_[pos_] == ' ' || text_[pos_] == '\n' || text_[pos_] == '\t')) ++pos_;
  }
  bool peek(char c) {
    skip_spaces();
    return pos_ < text_.size() && text_[pos_] == c;
  }
  bool eat(char c) {
    if (!peek(c)) return false;
    ++pos_;
    return true;
  }
  bool word(std::string_view w) {
    skip_spaces();
    if (text_.substr(pos_, w.size()) != w) return false;
    pos_ += w.size();
    return true;
  }
  /// A quoted string without escapes, as every key and descr is.
  bool string(std::string& out) {
    skip_spaces();
    if (pos_ >= text_.size() || (text_[pos_] != '\'' && text_[pos_] != '"')) return false;
    size_t end = text_.find(text_[pos_], pos_ + 1);
    if (end == std::string_view::npos) return false;
    out = text_.substr(pos_ + 1, end - pos_ - 1);
    pos_ = end + 1;
    return true;
  }
  bool boolean(bool& out) {
    if (word("True")) return out = true;
    out = false;
    return word("False");
  }
  /// A tuple of non-negative integers: (), (5,), (2, 3).
  bool tuple(std::vector<int64_t>& out) {
    out.clear();
    if (!eat('(')) return false;
    while (!eat(')')) {
      int64_t n;
      if (!integer(n)) return false;
      out.push_back(n);
      if (!eat(',') && !peek(')')) return false;
    }
    return true;
  }
  bool integer(int64_t& out) {
    skip_spaces();
    size_t start = pos_;
    out = 0;
    for (; pos_ < text_.size() && text_[pos_] >= '0' && text_[pos_] <= '9'; ++pos_) {
      if (out > (std::numeric_limits<int64_t>::max() - 9) / 10) return false;
      out = out * 10 + (text_[pos_] - '0');
    }
    if (pos_ < text_.size() && text_[pos_] == 'L') ++pos_;  // Python 2's long suffix
    return pos_ > start;
  }

  std::string_view text_;
  size_t pos_ = 0;
};

/// The number of elements of `shape`, when it fits `limit`.
std::optional<uint64_t> element_count(const std::vector<int64_t>& shape, uint64_t limit) {
  uint64_t n = 1;
  for (int64_t d : shape) {
    auto dim = static_cast<uint64_t>(d);
    if (dim != 0 && n > limit / dim) return std::nullopt;
    n *= dim;
  }
  return n;
}

std::string header_text(std::string_view descr, const std::vector<int64_t>& shape, bool fortran_order) {
  std::string dims;
  for (int64_t d : shape) dims += std::to_string(d) + ", ";
  if (shape.size() > 1) dims.resize(dims.size() - 2);  // (2, 3); a 1-d shape keeps its comma: (5,)
  else if (shape.size() == 1) dims.pop_back();
  std::string h = "{'descr': '" + std::string(descr) + "', 'fortran_order': " + std::string(fortran_order ? "True" : "False") + ", 'shape': (" + dims + "), }";
  size_t prefix = kMagic.size() + 4;  // magic, version, 2-byte length
  h.append(kAlign - (prefix + h.size() + 1) % kAlign, ' ');
  h.push_back('\n');
  return h;
}

bool read_file(const std::string& path, std::string& bytes, std::string& error) {
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    error = "cannot open `" + path + "`";
    return false;
  }
  bytes.assign(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
  if (in.bad()) {
    error = "cannot read `" + path + "`";
    return false;
  }
  return true;
}

/// The header dict's text of a whole file; `data` is where the data starts.
bool split_header(std::string_view bytes, std::string_view& header, size_t& data, std::string& error) {
  if (bytes.size() < kMagic.size() + 2 || bytes.substr(0, kMagic.size()) != kMagic) {
    error = "not a .npy file";
    return false;
  }
  auto major = static_cast<unsigned char>(bytes[6]), minor = static_cast<unsigned char>(bytes[7]);
  if (major < 1 || major > 3) {
    error = "unsupported .npy version " + std::to_string(major) + "." + std::to_string(minor);
    return false;
  }
  size_t length_bytes = major == 1 ? 2 : 4, start = 8 + length_bytes;
  if (bytes.size() < start) {
    error = "truncated .npy header";
    return false;
  }
  uint64_t length = load_le(bytes.data() + 8, length_bytes);
  if (length > bytes.size() - start) {
    error = "truncated .npy header";
    return false;
  }
  header = bytes.substr(start, length);
  data = start + length;
  return true;
}

}  // namespace

bool read_npy(const std::string& path, NpyArray& out, std::string& error) {
  error.clear();
  std::string bytes;
  std::string_view header_text;
  size_t data = 0;
  Header h;
  if (!read_file(path, bytes, error) || !split_header(bytes, header_text, data, error) ||
      !HeaderParser(header_text).parse(h, error))
    return false;
  std::optional<Element> el = element_of(h.descr, error);
  if (!el) return false;
  size_t available = bytes.size() - data;
  std::optional<uint64_t> count = element_count(h.shape, available / el->bytes);
  if (!count || *count * el->bytes > available) {  // a 0-d array needs one element too
    error = "truncated data: the shape needs more bytes than the file has";
    return false;
  }
  out.descr = h.descr;
  out.shape = h.shape;
  out.fortran_order = h.fortran_order;
  out.values.resize(*count);
  for (size_t i = 0; i < *count; ++i) out.values[i] = decode(*el, bytes.data() + data + i * el->bytes);
  return true;
}

std::vector<double> reorder(const std::vector<double>& values, const std::vector<int64_t>& shape, bool from_fortran) {
  std::vector<double> out(values.size());
  std::vector<int64_t> index(shape.size(), 0);
  // Walk the elements in C order (last index fastest), each one's Fortran
  // offset alongside.
  for (size_t c = 0; c < values.size(); ++c) {
    size_t f = 0;
    for (size_t d = shape.size(); d-- > 0;) f = f * static_cast<size_t>(shape[d]) + static_cast<size_t>(index[d]);
    if (from_fortran) out[c] = values[f];
    else out[f] = values[c];
    for (size_t d = shape.size(); d-- > 0;) {
      if (++index[d] < shape[d]) break;
      index[d] = 0;
    }
  }
  return out;
}

bool write_npy(const std::string& path, DType dtype, const std::vector<int64_t>& shape,
               const std::vector<double>& values, std::string& error, bool fortran_order) {
  error.clear();
  bool negative = std::any_of(shape.begin(), shape.end(), [](int64_t d) { return d < 0; });
  std::optional<uint64_t> count = element_count(shape, std::numeric_limits<uint64_t>::max());
  if (negative || !count || *count != values.size()) {
    error = "the shape does not match the number of values";
    return false;
  }
  std::string_view descr = descr_of(dtype);
  std::string err;
  Element el = *element_of(descr, err);
  std::string header = header_text(descr, shape, fortran_order);
  std::string bytes(kMagic);
  bytes += {1, 0};
  store_le(bytes, header.size(), 2);
  bytes += header;
  for (double v : values) encode(el, v, bytes);
  std::ofstream file(path, std::ios::binary | std::ios::trunc);
  file.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
  if (!file) {
    error = "cannot write `" + path + "`";
    return false;
  }
  return true;
}

}  // namespace cake::exec
