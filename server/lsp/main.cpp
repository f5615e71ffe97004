// cake-lsp: the CAKE IR language server over stdio (default) or TCP.
//   cake-lsp [--stdio] | --listen [HOST:]PORT   (HOST defaults to 127.0.0.1)
#include "cake_version.h"
#include "docs_root.h"
#include "server.h"

#include <boost/asio.hpp>

#include <cstdio>
#include <iostream>
#include <string>
#include <unistd.h>

namespace {

namespace asio = boost::asio;

constexpr const char* kUsage = R"(usage: cake-lsp [--stdio | --listen [HOST:]PORT] [--version]

The CAKE IR language server (LSP 3.17, JSON-RPC with Content-Length framing).
  --stdio               talk over stdin/stdout (the default)
  --listen [HOST:]PORT  accept one client on TCP; HOST defaults to 127.0.0.1
                        (loopback: name another address to expose it)
  --version             print the version
See docs/lsp.md.
)";

template <typename Stream>
int serve_stream(Stream& in_stream, Stream& out_stream) {
  cake::lsp::MessageReader reader([&](char* buffer, size_t size) -> size_t {
    boost::system::error_code ec;
    size_t n = in_stream.read_some(asio::buffer(buffer, size), ec);
    return ec ? 0 : n;
  }, cake::lsp::ServerOptions{}.max_message_bytes);
  cake::lsp::MessageWriter writer([&](std::string_view bytes) { asio::write(out_stream, asio::buffer(bytes.data(), bytes.size())); });
  cake::lsp::ServerOptions options;
  options.version = cake::kVersion;
  options.docs_root = cake::find_docs_root(nullptr, CAKE_SOURCE_DIR);
  return cake::lsp::serve(reader, writer, options);
}

}  // namespace

int main(int argc, char** argv) {
  std::string listen;
  for (int i = 1; i < argc; ++i) {
    std::string a = argv[i];
    if (a == "--stdio") continue;
    if (a == "--version") {
      std::cout << "cake-lsp " << cake::kVersion << "\n";
      return 0;
    }
    if (a == "--help" || a == "-h") {
      std::cout << kUsage;
      return 0;
    }
    if (a == "--listen" && i + 1 < argc) {
      listen = argv[++i];
      continue;
    }
    std::cerr << "cake-lsp: unknown argument `" << a << "`\n" << kUsage;
    return 2;
  }
  try {
    asio::io_context io;
    if (listen.empty()) {
      asio::posix::stream_descriptor in(io, ::dup(STDIN_FILENO)), out(io, ::dup(STDOUT_FILENO));
      return serve_stream(in, out);
    }
    std::string host = "127.0.0.1", port = listen;
    if (size_t colon = listen.rfind(':'); colon != std::string::npos) {
      host = listen.substr(0, colon);
      port = listen.substr(colon + 1);
    }
    asio::ip::tcp::resolver resolver(io);
    asio::ip::tcp::endpoint endpoint = *resolver.resolve(host, port).begin();
    asio::ip::tcp::acceptor acceptor(io, endpoint);
    std::cerr << "cake-lsp: listening on " << acceptor.local_endpoint() << "\n";
    asio::ip::tcp::socket socket(io);
    acceptor.accept(socket);
    return serve_stream(socket, socket);
  } catch (const std::exception& e) {
    std::cerr << "cake-lsp: " << e.what() << "\n";
    return 2;
  }
}
