// textDocument/signatureHelp: the form of the op being written
// (cake::signature_at), with its operands as parameter label offsets.
#include "cake/query_completion.h"
#include "feature.h"

namespace cake::lsp {
namespace {

json signature_help(Context& context, const json& params) {
  OpenDocument& d = context.document(params);
  uint32_t offset = context.offset(d, params.value("position", json::object()));
  std::optional<SignatureInfo> sig = signature_at(d.doc->text(), offset);
  if (!sig) return nullptr;
  json parameters = json::array();
  for (auto [b, e] : sig->parameters) parameters.push_back({{"label", {b, e}}});
  json signature = {{"label", sig->label}, {"documentation", sig->documentation}, {"parameters", parameters}};
  return {{"signatures", {signature}}, {"activeSignature", 0}, {"activeParameter", sig->active}};
}

}  // namespace

CAKE_LSP_FEATURE({"textDocument/signatureHelp", signature_help, [](const json&, json& caps) {
                    caps["signatureHelpProvider"] = {{"triggerCharacters", {" ", ","}},
                                                     {"retriggerCharacters", {"<", "@"}}};
                  }});

}  // namespace cake::lsp
