// textDocument/formatting: the canonical format (cake/format.h) as one edit
// over the lines that change. A file with syntax errors gets no edits.
#include "feature.h"

#include "cake/format.h"

namespace cake::lsp {
namespace {

json format(Context& context, const json& params) {
  OpenDocument& d = context.document(params);
  const std::string& text = d.doc->text();
  std::optional<std::string> formatted = format_source(d.doc->tree(), text);
  if (!formatted || *formatted == text) return json::array();
  // Only the differing middle, so the editor keeps marks and the cursor.
  size_t prefix = 0, limit = std::min(text.size(), formatted->size());
  while (prefix < limit && text[prefix] == (*formatted)[prefix]) ++prefix;
  while (prefix > 0 && text[prefix - 1] != '\n') --prefix;  // whole lines
  size_t suffix = 0;
  while (suffix < limit - prefix && text[text.size() - 1 - suffix] == (*formatted)[formatted->size() - 1 - suffix]) ++suffix;
  ByteRange replaced{static_cast<uint32_t>(prefix), static_cast<uint32_t>(text.size() - suffix)};
  return json::array({{{"range", context.range(d, replaced)},
                       {"newText", formatted->substr(prefix, formatted->size() - suffix - prefix)}}});
}

}  // namespace

CAKE_LSP_FEATURE({"textDocument/formatting", format,
                  [](const json&, json& caps) { caps["documentFormattingProvider"] = true; }});

}  // namespace cake::lsp
