// The CAKE IR extension: starts cake-lsp (docs/lsp.md) over stdio with
// vscode-languageclient and adds commands, a status bar item and settings.
// Colouring comes from syntaxes/cake.tmLanguage.json at once and from the
// server's semantic tokens (package.json semanticTokenScopes) on top.
import * as vscode from "vscode";
import {
  CloseAction,
  ErrorAction,
  LanguageClient,
  LanguageClientOptions,
  RevealOutputChannelOn,
  ServerOptions,
  State,
  TransportKind,
} from "vscode-languageclient/node";
import { resolveServer, settingsEditorFor } from "./serverPath";
import {
  LOWERED_REQUEST,
  LOWERED_SCHEME,
  LoweredResult,
  RULE_PAGE_REQUEST,
  RULE_SCHEME,
  codeOfRulePagePath,
  loweredPath,
  loweredText,
  parseLoweredPath,
  diagnosticCode,
  isRuleCode,
  rulePagePath,
  serverInfoLine,
} from "./serverInfo";

let client: LanguageClient | undefined;
let outputChannel: vscode.OutputChannel;
let traceChannel: vscode.OutputChannel;
let statusItem: vscode.StatusBarItem;
let serverCommand: string | undefined;

function workspacePaths(): string[] {
  return (vscode.workspace.workspaceFolders ?? []).filter((f) => f.uri.scheme === "file").map((f) => f.uri.fsPath);
}

function targets(): string[] {
  return vscode.workspace.getConfiguration("cake").get<string[]>("targets", []);
}

function setStatus(text: string, tooltip: string, error = false): void {
  statusItem.text = text;
  statusItem.tooltip = tooltip;
  statusItem.backgroundColor = error ? new vscode.ThemeColor("statusBarItem.errorBackground") : undefined;
}

/** The settings editor on `cake.server.path`, on the tab that shows it (settingsEditorFor). */
async function openServerPathSetting(): Promise<void> {
  const [command, arg] = settingsEditorFor("cake.server.path", vscode.env.remoteName);
  try {
    await vscode.commands.executeCommand(command, arg);
  } catch {
    await vscode.commands.executeCommand("workbench.action.openSettings", "cake.server.path");
  }
}

async function startClient(context: vscode.ExtensionContext): Promise<void> {
  const config = vscode.workspace.getConfiguration("cake");
  const resolution = resolveServer(config.get<string>("server.path", ""), workspacePaths());
  serverCommand = resolution.command;
  if (!serverCommand) {
    setStatus("$(error) cake-lsp", `cake-lsp not found (${resolution.how}). Set cake.server.path or run cmake --install.`, true);
    outputChannel.appendLine(`cake-lsp not found: ${resolution.how}`);
    void vscode.window
      .showErrorMessage(`CAKE IR: cake-lsp not found (${resolution.how}).`, "Open Settings")
      .then((choice) => {
        if (choice === "Open Settings") {
          void openServerPathSetting();
        }
      });
    return;
  }
  const args = config.get<string[]>("server.args", []);
  outputChannel.appendLine(`starting ${serverCommand} ${args.join(" ")} (found via ${resolution.how})`);

  const serverOptions: ServerOptions = {
    run: { command: serverCommand, args, transport: TransportKind.stdio },
    debug: { command: serverCommand, args, transport: TransportKind.stdio },
  };
  const clientOptions: LanguageClientOptions = {
    documentSelector: [
      { scheme: "file", language: "cake" },
      { scheme: "untitled", language: "cake" },
    ],
    outputChannel,
    traceOutputChannel: traceChannel,
    revealOutputChannelOn: RevealOutputChannelOn.Never,
    initializationOptions: {
      targets: targets(),
      device: vscode.workspace.getConfiguration("cake").get<string>("device", ""),
      compile: vscode.workspace.getConfiguration("cake").get<boolean>("compile", true),
    },
    synchronize: { configurationSection: "cake" },
    errorHandler: {
      error: () => ({ action: ErrorAction.Continue }),
      closed: () => {
        setStatus("$(error) cake-lsp", "cake-lsp stopped unexpectedly; use 'CAKE IR: Restart Language Server'.", true);
        return { action: CloseAction.DoNotRestart };
      },
    },
  };
  client = new LanguageClient("cake", "CAKE IR Language Server", serverOptions, clientOptions);
  client.onDidChangeState((e) => {
    switch (e.newState) {
      case State.Starting:
        setStatus("$(sync~spin) cake-lsp", `cake-lsp starting: ${serverCommand}`);
        break;
      case State.Running:
        setStatus("$(check) cake-lsp", `cake-lsp running: ${serverCommand}\nTargets: ${targets().join(", ") || "(from the files)"}\nClick to show the output.`);
        break;
      case State.Stopped:
        setStatus("$(circle-slash) cake-lsp", "cake-lsp stopped; click to show the output.");
        break;
    }
  });
  try {
    await client.start();
    // Which server answered, and its version (initialize's serverInfo).
    const info = client.initializeResult?.serverInfo;
    outputChannel.appendLine(serverInfoLine(info, serverCommand));
    if (info?.version) {
      statusItem.tooltip = `${info.name} ${info.version}: ${serverCommand}\nTargets: ${targets().join(", ") || "(from the files)"}\nClick to show the output.`;
    }
  } catch (err) {
    setStatus("$(error) cake-lsp", `cake-lsp failed to start: ${String(err)}`, true);
    outputChannel.appendLine(`cake-lsp failed to start: ${String(err)}`);
  }
  void context;
}

async function stopClient(): Promise<void> {
  const c = client;
  client = undefined;
  if (c) {
    try {
      await c.stop(2000);
    } catch {
      // already dead: nothing to stop
    }
  }
}

/** Whether a file: URI names a file that exists. */
async function fileExists(uri: vscode.Uri): Promise<boolean> {
  try {
    await vscode.workspace.fs.stat(uri);
    return true;
  } catch {
    return false;
  }
}

/**
 * Shows the page of rule `code`: the file its diagnostic links to
 * (codeDescription.href) when it exists, rendered; else the page the server
 * has built in (cake/rulePage), as a read-only cake-rule: document: a
 * server installed without its docs still explains its rules.
 */
async function showRulePage(code: string, link?: vscode.Uri): Promise<void> {
  if (link && link.scheme !== "file") {
    await vscode.env.openExternal(link);
    return;
  }
  const page = link && (await fileExists(link)) ? link : vscode.Uri.from({ scheme: RULE_SCHEME, path: rulePagePath(code) });
  await vscode.commands.executeCommand("markdown.showPreview", page);
}

/** The rule page of a diagnostic under the cursor, or picked from the file's; or of a code or link given. */
async function openRuleDocs(arg?: unknown): Promise<void> {
  if (typeof arg === "string" && arg !== "") {
    if (isRuleCode(arg)) {
      await showRulePage(arg);
    } else {
      const link = vscode.Uri.parse(arg);
      await showRulePage(codeOfRulePagePath(link.path.split("/").pop() ?? ""), link);
    }
    return;
  }
  const editor = vscode.window.activeTextEditor;
  if (!editor) {
    void vscode.window.showInformationMessage("CAKE IR: no active editor.");
    return;
  }
  const all = vscode.languages.getDiagnostics(editor.document.uri).filter((d) => isRuleCode(diagnosticCode(d.code)));
  if (all.length === 0) {
    void vscode.window.showInformationMessage("CAKE IR: this file has no diagnostics with a rule page.");
    return;
  }
  const at = all.filter((d) => d.range.contains(editor.selection.active));
  let chosen = at.length === 1 ? at[0] : undefined;
  if (!chosen) {
    const picks = (at.length > 0 ? at : all).map((d) => ({
      label: diagnosticCode(d.code) ?? "",
      description: `line ${d.range.start.line + 1}`,
      detail: d.message,
      diagnostic: d,
    }));
    chosen = (await vscode.window.showQuickPick(picks, { placeHolder: "Open the rule page of which diagnostic?" }))?.diagnostic;
  }
  if (!chosen) {
    return;
  }
  const code = chosen.code;
  const link = typeof code === "object" && code !== null && "target" in code ? code.target : undefined;
  await showRulePage(diagnosticCode(code) ?? "", link);
}

/** cake-rule:/CAKE-E0402.md: the rule's page as the running server has it built in. */
const rulePages: vscode.TextDocumentContentProvider = {
  async provideTextDocumentContent(uri: vscode.Uri): Promise<string> {
    const code = codeOfRulePagePath(uri.path);
    if (!client) {
      return `# ${code}\n\ncake-lsp is not running: start it to see this page.`;
    }
    try {
      const page = await client.sendRequest<{ markdown: string }>(RULE_PAGE_REQUEST, { code });
      return page.markdown;
    } catch (err) {
      return `# ${code}\n\ncake-lsp has no page for it: ${String(err)}`;
    }
  },
};

/**
 * cake-lowered:/KERNEL.TARGET.cu?SOURCE_URI: the CUDA that cake/lowered gives
 * for a kernel of a .cake document, read-only; it follows the document's
 * edits (asked again 300 ms after the last one).
 */
const loweredChanged = new vscode.EventEmitter<vscode.Uri>();
const loweredViews = new Map<string, vscode.Uri>();
const loweredProvider: vscode.TextDocumentContentProvider = {
  onDidChange: loweredChanged.event,
  async provideTextDocumentContent(uri: vscode.Uri): Promise<string> {
    const which = parseLoweredPath(uri.path);
    if (!which) {
      return "// not a lowered-CUDA view\n";
    }
    loweredViews.set(uri.toString(), uri);
    if (!client) {
      return "// cake-lsp is not running: start it to see the lowered CUDA.\n";
    }
    try {
      const r = await client.sendRequest<LoweredResult>(LOWERED_REQUEST, {
        textDocument: { uri: uri.query },
        kernel: which.kernel,
        target: which.target,
      });
      return loweredText(r);
    } catch (err) {
      return `// cake-lsp could not lower ${which.kernel}: ${String(err)}\n`;
    }
  },
};

let loweredTimer: NodeJS.Timeout | undefined;
function refreshLoweredViews(source: vscode.Uri): void {
  if (loweredTimer) {
    clearTimeout(loweredTimer);
  }
  loweredTimer = setTimeout(() => {
    for (const view of loweredViews.values()) {
      if (view.query === source.toString()) {
        loweredChanged.fire(view);
      }
    }
  }, 300);
}

/** "Show Lowered CUDA": the CUDA of the kernel under the cursor, beside the editor. */
async function showLowered(): Promise<void> {
  const editor = vscode.window.activeTextEditor;
  if (!editor || editor.document.languageId !== "cake") {
    void vscode.window.showInformationMessage("CAKE IR: open a .cake file and put the cursor in a kernel.");
    return;
  }
  if (!client) {
    void vscode.window.showInformationMessage("CAKE IR: cake-lsp is not running.");
    return;
  }
  let r: LoweredResult;
  try {
    r = await client.sendRequest<LoweredResult>(LOWERED_REQUEST, {
      textDocument: { uri: editor.document.uri.toString() },
      position: client.code2ProtocolConverter.asPosition(editor.selection.active),
    });
  } catch (err) {
    void vscode.window.showInformationMessage(`CAKE IR: ${String(err)}`);
    return;
  }
  const uri = vscode.Uri.from({ scheme: LOWERED_SCHEME, path: loweredPath(r.kernel, r.target), query: editor.document.uri.toString() });
  const doc = await vscode.workspace.openTextDocument(uri);
  try {
    await vscode.languages.setTextDocumentLanguage(doc, "cuda-cpp");
  } catch {
    // No CUDA language in this VS Code: plain text.
  }
  await vscode.window.showTextDocument(doc, { viewColumn: vscode.ViewColumn.Beside, preview: true, preserveFocus: true });
}

export async function activate(context: vscode.ExtensionContext): Promise<void> {
  outputChannel = vscode.window.createOutputChannel("CAKE IR Language Server");
  traceChannel = vscode.window.createOutputChannel("CAKE IR Language Server Trace");
  statusItem = vscode.window.createStatusBarItem(vscode.StatusBarAlignment.Left, 0);
  statusItem.name = "CAKE IR Language Server";
  statusItem.command = "cake.showOutput";
  setStatus("$(sync~spin) cake-lsp", "cake-lsp starting");
  statusItem.show();
  context.subscriptions.push(outputChannel, traceChannel, statusItem);

  context.subscriptions.push(
    vscode.commands.registerCommand("cake.restartServer", async () => {
      await stopClient();
      await startClient(context);
    }),
    vscode.commands.registerCommand("cake.showOutput", () => outputChannel.show(true)),
    vscode.commands.registerCommand("cake.openRuleDocs", openRuleDocs),
    vscode.workspace.registerTextDocumentContentProvider(RULE_SCHEME, rulePages),
    vscode.commands.registerCommand("cake.showLowered", showLowered),
    vscode.workspace.registerTextDocumentContentProvider(LOWERED_SCHEME, loweredProvider),
    vscode.workspace.onDidChangeTextDocument((e) => {
      if (e.document.languageId === "cake") {
        refreshLoweredViews(e.document.uri);
      }
    }),
    vscode.workspace.onDidCloseTextDocument((d) => {
      if (d.uri.scheme === LOWERED_SCHEME) {
        loweredViews.delete(d.uri.toString());
      }
    }),
    vscode.workspace.onDidChangeConfiguration(async (e) => {
      if (e.affectsConfiguration("cake.server.path") || e.affectsConfiguration("cake.server.args")) {
        const choice = await vscode.window.showInformationMessage("CAKE IR: the server settings changed.", "Restart Server");
        if (choice === "Restart Server") {
          await vscode.commands.executeCommand("cake.restartServer");
        }
      }
    }),
  );
  await startClient(context);
}

export async function deactivate(): Promise<void> {
  await stopClient();
}
