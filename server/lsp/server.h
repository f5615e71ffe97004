// The language server: lifecycle, dispatch, documents and scheduling. The
// reader thread frames and parses messages and records cancellations; the
// calling thread handles messages in order and, when none waits, brings
// diagnostics up to date (a newer message interrupts that work, which resumes
// after it, so an edit cancels analysis of the version it replaces).
#pragma once

#include "transport.h"

#include <string>

namespace cake::lsp {

struct ServerOptions {
  std::string version = "0";
  std::string docs_root;               // rule pages; may be empty
  size_t max_message_bytes = 32u << 20;  // larger messages are refused
};

/// Serves one client until `exit` or the end of the input. Returns the
/// process exit code: 0 after shutdown + exit, 1 otherwise (LSP 3.17).
int serve(MessageReader& in, MessageWriter& out, const ServerOptions& options);

}  // namespace cake::lsp
