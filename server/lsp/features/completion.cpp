// textDocument/completion: the candidates of cake::completions_at
// (cake/query_completion.h) as CompletionItems; snippets use
// insertTextFormat 2.
#include "cake/query_completion.h"
#include "feature.h"
#include "render/render.h"

namespace cake::lsp {
namespace {

/// LSP CompletionItemKind values.
int item_kind(const CompletionCandidate& c) {
  switch (c.kind) {
    case CompletionCandidate::Kind::Keyword: return 14;
    case CompletionCandidate::Kind::Op: return 3;         // Function
    case CompletionCandidate::Kind::Function: return 3;
    case CompletionCandidate::Kind::Type: return 25;      // TypeParameter
    case CompletionCandidate::Kind::Dim: return 21;       // Constant
    case CompletionCandidate::Kind::Snippet: return 15;
    case CompletionCandidate::Kind::Name:
      switch (c.symbol_kind) {
        case SymbolKind::Kernel:
        case SymbolKind::Dispatch: return 3;
        case SymbolKind::Const: return 21;
        case SymbolKind::Role: return 7;  // Class
        default: return 6;                // Variable
      }
  }
  return 1;
}

json completion(Context& context, const json& params) {
  OpenDocument& d = context.document(params);
  uint32_t offset = context.offset(d, params.value("position", json::object()));
  json items = json::array();
  for (const CompletionCandidate& c : completions_at(d.doc->model_at(offset), d.doc->text(), offset)) {
    json item = {{"label", c.label}, {"kind", item_kind(c)}, {"detail", render::completion_detail(c)}};
    if (c.kind == CompletionCandidate::Kind::Snippet) {
      item["insertText"] = c.insert_text;
      item["insertTextFormat"] = 2;
    }
    items.push_back(std::move(item));
  }
  return {{"isIncomplete", false}, {"items", std::move(items)}};
}

}  // namespace

CAKE_LSP_FEATURE({"textDocument/completion", completion, [](const json&, json& caps) {
                    caps["completionProvider"] = {{"triggerCharacters", {"[", "."}}, {"resolveProvider", false}};
                  }});

}  // namespace cake::lsp
