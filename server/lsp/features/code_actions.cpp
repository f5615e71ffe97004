// textDocument/codeAction: each fix of a diagnostic that overlaps the
// requested range becomes a quickfix with the diagnostic linked and a
// WorkspaceEdit of `changes`.
#include "diagnostic_json.h"
#include "feature.h"
#include "features/diagnostics.h"

namespace cake::lsp {
namespace {

bool overlaps(ByteRange a, ByteRange b) {
  return a.begin <= b.end && b.begin <= a.end;
}

json code_action(Context& context, const json& params) {
  OpenDocument& d = context.document(params);
  ByteRange range = context.byte_range(d, params.value("range", json::object()));
  const std::vector<Diagnostic>& diagnostics = context.diagnostics(d);
  json actions = json::array();
  for (const Diagnostic& diag : diagnostics) {
    if (diag.fixes.empty() || !overlaps(diag.range, range)) continue;
    json linked = diagnostics_json(context, d, {diag});
    for (const Fix& fix : diag.fixes) {
      json edits = json::array();
      for (const TextEdit& e : fix.edits) edits.push_back({{"range", context.range(d, e.range)}, {"newText", e.new_text}});
      actions.push_back({{"title", fix.title},
                         {"kind", "quickfix"},
                         {"isPreferred", fix.preferred},
                         {"diagnostics", linked},
                         {"edit", {{"changes", {{d.uri, edits}}}}}});
    }
  }
  return actions;
}

}  // namespace

CAKE_LSP_FEATURE({"textDocument/codeAction", code_action, [](const json&, json& caps) {
                    caps["codeActionProvider"] = {{"codeActionKinds", {"quickfix"}}};
                  }});

}  // namespace cake::lsp
