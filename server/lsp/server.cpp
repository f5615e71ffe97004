// The server core; see server.h. Features live in features/, one per file.
#include "server.h"

#include "feature.h"
#include "features/diagnostics.h"
#include "memory.h"

#include "cake/codegen/cache.h"
#include "cake/codegen/facts.h"

#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <condition_variable>
#include <deque>
#include <mutex>
#include <set>
#include <thread>
#include <unordered_map>

namespace cake::lsp {

std::vector<Feature>& features() {
  static std::vector<Feature> all;
  return all;
}

// Section - Context helpers shared by handlers

uint32_t Context::offset(OpenDocument& d, const json& position) const {
  if (!position.is_object() || !position.contains("line") || !position.contains("character") ||
      !position["line"].is_number_unsigned() || !position["character"].is_number_unsigned())
    throw RequestError{error_code::InvalidParams, "a Position needs unsigned `line` and `character`"};
  LspPosition p{position["line"].get<uint32_t>(), position["character"].get<uint32_t>()};
  return positions(d).offset(p);
}

json Context::position(OpenDocument& d, uint32_t offset) const {
  LspPosition p = positions(d).lsp_position(offset);
  return {{"line", p.line}, {"character", p.character}};
}

json Context::range(OpenDocument& d, ByteRange range) const {
  LspRange r = positions(d).lsp_range(range);
  return {{"start", {{"line", r.start.line}, {"character", r.start.character}}},
          {"end", {{"line", r.end.line}, {"character", r.end.character}}}};
}

ByteRange Context::byte_range(OpenDocument& d, const json& range) const {
  if (!range.is_object() || !range.contains("start") || !range.contains("end"))
    throw RequestError{error_code::InvalidParams, "a Range needs `start` and `end`"};
  uint32_t b = offset(d, range["start"]), e = offset(d, range["end"]);
  return {std::min(b, e), std::max(b, e)};
}

namespace {

enum class State { Uninitialized, Running, ShutDown };

// Deeper than any message of the protocol (client capabilities nest about
// ten levels) and far short of what recursion over a json value can take.
constexpr int kMaxNesting = 128;

// How long typing must pause before the compiler's facts of a document are
// looked for in the background (docs/lsp.md).
constexpr auto kCompilePause = std::chrono::milliseconds(500);

class Server final : public Context {
  /// A background compile's result (the compiler's facts of one version).
  struct CompileDone {
    std::string uri;
    int64_t version = 0;
    std::vector<Diagnostic> diagnostics;
    codegen::PtxLines ptx_lines;  // of the file's first target
    std::string ptx_target;
  };

 public:
  Server(MessageWriter& out, const ServerOptions& options) : out_(out), options_(options) {}

  int run(MessageReader& in) {
    std::thread reader([&] { read_loop(in); });
    int code = main_loop();
    compile_stop_ = true;  // a compile under way stops at its next kernel
    if (compile_worker_.joinable()) compile_worker_.join();
    // The reader ends at the end of the input. After `exit` with the input
    // still open (a client that keeps its pipe), the process ends without
    // it: at once, because a reader left running would wake on the closing
    // input and touch this server and the stream after they are destroyed
    // (an abort seen under load). Every answer is already written: writes
    // are synchronous.
    std::unique_lock lock(mutex_);
    bool ended = ready_.wait_for(lock, std::chrono::milliseconds(200), [&] { return input_ended_; });
    lock.unlock();
    if (!ended) {
      std::fflush(nullptr);
      std::_Exit(code);
    }
    reader.join();
    return code;
  }

  // Section - Context

  OpenDocument& document(const json& params) override {
    if (!params.is_object() || !params.contains("textDocument") || !params["textDocument"].is_object() ||
        !params["textDocument"].contains("uri") || !params["textDocument"]["uri"].is_string())
      throw RequestError{error_code::InvalidParams, "missing textDocument.uri"};
    auto it = documents_.find(params["textDocument"]["uri"].get<std::string>());
    if (it == documents_.end())
      throw RequestError{error_code::InvalidParams, "document not open: " + params["textDocument"]["uri"].get<std::string>()};
    return it->second;
  }
  const std::map<std::string, OpenDocument>& documents() const override { return documents_; }
  PositionEncoding encoding() const override { return encoding_; }
  const json& client_capabilities() const override { return client_; }
  const std::string& docs_root() const override { return options_.docs_root; }
  const AnalyzeOptions& analyze_options() const override { return analyze_options_; }
  bool cancelled() const override {
    std::lock_guard lock(mutex_);
    return current_id_ && cancelled_.count(current_id_->dump()) > 0;
  }

 private:
  // Section - Reading (its own thread)

  void read_loop(MessageReader& in) {
    for (;;) {
      MessageReader::Result r = in.next();
      if (r.status == MessageReader::Status::End) break;
      if (r.status != MessageReader::Status::Message) {
        int code = r.status == MessageReader::Status::TooLarge ? error_code::InvalidRequest : error_code::ParseError;
        send_error(nullptr, code, r.error);
        continue;
      }
      ParsedMessage parsed = parse_message(r.body, kMaxNesting);
      if (parsed.invalid) {
        send_error(nullptr, error_code::ParseError, "invalid JSON");
        continue;
      }
      json& message = parsed.value;
      if (parsed.too_deep) {
        json id = message.is_object() && message.contains("id") ? message["id"] : json();
        if (!id.is_string() && !id.is_number_integer()) id = nullptr;
        send_error(id, error_code::InvalidRequest,
                   "a message nested deeper than " + std::to_string(kMaxNesting) + " levels is refused");
        continue;
      }
      std::lock_guard lock(mutex_);
      if (message.is_object() && message.value("method", json()) == "$/cancelRequest" && message.contains("params") &&
          message["params"].is_object() && message["params"].contains("id")) {
        if (cancelled_.size() > 4096) cancelled_.clear();  // ids of requests long answered
        cancelled_.insert(message["params"]["id"].dump());
        continue;
      }
      queue_.push_back(std::move(message));
      ready_.notify_one();
    }
    std::lock_guard lock(mutex_);
    input_ended_ = true;
    ready_.notify_all();
  }

  bool message_waiting() const {
    std::lock_guard lock(mutex_);
    return !queue_.empty() || input_ended_;
  }

  // Section - The main loop

  int main_loop() {
    for (;;) {
      json message;
      {
        std::unique_lock lock(mutex_);
        if (compile_done_) {
          CompileDone done = std::move(*compile_done_);
          compile_done_.reset();
          lock.unlock();
          finish_compile(std::move(done));
          continue;
        }
        bool idle = queue_.empty() && !input_ended_;
        if (idle && has_background_work()) {
          lock.unlock();
          background_work();
          continue;
        }
        auto arrived = [&] { return !queue_.empty() || input_ended_ || compile_done_.has_value(); };
        // Every document's diagnostics are out: after a pause in typing,
        // the compiler's facts of one of them, on a worker thread.
        if (idle) {
          if (OpenDocument* d = compile_candidate()) {
            auto due = last_change_ + kCompilePause;
            if (std::chrono::steady_clock::now() >= due) {
              lock.unlock();
              start_compile(*d);
            } else {
              ready_.wait_until(lock, due, arrived);
            }
            continue;
          }
        }
        // After a quiet spell with nothing to do (200 ms), free pages go back
        // to the system; the allocator would keep them otherwise, and resident
        // memory would only grow over a long session of edits. Never on the
        // way from an edit to its diagnostics: it takes milliseconds.
        if (trim_due_ && !ready_.wait_for(lock, std::chrono::milliseconds(200), arrived)) {
          trim_due_ = false;
          lock.unlock();
          release_free_memory();
          continue;
        }
        ready_.wait(lock, arrived);
        if (compile_done_) continue;
        if (queue_.empty()) return 1;  // the client went away without `exit`
        message = std::move(queue_.front());
        queue_.pop_front();
      }
      if (auto code = handle(std::move(message))) return *code;
    }
  }

  // Section - The compiler's facts, in the background

  /// A document whose current version has no compile yet, once its
  /// diagnostics are out; null when none or one is compiling.
  OpenDocument* compile_candidate() {
    if (!compile_enabled_ || compiling_ || state_ != State::Running) return nullptr;
    for (auto& [uri, d] : documents_)
      if (d.compile_started != d.version && (pull_ || d.diagnostics_published)) return &d;
    return nullptr;
  }

  /// Lowers and compiles every kernel of `d`'s text for each of its targets
  /// on a worker thread (a copy of the text: edits go on meanwhile, and a
  /// result for an older version is dropped).
  void start_compile(OpenDocument& d) {
    d.compile_started = d.version;
    if (compile_worker_.joinable()) compile_worker_.join();
    compiling_ = true;
    compile_uri_ = d.uri;
    compile_stop_ = false;
    compile_worker_ = std::thread([this, uri = d.uri, version = d.version, text = d.doc->text(),
                                   options = analyze_options_, extra = compile_options_] {
      CompileDone done{uri, version, {}, {}, {}};
      try {
        std::unique_ptr<Analysis> a = analyze(text, options);
        std::vector<std::string> targets = file_targets(a->module, options);
        if (count(a->diagnostics).errors == 0 && !targets.empty() && codegen::available()) {
          done.ptx_target = targets.front();
          for (uint32_t k = 0; k < a->module.kernels.size() && !compile_stop_; ++k)
            for (const std::string& t : targets) {
              codegen::FactsResult r = codegen::compiler_facts(*a, k, t, extra, codegen::default_cache_dir());
              done.diagnostics.insert(done.diagnostics.end(), r.diagnostics.begin(), r.diagnostics.end());
              if (t == done.ptx_target) done.ptx_lines.insert(r.ptx_lines.begin(), r.ptx_lines.end());
            }
        }
      } catch (const std::exception&) {
        done.diagnostics.clear();
        done.ptx_lines.clear();
      }
      if (compile_stop_) done.version = -1;  // the text changed or the server ends: dropped
      std::lock_guard lock(mutex_);
      compile_done_ = std::move(done);
      ready_.notify_all();
    });
  }

  /// A compile of `uri` under way stops before its next kernel: the
  /// document changed, closed or opened again.
  void stop_compile_of(const std::string& uri) {
    if (compiling_ && uri == compile_uri_) compile_stop_ = true;
  }

  /// Keeps the facts when they are of the document's current version, and
  /// publishes them with its diagnostics (push mode, when there are any).
  void finish_compile(CompileDone done) {
    compiling_ = false;
    if (compile_worker_.joinable()) compile_worker_.join();
    auto it = documents_.find(done.uri);
    if (it == documents_.end() || it->second.version != done.version) return;
    OpenDocument& d = it->second;
    d.compiled = std::move(done.diagnostics);
    d.compiled_version = done.version;
    d.ptx_lines = std::move(done.ptx_lines);
    d.ptx_target = std::move(done.ptx_target);
    if (pull_ || d.compiled.empty()) return;
    const std::vector<Diagnostic>* diagnostics = d.doc->diagnostics([&] { return message_waiting(); });
    if (!diagnostics) {
      d.diagnostics_published = false;  // background_work publishes them, with the facts
      return;
    }
    notify("textDocument/publishDiagnostics",
           {{"uri", d.uri}, {"version", d.version}, {"diagnostics", diagnostics_json(*this, d, with_compiled(d, *diagnostics))}});
  }

  /// Handles one message; an exit code when it was `exit`.
  std::optional<int> handle(json message) {
    if (!message.is_object()) {
      send_error(nullptr, error_code::InvalidRequest, "a message is a JSON object");
      return std::nullopt;
    }
    json id = message.contains("id") ? message["id"] : json();
    bool is_request = message.contains("id");
    if (is_request && !id.is_string() && !id.is_number_integer()) {
      send_error(nullptr, error_code::InvalidRequest, "`id` must be an integer or a string");
      return std::nullopt;
    }
    if (!message.contains("method")) return std::nullopt;  // a response to us: we send no requests
    if (!message["method"].is_string()) {
      if (is_request) send_error(id, error_code::InvalidRequest, "`method` must be a string");
      return std::nullopt;
    }
    std::string method = message["method"].get<std::string>();
    // Moved out, not copied: a didOpen's params hold the whole text.
    json params = message.contains("params") ? std::move(message["params"]) : json::object();
    if (method == "exit") return state_ == State::ShutDown ? 0 : 1;
    if (trace_ != "off") log_trace("received " + std::string(is_request ? "request" : "notification") + " '" + method + "'");
    if (!is_request) {
      if (state_ == State::Running) notification(method, params);
      return std::nullopt;
    }
    request(id, method, params);
    return std::nullopt;
  }

  void request(const json& id, const std::string& method, const json& params) {
    if (method == "initialize") {
      if (state_ != State::Uninitialized) return send_error(id, error_code::InvalidRequest, "already initialized");
      return respond(id, initialize(params));
    }
    if (state_ == State::Uninitialized)
      return send_error(id, error_code::ServerNotInitialized, "the server is not initialized");
    if (state_ == State::ShutDown) return send_error(id, error_code::InvalidRequest, "the server is shut down");
    if (method == "shutdown") {
      state_ = State::ShutDown;
      return respond(id, nullptr);
    }
    auto it = handlers_.find(method);
    if (it == handlers_.end()) return send_error(id, error_code::MethodNotFound, "unknown method " + method);
    {
      std::lock_guard lock(mutex_);
      current_id_ = id;
      if (cancelled_.erase(id.dump())) {
        current_id_.reset();
        return send_error(id, error_code::RequestCancelled, "cancelled");
      }
    }
    try {
      json result = it->second(*this, params);
      if (cancelled()) send_error(id, error_code::RequestCancelled, "cancelled");
      else respond(id, std::move(result));
    } catch (const RequestError& e) {
      send_error(id, e.code, e.message);
    } catch (const json::exception& e) {
      send_error(id, error_code::InvalidParams, std::string("invalid params: ") + e.what());
    } catch (const std::exception& e) {
      send_error(id, error_code::InternalError, e.what());
      log(1, std::string("internal error in ") + method + ": " + e.what());
    }
    std::lock_guard lock(mutex_);
    cancelled_.erase(id.dump());
    current_id_.reset();
  }

  json initialize(const json& params) {
    client_ = params.is_object() && params.contains("capabilities") && params["capabilities"].is_object()
                  ? params["capabilities"] : json::object();
    if (params.is_object() && params.contains("trace") && params["trace"].is_string()) trace_ = params["trace"];
    // UTF-8 when the client offers it: no conversion at all.
    json encodings = client_.contains("general") && client_["general"].is_object()
                         ? client_["general"].value("positionEncodings", json::array()) : json::array();
    encoding_ = PositionEncoding::Utf16;
    if (encodings.is_array())
      for (const json& e : encodings)
        if (e == "utf-8") encoding_ = PositionEncoding::Utf8;
    pull_ = client_pulls_diagnostics(client_);
    if (params.is_object() && params.contains("initializationOptions")) set_settings(params["initializationOptions"]);

    json caps = {{"positionEncoding", encoding_ == PositionEncoding::Utf8 ? "utf-8" : "utf-16"},
                 {"textDocumentSync", {{"openClose", true}, {"change", 2}, {"save", false}}}};
    for (const Feature& f : features()) {
      handlers_[f.method] = f.handle;
      if (f.advertise) f.advertise(client_, caps);
    }
    // The compiler's facts join the diagnostics after typing pauses.
    caps["experimental"]["compilerFacts"] = compile_enabled_;
    state_ = State::Running;
    return {{"capabilities", caps}, {"serverInfo", {{"name", "cake-lsp"}, {"version", options_.version}}}};
  }

  // Section - Notifications

  void notification(const std::string& method, json& params) {
    try {
      if (method == "textDocument/didOpen") did_open(params);
      else if (method == "textDocument/didChange") did_change(params);
      else if (method == "textDocument/didClose") did_close(params);
      else if (method == "$/setTrace") trace_ = params.value("value", std::string("off"));
      else if (method == "workspace/didChangeConfiguration" && params.contains("settings") &&
               params["settings"].is_object() && params["settings"].contains("cake"))
        set_settings(params["settings"]["cake"]);
      // initialized, didSave, didChangeConfiguration, unknown `$/` and
      // other notifications need nothing.
    } catch (const RequestError& e) {
      log(1, method + ": " + e.message);
    } catch (const json::exception& e) {
      log(1, method + ": invalid params: " + e.what());
    }
  }

  /// `targets` and `device` of initializationOptions or of the `cake`
  /// settings: the targets assumed for files that name none, and the device
  /// whose table estimates and W07xx diagnostics use (AnalyzeOptions).
  void set_settings(const json& settings) {
    if (!settings.is_object()) return;
    // `compile`: look for the compiler's facts in the background (default
    // on where NVRTC is); `compileOptions`: extra NVRTC options for it.
    if (settings.contains("compile") && settings["compile"].is_boolean())
      compile_enabled_ = settings["compile"].get<bool>() && codegen::built_with_nvrtc();
    if (settings.contains("compileOptions") && settings["compileOptions"].is_array()) {
      compile_options_.clear();
      for (const json& o : settings["compileOptions"])
        if (o.is_string()) compile_options_.push_back(o.get<std::string>());
      for (auto& [uri, d] : documents_) d.compile_started = -1;
    }
    AnalyzeOptions next = analyze_options_;
    if (settings.contains("targets") && settings["targets"].is_array()) {
      next.default_targets.clear();
      for (const json& t : settings["targets"])
        if (t.is_string()) next.default_targets.push_back(t.get<std::string>());
    }
    if (settings.contains("device") && (settings["device"].is_string() || settings["device"].is_null())) {
      next.device = settings["device"].is_string() ? settings["device"].get<std::string>() : std::string();
      if (!next.device.empty() && !find_device(next.device))
        log(2, "cake.device: unknown device '" + next.device + "': each target's default device is used");
    }
    if (next.default_targets == analyze_options_.default_targets && next.device == analyze_options_.device) return;
    analyze_options_ = std::move(next);
    for (auto& [uri, d] : documents_) {
      d.doc->set_options(analyze_options_);
      d.diagnostics_published = false;
    }
  }

  void did_open(json& params) {
    json& td = params.at("textDocument");
    std::string uri = td.at("uri").get<std::string>();
    OpenDocument d;
    d.uri = uri;
    d.version = td.value("version", int64_t{0});
    d.doc = std::make_unique<Document>(std::move(td.at("text").get_ref<std::string&>()), analyze_options_);
    stop_compile_of(uri);
    documents_.insert_or_assign(uri, std::move(d));
    last_change_ = std::chrono::steady_clock::now();
  }

  void did_change(json& params) {
    OpenDocument& d = document(params);
    json& changes = params.at("contentChanges");
    if (!changes.is_array()) throw RequestError{error_code::InvalidParams, "contentChanges must be an array"};
    for (json& change : changes) {
      std::string text = std::move(change.at("text").get_ref<std::string&>());
      if (change.contains("range")) d.doc->apply({byte_range(d, change["range"]), std::move(text)});
      else d.doc->replace(std::move(text));
    }
    d.version = params.at("textDocument").value("version", d.version + 1);
    d.diagnostics_published = false;
    stop_compile_of(d.uri);
    last_change_ = std::chrono::steady_clock::now();
  }

  void did_close(const json& params) {
    std::string uri = params.at("textDocument").at("uri").get<std::string>();
    stop_compile_of(uri);
    if (documents_.erase(uri) && !pull_)
      notify("textDocument/publishDiagnostics", {{"uri", uri}, {"diagnostics", json::array()}});
  }

  // Section - Background work: push diagnostics

  bool has_background_work() const {
    if (pull_ || state_ != State::Running) return false;
    for (const auto& [uri, d] : documents_)
      if (!d.diagnostics_published) return true;
    return false;
  }

  void background_work() {
    for (auto& [uri, d] : documents_) {
      if (d.diagnostics_published) continue;
      const std::vector<Diagnostic>* diagnostics = d.doc->diagnostics([&] { return message_waiting(); });
      if (!diagnostics) return;  // a newer message first; the work resumes after it
      notify("textDocument/publishDiagnostics",
             {{"uri", uri}, {"version", d.version}, {"diagnostics", diagnostics_json(*this, d, with_compiled(d, *diagnostics))}});
      d.diagnostics_published = true;
      trim_due_ = true;
      if (message_waiting()) return;
    }
  }

  // Section - Output

  void respond(const json& id, json result) { out_.send({{"jsonrpc", "2.0"}, {"id", id}, {"result", std::move(result)}}); }

  void send_error(const json& id, int code, const std::string& message) {
    out_.send({{"jsonrpc", "2.0"}, {"id", id}, {"error", {{"code", code}, {"message", message}}}});
  }

  void notify(const std::string& method, json params) {
    out_.send({{"jsonrpc", "2.0"}, {"method", method}, {"params", std::move(params)}});
  }

  /// window/logMessage; type 1 error .. 4 log.
  void log(int type, const std::string& message) { notify("window/logMessage", {{"type", type}, {"message", message}}); }

  void log_trace(const std::string& message) { notify("$/logTrace", {{"message", message}}); }

  MessageWriter& out_;
  ServerOptions options_;
  State state_ = State::Uninitialized;
  json client_ = json::object();
  PositionEncoding encoding_ = PositionEncoding::Utf16;
  bool pull_ = false;
  bool trim_due_ = false;  // diagnostics were published since the last trim
  std::string trace_ = "off";
  AnalyzeOptions analyze_options_;
  std::map<std::string, OpenDocument> documents_;
  std::unordered_map<std::string, RequestHandler> handlers_;
  bool compile_enabled_ = codegen::built_with_nvrtc();  // NVRTC is loaded by the first compile
  std::vector<std::string> compile_options_;
  std::chrono::steady_clock::time_point last_change_{};
  bool compiling_ = false;
  std::string compile_uri_;  // the document being compiled
  // Set when that document changes or closes, or the server ends: the
  // compile stops before its next kernel.
  std::atomic<bool> compile_stop_{false};
  std::thread compile_worker_;

  mutable std::mutex mutex_;  // guards the fields below, shared with the reader
  std::condition_variable ready_;
  std::deque<json> queue_;
  bool input_ended_ = false;
  std::set<std::string> cancelled_;  // ids (as JSON text) of cancelled requests
  std::optional<json> current_id_;
  std::optional<CompileDone> compile_done_;  // a background compile's result, for the main thread
};

}  // namespace

int serve(MessageReader& in, MessageWriter& out, const ServerOptions& options) {
  tune_allocator();
  Server server(out, options);
  return server.run(in);
}

}  // namespace cake::lsp
