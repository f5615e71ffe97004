// A JSON document read from a file (a measurement file, a device table),
// with the size limit and the messages of the other inputs (io.h).
#pragma once

#include "io.h"

#include <nlohmann/json.hpp>

#include <string>

namespace cake::cli {

struct JsonFile {
  nlohmann::ordered_json doc;
  std::string error;  // "PATH: No such file or directory", "PATH: not valid JSON"; empty when read
};

inline JsonFile read_json_file(const std::string& path) {
  JsonFile f;
  ReadResult r = read_file(path);
  if (!r.error.empty()) {
    f.error = path + ": " + r.error;
    return f;
  }
  f.doc = nlohmann::ordered_json::parse(r.text, nullptr, false);
  if (f.doc.is_discarded()) f.error = path + ": not valid JSON";
  return f;
}

}  // namespace cake::cli
