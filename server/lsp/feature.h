// What a feature handler sees, and how features register. Each feature is
// one file in features/ that registers its methods with CAKE_LSP_FEATURE;
// handlers are a few lines that call analysis/ and convert the answer.
#pragma once

#include "cake/codegen/facts.h"
#include "cake/document.h"
#include "cake/query_cost.h"
#include "convert.h"

#include <nlohmann/json.hpp>

#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

namespace cake::lsp {

using json = nlohmann::json;

/// JSON-RPC error codes (LSP 3.17).
namespace error_code {
constexpr int ParseError = -32700, InvalidRequest = -32600, MethodNotFound = -32601, InvalidParams = -32602,
              InternalError = -32603, ServerNotInitialized = -32002, RequestCancelled = -32800,
              ContentModified = -32801;
}

/// Thrown by a handler to answer with a JSON-RPC error.
struct RequestError {
  int code;
  std::string message;
};

/// One open document.
struct OpenDocument {
  std::string uri;
  int64_t version = 0;
  std::unique_ptr<Document> doc;
  bool diagnostics_published = false;  // push mode: the current version's are out
  DocumentCosts costs;                 // each kernel's estimates, for code lens and inlay hints
  /// The compiler's facts (E0802, W0803, W0804; docs/lowering.md), found in
  /// the background for version `compiled_version`; shown only while that is
  /// the document's version.
  std::vector<Diagnostic> compiled;
  int64_t compiled_version = -1;
  /// The version a background compile was last started for (one per version).
  int64_t compile_started = -1;
  /// With `compiled`: the PTX each .cake line became, for the file's first
  /// target (the hover shows it).
  codegen::PtxLines ptx_lines;
  std::string ptx_target;
};

class Context {
 public:
  virtual ~Context() = default;

  /// The open document named by params.textDocument.uri (InvalidParams if none).
  virtual OpenDocument& document(const json& params) = 0;
  /// Every open document, by URI.
  virtual const std::map<std::string, OpenDocument>& documents() const = 0;
  virtual PositionEncoding encoding() const = 0;
  virtual const json& client_capabilities() const = 0;
  /// The absolute path of the docs (rule pages); may be empty.
  virtual const std::string& docs_root() const = 0;
  /// The options documents are analysed with (default targets, device).
  virtual const AnalyzeOptions& analyze_options() const = 0;
  /// The target and device of the editor's estimates for `d`.
  CostTarget cost_target(OpenDocument& d) const {
    return cake::cost_target(d.doc->targets(), analyze_options().device);
  }
  /// True once the client cancelled the request being handled, or a newer
  /// message waits that makes its answer moot.
  virtual bool cancelled() const = 0;
  /// The diagnostics of `d`'s current text, computed now if need be;
  /// ContentModified when the request is cancelled meanwhile.
  const std::vector<Diagnostic>& diagnostics(OpenDocument& d) const {
    const std::vector<Diagnostic>* all = d.doc->diagnostics([&] { return cancelled(); });
    if (!all) throw RequestError{error_code::ContentModified, "the document changed; ask again"};
    return *all;
  }

  PositionConverter positions(OpenDocument& d) const {
    return PositionConverter(d.doc->text(), d.doc->lines(), encoding());
  }
  /// The byte offset of params.position (InvalidParams when malformed).
  uint32_t offset(OpenDocument& d, const json& position) const;
  json position(OpenDocument& d, uint32_t offset) const;
  json range(OpenDocument& d, ByteRange range) const;
  /// The byte range of an LSP Range object.
  ByteRange byte_range(OpenDocument& d, const json& range) const;
};

using RequestHandler = std::function<json(Context&, const json& params)>;
/// Adds the feature's entries to the server capabilities of `initialize`.
using Advertise = std::function<void(const json& client_capabilities, json& server_capabilities)>;

struct Feature {
  std::string method;
  RequestHandler handle;
  Advertise advertise;  // may be empty
};

/// All registered features.
std::vector<Feature>& features();

struct FeatureRegistrar {
  explicit FeatureRegistrar(Feature f) { features().push_back(std::move(f)); }
};

#define CAKE_LSP_CONCAT_(a, b) a##b
#define CAKE_LSP_CONCAT(a, b) CAKE_LSP_CONCAT_(a, b)
/// Registers a feature at start-up: CAKE_LSP_FEATURE({"textDocument/hover", handler, advertise});
#define CAKE_LSP_FEATURE(...) \
  static const ::cake::lsp::FeatureRegistrar CAKE_LSP_CONCAT(cake_lsp_feature_, __COUNTER__){::cake::lsp::Feature __VA_ARGS__}

}  // namespace cake::lsp
