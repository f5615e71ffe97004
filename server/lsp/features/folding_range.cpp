// textDocument/foldingRange: the folding ranges of cake/query.h, in lines.
#include "cake/query.h"
#include "feature.h"

namespace cake::lsp {
namespace {

json folding_range(Context& context, const json& params) {
  OpenDocument& document = context.document(params);
  json out = json::array();
  for (const FoldingRange& r : folding_ranges(document.doc->tree(), document.doc->text(), document.doc->lines())) {
    json range = {{"startLine", r.start_line}, {"endLine", r.end_line}};
    if (r.kind == FoldingRange::Kind::Comment) range["kind"] = "comment";
    out.push_back(std::move(range));
  }
  return out;
}

}  // namespace

CAKE_LSP_FEATURE({"textDocument/foldingRange", folding_range,
                  [](const json&, json& caps) { caps["foldingRangeProvider"] = true; }});

}  // namespace cake::lsp
