// cake/rulePage, the one request outside LSP 3.17: params {code}, answer
// {code, markdown, uri} with the rule's page as built into the server
// (rule_pages.h) and its file:// link, or `uri` null when no docs are on
// disk (a server copied without them). Clients that cannot open the link
// show the markdown instead (the VS Code extension's "Open Rule
// Documentation"). Advertised as capabilities.experimental.rulePage.
#include "diagnostic_json.h"
#include "feature.h"
#include "rule_pages.h"

#include <llvm/Support/FileSystem.h>

namespace cake::lsp {
namespace {

json rule_page_request(Context& context, const json& params) {
  if (!params.is_object() || !params.contains("code") || !params["code"].is_string())
    throw RequestError{error_code::InvalidParams, "cake/rulePage needs a `code` string"};
  std::string code = params["code"].get<std::string>();
  std::string_view page = rule_page(code);
  if (page.empty()) throw RequestError{error_code::InvalidParams, "no rule " + code};
  std::string path = context.docs_root().empty() ? std::string() : context.docs_root() + "/rules/" + code + ".md";
  json uri = !path.empty() && llvm::sys::fs::exists(path) ? json(rule_docs_uri(context.docs_root(), code)) : json();
  return {{"code", code}, {"markdown", std::string(page)}, {"uri", uri}};
}

}  // namespace

CAKE_LSP_FEATURE({"cake/rulePage", rule_page_request,
                  [](const json&, json& caps) { caps["experimental"]["rulePage"] = true; }});

}  // namespace cake::lsp
