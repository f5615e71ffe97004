// Running a lowered kernel against the CPU executor, shared by the host run
// (codegen/host_run_test.cpp) and the GPU check (gpu/gpu_check.cpp): the
// shapes the examples' kernels run at, their inputs and expected outputs
// from the executor, the bytes of each parameter as the kernel's C++ type
// holds them, and the comparison of what came back.
#pragma once

#include "cake/analyze.h"
#include "cake/codegen/lower.h"
#include "cake/exec/numeric.h"
#include "cake/exec/run.h"
#include "cake/exec/setup.h"

#include <bit>
#include <cmath>
#include <cstring>
#include <map>
#include <stdexcept>
#include <string>
#include <vector>

namespace cake::testing {

/// Shapes larger than the smallest legal one, so loops run more than once
/// and several blocks run; small enough for the executor. Kernels not named
/// here run at the smallest shape their facts allow.
inline const std::map<std::string, exec::NamedShape>& check_shapes() {
  static const std::map<std::string, exec::NamedShape> shapes = {
      {"row_softmax", {{"R", 32}}},
      {"row_softmax_ref", {{"R", 32}}},
      {"hopper_gemm_ref", {{"M", 3}, {"N", 256}, {"K", 40}}},
      {"ampere_gemm_ref", {{"M", 5}, {"N", 128}, {"K", 40}}},
      // 5 k-tiles: the 3-stage ring turns, the last two refills are skipped.
      {"ampere_gemm", {{"M", 128}, {"N", 256}, {"K", 160}}},
      // 5 k-tiles of 64 bytes on two CTAs: the 3-stage ring turns.
      {"ada_fp8_gemm", {{"M", 128}, {"N", 256}, {"K", 320}}},
      {"ada_fp8_gemm_ref", {{"M", 5}, {"N", 128}, {"K", 72}}},
      // 5 k-tiles: the 4-stage ring turns, the producer waits on empty slots.
      {"hopper_gemm", {{"M", 128}, {"N", 256}, {"K", 320}}},
      // 5 k-tiles on two CTAs: the 4-stage ring turns, MMAs accumulate
      // after the first, each CTA its own tensor memory.
      {"blackwell_gemm", {{"M", 128}, {"N", 512}, {"K", 320}}},
      {"blackwell_gemm_ref", {{"M", 3}, {"N", 256}, {"K", 40}}},
      {"kmeans_ref", {{"N", 200}, {"K", 20}}},
      {"kmeans_assign_ref", {{"N", 200}, {"K", 20}}},
      {"kmeans_assign_generic", {{"N", 200}, {"K", 20}}},
      // 4 centroid tiles: the 3-stage ring turns.
      {"kmeans_assign", {{"N", 256}, {"K", 512}}},
      {"kmeans_assign_small", {{"N", 256}, {"K", 256}}},
      // Two tiles, four K slices of 5 k-tiles each: the 3-stage ring turns
      // in every slice, and each tile gets four adds.
      {"splitk_gemm", {{"M", 64}, {"N", 128}, {"K", 640}}},
      // tests/cost/published/gemm_h100.cake's stream-K GEMM: 2 x 4 pair
      // tiles of 11 k-tiles, 88 k-tiles over 66 clusters (one or two a
      // cluster), every tile split between clusters and two clusters' runs
      // crossing a tile's end (a flush, then a fresh accumulator).
      {"wgmma_f8_128x256_c2_sk", {{"M", 512}, {"N", 1024}, {"K", 1408}}},
  };
  return shapes;
}

/// One parameter as the kernel gets it.
struct Argument {
  codegen::LaunchParam::Kind kind = codegen::LaunchParam::Kind::Tensor;
  DType dtype = DType::Unknown;
  std::vector<unsigned char> bytes;  // a tensor's elements, or a scalar parameter's value
  long long scalar = 0;              // a shape symbol
  size_t expected = SIZE_MAX;        // a tensor's index into the executor's results
  // A tensor map: the argument index of its tensor, that tensor's dims
  // (innermost first) and the plan's encoding.
  size_t map_tensor = SIZE_MAX;
  std::vector<int64_t> map_dims;
  codegen::TensorMapEncoding map;
};

/// A kernel at a shape: its arguments and what the executor computed.
struct KernelCase {
  exec::ShapeChoice shape;
  std::vector<Argument> arguments;  // in the plan's order
  exec::RunResult want;
  std::vector<int64_t> grid;
  std::string error;  // why there is no case
};

/// Bytes of a 16- or 8-bit float or a tf32 (an f32 rounded to 10 mantissa
/// bits) in memory: its code (exec::float_bits).
inline size_t narrow_float_bytes(DType dtype) {
  int bits = dtype_bits(dtype);
  return (bits == 16 || bits == 8 || dtype == DType::TF32) && exec::float_bits(dtype, 0) ? static_cast<size_t>(bits / 8) : 0;
}

/// Bytes of an integer in memory (i8 ... u64, b32), 0 for other dtypes.
inline size_t integer_bytes(DType dtype) {
  return is_float(dtype) || dtype == DType::Pred || dtype == DType::Unknown ? 0 : dtype_bits(dtype) / 8;
}

inline bool is_signed_integer(DType dtype) {
  return dtype == DType::I8 || dtype == DType::I16 || dtype == DType::I32 || dtype == DType::I64;
}

/// A tensor of 6- or 4-bit floats, packed: value i at bits i x width of
/// the tensor's bytes, little-endian (what TMA's 16U6/16U4 types read).
inline std::vector<unsigned char> to_packed_bytes(DType dtype, const std::vector<double>& values) {
  unsigned bits = dtype_bits(dtype);
  std::vector<unsigned char> out((values.size() * bits + 7) / 8, 0);
  for (size_t i = 0; i < values.size(); ++i) {
    uint32_t code = *exec::float_bits(dtype, values[i]);
    for (unsigned b = 0; b < bits; ++b)
      if ((code >> b) & 1) out[(i * bits + b) / 8] |= uint8_t(1u << ((i * bits + b) % 8));
  }
  return out;
}

inline std::vector<double> from_packed_bytes(DType dtype, const std::vector<unsigned char>& bytes) {
  unsigned bits = dtype_bits(dtype);
  std::vector<double> out;
  for (size_t i = 0; (i + 1) * bits <= bytes.size() * 8; ++i) {
    uint32_t code = 0;
    for (unsigned b = 0; b < bits; ++b) code |= uint32_t((bytes[(i * bits + b) / 8] >> ((i * bits + b) % 8)) & 1) << b;
    out.push_back(*exec::from_float_bits(dtype, code));
  }
  return out;
}

inline std::vector<unsigned char> to_bytes(DType dtype, const std::vector<double>& values) {
  if (is_sub_byte_float(dtype)) return to_packed_bytes(dtype, values);
  std::vector<unsigned char> out;
  out.reserve(values.size() * 4);
  auto put = [&](const void* p, size_t n) {
    auto* b = static_cast<const unsigned char*>(p);
    out.insert(out.end(), b, b + n);
  };
  for (double v : values) {
    if (dtype == DType::F32) {
      float f = static_cast<float>(v);
      put(&f, 4);
    } else if (dtype == DType::F64) {
      put(&v, 8);
    } else if (size_t n = narrow_float_bytes(dtype)) {
      uint32_t code = *exec::float_bits(dtype, v);  // little-endian: its low n bytes
      put(&code, n);
    } else if (size_t n = integer_bytes(dtype)) {
      int64_t i = static_cast<int64_t>(v);  // little-endian: its low n bytes, two's complement
      put(&i, n);
    } else {
      throw std::runtime_error("a parameter dtype kernel_io does not convert: " + std::string(dtype_name(dtype)));
    }
  }
  return out;
}

inline std::vector<double> from_bytes(DType dtype, const std::vector<unsigned char>& bytes) {
  if (is_sub_byte_float(dtype)) return from_packed_bytes(dtype, bytes);
  std::vector<double> out;
  size_t narrow = narrow_float_bytes(dtype), integer = integer_bytes(dtype),
         size = narrow ? narrow : integer ? integer : dtype == DType::F64 ? 8 : 4;
  out.reserve(bytes.size() / size);
  for (size_t at = 0; at + size <= bytes.size(); at += size) {
    if (dtype == DType::F32) {
      float f;
      std::memcpy(&f, &bytes[at], 4);
      out.push_back(f);
    } else if (dtype == DType::F64) {
      double d;
      std::memcpy(&d, &bytes[at], 8);
      out.push_back(d);
    } else if (narrow) {
      uint32_t code = 0;
      std::memcpy(&code, &bytes[at], narrow);
      out.push_back(*exec::from_float_bits(dtype, code));
    } else if (integer) {
      uint64_t u = 0;
      std::memcpy(&u, &bytes[at], integer);
      unsigned shift = 64 - 8 * static_cast<unsigned>(integer);
      // Sign-extended from its top bit when the dtype is signed.
      out.push_back(is_signed_integer(dtype) ? static_cast<double>(static_cast<int64_t>(u << shift) >> shift)
                                             : static_cast<double>(u));
    } else {
      throw std::runtime_error("a parameter dtype kernel_io does not convert: " + std::string(dtype_name(dtype)));
    }
  }
  return out;
}

/// Seeded inputs at a shape and the arguments in the order of `plan`: at
/// the kernel's check shape with the executor's outputs for them, or at
/// `shape` (a bench's, say) without them, for a run the executor would take
/// too long for.
inline KernelCase make_case(const Module& m, uint32_t kernel, const codegen::LaunchPlan& plan, uint64_t seed,
                            const exec::NamedShape* shape = nullptr) {
  KernelCase c;
  auto it = check_shapes().find(plan.kernel);
  c.shape = exec::choose_shape(m, kernel, -1,
                               shape ? *shape : it == check_shapes().end() ? exec::NamedShape{} : it->second);
  if (!c.shape.error.empty()) {
    c.error = c.shape.error;
    return c;
  }
  std::vector<exec::TensorData> inputs;
  if (!exec::make_inputs(m, kernel, c.shape.values, seed, inputs, c.error)) return c;
  if (!shape) {
    c.want = exec::run_kernel(m, kernel, c.shape.values, inputs, {});
    if (!c.want.completed() || !c.want.problems.empty()) {
      c.error = "the CPU executor did not complete the kernel cleanly";
      return c;
    }
  }
  c.grid = codegen::launch_grid(m, kernel, c.shape.values);
  size_t tensor = 0;
  for (const codegen::LaunchParam& p : plan.params) {
    Argument a;
    a.kind = p.kind;
    if (p.kind == codegen::LaunchParam::Kind::ShapeSymbol) {
      for (const auto& [s, v] : c.shape.values)
        if (m.symbols[s].name == p.name) a.scalar = v;
    } else if (p.kind == codegen::LaunchParam::Kind::TensorMap) {
      // Encoded by the launcher from its tensor's argument (tensors come first).
      a.map = p.map;
      for (size_t i = 0; i < plan.params.size() && i < c.arguments.size(); ++i)
        if (plan.params[i].name == p.map.tensor) a.map_tensor = i;
      if (a.map_tensor == SIZE_MAX) {
        c.error = "tensor map " + p.name + " names no tensor argument before it";
        return c;
      }
      const exec::TensorData& t = inputs.at(c.arguments[a.map_tensor].expected);
      // Innermost first: the reverse of the tensor's memory order.
      std::vector<size_t> order = memory_order(t.order, t.dims.size());
      for (auto d = order.rbegin(); d != order.rend(); ++d) a.map_dims.push_back(t.dims[*d]);
    } else {
      const exec::TensorData& t = inputs.at(tensor);
      if (t.name != p.name) {
        c.error = "the plan's parameter " + p.name + " is the executor's " + t.name;
        return c;
      }
      a.dtype = t.dtype;
      a.expected = tensor++;
      a.bytes = to_bytes(t.dtype, t.values);  // a scalar's one value, as its C type holds it
    }
    c.arguments.push_back(std::move(a));
  }
  return c;
}

/// The largest |value| of `values` (infinities and NaNs left out).
inline double largest(const std::vector<double>& values) {
  double out = 0;
  for (double v : values) out = std::isfinite(v) ? std::max(out, std::fabs(v)) : out;
  return out;
}

/// Each tensor argument (as it came back from the kernel) against the
/// executor's result, with the executor's tolerances; a line per mismatch.
/// `f32_floor` > 0 raises the absolute tolerance of f32 tensors to that
/// fraction of the tensor's largest |value| (the GPU check's allowance for
/// an accumulator the hardware keeps narrower than f32).
inline std::vector<std::string> mismatches(const KernelCase& c, double f32_floor = 0) {
  std::vector<std::string> out;
  for (const Argument& a : c.arguments) {
    if (a.kind != codegen::LaunchParam::Kind::Tensor) continue;
    const exec::TensorData& want = c.want.tensors.at(a.expected);
    std::vector<double> got = from_bytes(a.dtype, a.bytes);
    exec::Tolerance tolerance = exec::tolerance_for(a.dtype);
    if (f32_floor > 0 && a.dtype == DType::F32) tolerance.atol = std::max(tolerance.atol, f32_floor * largest(want.values));
    exec::Comparison cmp = exec::compare(tolerance, got, want.values);
    if (!cmp.matches())
      out.push_back(want.name + ": " + std::to_string(cmp.mismatches) + " of " + std::to_string(got.size()) +
                    " elements differ (max abs " + std::to_string(cmp.max_abs) + ", max rel " +
                    std::to_string(cmp.max_rel) + ")");
  }
  return out;
}

}  // namespace cake::testing
