// The executor's element values (cake/exec/numeric.h) and .npy files
// (cake/exec/npy.h): round-to-nearest-even into every dtype at its ties,
// subnormals and saturation points, the seeded inputs, the comparison, and
// .npy round trips and rejections.
#include <catch2/catch.hpp>

#include "cake/exec/npy.h"
#include "cake/exec/numeric.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <limits>
#include <string>
#include <unistd.h>
#include <vector>

namespace fs = std::filesystem;
using namespace cake;
using namespace cake::exec;

namespace {

const double kInf = std::numeric_limits<double>::infinity();
const double kNaN = std::numeric_limits<double>::quiet_NaN();

double p2(int e) { return std::ldexp(1.0, e); }

struct RoundCase {
  DType dtype;
  double in, out;
};

/// A fresh temporary directory, removed with the object.
class TempDir {
 public:
  TempDir() {
    std::string pattern = (fs::temp_directory_path() / "cake-numeric-test-XXXXXX").string();
    REQUIRE(mkdtemp(pattern.data()) != nullptr);
    path_ = pattern;
  }
  ~TempDir() {
    std::error_code ec;
    fs::remove_all(path_, ec);
  }
  std::string file(const std::string& name) const { return (path_ / name).string(); }

 private:
  fs::path path_;
};

void write_bytes(const std::string& path, const std::string& bytes) {
  std::ofstream(path, std::ios::binary).write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
}

std::string read_bytes(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

/// A v1.0 file with this header dict and data, padded as NumPy pads it.
std::string npy_bytes(std::string dict, const std::string& data, char major = 1) {
  while ((10 + dict.size() + 1) % 64 != 0) dict += ' ';
  dict += '\n';
  std::string b = "\x93NUMPY";
  b += {major, 0, static_cast<char>(dict.size() & 0xff), static_cast<char>(dict.size() >> 8)};
  if (major > 1) b += {0, 0};
  return b + dict + data;
}

}  // namespace

TEST_CASE("round_to rounds to nearest even at the ties, subnormals and limits of each dtype") {
  const RoundCase cases[] = {
      // bf16: 8 significant bits.
      {DType::BF16, 1 + p2(-8), 1},                  // tie, to the even 1
      {DType::BF16, 1 + 3 * p2(-9), 1 + p2(-7)},     // above the tie
      {DType::BF16, 1 + 3 * p2(-8), 1 + p2(-6)},     // tie between 1+2^-7 (odd) and 1+2^-6
      {DType::BF16, 1e39, kInf},
      {DType::BF16, -kInf, -kInf},
      // f16: subnormals down to 2^-24, max 65504.
      {DType::F16, p2(-24), p2(-24)},
      {DType::F16, p2(-25), 0},                      // tie, to the even 0
      {DType::F16, 1.5 * p2(-25), p2(-24)},
      {DType::F16, 3 * p2(-25), 2 * p2(-24)},        // tie between 1 and 2 quanta
      {DType::F16, 5 * p2(-26), p2(-24)},            // 1.25 quanta
      {DType::F16, -(p2(-14) - p2(-24) + p2(-27)), -(p2(-14) - p2(-24))},  // the top subnormal
      {DType::F16, 65504, 65504},
      {DType::F16, 65519.99, 65504},
      {DType::F16, 65520, kInf},                     // tie with 2^16, to the even one: overflow
      {DType::F16, 1 + p2(-11), 1},
      // tf32: 11 significant bits with f32's range.
      {DType::TF32, 1 + p2(-11), 1},
      {DType::TF32, 1 + 3 * p2(-11), 1 + p2(-9)},
      {DType::TF32, 1 + p2(-10), 1 + p2(-10)},
      {DType::TF32, p2(-130), p2(-130)},             // subnormal, multiple of 2^-136
      {DType::TF32, p2(-137), 0},
      // f32.
      {DType::F32, 1 + p2(-24), 1},
      {DType::F32, 1 + 3 * p2(-24), 1 + p2(-22)},
      {DType::F32, p2(-149), p2(-149)},
      {DType::F32, p2(-150), 0},
      {DType::F32, 1e39, kInf},
      // f8e4m3: max 448, no infinity, smallest subnormal 2^-9.
      {DType::F8E4M3, 448, 448},
      {DType::F8E4M3, 464, 448},
      {DType::F8E4M3, 1e6, 448},
      {DType::F8E4M3, -kInf, -448},
      {DType::F8E4M3, p2(-9), p2(-9)},
      {DType::F8E4M3, p2(-10), 0},
      {DType::F8E4M3, 1.5 * p2(-10), p2(-9)},
      {DType::F8E4M3, 1.0625, 1},                    // tie
      {DType::F8E4M3, 1.1875, 1.25},                 // tie, to the even 1.25
      // f8e5m2: max 57344, infinities saturate too.
      {DType::F8E5M2, 57344, 57344},
      {DType::F8E5M2, 61440, 57344},
      {DType::F8E5M2, kInf, 57344},
      {DType::F8E5M2, 1.125, 1},
      {DType::F8E5M2, p2(-16), p2(-16)},
      // f6e3m2 (max 28, subnormal 2^-4) and f6e2m3 (max 7.5, subnormal 2^-3).
      {DType::F6E3M2, 28, 28},
      {DType::F6E3M2, 100, 28},
      {DType::F6E3M2, p2(-4), p2(-4)},
      {DType::F6E3M2, 3 * p2(-5), p2(-3)},           // tie, to the even 2 quanta
      {DType::F6E3M2, kNaN, 28},
      {DType::F6E2M3, 7.5, 7.5},
      {DType::F6E2M3, -9, -7.5},
      {DType::F6E2M3, 1.0625, 1},
      {DType::F6E2M3, p2(-4), 0},
      // f4e2m1.
      {DType::F4E2M1, 0.25, 0},
      {DType::F4E2M1, 0.75, 1},
      {DType::F4E2M1, 1.25, 1},
      {DType::F4E2M1, 2.5, 2},
      {DType::F4E2M1, 3.5, 4},
      {DType::F4E2M1, 5, 4},
      {DType::F4E2M1, 5.01, 6},
      {DType::F4E2M1, -100, -6},
      // Integers: truncation toward zero, wrapping, saturation; pred.
      {DType::I32, 2.9, 2},
      {DType::I32, -2.9, -2},
      {DType::I32, 2147483648.0, -2147483648.0},
      {DType::I32, 1e30, 2147483647},
      {DType::I32, -kInf, -2147483648.0},
      {DType::I32, kNaN, 0},
      {DType::I8, 200, -56},
      {DType::I8, -129, 127},
      {DType::U8, 256, 0},
      {DType::U8, -1, 255},
      {DType::U16, 65537.5, 1},
      {DType::I16, -32769, 32767},
      {DType::U32, -1, 4294967295.0},
      {DType::B32, 4294967296.0 + 5, 5},
      {DType::I64, -3.5, -3},
      {DType::U64, -kInf, 0},
      {DType::Pred, 0.5, 1},
      {DType::Pred, 0, 0},
      {DType::F64, 1 + p2(-52), 1 + p2(-52)},
      {DType::Unknown, 0.1, 0.1},
  };
  for (const RoundCase& c : cases) {
    INFO(dtype_name(c.dtype) << " " << c.in);
    CHECK(round_to(c.dtype, c.in) == c.out);
  }
}

TEST_CASE("round_to keeps NaN where the format has one, and the sign of zero") {
  for (DType d : {DType::F32, DType::TF32, DType::F16, DType::BF16, DType::F8E4M3, DType::F8E5M2})
    CHECK(std::isnan(round_to(d, kNaN)));
  CHECK(round_to(DType::F4E2M1, kNaN) == 6);
  CHECK(std::signbit(round_to(DType::BF16, -0.0)));
  CHECK(std::signbit(round_to(DType::F8E4M3, -p2(-12))));
}

TEST_CASE("the f4e2m1 value set is {0, 0.5, 1, 1.5, 2, 3, 4, 6}") {
  std::vector<double> seen;
  for (double v = 0; v <= 8; v += 1.0 / 64) {
    double r = round_to(DType::F4E2M1, v);
    if (seen.empty() || seen.back() != r) seen.push_back(r);
  }
  CHECK(seen == std::vector<double>{0, 0.5, 1, 1.5, 2, 3, 4, 6});
}

TEST_CASE("float_bits gives each format's code, and from_float_bits reads every code back") {
  // Codes from the formats' definitions (IEEE 754, OCP FP8): sign,
  // exponent field, mantissa.
  CHECK(float_bits(DType::F32, 1.0) == 0x3F800000u);
  CHECK(float_bits(DType::F32, p2(-149)) == 0x1u);  // the smallest subnormal
  CHECK(float_bits(DType::F16, -2.0) == 0xC000u);
  CHECK(float_bits(DType::F16, 65504) == 0x7BFFu);
  CHECK(float_bits(DType::BF16, 1.0) == 0x3F80u);
  CHECK(float_bits(DType::F8E4M3, 1.0) == 0x38u);
  CHECK(float_bits(DType::F8E4M3, -448) == 0xFEu);
  CHECK(float_bits(DType::F8E4M3, p2(-9)) == 0x01u);
  CHECK(float_bits(DType::F8E4M3, kNaN) == 0x7Fu);
  CHECK(float_bits(DType::F8E4M3, 1000) == 0x7Eu);  // rounded first: saturates to 448
  CHECK(float_bits(DType::F8E5M2, 1.0) == 0x3Cu);
  CHECK(float_bits(DType::F8E5M2, 57344) == 0x7Bu);
  CHECK(float_bits(DType::F8E5M2, p2(-16)) == 0x01u);
  CHECK(float_bits(DType::F4E2M1, 6) == 0x7u);
  CHECK_FALSE(float_bits(DType::I32, 1).has_value());
  CHECK_FALSE(from_float_bits(DType::F64, 0).has_value());
  // Every finite code of the 8-bit floats is a value of the set that
  // encodes back to it (round_to saturates, so e5m2's infinities are not).
  for (DType d : {DType::F8E4M3, DType::F8E5M2})
    for (uint32_t code = 0; code < 256; ++code) {
      double v = *from_float_bits(d, code);
      INFO(dtype_name(d) << " code " << code);
      if (!std::isfinite(v)) continue;
      CHECK(round_to(d, v) == v);
      CHECK(float_bits(d, v) == code);
    }
  CHECK(std::isinf(*from_float_bits(DType::F8E5M2, 0x7C)));
  CHECK(*from_float_bits(DType::F8E4M3, 0x7E) == 448);
}

TEST_CASE("round_to into f32 is the host's conversion to float") {
  std::vector<double> v(4096);
  fill_random(DType::F64, v, 7);
  for (double& x : v) {
    double scaled = x * p2(static_cast<int>(x * 150));  // through the normal and subnormal ranges
    CHECK(round_to(DType::F32, scaled) == static_cast<double>(static_cast<float>(scaled)));
  }
}

TEST_CASE("fill_random is deterministic, in range and already rounded") {
  const DType dtypes[] = {DType::F64, DType::F32, DType::TF32, DType::F16, DType::BF16, DType::F8E4M3,
                          DType::F8E5M2, DType::F6E3M2, DType::F6E2M3, DType::F4E2M1, DType::I64, DType::I32,
                          DType::I16, DType::I8, DType::U64, DType::U32, DType::U16, DType::U8, DType::B32,
                          DType::Pred};
  for (DType d : dtypes) {
    INFO(dtype_name(d));
    std::vector<double> a(1000), b(1000), c(1000), prefix(10);
    fill_random(d, a, 42);
    fill_random(d, b, 42);
    fill_random(d, c, 43);
    fill_random(d, prefix, 42);
    CHECK(a == b);
    CHECK(a != c);
    CHECK(std::equal(prefix.begin(), prefix.end(), a.begin()));
    for (double x : a) {
      CHECK(round_to(d, x) == x);
      if (is_float(d)) CHECK((x >= -1 && x < 1));
      else if (d == DType::Pred) CHECK((x == 0 || x == 1));
      else if (d == DType::I64 || d == DType::I32 || d == DType::I16 || d == DType::I8) CHECK((x >= -8 && x < 8));
      else CHECK((x >= 0 && x < 16));
    }
  }
}

TEST_CASE("fill_random gives the same values on every machine") {
  // The first splitmix64 outputs of seed 0 are published (e.g. in the
  // reference implementation's tests): 0xe220a8397b1dcdaf, then 0x6e789e6aa1b965f4.
  std::vector<double> u(2);
  fill_random(DType::U8, u, 0);
  CHECK(u == std::vector<double>{0xe, 0x6});
  std::vector<double> f(1);
  fill_random(DType::F64, f, 0);
  CHECK(f[0] == 2 * std::ldexp(static_cast<double>(0xe220a8397b1dcdafULL >> 11), -53) - 1);
}

TEST_CASE("tolerances: integers exact, floats about an ulp of their format") {
  CHECK(tolerance_for(DType::I32).atol == 0);
  CHECK(tolerance_for(DType::I32).rtol == 0);
  CHECK(tolerance_for(DType::Pred).rtol == 0);
  CHECK(tolerance_for(DType::BF16).rtol == p2(-7));
  CHECK(tolerance_for(DType::F16).rtol == p2(-10));
  CHECK(tolerance_for(DType::F8E4M3).rtol == p2(-3));
  CHECK(tolerance_for(DType::F8E5M2).rtol == p2(-2));
  CHECK(tolerance_for(DType::F32).rtol < 1e-3);
  CHECK(tolerance_for(DType::F64).rtol < 1e-10);
}

TEST_CASE("compare counts mismatches and finds the first") {
  std::vector<double> want{1, 2, 3, 4, kNaN, kInf};
  std::vector<double> got{1, 2.5, 3, 4.0001, kNaN, kInf};
  Comparison f32 = compare(DType::F32, got, want);
  CHECK(f32.mismatches == 1);
  CHECK(f32.first.value_or(99) == 1);
  CHECK(f32.max_abs == Approx(0.5));
  CHECK(f32.max_rel == Approx(0.25));

  Comparison i32 = compare(DType::I32, got, want);
  CHECK(i32.mismatches == 2);
  CHECK(i32.first.value_or(99) == 1);

  CHECK(compare(DType::BF16, got, got).matches());
  CHECK(!compare(DType::F32, std::vector<double>{kNaN}, std::vector<double>{1}).matches());
  CHECK(!compare(DType::F32, std::vector<double>{1}, std::vector<double>{kNaN}).matches());
  CHECK(!compare(DType::F32, std::vector<double>{-kInf}, std::vector<double>{kInf}).matches());

  Comparison shorter = compare(DType::F32, std::vector<double>{1, 2}, std::vector<double>{1, 2, 3, 4});
  CHECK(shorter.mismatches == 2);
  CHECK(shorter.first.value_or(99) == 2);
}

TEST_CASE("npy files round-trip every dtype") {
  TempDir dir;
  const std::pair<DType, const char*> dtypes[] = {
      {DType::F64, "<f8"},    {DType::F32, "<f4"},    {DType::TF32, "<f4"},   {DType::F16, "<f2"},
      {DType::BF16, "<f4"},   {DType::F8E4M3, "<f4"}, {DType::F8E5M2, "<f4"}, {DType::F6E3M2, "<f4"},
      {DType::F6E2M3, "<f4"}, {DType::F4E2M1, "<f4"}, {DType::I64, "<i8"},    {DType::I32, "<i4"},
      {DType::I16, "<i2"},    {DType::I8, "|i1"},     {DType::U64, "<u8"},    {DType::U32, "<u4"},
      {DType::U16, "<u2"},    {DType::U8, "|u1"},     {DType::B32, "<u4"},    {DType::Pred, "|b1"},
  };
  const std::vector<std::vector<int64_t>> shapes = {{2, 3}, {6}, {1, 2, 3}};
  for (auto [d, descr] : dtypes) {
    for (const auto& shape : shapes) {
      INFO(dtype_name(d) << " rank " << shape.size());
      std::vector<double> values(6);
      fill_random(d, values, 3);
      if (d == DType::F16) values[0] = p2(-24);  // a subnormal through the half conversion
      std::string path = dir.file(std::string(dtype_name(d)) + ".npy"), error;
      REQUIRE(write_npy(path, d, shape, values, error));
      std::string bytes = read_bytes(path);
      CHECK(bytes.find('\n') % 64 == 63);  // the data starts at a multiple of 64
      NpyArray a;
      REQUIRE(read_npy(path, a, error));
      CHECK(a.descr == descr);
      CHECK(a.shape == shape);
      CHECK(a.values == values);
    }
  }
}

TEST_CASE("npy keeps Fortran order, and reorder() converts between the orders") {
  TempDir dir;
  std::string path = dir.file("f.npy"), error;
  // A [2, 3] array column-major: (i, j) holds 10 i + j at i + 2 j.
  std::vector<double> fortran = {0, 10, 1, 11, 2, 12}, c = {0, 1, 2, 10, 11, 12};
  REQUIRE(write_npy(path, DType::F32, {2, 3}, fortran, error, true));
  CHECK(read_bytes(path).find("'fortran_order': True") != std::string::npos);
  NpyArray a;
  REQUIRE(read_npy(path, a, error));
  CHECK(a.fortran_order);
  CHECK(a.values == fortran);
  CHECK(reorder(fortran, {2, 3}, true) == c);
  CHECK(reorder(c, {2, 3}, false) == fortran);
  // Rank 3: (i, j, k) of [2, 3, 4] is 100 i + 10 j + k.
  std::vector<double> c3, f3(24);
  for (int i = 0; i < 2; ++i)
    for (int j = 0; j < 3; ++j)
      for (int k = 0; k < 4; ++k) {
        c3.push_back(100 * i + 10 * j + k);
        f3[static_cast<size_t>(i + 2 * (j + 3 * k))] = 100 * i + 10 * j + k;
      }
  CHECK(reorder(c3, {2, 3, 4}, false) == f3);
  CHECK(reorder(f3, {2, 3, 4}, true) == c3);
}

TEST_CASE("npy reads versions 2 and 3, 0-d arrays, and special values") {
  TempDir dir;
  std::string path = dir.file("a.npy"), error;
  std::string one_f4 = std::string("\0\0\x80\x3f", 4);
  for (char major : {2, 3}) {
    write_bytes(path, npy_bytes("{'descr': '<f4', 'fortran_order': False, 'shape': (1,), }", one_f4, major));
    NpyArray a;
    REQUIRE(read_npy(path, a, error));
    CHECK(a.values == std::vector<double>{1});
  }
  write_bytes(path, npy_bytes("{\"shape\": (), \"fortran_order\": False, \"descr\": \"|u1\"}", "\x07"));
  NpyArray scalar;
  REQUIRE(read_npy(path, scalar, error));
  CHECK(scalar.shape.empty());
  CHECK(scalar.values == std::vector<double>{7});

  std::string path2 = dir.file("b.npy");
  REQUIRE(write_npy(path2, DType::F16, {3}, {kInf, -kInf, kNaN}, error));
  NpyArray specials;
  REQUIRE(read_npy(path2, specials, error));
  CHECK(specials.values[0] == kInf);
  CHECK(specials.values[1] == -kInf);
  CHECK(std::isnan(specials.values[2]));
}

TEST_CASE("npy rejects corrupt and unsupported files with a reason") {
  TempDir dir;
  std::string path = dir.file("bad.npy");
  std::string good = npy_bytes("{'descr': '<i4', 'fortran_order': False, 'shape': (2,), }", std::string(8, '\1'));
  struct Bad {
    std::string bytes, error;
  };
  const Bad cases[] = {
      {"", "not a .npy file"},
      {std::string("\x93NUMPZ\1\0", 8), "not a .npy file"},
      {std::string("\x93NUMPY\4\0", 8), "unsupported .npy version"},
      {good.substr(0, 9), "truncated .npy header"},
      {good.substr(0, 40), "truncated .npy header"},
      {good.substr(0, good.size() - 1), "truncated data"},
      {npy_bytes("{'descr': '>i4', 'fortran_order': False, 'shape': (2,), }", std::string(8, '\1')), "big-endian"},
      {npy_bytes("{'descr': '<c8', 'fortran_order': False, 'shape': (2,), }", std::string(16, '\1')), "unsupported dtype"},
      {npy_bytes("{'descr': '|i4', 'fortran_order': False, 'shape': (2,), }", std::string(8, '\1')), "unsupported dtype"},
      {npy_bytes("{'descr': '<i4', 'fortran_order': False}", ""), "lacks"},
      {npy_bytes("{'descr': '<i4', 'fortran_order': False, 'shape': (2,), 'x': 1}", ""), "unexpected header key"},
      {npy_bytes("{'descr': '<i4', 'fortran_order': False, 'shape': (-2,), }", ""), "malformed value of `shape`"},
      {npy_bytes("{'descr': '<i4', 'fortran_order': Maybe, 'shape': (2,), }", ""), "malformed value"},
      {npy_bytes("['descr']", ""), "not a dict"},
      {npy_bytes("{'descr': '<i4', 'fortran_order': False, 'shape': (4294967296, 4294967296, 16), }", ""),
       "truncated data"},
      {npy_bytes("{'descr': '<i4', 'fortran_order': False, 'shape': (99999999999999999999,), }", ""),
       "malformed value"},
      {npy_bytes("{'descr': '<i4", ""), "malformed"},
  };
  for (const Bad& c : cases) {
    INFO(c.error);
    write_bytes(path, c.bytes);
    NpyArray a;
    std::string error;
    CHECK(!read_npy(path, a, error));
    CHECK(error.find(c.error) != std::string::npos);
  }
  NpyArray a;
  std::string error;
  CHECK(!read_npy(dir.file("missing.npy"), a, error));
  CHECK(error.find("cannot open") != std::string::npos);
  CHECK(!write_npy(path, DType::F32, {2, 2}, {1, 2, 3}, error));
}

TEST_CASE("npy survives every truncation and byte flip of a valid file") {
  TempDir dir;
  std::string path = dir.file("x.npy"), error;
  REQUIRE(write_npy(path, DType::I16, {2, 2}, {1, -2, 3, -4}, error));
  std::string good = read_bytes(path);
  for (size_t n = 0; n < good.size(); ++n) {
    write_bytes(path, good.substr(0, n));
    NpyArray a;
    CHECK(!read_npy(path, a, error));
  }
  for (size_t i = 0; i < good.size(); ++i) {
    std::string flipped = good;
    flipped[i] = static_cast<char>(flipped[i] ^ 0x5a);
    write_bytes(path, flipped);
    NpyArray a;
    read_npy(path, a, error);  // any result but a crash
  }
}
