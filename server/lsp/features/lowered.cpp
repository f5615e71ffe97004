// cake/lowered: the CUDA C++ of the kernel under the cursor, as `cake lower`
// makes it (docs/lowering.md), for the editors' read-only "lowered CUDA"
// view. Params {textDocument, position or kernel (a name), target?}: a view
// that follows edits names its kernel, which moves. The answer {kernel,
// target, targets, ok, cuda, problems: [{code, message, range}]}: `cuda` is
// the translation unit when it lowers, `problems` the E0801 refusals, or
// the file's errors (the first 20), when it does not. The newest text is analysed
// afresh; the view asks again after edits. Advertised as
// capabilities.experimental.lowered.
#include "diagnostic_json.h"
#include "feature.h"

#include "cake/codegen/lower.h"
#include "cake/registry.h"

namespace cake::lsp {
namespace {

/// The path of a file: URI, for `#line` (percent escapes decoded); the URI
/// itself for other schemes.
std::string uri_path(const std::string& uri) {
  if (!uri.starts_with("file://")) return uri;
  std::string out;
  for (size_t i = 7; i < uri.size(); ++i) {
    if (uri[i] == '%' && i + 2 < uri.size() && std::isxdigit(static_cast<unsigned char>(uri[i + 1])) &&
        std::isxdigit(static_cast<unsigned char>(uri[i + 2]))) {
      out += static_cast<char>(std::stoi(uri.substr(i + 1, 2), nullptr, 16));
      i += 2;
    } else {
      out += uri[i];
    }
  }
  return out;
}

json lowered_request(Context& context, const json& params) {
  OpenDocument& d = context.document(params);
  bool by_name = params.contains("kernel") && params["kernel"].is_string();
  uint32_t offset = by_name ? 0 : context.offset(d, params.value("position", json()));
  std::unique_ptr<Analysis> a = analyze(std::string(d.doc->text()), context.analyze_options());
  const Module& m = a->module;
  uint32_t kernel = kNone;
  for (uint32_t k = 0; k < m.kernels.size(); ++k) {
    bool here = by_name ? m.symbols[m.kernels[k].symbol].name == params["kernel"].get<std::string>()
                        : m.kernels[k].range.begin <= offset && offset <= m.kernels[k].range.end;
    if (here) kernel = k;
  }
  if (kernel == kNone)
    throw RequestError{error_code::InvalidParams, by_name ? "no kernel named " + params["kernel"].get<std::string>()
                                                          : "no kernel at this position"};
  std::vector<std::string> targets = file_targets(m, context.analyze_options());
  std::string target = params.contains("target") && params["target"].is_string() ? params["target"].get<std::string>()
                       : targets.empty()                                          ? std::string()
                                                                                  : targets.front();
  if (target.empty()) throw RequestError{error_code::InvalidParams, "the file names no target"};
  json problems = json::array();
  auto add = [&](const Diagnostic& p) {
    problems.push_back({{"code", std::string(rule_info(p.id).code)}, {"message", p.message}, {"range", context.range(d, p.range)}});
  };
  // A file with errors does not lower (lower() says so with one E0801): the
  // view lists the errors themselves, the first kProblems of them.
  constexpr size_t kProblems = 20;
  for (const Diagnostic& p : a->diagnostics)
    if (p.severity == Severity::Error && problems.size() < kProblems) add(p);
  codegen::Lowered low;
  if (problems.empty()) {
    low = codegen::lower(*a, kernel, target, uri_path(d.uri));
    for (const Diagnostic& p : low.diagnostics) add(p);
  }
  return {{"kernel", std::string(m.symbols[m.kernels[kernel].symbol].name)},
          {"target", target},
          {"targets", targets},
          {"ok", problems.empty()},
          {"cuda", low.cuda},
          {"problems", problems}};
}

}  // namespace

CAKE_LSP_FEATURE({"cake/lowered", lowered_request,
                  [](const json&, json& caps) { caps["experimental"]["lowered"] = true; }});

}  // namespace cake::lsp
