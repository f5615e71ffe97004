// walk_statements(): a pre-order walk over statement bodies without
// recursion (bodies nest as deep as the input does). Shared by the checks,
// the kernel facts and anyone else that visits a kernel's statements.
#pragma once

#include "cake/model.h"

#include <vector>

namespace cake {

/// Calls `visit(id)` on every statement under `roots` in text order
/// (pre-order), with an explicit stack: bodies can nest deeply.
template <typename Visit>
void walk_statements(const Module& m, const std::vector<StmtId>& roots, std::vector<StmtId>& stack, Visit&& visit) {
  stack.clear();
  for (auto it = roots.rbegin(); it != roots.rend(); ++it) stack.push_back(*it);
  auto push_all = [&](const std::vector<StmtId>& body) {
    for (auto it = body.rbegin(); it != body.rend(); ++it) stack.push_back(*it);
  };
  while (!stack.empty()) {
    StmtId id = stack.back();
    stack.pop_back();
    if (id >= m.stmts.size()) continue;
    visit(id);
    const Stmt& s = m.stmts[id];
    if (const auto* e = std::get_if<ElectStmt>(&s.node))
      push_all(e->body);
    else if (const auto* f = std::get_if<ForStmt>(&s.node))
      push_all(f->body);
    else if (const auto* p = std::get_if<PipelineStmt>(&s.node))
      push_all(p->body);
    else if (const auto* r = std::get_if<RoleStmt>(&s.node))
      push_all(r->body);
    else if (const auto* c = std::get_if<IfStmt>(&s.node)) {
      push_all(c->else_body);
      push_all(c->then_body);
    }
  }
}

}  // namespace cake
