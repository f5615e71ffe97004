// NumPy .npy files (format versions 1.0 to 3.0, little-endian, C or Fortran
// order) for
// the executor's inputs and outputs. Outputs of dtypes NumPy lacks (bf16,
// tf32, f8, f6, f4) are written as float32, which holds each of their values
// exactly; inputs of any float or integer dtype are read as doubles and
// rounded into the parameter's dtype by the caller.
#pragma once

#include "cake/model.h"

#include <cstdint>
#include <string>
#include <vector>

namespace cake::exec {

struct NpyArray {
  std::string descr;             // as the header says: "<f4", "<i4", "|b1", ...
  std::vector<int64_t> shape;
  bool fortran_order = false;    // the header's: values column-major
  std::vector<double> values;    // in the file's order
};

/// Reads `path`; false with `error` set ("not a .npy file", "big-endian data
/// is not supported", a short read...).
bool read_npy(const std::string& path, NpyArray& out, std::string& error);

/// `values` of an array of `shape` in the other element order: C order
/// (row-major) from Fortran order (column-major) if `from_fortran`, else
/// Fortran order from C order.
std::vector<double> reorder(const std::vector<double>& values, const std::vector<int64_t>& shape, bool from_fortran);

/// Writes `values` (`shape`, column-major if `fortran_order`, else
/// row-major) as the .npy dtype that holds
/// `dtype` exactly (float32 for the formats NumPy lacks, float16 for f16,
/// uint32 for b32, bool for pred, float64 for unknown), as version 1.0 with
/// the data aligned to 64 bytes; false with `error`.
bool write_npy(const std::string& path, DType dtype, const std::vector<int64_t>& shape,
               const std::vector<double>& values, std::string& error, bool fortran_order = false);

}  // namespace cake::exec
